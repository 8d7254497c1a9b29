// Catalog entry: gdn_state_gather (the GDN layer's indexed read of its state
// cache into the compact f32 working buffer; rows without an initial state
// are zeros).
#include <algorithm>

#include "harness/catalog/catalog.h"
#include "harness/core/rng.h"
#include "harness/catalog/state/state_entry.h"
#include "oracles/state/gdn_state_gather.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_gdn_state_gather {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// After the shapes (state::DrawShapes).
void Draw(Params& p, Tier) {
  // Reads may repeat a slot ("random"); "distinct" is the layer's own use.
  p.Set("idx_kind", *gen::Pick(std::vector<std::string>{"distinct", "random"}));
  p.Set("init", *gen::Pick(std::vector<std::string>{"none", "i32", "i8"}));  // has_initial_state
}

void Build(Case& c) {
  const Params& p = c.params;
  const auto ws = state::WorkingShape(p), cs = state::CacheShape(p);
  c.Input("cache", p.DType("cache"), cs, glue::InputFill(p));
  seq::AddInts(c, "state_idx", vt::DType::kI32, {ws[0]},
               glue::DrawIndices(p.seed, "state_idx", ws[0], cs[0], p.Str("idx_kind")));
  if (p.Str("init") != "none") {
    std::vector<int64_t> keep;
    for (int64_t r = 0; r < ws[0]; ++r) keep.push_back(SplitMix64(p.seed ^ static_cast<uint64_t>(r)) % 4 == 0 ? 0 : 1);
    seq::AddInts(c, "has_initial_state", p.DType("init"), keep);
  }
  c.Output("working", vt::DType::kF32, ws);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnStateGather(ctx, ws["working"], ws["cache"], ws["state_idx"], ws.Find("has_initial_state"));
}

std::vector<int64_t> Keep(const Case& c) {
  const TensorData* h = c.Find("has_initial_state");
  return h != nullptr ? seq::Ints(*h) : std::vector<int64_t>{};
}

// The expected bytes: each cache element widened to f32 (its bits kept, NaN
// payloads included), the leading columns of the named rows, or +0.
std::vector<TensorData> OracleBytes(const Case& c) {
  const TensorData& cache = c.Get("cache");
  const TensorData& w = c.Get("working");
  const auto wide = glue::ThroughF32(cache.dtype, vt::DType::kF32, glue::Bits(cache));
  return {glue::FromBits("working", vt::DType::kF32, w.shape,
                         oracle::GdnStateGather<uint64_t>(state::Mid(w), cache.shape.back(), w.shape.back(), wide,
                                                          glue::Indices(c.Get("state_idx")), Keep(c), 0))};
}

OracleResult Oracle(const Case& c) {
  const TensorData& cache = c.Get("cache");
  const TensorData& w = c.Get("working");
  return {{"working", glue::ExactValues(oracle::GdnStateGather<double>(state::Mid(w), cache.shape.back(), w.shape.back(),
                                                                       cache.Values(), glue::Indices(c.Get("state_idx")),
                                                                       Keep(c), 0.0))}};
}

OutputSpec Working() {
  OutputSpec o{"working", Exact("a gather: each element widened to f32 (exact), zeros where has_initial_state is 0: "
                                "defined exactly (byte check, NaN payloads kept)")};
  o.zeros_are_data = true;  // rows without an initial state are zeros the kernel must write
  return o;
}

// A widened cache row reads as its leading columns: the same call on a
// cache holding only those columns gives the same bytes.
Case NarrowCache(const Case& c) {
  Case m = c;
  const TensorData& cache = c.Get("cache");
  const int64_t lw = c.Get("working").shape.back(), lc = cache.shape.back();
  const auto bits = glue::Bits(cache);
  std::vector<uint64_t> nb;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (static_cast<int64_t>(i) % lc < lw) nb.push_back(bits[i]);
  }
  std::vector<int64_t> shape = cache.shape;
  shape.back() = lw;
  TensorData t = glue::FromBits("cache", cache.dtype, shape, nb);
  t.role = Role::kInput;
  m.Get("cache") = t;
  m.params.Set("wide", 0);
  return m;
}

}  // namespace
}  // namespace local_gdn_state_gather

OpSpec Spec_gdn_state_gather() {
  using namespace local_gdn_state_gather;
  return state::StateSpec({
      .name = "gdn_state_gather",
      .dtypes = "cpu: cache [slots, mid..., Lc] f32/f16/bf16 (rank 2..4); working [N, mid..., Lw<=Lc] f32; "
                "state_idx i32 [N] in [0, slots), repeats allowed; has_initial_state i8/i32 [N] (0: zero row)",
      .hooks = {Draw, Build, Run, Oracle, OracleBytes},
      .output = Working(),
      .operands = {entry::Written("working", entry::kF32, entry::kContiguous),
                   entry::Operand("cache", entry::kFloatIn, entry::kContiguous, {2, 3, 4}),
                   entry::Operand("state_idx", {vt::DType::kI32}, entry::kContiguous, {1}),
                   entry::Operand("has_initial_state", {vt::DType::kI8, vt::DType::kI32}, entry::kContiguous, {1})},
      .errors = {mut::Dim("has_initial_state", 0, 1)},
      .claims = {RowSlice({"working", "state_idx", "has_initial_state"}),
                 SameAs("wide_eq_narrow", "a widened cache row == a cache of its leading columns",
                        [](const Params& p) { return p.Int("wide") > 0; }, "gdn_state_gather", NarrowCache,
                        {{"working", "working"}})},
  });
}

}  // namespace vt::conform
