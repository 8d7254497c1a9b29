// The rotation angles of rope_neox and rope_cos_sin_cache (vLLM
// RotaryEmbedding._compute_inv_freq / _compute_cos_sin_cache, Llama3RotaryEmbedding
// for the rescale), at the spec's precision: frequencies and angles in double,
// cos/sin rounded once to f32 (the seed's rounding point; upstream computes
// them in f32, which is why its long-position goldens need a loose atol).
//   freq_i = base^(-2i/rot)
//   llama3 (factor > 0): wavelen = 2 pi / freq_i; wavelen < orig/high: freq_i;
//     wavelen > orig/low: freq_i / factor; between: (1 - w) freq_i / factor + w freq_i,
//     w = (orig / wavelen - low) / (high - low)   (w = 0 when low == high)
//   angle = pos * freq_i
// Specifies; does not optimise.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "oracles/scalar.h"

namespace vt::oracle {

struct RopeFreq {
  double base = 10000.0;
  int64_t rot = 0;
  double llama3_factor = 0.0;  // <= 0: no rescale
  double llama3_low = 1.0, llama3_high = 4.0, llama3_orig = 8192.0;
};

inline double RopeFrequency(int64_t pair, const RopeFreq& f) {
  const double freq = std::pow(f.base, -2.0 * static_cast<double>(pair) / static_cast<double>(f.rot));
  if (!(f.llama3_factor > 0.0)) return freq;
  const double two_pi = 2.0 * 3.14159265358979323846;
  const double wavelen = two_pi / freq;
  if (wavelen < f.llama3_orig / f.llama3_high) return freq;                 // high frequency: kept
  if (wavelen > f.llama3_orig / f.llama3_low) return freq / f.llama3_factor;  // low frequency: scaled
  const double w = f.llama3_low == f.llama3_high
                       ? 0.0
                       : (f.llama3_orig / wavelen - f.llama3_low) / (f.llama3_high - f.llama3_low);
  return (1.0 - w) * freq / f.llama3_factor + w * freq;
}

// cos (want_sin = false) or sin of pair i's angle at pos, BEFORE the f32
// rounding: double / float give the double value; Bounded adds an allowance
// for the double evaluation (pow, the rescale, the product: a few double
// rounding errors relative to the angle, plus one libm ulp), which the f32
// store then turns into the interval [R(v - e), R(v + e)].
template <class S>
S RopeTrig(double pos, int64_t pair, const RopeFreq& f, bool want_sin) {
  const double angle = pos * RopeFrequency(pair, f);
  const double v = want_sin ? std::sin(angle) : std::cos(angle);
  if constexpr (std::is_same_v<S, Bounded>) {
    const double e = std::fabs(angle) * 64.0 * 0x1p-53 + 0x1p-52;
    return Bounded{v, e, false};
  } else {
    return static_cast<S>(v);
  }
}

// The f32 value the spec holds: the trig value rounded once to f32.
template <class S>
S RopeTrigF32(double pos, int64_t pair, const RopeFreq& f, bool want_sin) {
  if constexpr (std::is_same_v<S, float>) {
    return static_cast<float>(RopeTrig<double>(pos, pair, f, want_sin));
  } else {
    return Store(Fmt::kF32, RopeTrig<S>(pos, pair, f, want_sin));
  }
}

}  // namespace vt::oracle
