// fused_norm_rope oracle (DeepSeek-V2/V3 MLA prologue: kv_a_layernorm =
// RMSNorm on the latent, DeepseekScalingRotaryEmbedding on the rope slice),
// as the composite it is defined to equal:
//   latent_out = rms_norm(x[:, :off], weight)        (oracles/norm/rms_norm.h)
//   pe_out     = rope_from_cache(x[:, off:], one head) (oracles/rope/rope_from_cache.h)
// Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/norm/rms_norm.h"
#include "oracles/rope/rope_from_cache.h"

namespace vt::oracle {

template <class S>
struct FusedNormRopeOut {
  std::vector<S> latent, pe;
};

// x: [T, off + rot] values (logical, row-major).
template <class S>
FusedNormRopeOut<S> FusedNormRope(int64_t tokens, int64_t off, const std::vector<double>& x,
                                  const std::vector<double>& w, bool gemma, double eps,
                                  const std::vector<double>& positions, const std::vector<double>& cache,
                                  const RopePairing& pr) {
  const int64_t width = off + pr.rot;
  std::vector<double> latent_in, pe_in;
  for (int64_t t = 0; t < tokens; ++t) {
    const auto row = x.begin() + static_cast<std::ptrdiff_t>(t * width);
    latent_in.insert(latent_in.end(), row, row + off);
    pe_in.insert(pe_in.end(), row + off, row + width);
  }
  FusedNormRopeOut<S> o;
  o.latent = RmsNorm<S>(tokens, off, latent_in, w, gemma, eps, nullptr, Fmt::kF32);
  o.pe = RopeFromCache<S>(tokens, 1, pr.rot, pe_in, positions, cache, pr);
  return o;
}

}  // namespace vt::oracle
