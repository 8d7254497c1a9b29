// Golden adapters kept apart from the catalog entry of the op they run: a
// composite manifest whose mapping is a harness module of its own (the
// long_context_rope manifests build their cos/sin cache from the rope
// scalings before rope_from_cache applies it). FindGoldenAdapter looks here
// after the catalog's OpSpec::goldens; an adapter whose run op is not in the
// catalog is skipped (the manifest stays UNSUPPORTED).
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/op_spec.h"

namespace vt::conform {

struct CompositeGoldenAdapter {
  std::string run_op;  // the catalog op the mapped case runs on
  GoldenAdapter adapter;
};

const std::vector<CompositeGoldenAdapter>& CompositeGoldenAdapters();

// The adapters themselves (one function per module).
GoldenMapping MapLongContextRope(const GoldenCase& g);
GoldenMapping MapDenseAttention(const GoldenCase& g);
GoldenMapping MapMoeBlock(const GoldenCase& g);  // harness/golden/moe_block.cpp

}  // namespace vt::conform
