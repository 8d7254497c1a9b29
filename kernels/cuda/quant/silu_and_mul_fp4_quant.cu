// silu_and_mul_fp4_quant CUDA kernel (vLLM's one-input
// silu_and_mul_nvfp4_quant): DEFINED (as the CPU's) as silu_and_mul into
// bf16, then the fp4 quantizer; fused here: each lane computes
// silu(x[t,j]) * x[t,I+j] in f32 (the silu_and_mul expression), rounds it
// through bf16 - the definition's store/load boundary, kept exactly - and
// quantizes it (fp4_quant.cuh). The CPU's bytes on cuda-emu (exp: the host
// libm there, the double exp rounded once on a device).
// Validated upstream: gate_up [M,2I] f32/bf16 contiguous, gate half first;
// I % 16 == 0.
#include "cuda/quant/fp4_quant.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SiluAndMulBf16 {
  DevPtr x;
  int64_t i = 0;  // the activation's width: x's rows hold 2i
  __device__ float operator()(int64_t row, int64_t col) const {
    const int64_t base = row * 2 * i;
    return RoundThrough(DType::kBF16, SiluF(Load(x, base + col)) * Load(x, base + i + col));
  }
};

void SiluAndMulFp4QuantCuda(const ExecContext&, const Tensor& out_packed, const Tensor& out_scale,
                            const Tensor& gate_up, float gsi, Fp4ScaleLayout layout) {
  const int64_t i = gate_up.shape[1] / 2;
  fp4::LaunchFp4Quant("silu_and_mul_fp4_quant", out_packed, out_scale, gate_up.shape[0], i, gsi, layout,
                      SiluAndMulBf16{Dev(gate_up), i});
}

}  // namespace

void Register_silu_and_mul_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantFn>("silu_and_mul_fp4_quant", VT_CUDA_BACKEND, &SiluAndMulFp4QuantCuda);
}

}  // namespace vt::VT_CUDA_NS
