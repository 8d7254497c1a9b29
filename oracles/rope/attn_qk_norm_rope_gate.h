// attn_qk_norm_rope_gate oracle (Qwen3-Next full-attention preamble: the
// q|gate split, GemmaRMSNorm / RMSNorm of each q and k head, NeoX rotary on
// the first rot dims from the per-token cos|sin rows), as its definition:
//   q_h = qgate[t, h*2Dh : h*2Dh+Dh], gate_h = qgate[t, h*2Dh+Dh : (h+1)*2Dh]
//   n = rms_norm(q_h, q_norm) (oracles/norm/rms_norm.h), then the NeoX
//   rotation of n's first rot dims by cos_sin[t] (oracles/rope/rope_from_cache.h);
//   dims >= rot stay normed; the gate is copied. k likewise with k_norm.
// Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/norm/rms_norm.h"
#include "oracles/rope/rope_from_cache.h"

namespace vt::oracle {

// rows: [T*heads, dh] head rows (token-major), normalised and rotated with
// token t = row / heads's cos|sin row.
template <class S>
std::vector<S> NormRopeHeads(int64_t tokens, int64_t heads, int64_t dh, const std::vector<double>& rows,
                             const std::vector<double>& w, bool gemma, double eps,
                             const std::vector<double>& cos_sin, int64_t rot) {
  std::vector<S> v = RmsNorm<S>(tokens * heads, dh, rows, w, gemma, eps, nullptr, Fmt::kF32);
  RopePairing pr;
  pr.rot = rot;
  pr.neox = true;
  std::vector<S> c(static_cast<size_t>(rot / 2)), s(static_cast<size_t>(rot / 2));
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t i = 0; i < rot / 2; ++i) {
      c[static_cast<size_t>(i)] = In<S>(cos_sin[static_cast<size_t>(t * rot + i)]);
      s[static_cast<size_t>(i)] = In<S>(cos_sin[static_cast<size_t>(t * rot + rot / 2 + i)]);
    }
    for (int64_t h = 0; h < heads; ++h) RotateHead(v, (t * heads + h) * dh, pr, c, s);
  }
  return v;
}

// The q and gate halves of qgate [T, Hq*2*Dh] as [T*Hq, Dh] rows each.
inline void SplitQGate(int64_t tokens, int64_t hq, int64_t dh, const std::vector<double>& qgate,
                       std::vector<double>& q, std::vector<double>& gate) {
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t h = 0; h < hq; ++h) {
      const auto at = qgate.begin() + static_cast<std::ptrdiff_t>((t * hq + h) * 2 * dh);
      q.insert(q.end(), at, at + dh);
      gate.insert(gate.end(), at + dh, at + 2 * dh);
    }
  }
}

}  // namespace vt::oracle
