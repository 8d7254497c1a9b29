// The GEMM engine (contract and structure: gemm_tile.h).
#include "cpu/gemm/gemm_tile.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "vt/codec.h"

namespace vt::cpu::gemm {
namespace {

// bf16 -> f32 is exact: the bf16 bits are the top half of the f32.
inline float Bf16Bits(uint16_t h) {
  const uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Element e of a float operand of dtype T, widened to f32.
template <DType T>
inline float Load(const unsigned char* base, int64_t e) {
  if constexpr (T == DType::kF32) {
    float f;
    std::memcpy(&f, base + e * 4, 4);
    return f;
  } else {
    uint16_t h;
    std::memcpy(&h, base + e * 2, 2);
    if constexpr (T == DType::kBF16) {
      return Bf16Bits(h);
    } else {
      return F16ToF32(h);
    }
  }
}

// rows x k activations (row stride a_rs) -> dst[r * k + p], dtype resolved once.
template <DType T>
void WidenRows(const unsigned char* a, int64_t a_rs, int64_t rows, int64_t k, float* dst) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t p = 0; p < k; ++p) dst[r * k + p] = Load<T>(a, r * a_rs + p);
  }
}

// The weight columns [j0, j0 + w) as an f32 panel dst[p * kNR + c]; lanes
// c >= w are zero (their outputs are never stored).
template <DType T>
void PackPanel(const unsigned char* b, bool b_nk, int64_t ldb, int64_t k, int64_t j0, int64_t w,
               float* dst) {
  for (int64_t p = 0; p < k; ++p) {
    float* row = dst + p * kNR;
    for (int64_t c = 0; c < w; ++c) row[c] = Load<T>(b, b_nk ? (j0 + c) * ldb + p : p * ldb + j0 + c);
    for (int64_t c = w; c < kNR; ++c) row[c] = 0.0f;
  }
}

void Widen(DType dt, const void* a, int64_t a_rs, int64_t rows, int64_t k, float* dst) {
  const auto* base = static_cast<const unsigned char*>(a);
  switch (dt) {
    case DType::kF16: return WidenRows<DType::kF16>(base, a_rs, rows, k, dst);
    case DType::kBF16: return WidenRows<DType::kBF16>(base, a_rs, rows, k, dst);
    default: return WidenRows<DType::kF32>(base, a_rs, rows, k, dst);
  }
}

void Pack(const Problem& p, int64_t j0, int64_t w, float* dst) {
  const auto* base = static_cast<const unsigned char*>(p.b);
  switch (p.b_dt) {
    case DType::kF16: return PackPanel<DType::kF16>(base, p.b_nk, p.ldb, p.k, j0, w, dst);
    case DType::kBF16: return PackPanel<DType::kBF16>(base, p.b_nk, p.ldb, p.k, j0, w, dst);
    default: return PackPanel<DType::kF32>(base, p.b_nk, p.ldb, p.k, j0, w, dst);
  }
}

// MR rows of widened activations (row stride lda) times one packed panel:
// acc[r * kNR + c] = sum over p, in order, of a[r, p] * panel[p, c].
template <int MR>
void MicroKernel(const float* a, int64_t lda, const float* panel, int64_t k, float* acc) {
  float c[MR][kNR];
  for (int r = 0; r < MR; ++r) {
    for (int j = 0; j < kNR; ++j) c[r][j] = 0.0f;
  }
  for (int64_t p = 0; p < k; ++p) {
    const float* brow = panel + p * kNR;
    for (int r = 0; r < MR; ++r) {
      const float av = a[r * lda + p];
      for (int j = 0; j < kNR; ++j) c[r][j] = c[r][j] + av * brow[j];
    }
  }
  std::memcpy(acc, c, sizeof c);
}

// Row i's first w accumulators to out[i, j0 .. j0 + w).
void StoreRow(const Problem& p, int64_t i, int64_t j0, int64_t w, const float* acc) {
  auto* base = static_cast<unsigned char*>(p.out);
  const int64_t e0 = i * p.out_rs + j0;
  if (p.out_dt == DType::kF32) {
    std::memcpy(base + e0 * 4, acc, static_cast<std::size_t>(w) * 4);
    return;
  }
  for (int64_t c = 0; c < w; ++c) {
    const uint16_t h = p.out_dt == DType::kBF16 ? F32ToBF16(acc[c]) : F32ToF16(acc[c]);
    std::memcpy(base + (e0 + c) * 2, &h, 2);
  }
}

}  // namespace

void ComputeBlock(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  if (r0 >= r1 || c0 >= c1) return;
  if (p.tier == Isa::kAvx512) return ComputeBlockAvx512(p, r0, r1, c0, c1);
  if (p.tier == Isa::kAvx2) return ComputeBlockAvx2(p, r0, r1, c0, c1);
  CountTierRun(Isa::kPortable);
  // Per worker, reused across calls: no allocation per chunk after the first.
  static thread_local std::vector<float> rows_f32, panel;
  const int64_t k = p.k;
  rows_f32.resize(static_cast<std::size_t>(kRowTile * std::max<int64_t>(k, 1)));
  panel.resize(static_cast<std::size_t>(kNR * std::max<int64_t>(k, 1)));
  const auto* a_base = static_cast<const unsigned char*>(p.a);
  const std::size_t a_es = SizeOf(p.a_dt);
  float acc[kMR * kNR];
  for (int64_t i0 = r0; i0 < r1; i0 += kRowTile) {
    const int64_t rows = std::min(kRowTile, r1 - i0);
    Widen(p.a_dt, a_base + static_cast<std::size_t>(i0 * p.a_rs) * a_es, p.a_rs, rows, k, rows_f32.data());
    for (int64_t j0 = c0; j0 < c1; j0 += kNR) {
      const int64_t w = std::min<int64_t>(kNR, c1 - j0);
      Pack(p, j0, w, panel.data());
      int64_t r = 0;
      for (; r + kMR <= rows; r += kMR) {
        MicroKernel<kMR>(rows_f32.data() + r * k, k, panel.data(), k, acc);
        for (int q = 0; q < kMR; ++q) StoreRow(p, i0 + r + q, j0, w, acc + q * kNR);
      }
      for (; r < rows; ++r) {
        MicroKernel<1>(rows_f32.data() + r * k, k, panel.data(), k, acc);
        StoreRow(p, i0 + r, j0, w, acc);
      }
    }
  }
}

}  // namespace vt::cpu::gemm
