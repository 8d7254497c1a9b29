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
#include "vt/ops_moe.h"

namespace vt::conform {

struct CompositeGoldenAdapter {
  std::string run_op;  // the catalog op the mapped case runs on
  GoldenAdapter adapter;
};

const std::vector<CompositeGoldenAdapter>& CompositeGoldenAdapters();

// The adapters themselves (one function per module).
GoldenMapping MapLongContextRope(const GoldenCase& g);
// rope_from_cache's "scaling" draws (long_context_rope.cpp): a cache vLLM
// builds for a rope scaling (default, linear, llama3, yarn) instead of
// arbitrary values - what vt-fuzz --upstream can hold to long_context_rope.
bool RopeFromCacheScaled(const Params& p);
// Such a cache, [P, rot] f32 values (rope_scaling.h, vLLM's f32 order).
std::vector<double> RopeFromCacheScaledCache(const Params& p);
GoldenMapping MapDenseAttention(const GoldenCase& g);
GoldenMapping MapMoeBlock(const GoldenCase& g);  // harness/catalog/composite/moe_block.cpp
// moe_block's router ties: rows where upstream's recorded top-k ids and the
// router kernel's (ids [T,k] i32, weights [T,k] f32, from `logits` and `bias`
// under `ra`) differ among candidates tied within the Bounded scores take
// upstream's ids and the f32 definition's weights for them. Returns the
// verdict's line, "" when no row was tied. golden_logits (optional): the
// router logits upstream computed (its own matmul, apart from the kernel's);
// each logit is then taken anywhere between the two, so a tie in upstream's
// logits that the kernel's rounding split still counts as a tie.
std::string FollowTiedPicks(const TensorData& golden_ids, const TensorData& logits, const TensorData* bias,
                            const vt::MoeRouterTopKArgs& ra, TensorData& ids, TensorData& weights,
                            const TensorData* golden_logits = nullptr);

}  // namespace vt::conform
