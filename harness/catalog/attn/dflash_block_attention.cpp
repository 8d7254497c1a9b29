// Catalog entry: dflash_block_attention (DFlash draft attention: per-request
// blocks of one packed sequence from HOST cu_seqlens; bidirectional inside a
// block, or causal with an optional sliding window; never across a block).
#include <algorithm>
#include <cstring>

#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "oracles/attn/dflash_block_attention.h"
#include "vt/device.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_dflash_block_attention {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
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
}

void Build(Case& c) {
  const std::vector<int64_t> cu = attn_entry::BlockOffsets(c.params);
  attn_entry::AddQuartet(c, cu.back(), cu.back());
  // The host cu_seqlens array, carried as an i32 tensor so that a case holds it
  // (and the negative mode sees it unchanged); Run hands the API a host copy.
  seq::AddInts(c, "cu_seqlens", vt::DType::kI32, cu);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  // The catalog's tensor lives where the workspace put it: on a device
  // backend (the cuda mode) it is read back through the backend's copy, never
  // dereferenced on the host.
  const vt::Tensor& cut = ws["cu_seqlens"];
  std::vector<int32_t> cu(static_cast<size_t>(cut.Numel()));
  const vt::DeviceApi* device = cut.device.type == vt::DeviceType::kCPU ? nullptr : vt::FindDeviceApi(ctx.backend);
  if (!cu.empty() && device != nullptr) {
    device->to_host(cu.data(), cut.data, cu.size() * 4);
  } else if (!cu.empty()) {
    std::memcpy(cu.data(), cut.data, cu.size() * 4);
  }
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
                                         attn_entry::BlockOffsets(c.params), c.params.Flag("causal"),
                                         c.params.Int("window"));
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
ClaimOutcome BlocksAlone(const OpSpec& op, const Case& c, const vt::ExecContext& ctx, const Execution& full) {
  const std::vector<int64_t> cu = attn_entry::BlockOffsets(c.params);
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
    MaterializeTensor(seq::AddInts(one, "cu_seqlens", vt::DType::kI32, {0, len}), c.params.seed);
    const Execution alone = Execute(op, one, ctx);
    const std::vector<double> got = full.after.Get("out").Values(), want = alone.after.Get("out").Values();
    TensorData slice = TensorFromValues("out", c.Get("out").dtype, {len, c.Get("out").shape[1], c.Get("out").shape[2]},
                                        Role::kOutput,
                                        std::vector<double>(got.begin() + cu[r] * row, got.begin() + cu[r + 1] * row));
    const std::string d = DiffBytes(slice, alone.after.Get("out"), /*any_nan=*/true);
    if (!d.empty()) return ClaimOutcome::Violated("request " + std::to_string(r) + ": " + d);
  }
  return ClaimOutcome::Holds();
}

}  // namespace
}  // namespace local_dflash_block_attention

OpSpec Spec_dflash_block_attention() {
  using namespace local_dflash_block_attention;
  std::vector<ErrorCase> errors = {
      attn_entry::DimsTogether("kv_tokens_plus1", {"key", "value"}, 0, 1, "key"),
      mut::Arg("reqs", -3),
      seq::SetArg("cu_seqlens_null", "cu_null", 1, "cu_seqlens"),
      seq::EditInts("cu_end_short_of_T", "cu_seqlens", "cu_seqlens[num_reqs]",
                    [](std::vector<int64_t>& v, const Case&) {
                      if (v.back() == 0) return false;
                      v.back() -= 1;
                      // keep it non-decreasing so that only the end is wrong
                      for (size_t r = v.size() - 1; r-- > 0;) v[r] = std::min(v[r], v[r + 1]);
                      return v[0] == 0;
                    }),
      seq::EditInts("cu_negative", "cu_seqlens", "non-decreasing", seq::FirstStepNegative)};
  seq::Append(errors, attn_entry::DFlashErrors("cu_end_past_T"));
  return attn_entry::AttnSpec({
      .name = "dflash_block_attention",
      .dtypes = "cpu: query,key,value f32/f16/bf16 (one dtype); out f32/bf16; cu_seqlens host i32",
      .hooks = {Draw, Build, Run, Eval<double>, Eval<float>},
      .errors = errors,
      .claims = {SameAs("one_request_is_attention",
                        "one request, no window == attention over its T tokens (same causal flag)",
                        [](const Params& p) {
                          return p.Int("reqs") == 1 && (p.Int("window") == 0 || !p.Flag("causal"));
                        },
                        "attention", AsAttention, {{"out", "out"}}),
                 seq::AfterRun("blocks_alone", "each request's rows == dflash_block_attention run on that request alone",
                               [](const Params& p) { return p.Int("reqs") >= 2; }, BlocksAlone)},
  });
}

}  // namespace vt::conform
