// Catalog entry: attention_cross (non-causal attention of Tq queries over S
// keys, optional additive f32 score bias per query row or one broadcast row).
#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "oracles/attn/attention_cross.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_attention_cross {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  const int64_t tq = *attn_entry::Tokens(tier, false), s = *attn_entry::Tokens(tier, false);
  p.Set("Tq", tq);
  p.Set("S", s);
  attn_entry::DrawHeads(p, tier, std::max(tq, s));
  // bias: none, one row per query, or one row broadcast to every query.
  p.Set("bias", *gen::Pick(std::vector<std::string>{"none", "rows", "broadcast"}));
}

void Build(Case& c) {
  const Params& p = c.params;
  attn_entry::AddQuartet(c, p.Int("Tq"), p.Int("S"));
  const std::string bias = p.Str("bias");
  // A mask-like bias: scores shifted by up to +-3 (a relative position bias
  // or a soft mask), in f32 as the contract requires.
  if (bias != "none") {
    c.Input("bias", vt::DType::kF32, {bias == "rows" ? p.Int("Tq") : 1, p.Int("S")}, Fill::Uniform(-3.0, 3.0));
  }
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::AttentionCross(ctx, ws["out"], ws["query"], ws["key"], ws["value"], ws.Find("bias"), {p.F32("scale")});
}

template <class S>
std::vector<S> Eval(const Case& c) {
  const TensorData* b = c.Find("bias");
  return oracle::AttentionCross<S>(attn_entry::ShapeOf(c), c.Get("key").shape[0], entry::Vals(c, "query"),
                                   entry::Vals(c, "key"), entry::Vals(c, "value"), c.params.F32("scale"),
                                   b != nullptr ? b->Values() : std::vector<double>{},
                                   b != nullptr ? b->shape[0] : 0);
}

// A broadcast bias row == the same row given once per query.
Case BiasPerRow(const Case& c) {
  Case d = c;
  d.params.Set("bias", "rows");
  const TensorData& b = c.Get("bias");
  const int64_t tq = c.params.Int("Tq");
  std::vector<double> rows;
  const std::vector<double> row = b.Values();
  for (int64_t i = 0; i < tq; ++i) rows.insert(rows.end(), row.begin(), row.end());
  d.Get("bias") = TensorFromValues("bias", vt::DType::kF32, {tq, b.shape[1]}, Role::kInput, rows);
  return d;
}

// bias rows + 1 breaks the "[Tq, S] or [1, S]" rule unless it lands on the
// other legal extent: a broadcast row [1, S] at Tq = 2 becomes a valid
// per-query bias [2, S] (the full tier drew it: a false FAILED_INCORRECT).
// Such cases are left to the other draws.
ErrorCase BiasRowsPlusOne() {
  ErrorCase e = mut::Dim("bias", 0, 1);
  e.mutate = [plus_one = e.mutate](Case& c) {
    const TensorData* b = c.Find("bias");
    if (b == nullptr || b->shape.empty() || b->shape[0] + 1 == c.params.Int("Tq")) return false;
    return plus_one(c);
  };
  return e;
}

}  // namespace
}  // namespace local_attention_cross

OpSpec Spec_attention_cross() {
  using namespace local_attention_cross;
  return attn_entry::AttnSpec({
      .name = "attention_cross",
      .dtypes = "cpu: query,key,value f32/f16/bf16 (one dtype); out f32/bf16; bias f32",
      .hooks = {Draw, Build, Run, Eval<double>, Eval<float>},
      .operands = {entry::Operand("bias", entry::kF32, entry::kContiguous, {2})},
      .errors = {mut::Dim("out", 0, 1), seq::ZeroExtents("no_queries", {{"query", 0}, {"out", 0}}, "query"),
                 seq::ZeroExtents("no_keys", {{"key", 0}, {"value", 0}}, "key"), mut::Dim("bias", 1, 1),
                 BiasRowsPlusOne()},
      .claims = {SameAs("broadcast_bias_is_rows", "a [1, S] bias == the same row given for every query ([Tq, S])",
                        [](const Params& p) { return p.Str("bias") == "broadcast"; }, "attention_cross", BiasPerRow,
                        {{"out", "out"}})},
  });
}

}  // namespace vt::conform
