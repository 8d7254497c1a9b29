// matmul_nvfp4_fp4 CPU kernel (W4A4: vLLM cutlass_scaled_fp4_mm / the NVFP4
// emulation): out[m,n] = alpha * sum_k A[m,k] * B[n,k] with A = e2m1(a) *
// e4m3(a_scale) and B likewise. Each decoded value is one f32 product of a
// 2-bit and a 4-bit significand, so it is exact; the dot product accumulates
// in f32 sequentially over k (mul, then add: never fused), alpha multiplies
// the sum, one rounding at the store. Contract (kernels/api): K % 16 == 0,
// linear scales, all u8 operands contiguous, out [M,N] f32/bf16.
// Split: output rows; B is decoded once before the split (read-only).
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/codec.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

constexpr int64_t kGroup = 16;

// Row r of a packed operand with its per-group scales, decoded to f32. The
// low nibble of byte j is element 2j, the high nibble element 2j+1.
void DecodeRow(const uint8_t* packed, const uint8_t* scales, int64_t r, int64_t k, float* dst) {
  for (int64_t g = 0; g < k / kGroup; ++g) {
    const float sf = Fp8E4M3ToF32(scales[r * (k / kGroup) + g]);
    for (int64_t j = 0; j < kGroup / 2; ++j) {
      const uint8_t byte = packed[(r * k + g * kGroup) / 2 + j];
      dst[g * kGroup + 2 * j] = Fp4E2M1ToF32(byte & 0x0F) * sf;
      dst[g * kGroup + 2 * j + 1] = Fp4E2M1ToF32(byte >> 4) * sf;
    }
  }
}

template <DType Out>
void StoreAs(unsigned char* base, int64_t i, float v) {
  if constexpr (Out == DType::kF32) {
    std::memcpy(base + i * 4, &v, 4);
  } else {
    const uint16_t b = F32ToBF16(v);
    std::memcpy(base + i * 2, &b, 2);
  }
}

template <DType Out>
void Rows(const ExecContext& ctx, const Tensor& out, const uint8_t* ap, const uint8_t* as,
          const std::vector<float>& bdec, int64_t m, int64_t n, int64_t k, float alpha) {
  auto* dst = static_cast<unsigned char*>(out.data);
  ParallelForRows(ctx, m, [&](int64_t r0, int64_t r1) {
    std::vector<float> arow(static_cast<size_t>(k));
    for (int64_t i = r0; i < r1; ++i) {
      DecodeRow(ap, as, i, k, arow.data());
      for (int64_t col = 0; col < n; ++col) {
        const float* brow = bdec.data() + col * k;
        float acc = 0.0f;
        for (int64_t kk = 0; kk < k; ++kk) {
          const float prod = arow[static_cast<size_t>(kk)] * brow[kk];
          acc = acc + prod;
        }
        StoreAs<Out>(dst, i * n + col, alpha * acc);
      }
    }
  });
}

void MatmulNvfp4Fp4Cpu(const ExecContext& ctx, const Tensor& out, const Tensor& a_packed,
                       const Tensor& a_scale, const Tensor& b_packed, const Tensor& b_scale,
                       float alpha) {
  const int64_t m = a_packed.shape[0], k = 2 * a_packed.shape[1], n = b_packed.shape[0];
  const auto* bp = static_cast<const uint8_t*>(b_packed.data);
  const auto* bs = static_cast<const uint8_t*>(b_scale.data);
  std::vector<float> bdec(static_cast<size_t>(n * k));
  for (int64_t col = 0; col < n; ++col) DecodeRow(bp, bs, col, k, bdec.data() + col * k);
  const auto* ap = static_cast<const uint8_t*>(a_packed.data);
  const auto* as = static_cast<const uint8_t*>(a_scale.data);
  if (out.dtype == DType::kF32) {
    Rows<DType::kF32>(ctx, out, ap, as, bdec, m, n, k, alpha);
  } else {
    Rows<DType::kBF16>(ctx, out, ap, as, bdec, m, n, k, alpha);
  }
}

}  // namespace

void Register_matmul_nvfp4_fp4() {
  RegisterTyped<kernel::MatmulNvfp4Fp4Fn>("matmul_nvfp4_fp4", Backend::kCPU, &MatmulNvfp4Fp4Cpu);
}

}  // namespace vt::cpu
