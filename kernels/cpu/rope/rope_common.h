// Pieces shared by the CPU RoPE kernels.
//  * Typed element access lives in cpu/access.h: each kernel resolves its
//    operands' storage once per call (WithFloatOutElem / WithFloatInOutElem)
//    and runs an inner loop typed on it, so no per-element dtype switch sits
//    in the rotation loop.
//  * The frequency/angle of pair i (rope_neox, rope_cos_sin_cache): double
//    precision, Llama-3 rescale when on, cos/sin rounded once to f32 - the
//    same expression in both ops, which is what makes the cache path
//    bit-identical to the inline one.
//  * The mrope axis of a pair (rope_from_cache).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "cpu/access.h"
#include "vt/codec.h"
#include "vt/ops_rope.h"
#include "vt/tensor.h"

namespace vt::cpu::rope {

// positions[i] of an i32/i64 contiguous tensor.
inline int64_t PositionAt(const Tensor& positions, int64_t i) {
  if (positions.dtype == DType::kI32) {
    int32_t v;
    std::memcpy(&v, static_cast<const char*>(positions.data) + i * 4, 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, static_cast<const char*>(positions.data) + i * 8, 8);
  return v;
}

// vLLM Llama3RotaryEmbedding._compute_inv_freq, per frequency, in double:
// high-frequency pairs (wavelength < orig/high) keep freq, low-frequency ones
// (wavelength > orig/low) are divided by the factor, the band between blends
// the two linearly in orig/wavelength. Off when the factor is 0.
inline double Llama3Rescale(double freq, const RopeArgs& a) {
  const double factor = static_cast<double>(a.llama3_scaling_factor);
  if (!(factor > 0.0)) return freq;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  const double low = static_cast<double>(a.llama3_low_freq_factor);
  const double high = static_cast<double>(a.llama3_high_freq_factor);
  const double orig = static_cast<double>(a.llama3_orig_max_position);
  const double wavelen = kTwoPi / freq;
  if (wavelen < orig / high) return freq;
  if (wavelen > orig / low) return freq / factor;
  // Equal factors leave no band: the blend weight is 0 there.
  const double smooth = low != high ? (orig / wavelen - low) / (high - low) : 0.0;
  return (1.0 - smooth) * freq / factor + smooth * freq;
}

// f32 cos and sin of pair `pair`'s angle at `pos` (rotary width rot).
struct CosSin {
  float c, s;
};
inline CosSin PairCosSin(int64_t pos, int64_t pair, int rot, const RopeArgs& a) {
  double freq = std::pow(static_cast<double>(a.base), -2.0 * static_cast<double>(pair) / static_cast<double>(rot));
  freq = Llama3Rescale(freq, a);
  const double angle = static_cast<double>(pos) * freq;
  return {static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle))};
}

// Which of the three position rows pair `pair` reads under multimodal RoPE.
// Contiguous sections: [0, s0) -> 0, [s0, s0+s1) -> 1, the rest -> 2.
// Interleaved: pair % 3 picks the axis while pair <= 3 * section[axis]
// (axes 1 and 2), else axis 0.
inline int MropeAxis(int64_t pair, const RopeArgs& a) {
  const int* s = a.mrope_section;
  if (a.mrope_interleaved) {
    if (pair % 3 == 1 && pair <= 3 * static_cast<int64_t>(s[1])) return 1;
    if (pair % 3 == 2 && pair <= 3 * static_cast<int64_t>(s[2])) return 2;
    return 0;
  }
  if (pair < s[0]) return 0;
  if (pair < static_cast<int64_t>(s[0]) + s[1]) return 1;
  return 2;
}

}  // namespace vt::cpu::rope
