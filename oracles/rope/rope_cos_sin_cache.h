// rope_cos_sin_cache oracle (vLLM RotaryEmbedding._compute_cos_sin_cache,
// one row per given position): row t = [cos(angle_i) | sin(angle_i)], i < rot/2,
// angle_i = pos_t * freq_i in double (oracles/rope/rope_angles.h); the f32
// rounding is the output's store. Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/rope/rope_angles.h"

namespace vt::oracle {

template <class S>
std::vector<S> RopeCosSinCache(const std::vector<double>& positions, const RopeFreq& f) {
  const int64_t half = f.rot / 2;
  std::vector<S> out;
  out.reserve(positions.size() * static_cast<size_t>(f.rot));
  for (double pos : positions) {
    for (int64_t i = 0; i < half; ++i) out.push_back(RopeTrig<S>(pos, i, f, false));
    for (int64_t i = 0; i < half; ++i) out.push_back(RopeTrig<S>(pos, i, f, true));
  }
  return out;
}

}  // namespace vt::oracle
