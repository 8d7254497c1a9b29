// Catalog entry: fused_chain (declarative fused recipe; Tier 0 composite and
// Tier 1 interpreter). Recipes travel in params as a compact string:
//   step := OP in0 in1 ':' out ['g']      OP: A add, M mul, S silu, G sigmoid, N rms_norm
//   e.g. "A02:2;N21:3g" = residual = x + residual; out = gemma_rms_norm(residual, weight)
// Unary steps carry one input digit. Unknown letters map to an invalid opcode
// so the negative mode can hand the API malformed recipes.
#include "harness/catalog/catalog.h"
#include "harness/catalog/norm/norm_entry.h"
#include "oracles/norm/fused_chain.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_fused_chain {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

vt::FusedRecipe ParseRecipe(const std::string& s) {
  vt::FusedRecipe r;
  std::size_t pos = 0;
  while (pos < s.size() && r.n < vt::kMaxFusedSteps + 1) {
    std::size_t end = s.find(';', pos);
    if (end == std::string::npos) end = s.size();
    const std::string step = s.substr(pos, end - pos);
    pos = end + 1;
    if (step.empty()) continue;
    vt::FusedStep st;
    // 'X' is the first opcode past the last one (kRmsNorm + 1): the boundary
    // an off-by-one opcode check admits.
    static const std::string kOps = "AMSGNX";
    const std::size_t code = kOps.find(step[0]);
    st.op = static_cast<vt::FusedOp>(code == std::string::npos ? 99 : code);
    const bool unary = step[0] == 'S' || step[0] == 'G';
    const std::size_t colon = step.find(':');
    auto digit = [&](std::size_t i) { return static_cast<uint8_t>(i < step.size() ? step[i] - '0' : 9); };
    st.in0 = digit(1);
    // A unary step may carry an unused second slot ("S07:3"): the API must
    // ignore it, whatever it holds.
    const bool unused_in1 = unary && step.size() > 2 && std::isdigit(static_cast<unsigned char>(step[2]));
    st.in1 = unary ? (unused_in1 ? digit(2) : 0) : digit(2);
    st.out = colon == std::string::npos ? 9 : digit(colon + 1);
    st.gemma = step.back() == 'g';
    if (r.n < vt::kMaxFusedSteps) r.steps[r.n] = st;
    ++r.n;  // n may exceed kMaxFusedSteps: the API must refuse it
  }
  return r;
}

// Valid random granular recipes (interpreter tier): inputs from the slots that
// hold data (x, weight, residual if present, out once written), outputs to
// residual / out, and out written at least once.
rc::Gen<std::string> RandomRecipe(bool has_residual) {
  return rc::gen::exec([has_residual] {
    const int steps = *rc::gen::inRange(1, 5);
    bool out_written = false;
    std::string s;
    for (int i = 0; i < steps; ++i) {
      std::vector<int> readable = {0, 1};
      if (has_residual) readable.push_back(2);
      if (out_written) readable.push_back(3);
      const char op = *gen::Pick(std::string("AMSGN"));
      const bool last = i == steps - 1;
      const int out = (has_residual && !(last && !out_written) && *gen::Flag()) ? 2 : 3;
      s += (i ? ";" : "") + std::string(1, op) + std::to_string(*gen::Pick(readable));
      if (op != 'S' && op != 'G') {
        s += std::to_string(*gen::Pick(readable));
      } else if (*gen::Flag()) {
        s += std::to_string(*rc::gen::inRange(0, 10));  // unused: any digit is valid
      }
      s += ":" + std::to_string(out);
      if (op == 'N' && *gen::Flag()) s += "g";
      out_written = out_written || out == 3;
    }
    return s;
  });
}

void Draw(Params& p, Tier tier) {
  p.Set("T", *gen::Rows(tier));
  p.Set("H", *gen::Width(tier));
  const std::string residual = *gen::Pick(std::vector<std::string>{"none", "f32", "bf16"});
  p.Set("residual", residual);
  const int64_t tier_id = *gen::Flag();
  p.Set("tier", tier_id);
  const std::string g = *gen::Flag() ? "g" : "";
  std::vector<std::string> named = {"N01:3" + g};
  if (residual != "none") named.push_back("A02:2;N21:3" + g);
  const bool random = tier_id == 1 && *gen::Pick(std::vector<int>{0, 1, 1});
  p.Set("recipe", random ? *RandomRecipe(residual != "none") : *gen::Pick(named));
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), h = p.Int("H");
  c.Input("x", p.DType("x"), {t, h}, entry::Values(p));
  c.Input("weight", p.DType("w"), {h}, Fill::Uniform(-0.5, 1.5));
  if (p.Str("residual") != "none") c.Add("residual", p.DType("residual"), {t, h}, Role::kInPlace, entry::Values(p));
  c.Output("out", p.DType("out"), {t, h});
}

vt::FusedChainArgs Args(const Params& p) {
  vt::FusedChainArgs a;
  a.eps = p.F32("eps");
  a.tier = static_cast<vt::FusedTier>(p.Int("tier"));
  return a;
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::FusedChain(ctx, ws["out"], ws["x"], ws["weight"], ws.Find("residual"), ParseRecipe(ws.params().Str("recipe")),
                 Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  const TensorData* r = c.Find("residual");
  oracle::ChainSlots<S> s;
  s.x = entry::Inputs<S>(x.Values());
  s.weight = entry::Inputs<S>(entry::Vals(c, "weight"));
  if (r != nullptr) {
    s.residual = entry::Inputs<S>(r->Values());
    s.residual_fmt = r->fmt;
  }
  s.out.assign(static_cast<std::size_t>(x.Numel()), oracle::In<S>(NAN));  // never read before written
  s.out_fmt = c.Get("out").fmt;
  oracle::FusedChain(x.shape[0], x.shape[1], ParseRecipe(c.params.Str("recipe")), c.params.F32("eps"), s);
  entry::Outs<S> o{{"out", s.out}};
  if (r != nullptr) o["residual"] = s.residual;
  return o;
}

std::vector<OutputSpec> Outputs(const Case& c) {
  std::vector<OutputSpec> o = {{"out", Bound("each step's f32 ops (expf 1 ulp for silu/sigmoid) and each "
                                             "store's rounding to the slot dtype: running bound per step")}};
  if (c.Find("residual") != nullptr) o.push_back({"residual", Bound("as out; an add of exact inputs is exact")});
  return o;
}

// The recipes the composite tier can express (vt::RecipeRmsNorm / RecipeFusedAddRmsNorm).
bool Named(const Params& p) {
  const std::string r = p.Str("recipe");
  return r == "N01:3" || r == "N01:3g" || r == "A02:2;N21:3" || r == "A02:2;N21:3g";
}

Case OtherTier(const Case& c) {
  Case d = c;
  d.params.Set("tier", 1 - c.params.Int("tier"));
  return d;
}

Case AsRmsNorm(const Case& c) {
  Case d = c;
  d.params.op = "rms_norm";
  d.params.Set("gemma", c.params.Str("recipe").back() == 'g' ? 1 : 0);
  return d;
}

// A malformed recipe, applicable to any case (residual presence permitting).
// It goes to the interpreter tier: the composite tier refuses every recipe it
// cannot express anyway, which would hide a missing recipe check.
ErrorCase BadRecipe(const std::string& name, const std::string& recipe, int needs_residual,
                    const std::string& expect) {
  return {name,
          [=](Case& c) {
            const bool has = c.Find("residual") != nullptr;
            if ((needs_residual == 1 && !has) || (needs_residual == 0 && has)) return false;
            c.params.Set("recipe", recipe);
            c.params.Set("tier", 1);
            return true;
          },
          expect};
}

}  // namespace
}  // namespace local_fused_chain

OpSpec Spec_fused_chain() {
  using namespace local_fused_chain;
  OpSpec s = norm_entry::NormSpec({
      .name = "fused_chain",
      .keys = {entry::DrawIn("x"), entry::DrawIn("w"), entry::DrawOut("out")},
      .dtypes = "cpu: x,weight f32/f16/bf16; out f32/bf16; residual f32/bf16 (in place); tiers 0 and 1",
      .draw = Draw,
      // Silu/sigmoid steps call expf: magnitudes stay far from f32 overflow (|x| < 88).
      .scale = gen::Pick(std::vector<double>{1.0, 1.0, 1e-3, 4.0}),
      .fns = {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs},
  });
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2}), entry::Operand("weight", entry::kFloatIn, entry::kContiguous, {1}), entry::Written("residual", entry::kF32BF16), entry::Written("out", entry::kFloatOut)}, {entry::PositiveFinite("eps")}};
  // A NaN/inf in x or the residual reaches a norm step's whole row; the
  // sigmoid/silu steps' saturation edges (1 + expf(-a) == 1.0f from ~17.3).
  // Not the weight: a recipe may read it as a data slot in every row
  // ("N11:3"), so one special there makes the whole output 0 or NaN, and a
  // mostly-zero reference vouches for nothing (MISTRUSTED).
  s.values.specials = {{"x", true}, {"residual", true}};
  s.values.edges = [](const Params&) {
    std::vector<ValueBand> v = ExpBands("x");
    for (const ValueBand& b : ExpBands("residual")) v.push_back(b);
    return v;
  };
  s.errors = {BadRecipe("recipe_empty", "", -1, "1..8 steps"),
              BadRecipe("recipe_nine_steps", "N01:3;N31:3;N31:3;N31:3;N31:3;N31:3;N31:3;N31:3;N31:3", -1, "1..8 steps"),
              BadRecipe("recipe_unknown_op", "Z01:3", -1, "unknown opcode"),
              BadRecipe("recipe_writes_x", "A01:0;N01:3", -1, "writable"),
              BadRecipe("recipe_writes_weight", "N01:1;N01:3", -1, "writable"),
              BadRecipe("recipe_slot_out_of_range", "A05:3", -1, "outside the canonical slots"),
              BadRecipe("recipe_slot_just_past", "A04:3", -1, "outside the canonical slots"),
              BadRecipe("recipe_opcode_just_past", "X01:3", -1, "unknown opcode"),
              BadRecipe("recipe_residual_write_missing", "A01:2;N01:3", 0, "writes residual but no residual"),
              BadRecipe("recipe_reads_out_first", "A30:3", -1, "reads out before"),
              BadRecipe("recipe_never_writes_out", "A02:2", 1, "never writes out"),
              BadRecipe("recipe_residual_missing", "A02:3", 0, "no residual operand"),
              BadRecipe("recipe_gemma_on_add", "A01:3g", -1, "gemma applies"),
              {"composite_granular_recipe",
               [](Case& c) {
                 c.params.Set("tier", 0);
                 c.params.Set("recipe", "S0:3");
                 return true;
               },
               "no standalone-op form"},
              {"unknown_tier",
               [](Case& c) {
                 c.params.Set("tier", 7);
                 return true;
               },
               "unknown tier"},
              mut::DType("out", vt::DType::kF16),   mut::DType("residual", vt::DType::kF16),
              mut::Dim("weight", 0, 1),             mut::Dim("residual", 0, 1),
              mut::Strided("x"),                    mut::NullData("out"),
              mut::OtherDevice("x"),                mut::Alias("out", "x"),
              mut::Alias("residual", "out"),        mut::Arg("eps", 0.0),
              mut::Dim("out", 0, 1),                mut::Dim("out", 1, -1),
              mut::AddDim("x"),                     mut::AddDim("weight"),
              mut::EmptyInner("x")};
  s.claims = {SameAs("tiers_agree", "the Tier-1 interpreter == the Tier-0 composite for the same recipe", Named,
                     "fused_chain", OtherTier, {{"out", "out"}, {"residual", "residual"}}),
              SameAs("equals_rms_norm", "rms_norm / add+rms_norm recipes == rms_norm (with residual)",
                     [](const Params& p) {
                       // A residual the recipe ignores would be consumed by rms_norm.
                       return Named(p) && (p.Str("recipe")[0] == 'A' || p.Str("residual") == "none");
                     },
                     "rms_norm", AsRmsNorm, {{"out", "out"}, {"residual", "residual"}}),
              RowSlice({"x", "residual", "out"})};
  return s;
}

}  // namespace vt::conform
