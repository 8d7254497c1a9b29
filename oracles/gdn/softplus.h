// softplus with the threshold every upstream gate uses (torch
// F.softplus(x, beta=1, threshold=20); fla fused_gdn_gating / kda gate:
// where(x <= 20, log(1 + exp(x)), x)), and the gate decay -exp(a_log) * sp.
// Specifies; does not optimise.
#pragma once

#include <algorithm>
#include <cmath>

#include "oracles/scalar.h"

namespace vt::oracle {

inline constexpr double kSoftplusThreshold = 20.0;

inline double SoftplusGuarded(double x) { return x > kSoftplusThreshold ? x : Log1p(Exp(x)); }
inline float SoftplusGuarded(float x) {
  return x > static_cast<float>(kSoftplusThreshold) ? x : Log1p(Exp(x));
}
// Bounded: where the kernel's x may lie on either side of the threshold, it
// may take either branch; the two differ by log1p(exp(20)) - 20 ~ 2e-9 there.
inline Bounded SoftplusGuarded(Bounded x) {
  const Bounded above = x;
  const Bounded below = Log1p(Exp(x));
  const bool surely_above = x.v - x.e > kSoftplusThreshold;
  const bool surely_below = x.v + x.e <= kSoftplusThreshold;
  if (surely_above) return above;
  if (surely_below) return below;
  const Bounded& taken = x.v > kSoftplusThreshold ? above : below;
  const Bounded& other = x.v > kSoftplusThreshold ? below : above;
  return {taken.v, std::max(taken.e, other.e + std::fabs(other.v - taken.v)), false};
}

// The log decay of a gate: (-exp(a_log)) * softplus(x).
template <class S>
S GateDecay(S a_log, S x) {
  return -Exp(a_log) * SoftplusGuarded(x);
}

}  // namespace vt::oracle
