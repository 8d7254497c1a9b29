// Catalog entry: attention (dense GQA softmax attention over one packed
// sequence, causal or not), and the spec its CUDA-variant names reuse.
#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "oracles/attn/attention.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

void Draw(Params& p, Tier tier) {
  const int64_t t = *attn_entry::Tokens(tier);
  p.Set("T", t);
  attn_entry::DrawHeads(p, tier, t);
  p.Set("causal", *gen::Pick(std::vector<int64_t>{1, 0}));
}

void Build(Case& c) {
  const int64_t t = c.params.Int("T");
  attn_entry::AddQuartet(c, t, t);
}

void RunAs(const std::string& name, const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  const vt::AttentionArgs args{p.F32("scale"), p.Flag("causal")};
  if (name == "attention_dense_fast") {
    vt::AttentionDenseFast(ctx, ws["out"], ws["query"], ws["key"], ws["value"], args);
  } else if (name == "attention_dense_flash") {
    vt::AttentionDenseFlash(ctx, ws["out"], ws["query"], ws["key"], ws["value"], args);
  } else if (name == "attention_dense_fa2") {
    vt::AttentionDenseFa2(ctx, ws["out"], ws["query"], ws["key"], ws["value"], args);
  } else {
    vt::Attention(ctx, ws["out"], ws["query"], ws["key"], ws["value"], args);
  }
}

template <class S>
std::vector<S> Eval(const Case& c) {
  return oracle::Attention<S>(attn_entry::ShapeOf(c), entry::Vals(c, "query"), entry::Vals(c, "key"),
                              entry::Vals(c, "value"), c.params.F32("scale"), c.params.Flag("causal"));
}

// causal = 0: the same bytes as attention_cross with S = T keys and no bias.
Case AsCross(const Case& c) {
  Case d = c;
  d.params.op = "attention_cross";
  d.params.Set("Tq", c.params.Int("T"));
  d.params.Set("S", c.params.Int("T"));
  d.params.Set("bias", "none");
  return d;
}

// One request covering the whole sequence, no window: dflash_block_attention.
Case AsOneRequest(const Case& c) {
  Case d = c;
  d.params.op = "dflash_block_attention";
  const int64_t t = c.params.Int("T");
  d.params.Set("blocks", std::vector<int64_t>{t});
  d.params.Set("reqs", 1);
  d.params.Set("window", 0);
  MaterializeTensor(seq::AddInts(d, "cu_seqlens", vt::DType::kI32, {0, t}), c.params.seed);
  return d;
}

}  // namespace

namespace attn_entry {

OpSpec DenseAttentionSpec(const std::string& name) {
  const seq::Run run = [name](const vt::ExecContext& ctx, const Workspace& ws) { RunAs(name, ctx, ws); };
  OpSpec s = AttnSpec({
      .name = name,
      .dtypes = "cpu: query,key,value f32/f16/bf16 (one dtype); out f32/bf16",
      .hooks = {Draw, Build, run, Eval<double>, Eval<float>},
      .errors = {mut::Dim("value", 2, -1), DimsTogether("kv_tokens_plus1", {"key", "value"}, 0, 1, "key"),
                 seq::ZeroExtents("kv_heads_zero", {{"key", 1}, {"value", 1}}, "multiple"), mut::Dim("out", 0, 1),
                 mut::Dim("out", 2, -1)},
      .claims = {SameAs("noncausal_is_cross",
                        "attention with causal=0 over T keys == attention_cross with S = T, no bias",
                        [](const Params& p) { return !p.Flag("causal") && p.Int("T") > 0; }, "attention_cross",
                        AsCross, {{"out", "out"}}),
                 SameAs("one_request_is_dflash",
                        "attention == dflash_block_attention with one request over all T tokens (same causal, no "
                        "window)",
                        nullptr, "dflash_block_attention", AsOneRequest, {{"out", "out"}})},
  });
  if (name != "attention") {
    s.claims.push_back(SameAs("same_as_attention", name + " == attention, bit for bit (one CPU kernel)", nullptr,
                              "attention",
                              [](const Case& c) {
                                Case d = c;
                                d.params.op = "attention";
                                return d;
                              },
                              {{"out", "out"}}));
  }
  return s;
}

}  // namespace attn_entry

OpSpec Spec_attention() { return attn_entry::DenseAttentionSpec("attention"); }

}  // namespace vt::conform
