// matmul_nvfp4_fp4 after vLLM's NVFP4 emulation (run_nvfp4_emulations /
// dequantize_to_dtype + torch.matmul, as test_nvfp4_scaled_mm.py's
// get_ref_results): unpack the e2m1 nibbles (element 2j low, 2j+1 high),
// times each group of 16's e4m3 block scale (linear [rows, K/16]), then
// alpha * a @ b.T.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {
namespace local_matmul_nvfp4_fp4 {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

at::Tensor Dequantize(const Input& in, const std::string& packed, const std::string& scale) {
  const at::Tensor bytes = View(in.Get(packed)).to(at::kLong);
  const int64_t rows = bytes.size(0), k = 2 * bytes.size(1);
  const at::Tensor nibbles = at::stack({bytes.bitwise_and(15), bytes.div(16, "floor")}, -1).view({rows, k});
  const at::Tensor s = Load(in, scale).repeat_interleave(16, 1);
  return DecodeE2M1(nibbles) * s;
}

}  // namespace
}  // namespace local_matmul_nvfp4_fp4

Result Ref_matmul_nvfp4_fp4(const Input& in) {
  using namespace local_matmul_nvfp4_fp4;
  const at::Tensor a = Dequantize(in, "a_packed", "a_scale"), b = Dequantize(in, "b_packed", "b_scale");
  return {{"out", Out(in.F32("alpha") * at::matmul(a, b.t()))}};
}

}  // namespace vt::torchref
