// matmul_nvfp4_fp4 CUDA kernel (W4A4: vLLM cutlass_scaled_fp4_mm / the NVFP4
// emulation): out[m,n] = alpha * sum_k A[m,k] * B[n,k], A = e2m1(a) *
// e4m3(a_scale), B likewise. The tiled GEMM engine (cuda/gemm/gemm_tile.cuh)
// with operands decoded while a panel is staged in shared memory: each
// decoded value is the CPU's f32 product e2m1 * e4m3 (exact), the dot
// product the engine's sequential f32 mul-then-add over k, alpha times the
// f32 sum, one rounding at the store - the CPU's order, so the CPU's bytes.
// Validated upstream: K % 16 == 0, linear scales, all u8 operands
// contiguous, out [M,N] f32/bf16 contiguous.
#include "cuda/gemm/gemm_tile.cuh"
#include "cuda/quant/fp4.cuh"

namespace vt::VT_CUDA_NS {
namespace {

// Element (r, kk) of a packed operand [rows, K/2] with its linear scales
// [rows, K/16], decoded to f32: the low nibble of byte j is element 2j.
__device__ __forceinline__ float Decode(const uint8_t* packed, const uint8_t* scales, int64_t r, int64_t kk,
                                        int64_t k) {
  const uint32_t byte = packed[(r * k + kk) / 2];
  const uint32_t nibble = (kk & 1) ? (byte >> 4) : (byte & 0x0Fu);
  return fp4::Fp4E2M1ToF32(nibble) * fp4::Fp8E4M3ToF32(scales[r * (k / fp4::kGroup) + kk / fp4::kGroup]);
}

struct Nvfp4Ops {
  const uint8_t *ap = nullptr, *as = nullptr, *bp = nullptr, *bs = nullptr;
  DevPtr out;
  int64_t k = 0, n = 0;
  float alpha = 1.0f;
  __device__ float A(int64_t, int64_t i, int64_t kk) const { return Decode(ap, as, i, kk, k); }
  // b_packed is [N, K/2]: B(k, j) is row j's element k.
  __device__ float B(int64_t, int64_t kk, int64_t j) const { return Decode(bp, bs, j, kk, k); }
  __device__ void Store(int64_t, int64_t i, int64_t j, float acc) const {
    ::vt::VT_CUDA_NS::Store(out, i * n + j, alpha * acc);
  }
};

void MatmulNvfp4Fp4Cuda(const ExecContext&, const Tensor& out, const Tensor& a_packed, const Tensor& a_scale,
                        const Tensor& b_packed, const Tensor& b_scale, float alpha) {
  Nvfp4Ops ops;
  ops.ap = static_cast<const uint8_t*>(a_packed.data);
  ops.as = static_cast<const uint8_t*>(a_scale.data);
  ops.bp = static_cast<const uint8_t*>(b_packed.data);
  ops.bs = static_cast<const uint8_t*>(b_scale.data);
  ops.out = Dev(out);
  ops.k = 2 * a_packed.shape[1];
  ops.n = b_packed.shape[0];
  ops.alpha = alpha;
  gemm::Launch("matmul_nvfp4_fp4", ops, gemm::Extents{1, a_packed.shape[0], ops.n, ops.k});
}

}  // namespace

void Register_matmul_nvfp4_fp4() {
  RegisterTyped<kernel::MatmulNvfp4Fp4Fn>("matmul_nvfp4_fp4", VT_CUDA_BACKEND, &MatmulNvfp4Fp4Cuda);
}

}  // namespace vt::VT_CUDA_NS
