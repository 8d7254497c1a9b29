// moe_combine's `weights=router` draws: the slice vt-fuzz --upstream holds to
// vLLM's moe_block chain (router, experts, shared expert; vt_regen/
// ops_composite.py). The weights are what a softmax top-k router with
// renormalization gives on logits drawn from the case seed - e = k + 3
// experts, each row e distinct multiples of 1/8 in [-4, 4] (exact in bf16, no
// ties: the picks are certain) - evaluated as the router's f32 definition
// (oracle::MoeRouterTopK<float>, which moe_router_topk's kernel matches bit
// for bit). The generator (harness/catalog/moe/moe_combine.cpp) and the
// inverse adapter (harness/catalog/composite/moe_block.cpp) both call Route.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "harness/core/rng.h"
#include "oracles/moe/moe_router_topk.h"

namespace vt::conform::moe_slice {

inline int64_t Experts(int64_t k) { return k + 3; }

// [t, e] row-major.
inline std::vector<double> Logits(uint64_t seed, int64_t t, int64_t e) {
  const uint64_t stream = HashName("moe_route_slice:logits");
  uint64_t n = 0;
  std::vector<double> out;
  out.reserve(static_cast<size_t>(t * e));
  for (int64_t r = 0; r < t; ++r) {
    std::vector<int64_t> grid(65);
    for (int64_t i = 0; i < 65; ++i) grid[static_cast<size_t>(i)] = i - 32;
    for (int64_t j = 0; j < e; ++j) {  // a partial Fisher-Yates draw of e distinct grid points
      const auto pick = static_cast<size_t>(j) + StreamValue(seed, stream, n++) % static_cast<uint64_t>(65 - j);
      std::swap(grid[static_cast<size_t>(j)], grid[pick]);
      out.push_back(static_cast<double>(grid[static_cast<size_t>(j)]) / 8.0);
    }
  }
  return out;
}

inline oracle::RouterOut<float> Route(uint64_t seed, int64_t t, int64_t k) {
  oracle::RouterSpec spec;
  spec.top_k = k;
  spec.renormalize = true;
  return oracle::MoeRouterTopK<float>(t, Experts(k), Logits(seed, t, Experts(k)), nullptr, spec);
}

}  // namespace vt::conform::moe_slice
