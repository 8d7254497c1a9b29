#include "harness/catalog/composite/composite_adapters.h"

namespace vt::conform {

const std::vector<CompositeGoldenAdapter>& CompositeGoldenAdapters() {
  static const std::vector<CompositeGoldenAdapter> kAdapters = {
      {"rope_from_cache", {"long_context_rope", MapLongContextRope}},
      {"attention", {"dense_attention", MapDenseAttention}},
      {"moe_combine", {"moe_block", MapMoeBlock}},
  };
  return kAdapters;
}

}  // namespace vt::conform
