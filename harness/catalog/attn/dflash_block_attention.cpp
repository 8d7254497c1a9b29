// Catalog entry: dflash_block_attention (DFlash draft attention: per-request
// blocks of one packed sequence from HOST cu_seqlens; bidirectional inside a
// block, or causal with an optional sliding window; never across a block).
#include <algorithm>
#include <cstring>

#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "oracles/attn/dflash_block_attention.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("dflash_block_attention");
    const std::vector<int64_t> blocks = *attn_entry::Blocks(tier);
    int64_t t = 0, longest = 0;
    for (int64_t b : blocks) {
      t += b;
      longest = std::max(longest, b);
    }
    p.Set("blocks", blocks);
    p.Set("reqs", static_cast<int64_t>(blocks.size()));
    attn_entry::DrawHeads(p, tier, longest);
    p.Set("causal", *gen::Pick(std::vector<int64_t>{0, 1}));
    // The window applies with causal only; 1 = the query alone, 2/3 narrow,
    // 64 wider than any ci block (no effect: must equal no window).
    p.Set("window", *gen::Pick(std::vector<int64_t>{0, 1, 2, 3, 64}));
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const std::vector<int64_t> cu = attn_entry::CuOf(attn_entry::BlocksOf(c.params));
  attn_entry::AddQuartet(c, cu.back(), cu.back());
  // The host cu_seqlens array, carried as an i32 tensor so that a case holds it
  // (and the negative mode sees it unchanged); Run hands the API a host copy.
  attn_entry::SetI32(c.Input("cu_seqlens", vt::DType::kI32, {static_cast<int64_t>(cu.size())}, Fill::Const(0.0)),
                     cu);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  const vt::Tensor& cut = ws["cu_seqlens"];
  std::vector<int32_t> cu(static_cast<size_t>(cut.Numel()));
  if (!cu.empty()) std::memcpy(cu.data(), cut.data, cu.size() * 4);
  vt::DFlashBlockAttentionArgs a;
  a.scale = p.F32("scale");
  a.causal = p.Flag("causal");
  a.sliding_window = p.Int("window");
  a.cu_seqlens = p.Has("cu_null") ? nullptr : cu.data();
  a.num_reqs = static_cast<int>(p.Int("reqs"));
  vt::DFlashBlockAttention(ctx, ws["out"], ws["query"], ws["key"], ws["value"], a);
}

template <class S>
std::vector<S> Eval(const Case& c) {
  return oracle::DFlashBlockAttention<S>(attn_entry::ShapeOf(c), entry::Vals(c, "query"), entry::Vals(c, "key"),
                                         entry::Vals(c, "value"), c.params.F32("scale"),
                                         attn_entry::CuOf(attn_entry::BlocksOf(c.params)), c.params.Flag("causal"),
                                         c.params.Int("window"));
}

OracleResult Oracle(const Case& c) { return attn_entry::BaselineResult(c, Eval<double>(c), Eval<float>(c)); }

std::map<std::string, std::vector<double>> OracleF32(const Case& c) {
  const std::vector<float> f = Eval<float>(c);
  return {{"out", std::vector<double>(f.begin(), f.end())}};
}

// One request, no window: attention with the same causal flag.
Case AsAttention(const Case& c) {
  Case d = c;
  d.params.op = "attention";
  d.params.Set("T", c.Get("query").shape[0]);
  d.tensors.erase(std::remove_if(d.tensors.begin(), d.tensors.end(),
                                 [](const TensorData& t) { return t.name == "cu_seqlens"; }),
                  d.tensors.end());
  return d;
}

// Blocks never see each other: each request run alone (one request of its
// length, its rows only) gives the same bytes as its rows of the full run.
Claim BlocksAlone() {
  Claim cl;
  cl.name = "blocks_alone";
  cl.statement = "each request's rows == dflash_block_attention run on that request alone";
  cl.applies = [](const Params& p) { return p.Int("reqs") >= 2; };
  cl.check = [](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const Execution full = Execute(op, c, ctx);
    if (!full.guard_error.empty()) return ClaimOutcome::Violated(full.guard_error);
    const std::vector<int64_t> cu = attn_entry::CuOf(attn_entry::BlocksOf(c.params));
    const int64_t row = c.params.Int("Hq") * c.params.Int("D");
    for (size_t r = 0; r + 1 < cu.size(); ++r) {
      const int64_t len = cu[r + 1] - cu[r];
      Case one;
      one.params = c.params;
      one.params.Set("blocks", std::vector<int64_t>{len});
      one.params.Set("reqs", 1);
      for (const char* n : {"query", "key", "value", "out"}) {
        const TensorData& t = c.Get(n);
        const std::vector<double> v = t.Values();
        const int64_t w = t.shape[1] * t.shape[2];
        std::vector<double> part(v.begin() + cu[r] * w, v.begin() + cu[r + 1] * w);
        one.tensors.push_back(TensorFromValues(n, t.dtype, {len, t.shape[1], t.shape[2]},
                                               std::string(n) == "out" ? Role::kOutput : Role::kInput, part));
      }
      TensorData& cut = one.Add("cu_seqlens", vt::DType::kI32, {2}, Role::kInput, Fill::Const(0.0));
      attn_entry::SetI32(cut, {0, len});
      MaterializeTensor(cut, c.params.seed);
      const Execution alone = Execute(op, one, ctx);
      const std::vector<double> got = full.after.Get("out").Values(), want = alone.after.Get("out").Values();
      TensorData slice = TensorFromValues("out", c.Get("out").dtype, {len, c.Get("out").shape[1], c.Get("out").shape[2]},
                                          Role::kOutput,
                                          std::vector<double>(got.begin() + cu[r] * row, got.begin() + cu[r + 1] * row));
      const std::string d = DiffBytes(slice, alone.after.Get("out"), /*any_nan=*/true);
      if (!d.empty()) return ClaimOutcome::Violated("request " + std::to_string(r) + ": " + d);
    }
    return ClaimOutcome::Holds();
  };
  return cl;
}

}  // namespace

OpSpec Spec_dflash_block_attention() {
  using attn_entry::MetaEdit;
  OpSpec s;
  s.name = "dflash_block_attention";
  s.family = "attn";
  s.dtypes = "cpu: query,key,value f32/f16/bf16 (one dtype); out f32/bf16; cu_seqlens host i32";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = Oracle;
  s.oracle_f32 = OracleF32;
  s.outputs = attn_entry::BaselineOutputs;
  s.contract = {attn_entry::QuartetOperands(), {entry::PositiveFinite("scale")}};
  s.errors = {
      mut::Dim("key", 2, 1),
      mut::Dim("value", 0, 1),
      attn_entry::DimsTogether("kv_tokens_plus1", {"key", "value"}, 0, 1, "key"),
      attn_entry::HeadsNotDividing("key", "value"),
      mut::Dim("out", 1, 1),
      mut::Arg("window", -1),
      mut::Arg("reqs", 0),
      mut::Arg("reqs", -3),
      attn_entry::SetArg("cu_seqlens_null", "cu_null", 1, "cu_seqlens"),
      MetaEdit("cu_start_not_zero", "cu_seqlens", [](std::vector<int64_t>& v, const Case&) { v[0] = 1; return true; },
               "cu_seqlens[0]"),
      MetaEdit("cu_end_past_T", "cu_seqlens", [](std::vector<int64_t>& v, const Case&) { v.back() += 1; return true; },
               "cu_seqlens[num_reqs]"),
      MetaEdit("cu_end_short_of_T", "cu_seqlens",
               [](std::vector<int64_t>& v, const Case&) {
                 if (v.back() == 0) return false;
                 v.back() -= 1;
                 // keep it non-decreasing so that only the end is wrong
                 for (size_t r = v.size() - 1; r-- > 0;) v[r] = std::min(v[r], v[r + 1]);
                 return v[0] == 0;
               },
               "cu_seqlens[num_reqs]"),
      // H-1: a negative block length (the seed sized a buffer from it).
      MetaEdit("cu_decreasing", "cu_seqlens",
               [](std::vector<int64_t>& v, const Case&) {
                 if (v.size() < 3) return false;
                 v[1] = v[2] + 1;
                 return true;
               },
               "non-decreasing"),
      MetaEdit("cu_negative", "cu_seqlens",
               [](std::vector<int64_t>& v, const Case&) {
                 if (v.size() < 3) return false;
                 v[1] = -1;
                 return true;
               },
               "non-decreasing"),
  };
  s.claims = {
      SameAs("one_request_is_attention",
             "one request, no window == attention over its T tokens (same causal flag)",
             [](const Params& p) { return p.Int("reqs") == 1 && (p.Int("window") == 0 || !p.Flag("causal")); },
             "attention", AsAttention, {{"out", "out"}}),
      BlocksAlone(),
      SameAs("gqa_is_expanded_mha",
             "GQA with Hq/Hkv q-heads per kv-head == MHA on K/V with each kv-head repeated Hq/Hkv times",
             [](const Params& p) { return p.Int("Hq") != p.Int("Hkv"); }, "dflash_block_attention",
             [](const Case& c) { return attn_entry::ExpandedKV(c, {"key", "value"}); }, {{"out", "out"}}),
  };
  return s;
}

}  // namespace vt::conform
