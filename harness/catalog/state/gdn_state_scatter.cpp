// Catalog entry: gdn_state_scatter (the GDN layer's `cache[idx] =
// working.to(cache.dtype)`, in place; f32 / f16 / bf16 caches).
#include <algorithm>

#include "harness/catalog/catalog.h"
#include "harness/core/rng.h"
#include "harness/catalog/conv/conv_entry.h"
#include "harness/catalog/state/state_entry.h"
#include "oracles/state/gdn_state_scatter.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_gdn_state_scatter {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Build(Case& c) {
  const Params& p = c.params;
  const auto ws = state::WorkingShape(p), cs = state::CacheShape(p);
  c.Add("cache", p.DType("cache"), cs, Role::kInPlace, glue::InputFill(p));
  c.Input("working", vt::DType::kF32, ws, glue::InputFill(p));
  seq::AddInts(c, "state_idx", vt::DType::kI32, {ws[0]},
               glue::DrawIndices(p.seed, "state_idx", ws[0], cs[0], "distinct"));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnStateScatter(ctx, ws["cache"], ws["working"], ws["state_idx"]);
}

// Each working element stored to the cache dtype (nearest even; NaN by the
// spec's rule), into the leading columns of the named slots; the rest keeps
// its bytes.
std::vector<TensorData> OracleBytes(const Case& c) {
  const TensorData& cache = c.Get("cache");
  const TensorData& w = c.Get("working");
  const auto stored = glue::ThroughF32(vt::DType::kF32, cache.dtype, glue::Bits(w));
  return {glue::FromBits("cache", cache.dtype, cache.shape,
                         oracle::GdnStateScatter<uint64_t>(state::Mid(w), cache.shape.back(), w.shape.back(),
                                                           glue::Bits(cache), stored, glue::Indices(c.Get("state_idx"))))};
}

OracleResult Oracle(const Case& c) { return {{"cache", glue::ExactValues(OracleBytes(c).front().Values())}}; }

// gather(scatter(cache, working, idx), idx) == working rounded through the
// cache dtype: the layer's store and reload of a state round-trip.
ClaimOutcome RoundTrip(const OpSpec&, const Case& c, const vt::ExecContext& ctx, const Execution& a) {
  const TensorData& w = c.Get("working");
  Case g;
  g.params = Params("gdn_state_gather");
  g.params.seed = c.params.seed;
  g.tensors = {CopyTensor(a.after.Get("cache"), "cache", Role::kInput), CopyTensor(c.Get("state_idx"), "state_idx", Role::kInput),
               seq::Poisoned("working", w.dtype, w.shape)};
  const Execution b = Execute(*FindOp("gdn_state_gather"), g, ctx);
  if (!b.guard_error.empty()) return ClaimOutcome::Violated("gather: " + b.guard_error);
  const vt::DType cd = c.Get("cache").dtype;
  const auto want = glue::ThroughF32(cd, vt::DType::kF32, glue::ThroughF32(vt::DType::kF32, cd, glue::Bits(w)));
  const std::string d = DiffBytes(b.after.Get("working"), glue::FromBits("working", vt::DType::kF32, w.shape, want));
  return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
}

}  // namespace
}  // namespace local_gdn_state_scatter

OpSpec Spec_gdn_state_scatter() {
  using namespace local_gdn_state_scatter;
  return state::StateSpec({
      .name = "gdn_state_scatter",
      .dtypes = "cpu: cache [slots, mid..., Lc] f32/f16/bf16 (rank 2..4) in place; working [N, mid..., Lw<=Lc] f32; "
                "state_idx i32 [N], distinct, in [0, slots)",
      .hooks = {nullptr, Build, Run, Oracle, OracleBytes},
      .output = {"cache", Exact("a scatter: one rounding of each f32 element to the cache dtype (nearest even), other "
                                "slots and columns unchanged: defined exactly (byte check, NaN payloads by the spec's "
                                "rule)")},
      .operands = {entry::Written("cache", entry::kFloatIn, entry::kContiguous, {2, 3, 4}),
                   entry::Operand("working", entry::kF32, entry::kContiguous),
                   entry::Operand("state_idx", {vt::DType::kI32}, entry::kContiguous, {1})},
      .errors = {conv::DuplicateSlot("state_idx")},
      .claims = {seq::AfterRun("gather_roundtrip",
                               "gdn_state_gather(gdn_state_scatter(cache, working, idx), idx) == working rounded "
                               "through the cache dtype",
                               [](const Params& p) { return p.Int("T") > 0; }, RoundTrip)},
  });
}

}  // namespace vt::conform
