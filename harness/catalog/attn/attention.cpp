// Catalog entry: attention (dense GQA softmax attention over one packed
// sequence, causal or not), and the spec its CUDA-variant names reuse.
#include <optional>

#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "oracles/attn/attention.h"
#include "oracles/attn/online_attention.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_attention {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  const int64_t t = *attn_entry::Tokens(tier);
  p.Set("T", t);
  attn_entry::DrawHeads(p, tier, t);
  p.Set("causal", *gen::Pick(std::vector<int64_t>{1, 0}));
  // query/key rows of rms exactly 1 (attn_entry::FillUnitRmsRows): what vLLM's
  // dense_attention chain (per-head norm, rotary) leaves as it is, so that
  // vt-fuzz --upstream can hold this op to it; also integer scores (ties).
  p.Set("qk", *gen::Pick(std::vector<std::string>{"normal", "normal", "normal", "unit_rms"}));
}

void Build(Case& c) {
  const int64_t t = c.params.Int("T");
  attn_entry::AddQuartet(c, t, t);
  if (c.params.Has("qk") && c.params.Str("qk") == "unit_rms") {
    const double scale = attn_entry::UnitRmsScale(c.params.Num("mag"));
    for (const char* name : {"query", "key"}) {
      attn_entry::FillUnitRmsRows(c.Get(name), c.params.Int("D"), scale, c.params.seed);
    }
  }
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

// attention_dense_flash / _fa2 run on CUDA as an online softmax over key
// tiles (FlashAttention-1 / -2 updates, kernels/cuda/attn/flash_tile.cuh).
std::optional<oracle::OnlineUpdate> FlashUpdate(const std::string& name) {
  if (name == "attention_dense_flash") return oracle::OnlineUpdate::kFa1;
  if (name == "attention_dense_fa2") return oracle::OnlineUpdate::kFa2;
  return std::nullopt;
}

// The tolerance of the flash names. The baseline rule bounds a kernel by
// c = 2 x the error of a faithful f32 evaluation of the op; these names have
// two: the spec's three passes (oracle<float>: the CPU kernel they share
// with attention, and its f32_definition bytes) and the online softmax the
// CUDA kernels run (online<float>: oracles/attn/online_attention.h, the same
// 16-key tiles, update and rounding points). The online order rounds at
// other points - a rescale factor exp(m_old - m) per tile whose max moved,
// the weights relative to a running max, the normalization at the end
// (FA2) or per tile (FA1) - so its own error, not the three-pass one, is
// the reference it must be held to; on a tiny output (one row, two keys)
// the two orders' errors are independent draws and either may be the
// smaller. Hence e = 2 x max(worst three-pass error, worst online error),
// per element before the store, then out's rounding: never tighter than
// attention's rule (the CPU kernel registered under these names passes),
// never more than twice the worse faithful evaluation. c = 2 as for
// attention: on cuda-emu the kernel's bytes ARE online<float>'s (unit test
// AttentionFlashBaseline.KernelIsTheOnlineReference), on a device only exp
// differs (<= 0.5 ulp + 2^-29 per call, docs/cuda.md). Sharpness: a
// dropped rescale of the running max and a one-ulp-per-key-step drift fail
// it (unit test AttentionFlashBaseline.PlantedDriftsFail), as do the
// mutants cuda-attn-flash-* (lost rescale, missing barriers).
std::vector<OutputSpec> FlashOutputs(const Case&) {
  return {{"out", Bound("the baseline rule over both faithful f32 orders: |kernel - oracle<double>| <= 2 x "
                        "max(max|oracle<float> - oracle<double>|, max|online<float> - oracle<double>|) (f32, "
                        "before the store), then out's rounding; online<float> = the CUDA kernel's online "
                        "softmax over 16-key tiles (running max with rescale), whose rounding points differ "
                        "from the three passes'; c = 2: the kernel is online<float> on cuda-emu, exp is its "
                        "only difference on a device; a dropped rescale or a one-ulp-per-key drift fails "
                        "(AttentionFlashBaseline unit test, mutants cuda-attn-flash-*)")}};
}

std::vector<float> EvalOnline(const Case& c, oracle::OnlineUpdate rule) {
  return oracle::AttentionOnline<float>(attn_entry::ShapeOf(c), entry::Vals(c, "query"), entry::Vals(c, "key"),
                                        entry::Vals(c, "value"), c.params.F32("scale"), c.params.Flag("causal"),
                                        attn_entry::kFlashKeyTile, rule);
}

}  // namespace
}  // namespace local_attention

namespace attn_entry {

OpSpec DenseAttentionSpec(const std::string& name) {
  using namespace local_attention;
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
  if (const std::optional<oracle::OnlineUpdate> rule = FlashUpdate(name)) {
    s.oracle = [rule = *rule](const Case& c) {
      return BaselineResult(c, Eval<double>(c), std::vector<std::vector<float>>{Eval<float>(c), EvalOnline(c, rule)});
    };
    s.outputs = FlashOutputs;
  }
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

OpSpec Spec_attention() {
  using namespace local_attention;
  return attn_entry::DenseAttentionSpec("attention");
}

}  // namespace vt::conform
