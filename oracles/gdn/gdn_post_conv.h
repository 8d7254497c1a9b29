// gdn_post_conv oracle (fla fused_post_conv_prep): the conv output split into
// q | k | v columns, q and k l2-normalised per head over Dk (FLA l2norm:
// x / sqrt(sum x^2 + eps)), v as is, and the GDN gate (g, beta) from a, b.
// Composed from the definitions of its parts. Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/gdn/gdn_conv_split.h"
#include "oracles/gdn/gdn_g_beta.h"
#include "oracles/norm/l2_norm.h"

namespace vt::oracle {

template <class S>
struct GdnPostConvResult {
  std::vector<S> q, k, v;  // [T,Hk,Dk], [T,Hk,Dk], [T,Hv,Dv]
  GdnGate<S> gate;         // g, beta [T,Hv]
};

template <class S>
GdnPostConvResult<S> GdnPostConv(int64_t tokens, int64_t hk, int64_t dk, int64_t hv, int64_t dv,
                                 const std::vector<double>& conv, const std::vector<double>& a,
                                 const std::vector<double>& b, const std::vector<double>& a_log,
                                 const std::vector<double>& dt_bias, double eps) {
  const auto parts = GdnConvSplit<double>(tokens, hk * dk, hv * dv, conv);
  GdnPostConvResult<S> r;
  r.q = L2Norm<S>(tokens * hk, dk, parts[0], eps);
  r.k = L2Norm<S>(tokens * hk, dk, parts[1], eps);
  for (double x : parts[2]) r.v.push_back(In<S>(x));
  r.gate = GdnGBeta<S>(tokens, hv, a, b, a_log, dt_bias);
  return r;
}

}  // namespace vt::oracle
