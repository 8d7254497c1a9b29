// rope_from_cache oracle (vLLM RotaryEmbedding.forward_static with a supplied
// cos_sin_cache, MRotaryEmbedding.forward_native for [3,T] positions):
//   for token t, pair i: p = positions[axis(i)][t]; c = cache[p][i],
//   s = cache[p][rot/2 + i]; every head's pair (x, y) -> (x c - y s, x s + y c).
//   Pairs: NeoX (i, i + rot/2), GPT-J (2i, 2i + 1). Dims >= rot unchanged.
//   axis(i): contiguous sections - the first s0 pairs read row 0, the next s1
//   row 1, the rest row 2; interleaved (apply_interleaved_rope) - pairs
//   1, 4, 7, ... below 3*s1 read row 1, pairs 2, 5, 8, ... below 3*s2 row 2,
//   the others row 0.
// Specifies; does not optimise. Values are the logical [T,H,D] row-major
// elements; the cache values are inputs (read at the cache's dtype).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

struct RopePairing {
  int64_t rot = 0;
  bool neox = true;
  bool mrope = false;  // positions hold three rows of T
  bool interleaved = false;
  std::array<int64_t, 3> section{0, 0, 0};

  int Axis(int64_t pair) const {
    if (!mrope) return 0;
    if (interleaved) {
      if (pair % 3 == 1 && pair < 3 * section[1]) return 1;
      if (pair % 3 == 2 && pair < 3 * section[2]) return 2;
      return 0;
    }
    if (pair < section[0]) return 0;
    if (pair < section[0] + section[1]) return 1;
    return 2;
  }
  int64_t First(int64_t pair) const { return neox ? pair : 2 * pair; }
  int64_t Second(int64_t pair) const { return neox ? pair + rot / 2 : 2 * pair + 1; }
};

// Rotates one head's values in place: head[First(i)], head[Second(i)] by (c_i, s_i).
template <class S>
void RotateHead(std::vector<S>& v, int64_t head_at, const RopePairing& pr, const std::vector<S>& c,
                const std::vector<S>& s) {
  for (int64_t i = 0; i < pr.rot / 2; ++i) {
    const S x = v[static_cast<size_t>(head_at + pr.First(i))];
    const S y = v[static_cast<size_t>(head_at + pr.Second(i))];
    v[static_cast<size_t>(head_at + pr.First(i))] = x * c[static_cast<size_t>(i)] - y * s[static_cast<size_t>(i)];
    v[static_cast<size_t>(head_at + pr.Second(i))] = x * s[static_cast<size_t>(i)] + y * c[static_cast<size_t>(i)];
  }
}

// x: [T, heads, d] values; positions: T (or 3T for mrope) entries; cache:
// [P, rot] values. Returns the rotated tensor.
template <class S>
std::vector<S> RopeFromCache(int64_t tokens, int64_t heads, int64_t d, const std::vector<double>& x,
                             const std::vector<double>& positions, const std::vector<double>& cache,
                             const RopePairing& pr) {
  std::vector<S> v;
  v.reserve(x.size());
  for (double e : x) v.push_back(In<S>(e));
  const int64_t half = pr.rot / 2;
  std::vector<S> c(static_cast<size_t>(half)), s(static_cast<size_t>(half));
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t i = 0; i < half; ++i) {
      const auto p = static_cast<int64_t>(positions[static_cast<size_t>(pr.Axis(i) * tokens + t)]);
      c[static_cast<size_t>(i)] = In<S>(cache[static_cast<size_t>(p * pr.rot + i)]);
      s[static_cast<size_t>(i)] = In<S>(cache[static_cast<size_t>(p * pr.rot + half + i)]);
    }
    for (int64_t h = 0; h < heads; ++h) RotateHead(v, (t * heads + h) * d, pr, c, s);
  }
  return v;
}

}  // namespace vt::oracle
