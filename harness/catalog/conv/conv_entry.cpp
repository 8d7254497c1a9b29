#include "harness/catalog/conv/conv_entry.h"

#include <algorithm>

#include "harness/catalog/catalog.h"
#include "harness/core/rng.h"

namespace vt::conform::conv {

namespace local_conv_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// conv_state one tap narrower than K-1 (K >= 2).
ErrorCase NarrowState() {
  return {"conv_state_narrower_than_k_minus_1",
          [](Case& c) {
            TensorData& s = c.Get("conv_state");
            const int64_t k = c.Get("weight").shape[1];
            if (k < 2) return false;
            s.shape[2] = k - 2;
            s.SetContiguous();
            return true;
          },
          "conv_state"};
}

// weight's kernel width 0 (K >= 1 required).
ErrorCase ZeroWidth() {
  return {"weight_width_0",
          [](Case& c) {
            TensorData& w = c.Get("weight");
            w.shape[1] = 0;
            w.SetContiguous();
            return true;
          },
          "kernel width"};
}

OutputSpec OutRule() {
  return {"out", Bound("bias (or 0) plus K f32 products w*tap, summed in tap order, then silu (z / (1 + expf(-z))) "
                       "or identity, rounded to out's dtype: running error bound of each f32 step "
                       "(docs/tolerance.md); taps are exact x / state values")};
}

OutputSpec StateRule() {
  OutputSpec s{"conv_state", Exact("the state holds raw x values and shifted old taps (f32 widening is exact), "
                                   "zeros where the definition pads; untouched slots and taps keep their bytes: "
                                   "defined exactly")};
  s.zeros_are_data = true;  // padding zeros are values the kernel must write
  return s;
}

// out, x (rows may be padded), weight, bias, the f32 conv_state (in place), then `rest`.
std::vector<OperandRule> CoreOperandsAnd(std::vector<OperandRule> rest) {
  std::vector<OperandRule> v = {entry::Written("out", entry::kFloatOut, entry::kContiguous, {2}),
                                entry::Operand("x", entry::kFloatIn, entry::kRowStrided, {2}),
                                entry::Operand("weight", entry::kFloatIn, entry::kContiguous, {2}),
                                entry::Operand("bias", entry::kFloatIn, entry::kContiguous, {1}),
                                entry::Written("conv_state", entry::kF32, entry::kContiguous, {3})};
  v.insert(v.end(), rest.begin(), rest.end());
  return v;
}


// The shape relations of weight, bias, out and conv_state's channel dim, one
// extent broken each; K = 0; a conv_state narrower than K-1.
std::vector<ErrorCase> CoreErrors() {
  return {mut::Dim("weight", 0, 1), mut::Dim("bias", 0, 1), mut::Dim("out", 0, 1), mut::Dim("out", 1, 1),
          mut::Dim("conv_state", 1, 1), ZeroWidth(), NarrowState()};
}

}  // namespace
}  // namespace local_conv_entry

OpSpec ConvSpec(ConvOp op) {
  using namespace local_conv_entry;
  const int64_t min_k = op.min_k;
  const seq::Draw common = [min_k](Params& p, Tier tier) { DrawCommon(p, tier, min_k); };
  OpSpec s = seq::Basics(op.name, "conv", op.dtypes, op.hooks, common);
  s.oracle = entry::Bounds(op.hooks.oracle);
  s.oracle_f32 = entry::F32(op.hooks.definition);
  s.outputs = [](const Case&) { return std::vector<OutputSpec>{OutRule(), StateRule()}; };
  s.contract = {CoreOperandsAnd(op.operands), {}};
  s.values.specials = {{"x"}, {"weight"}, {"conv_state"}};
  s.errors = CoreErrors();
  seq::Append(s.errors, op.errors);
  s.claims = op.claims;
  s.goldens = op.goldens;
  return s;
}

rc::Gen<int64_t> Channels(Tier t) {
  using namespace local_conv_entry;
  if (t == Tier::kSmoke) return gen::Pick(std::vector<int64_t>{1, 4, 17});
  return gen::Pick(std::vector<int64_t>{1, 2, 3, 7, 8, 16, 17, 33, 64, 127, 128, 256, 1024});
}

void DrawCommon(Params& p, Tier t, int64_t min_k) {
  using namespace local_conv_entry;
  p.Set("x", *gen::FloatIn());
  p.Set("w", *gen::FloatIn());
  p.Set("bias", *gen::Pick(std::vector<std::string>{"none", "f32", "bf16", "f16"}));
  p.Set("out", *gen::FloatOut());
  p.Set("C", *Channels(t));
  // 4 is the width of every Qwen3-Next / Mamba conv; 1 (no state) and the
  // widths around it keep the tap arithmetic honest.
  std::vector<int64_t> ks;
  for (int64_t k : {4, 4, 1, 2, 3, 5}) {
    if (k >= min_k) ks.push_back(k);
  }
  p.Set("K", *gen::Pick(ks));
  p.Set("silu", *gen::Pick(std::vector<int64_t>{1, 1, 0}));
  p.Set("pad", *gen::Pad());
  p.Set("scale", *gen::Scale());
}

void BuildCommon(Case& c, int64_t rows) {
  using namespace local_conv_entry;
  const Params& p = c.params;
  const int64_t ch = p.Int("C"), k = p.Int("K");
  c.Input("x", p.DType("x"), {rows, ch}, entry::Values(p)).SetRowPadding(p.Int("pad"));
  c.Input("weight", p.DType("w"), {ch, k}, Fill::Normal(0.0, 0.5));
  if (p.Str("bias") != "none") c.Input("bias", p.DType("bias"), {ch}, Fill::Normal(0.0, 0.5));
}

vt::CausalConv1dArgs Args(const Params& p) {
  using namespace local_conv_entry;
  vt::CausalConv1dArgs a;
  a.silu_activation = p.Flag("silu");
  return a;
}

std::vector<int64_t> DrawSlots(uint64_t seed, int64_t m, int64_t n, bool nulls) {
  using namespace local_conv_entry;
  std::vector<int64_t> pool(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) pool[static_cast<std::size_t>(i)] = n - 1 - i;  // n-1 first
  // Seeded Fisher-Yates over all but the first (so n-1 stays in).
  for (int64_t i = n - 1; i > 1; --i) {
    const int64_t j = 1 + static_cast<int64_t>(SplitMix64(seed ^ HashName("slots") ^ static_cast<uint64_t>(i)) %
                                               static_cast<uint64_t>(i));
    std::swap(pool[static_cast<std::size_t>(i)], pool[static_cast<std::size_t>(j)]);
  }
  std::vector<int64_t> v;
  // At most a quarter of the rows are NULL: their outputs are zeros, and a
  // reference that is mostly zero is MISTRUSTED.
  int64_t next = 0, null_rows = 0;
  for (int64_t r = 0; r < m; ++r) {
    const bool null_row = nulls && (null_rows + 1) * 4 <= m &&
                          SplitMix64(seed ^ HashName("null") ^ static_cast<uint64_t>(r)) % 4 == 1;
    null_rows += null_row ? 1 : 0;
    v.push_back(null_row ? -1 : pool[static_cast<std::size_t>(next++ % std::max<int64_t>(n, 1))]);
  }
  return v;
}

ErrorCase DuplicateSlot(const std::string& tensor) {
  using namespace local_conv_entry;
  return seq::EditInts(tensor + "_duplicate_live", tensor, "duplicate", [](std::vector<int64_t>& v, const Case&) {
    std::size_t a = v.size(), b = v.size();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] < 0) continue;
      if (a == v.size()) {
        a = i;
      } else {
        b = i;
        break;
      }
    }
    if (b == v.size()) return false;
    v[b] = v[a];
    return true;
  });
}

std::vector<double> BiasValues(const Case& c) {
  using namespace local_conv_entry;
  const TensorData* b = c.Find("bias");
  return b != nullptr ? b->Values() : std::vector<double>{};
}

std::string UpdateTokenByToken(const Case& c, const vt::ExecContext& ctx, const std::vector<int64_t>& starts,
                               const std::vector<bool>& live, TensorData& state, std::vector<double>& got) {
  const OpSpec* upd = FindOp("causal_conv1d_update");
  const TensorData& x = c.Get("x");
  const int64_t ch = x.shape[1], n = static_cast<int64_t>(live.size());
  const auto xv = x.Values();
  const vt::DType out_dt = c.Get("out").dtype;
  int64_t longest = 0;
  for (int64_t s = 0; s < n; ++s) longest = std::max(longest, starts[static_cast<std::size_t>(s) + 1] - starts[static_cast<std::size_t>(s)]);
  for (int64_t t = 0; t < longest; ++t) {
    std::vector<int64_t> rows;
    std::vector<double> xs;
    for (int64_t s = 0; s < n; ++s) {
      const int64_t tok = starts[static_cast<std::size_t>(s)] + t;
      if (!live[static_cast<std::size_t>(s)] || tok >= starts[static_cast<std::size_t>(s) + 1]) continue;
      rows.push_back(s);
      xs.insert(xs.end(), xv.begin() + tok * ch, xv.begin() + (tok + 1) * ch);
    }
    if (rows.empty()) continue;
    const auto b = static_cast<int64_t>(rows.size());
    Case u;
    u.params = Params("causal_conv1d_update");
    u.params.Set("silu", c.params.Int("silu"));
    u.params.seed = c.params.seed;
    u.tensors = {TensorFromValues("x", x.dtype, {b, ch}, Role::kInput, xs), CopyTensor(c.Get("weight"), "weight", Role::kInput),
                 state, TensorFromValues("conv_state_indices", vt::DType::kI32, {b}, Role::kInput,
                                         std::vector<double>(rows.begin(), rows.end())),
                 seq::Poisoned("out", out_dt, {b, ch})};
    if (c.Find("bias") != nullptr) u.tensors.push_back(CopyTensor(c.Get("bias"), "bias", Role::kInput));
    const Execution e = Execute(*upd, u, ctx);
    if (!e.guard_error.empty()) return "update step " + std::to_string(t) + ": " + e.guard_error;
    state = CopyTensor(e.after.Get("conv_state"), "conv_state", Role::kInPlace);
    const auto ov = e.after.Get("out").Values();
    for (int64_t q = 0; q < b; ++q) {
      const int64_t tok = starts[static_cast<std::size_t>(rows[static_cast<std::size_t>(q)])] + t;
      std::copy(ov.begin() + q * ch, ov.begin() + (q + 1) * ch, got.begin() + tok * ch);
    }
  }
  return "";
}

}  // namespace vt::conform::conv

#include "harness/golden/adapter.h"

namespace vt::conform::conv {

bool GoldenSilu(const GoldenCase& g) {
  using namespace local_conv_entry;
  const std::string act = g.ArgStr("activation", "none");
  if (act != "silu" && act != "swish" && act != "none" && act != "identity") {
    throw GoldenUnsupported("activation '" + act + "' (silu / swish or none)");
  }
  return act == "silu" || act == "swish";
}

TensorData GoldenWeight(const GoldenCase& g) {
  using namespace local_conv_entry;
  TensorData w = GoldenTensor(g, "weight", "weight", Role::kInput);
  if (w.shape.size() == 3 && w.shape[1] == 1) {  // torch's conv1d weight [dim, 1, width]
    w.shape = {w.shape[0], w.shape[2]};
    w.SetContiguous();
  }
  return w;
}

void RequireF32State(const GoldenCase& g) {
  using namespace local_conv_entry;
  const TensorData& st = g.Get("conv_state_in");
  if (st.dtype != vt::DType::kF32) throw GoldenUnsupported("a " + DTypeKey(st) + " conv_state (f32 on CPU)");
}

void SetGoldenDtypes(Params& p, const GoldenCase& g, const TensorData& x, const TensorData& w, const TensorData& out) {
  using namespace local_conv_entry;
  p.Set("x", DTypeKey(x));
  p.Set("w", DTypeKey(w));
  p.Set("bias", g.Has("bias") ? DTypeKey(g.Get("bias")) : "none");
  p.Set("out", DTypeKey(out));
}

}  // namespace vt::conform::conv
