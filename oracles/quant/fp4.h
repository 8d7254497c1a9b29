// NVFP4 quantization by definition (vLLM ref_nvfp4_quant / scaled_fp4_quant;
// op-contracts 3.2). Specifies, does not optimise. Per row and group of 16:
//   amax = max |x| (a NaN element does not count: the spec's fmax)
//   s = gsi * amax / 6 -> scale = e4m3(s), saturating at 448, NaN -> 0x7F
//   block = e4m3val(scale) / gsi (1/0 := 0); code = e2m1(x / block) (1/0 := 0)
// e4m3 and e2m1 are the oracle-side encoders (oracles/bits.h): nearest code,
// ties to even (e2m1 ties 0.25->0, 0.75->1, 1.25->1, 1.75->2, 2.5->2, 3.5->4,
// 5->4), saturating at 448 / 6, e2m1 zero always +0, e2m1(NaN) = +6.
// The f32 evaluation the seed fixes forms 1/6, 1/gsi and 1/block as f32
// reciprocals and multiplies; Lit / operator/ carry that here.
//
// Outputs: `packed` holds each byte's value lo | hi << 4 (element 2j low).
// For S = Bounded a byte is exact (e = 0) where every faithful f32 evaluation
// gives the same two codes, and e = inf where one may legitimately differ:
// s = gsi * amax * f32(1/6) is two f32 roundings of an f32 constant, so where
// it sits within that error of an e4m3 midpoint the scale byte (and with it
// the group's codes) is open; and an input that is itself a bounded result
// (the fused ops' activation before its bf16 store) may sit on either side of
// an e2m1 threshold. Everything after the scale byte is formed exactly as the
// spec orders it (Formed below). Open bytes are judged by the f32 definition
// instead (docs/ops/quant.md). `scale` holds the decoded
// e4m3 value per [row, group] (linear order) with its Bounded spread.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "oracles/bits.h"
#include "oracles/scalar.h"

namespace vt::oracle {

inline constexpr int64_t kFp4Group = 16;

template <class S>
struct Fp4Quant {
  std::vector<S> packed;  // [M, K/2] byte values
  std::vector<S> scale;   // [M, K/16] e4m3 values, linear
};

namespace fp4_detail {

inline double NaNSafe(double e) { return std::isnan(e) ? INFINITY : e; }

// max |x| over a group, NaN elements skipped.
template <class S>
S AbsMax(const std::vector<S>& x, int64_t base) {
  if constexpr (std::is_same_v<S, Bounded>) {
    double v = 0.0, e = 0.0;
    for (int64_t j = 0; j < kFp4Group; ++j) {
      const Bounded& b = x[static_cast<size_t>(base + j)];
      // A NaN the kernel surely holds is skipped; an uncertain one might not be NaN.
      if (std::isnan(b.v)) {
        e = std::max(e, b.e == 0.0 ? 0.0 : INFINITY);
        continue;
      }
      v = std::max(v, std::fabs(b.v));
      e = std::max(e, NaNSafe(b.e));  // max is 1-Lipschitz in the largest deviation
    }
    return {v, e, e == 0.0};
  } else {
    // Every NaN skipped by the comparison (std::fmax would depend on the C
    // library for a signalling one).
    S m = S(0);
    for (int64_t j = 0; j < kFp4Group; ++j) {
      const S a = std::fabs(x[static_cast<size_t>(base + j)]);
      if (a > m) m = a;
    }
    return m;
  }
}

// A value the spec makes the kernel FORM: 1/gsi, the block scale and its
// reciprocal are each one f32 operation whose operands are fixed (the 1/0 := 0
// guards need them as values), so where the result is exact it is exactly what
// the kernel holds - "given" (scalar.h), not open to reassociation. The
// f32_definition check holds the kernel to that order bit for bit.
template <class S>
S Formed(S v) {
  if constexpr (std::is_same_v<S, Bounded>) {
    if (v.e == 0.0) v.given = true;
  }
  return v;
}

// 1/v, with 1/0 := 0 (the spec's guarded reciprocal).
template <class S>
S RecipOrZero(const S& v) {
  if constexpr (std::is_same_v<S, Bounded>) {
    if (v.v == 0.0 && v.e == 0.0) return {0.0, 0.0, true};
    if (std::fabs(v.v) <= v.e) return {1.0 / v.v, INFINITY, false};  // the kernel may hold 0
    return Formed(In<S>(1.0) / v);
  } else {
    return v == S(0) ? S(0) : S(1) / v;
  }
}

// The e2m1 nibble of t, or -1 where a faithful f32 evaluation may give another.
template <class S>
int Code(const S& t) {
  if constexpr (std::is_same_v<S, Bounded>) {
    if (std::isnan(t.v)) return t.e == 0.0 || std::isnan(t.e) ? 7 : -1;
    if (!std::isfinite(t.e)) return -1;
    if (t.e == 0.0) return static_cast<int>(EncodeBits(Fmt::kFp4E2M1, t.v));
    const uint32_t lo = EncodeBits(Fmt::kFp4E2M1, t.v - t.e), hi = EncodeBits(Fmt::kFp4E2M1, t.v + t.e);
    return lo == hi ? static_cast<int>(lo) : -1;
  } else {
    return static_cast<int>(EncodeBits(Fmt::kFp4E2M1, static_cast<double>(t)));
  }
}

template <class S>
S Byte(int lo, int hi, bool determined) {
  const double v = static_cast<double>((lo < 0 ? 0 : lo) | ((hi < 0 ? 0 : hi) << 4));
  if constexpr (std::is_same_v<S, Bounded>) {
    return determined ? Bounded{v, 0.0, true} : Bounded{v, INFINITY, false};
  } else {
    return static_cast<S>(v);
  }
}

}  // namespace fp4_detail

// x: [rows, k] values (S: inputs via In<S>, or an earlier step's results).
template <class S>
Fp4Quant<S> QuantizeFp4(const std::vector<S>& x, int64_t rows, int64_t k, double gsi) {
  using namespace fp4_detail;
  Fp4Quant<S> r;
  const int64_t groups = k / kFp4Group;
  r.packed.reserve(static_cast<size_t>(rows * k / 2));
  r.scale.reserve(static_cast<size_t>(rows * groups));
  const S g = In<S>(gsi);
  const S g_recip = RecipOrZero(g);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t grp = 0; grp < groups; ++grp) {
      const int64_t base = i * k + grp * kFp4Group;
      const S s = Store(Fmt::kFp8E4M3, g * (AbsMax(x, base) * Lit<S>(1.0 / 6.0)));
      r.scale.push_back(s);
      const bool scale_known = ErrorOf(s) == 0.0;
      const S inv_block = RecipOrZero(Formed(s * g_recip));
      for (int64_t j = 0; j < kFp4Group; j += 2) {
        const int lo = Code(x[static_cast<size_t>(base + j)] * inv_block);
        const int hi = Code(x[static_cast<size_t>(base + j + 1)] * inv_block);
        r.packed.push_back(Byte<S>(lo, hi, scale_known && lo >= 0 && hi >= 0));
      }
    }
  }
  return r;
}

// The scale bytes of a [rows, groups] linear layout in CUTLASS's swizzled
// layout, as vLLM's swizzle_blockscale builds it: pad to [round_up(rows,128),
// round_up(groups,4)] with `pad`, view as [Mp/128, 4, 32, Gp/4, 4] (row =
// 128*mt + 32*r4 + r32, group = 4*gt + g4) and permute to (mt, gt, r32, r4, g4).
template <class T>
std::vector<T> SwizzleScales(const std::vector<T>& linear, int64_t rows, int64_t groups, T pad) {
  const int64_t mp = (rows + 127) / 128 * 128, gp = (groups + 3) / 4 * 4;
  std::vector<T> out;
  out.reserve(static_cast<size_t>(mp * gp));
  for (int64_t mt = 0; mt < mp / 128; ++mt) {
    for (int64_t gt = 0; gt < gp / 4; ++gt) {
      for (int64_t r32 = 0; r32 < 32; ++r32) {
        for (int64_t r4 = 0; r4 < 4; ++r4) {
          for (int64_t g4 = 0; g4 < 4; ++g4) {
            const int64_t row = 128 * mt + 32 * r4 + r32, grp = 4 * gt + g4;
            out.push_back(row < rows && grp < groups ? linear[static_cast<size_t>(row * groups + grp)] : pad);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace vt::oracle
