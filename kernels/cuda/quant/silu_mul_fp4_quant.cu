// silu_mul_fp4_quant CUDA kernel: DEFINED (as the CPU's) as moe_silu_mul into
// bf16, then the fp4 quantizer; fused here: each lane computes
// silu(gate) * up in f32 (the moe_silu_mul expression, SiluF), rounds it
// through bf16 - the store/load boundary of the definition, kept exactly -
// and quantizes it (fp4_quant.cuh). The CPU's bytes on cuda-emu (exp: the
// host libm there, the double exp rounded once on a device).
// Validated upstream: gate, up [M,I] one float dtype, contiguous; I % 16 == 0.
#include "cuda/quant/fp4_quant.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SiluMulBf16 {
  DevPtr gate, up;
  int64_t k = 0;
  __device__ float operator()(int64_t row, int64_t col) const {
    const int64_t e = row * k + col;
    return RoundThrough(DType::kBF16, SiluF(Load(gate, e)) * Load(up, e));
  }
};

void SiluMulFp4QuantCuda(const ExecContext&, const Tensor& out_packed, const Tensor& out_scale, const Tensor& gate,
                         const Tensor& up, float gsi, Fp4ScaleLayout layout) {
  const int64_t k = gate.shape[1];
  fp4::LaunchFp4Quant("silu_mul_fp4_quant", out_packed, out_scale, gate.shape[0], k, gsi, layout,
                      SiluMulBf16{Dev(gate), Dev(up), k});
}

}  // namespace

void Register_silu_mul_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantBinaryFn>("silu_mul_fp4_quant", VT_CUDA_BACKEND, &SiluMulFp4QuantCuda);
}

}  // namespace vt::VT_CUDA_NS
