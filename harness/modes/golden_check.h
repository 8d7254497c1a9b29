// Checking one recorded golden folder against the kernels: load (refusing
// broken files), map through the catalog's adapter for the manifest op, run at
// 1 thread and the default count (bytes must agree), compare every mapped
// output - in-place ones included - under the manifest's atol/rtol, and put
// the project's own tolerance model next to it: how far the upstream values
// sit from our Bounded oracle, so a difference between upstream's device
// arithmetic and ours larger than our model expects is visible.
#pragma once

#include <string>
#include <utility>

#include "harness/catalog/op_spec.h"
#include "harness/core/result.h"
#include "harness/core/run_config.h"
#include "harness/golden/adapter.h"

namespace vt::conform {

// The catalog op and adapter for a manifest op name; {nullptr, nullptr} if none.
std::pair<const OpSpec*, const GoldenAdapter*> FindGoldenAdapter(const std::string& manifest_op);

// The full check of one folder. `op` is filled in from the adapter (or the
// manifest op name when there is none).
CaseResult CheckGoldenDir(const std::string& dir, const RunConfig& cfg);

}  // namespace vt::conform
