// The GDN gate (fla fused_gdn_gating; op-contracts 3.4 GdnGBeta), shared by
// gdn_g_beta and gdn_post_conv so that the fused op is the composition by
// construction. All f32:
//   x = a + dt_bias;  sp = x > 20 ? x : log1p(exp(x));  g = (-exp(a_log)) * sp
//   beta = 1 / (1 + exp(-b))
// The guard is upstream's (softplus threshold 20): past it softplus(x) == x in
// f32 anyway, and exp(x) would overflow beyond ~88.7.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "cpu/glue/convert.h"
#include "vt/tensor.h"

namespace vt::cpu {

inline float SoftplusGuard20(float x) { return x > 20.0f ? x : std::log1p(std::exp(x)); }

// Per-head constants of one call: -exp(a_log[h]) and dt_bias[h] (both f32 [Hv]).
struct GdnGateHeads {
  std::vector<float> neg_rate, bias;
  GdnGateHeads(const Tensor& a_log, const Tensor& dt_bias, int64_t hv)
      : neg_rate(static_cast<std::size_t>(hv)), bias(static_cast<std::size_t>(hv)) {
    const ConvertFn f32 = PickConvert(DType::kF32, DType::kF32);
    f32(neg_rate.data(), a_log.data, hv);
    f32(bias.data(), dt_bias.data, hv);
    for (float& r : neg_rate) r = -std::exp(r);
  }
};

// One token: a_row, b_row (widened to f32) -> g_row, beta_row, Hv values each.
inline void GdnGateRow(const GdnGateHeads& heads, const float* a_row, const float* b_row, int64_t hv,
                       float* g_row, float* beta_row) {
  for (int64_t h = 0; h < hv; ++h) {
    const auto i = static_cast<std::size_t>(h);
    g_row[h] = heads.neg_rate[i] * SoftplusGuard20(a_row[h] + heads.bias[i]);
    beta_row[h] = 1.0f / (1.0f + std::exp(-b_row[h]));
  }
}

}  // namespace vt::cpu
