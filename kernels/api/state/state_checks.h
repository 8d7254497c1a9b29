// Shape validation shared by gdn_state_gather / gdn_state_scatter
// (op-contracts 3.6): the cache and the working buffer have the same rank and
// middle dims; the cache's innermost dim may be wider (a widened conv row).
#pragma once

#include "api/check.h"

namespace vt::api {

void CheckStateMove(const Checker& c, const ExecContext& ctx, const Tensor& cache, const Tensor& working,
                    const Tensor& state_idx);

}  // namespace vt::api
