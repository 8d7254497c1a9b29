// rope_neox oracle (vLLM get_rope(..., is_neox_style=True) / RotaryEmbedding,
// Llama3RotaryEmbedding): per token t and pair i < rot/2, (c, s) = the f32
// cos/sin of pos_t * freq_i (oracles/rope/rope_angles.h: double angle, one
// rounding to f32 - an explicit Store); every head's NeoX pair
// (h[i], h[i + rot/2]) = (x, y) -> (x c - y s, x s + y c). Dims >= rot unchanged.
// Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/rope/rope_angles.h"
#include "oracles/rope/rope_from_cache.h"

namespace vt::oracle {

// Per token, the stored f32 cos (first rot/2) and sin (last rot/2) as S.
template <class S>
void RopeTokenCosSin(double pos, const RopeFreq& f, std::vector<S>& c, std::vector<S>& s) {
  const int64_t half = f.rot / 2;
  c.resize(static_cast<size_t>(half));
  s.resize(static_cast<size_t>(half));
  for (int64_t i = 0; i < half; ++i) {
    c[static_cast<size_t>(i)] = RopeTrigF32<S>(pos, i, f, false);
    s[static_cast<size_t>(i)] = RopeTrigF32<S>(pos, i, f, true);
  }
}

// x: [T, heads, d] values; positions: T values.
template <class S>
std::vector<S> RopeNeox(int64_t tokens, int64_t heads, int64_t d, const std::vector<double>& x,
                        const std::vector<double>& positions, const RopeFreq& f) {
  std::vector<S> v;
  v.reserve(x.size());
  for (double e : x) v.push_back(In<S>(e));
  RopePairing pr;
  pr.rot = f.rot;
  pr.neox = true;
  std::vector<S> c, s;
  for (int64_t t = 0; t < tokens; ++t) {
    RopeTokenCosSin(positions[static_cast<size_t>(t)], f, c, s);
    for (int64_t h = 0; h < heads; ++h) RotateHead(v, (t * heads + h) * d, pr, c, s);
  }
  return v;
}

}  // namespace vt::oracle
