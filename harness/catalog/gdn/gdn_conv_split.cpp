// Catalog entry: gdn_conv_split (the GDN conv output split into q, k, v:
// rearrange_mixed_qkv in vLLM's GDN layer).
#include "harness/catalog/glue/glue_entry.h"
#include "oracles/gdn/gdn_conv_split.h"
#include "vt/ops.h"
#include "vt/ops_gdn_glue.h"

namespace vt::conform {
namespace {

const auto& kParts = glue::kSplitParts;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("gdn_conv_split");
    p.Set("conv", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
    p.Set("out", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));  // q/k/v share one dtype
    p.Set("T", *gen::Rows(tier, /*with_zero=*/false));  // T = 0 is refused (widths = counts / T)
    // key_dim = Hk * Dk, value_dim = Hv * Dv: head multiples, odd sizes, an empty v now and then.
    p.Set("K", *gen::Pick(std::vector<int64_t>{1, 3, 16, 17, 64, 128, 256, 512}));
    p.Set("V", *gen::Pick(std::vector<int64_t>{1, 5, 32, 64, 128, 256, 1024, 0}));
    p.Set("scale", *gen::Scale());
    p.Set("fill", *glue::FillKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), k = p.Int("K"), v = p.Int("V");
  c.Input("conv", p.DType("conv"), {t, 2 * k + v}, glue::InputFill(p));
  c.Output("q_out", p.DType("out"), {t, k});
  c.Output("k_out", p.DType("out"), {t, k});
  c.Output("v_out", p.DType("out"), {t, v});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnConvSplit(ctx, ws["q_out"], ws["k_out"], ws["v_out"], ws["conv"]);
}

// key_dim / value_dim as the outputs' element counts give them (an any-shape
// output may be drawn flat or reversed).
std::pair<int64_t, int64_t> Dims(const Case& c) {
  const int64_t t = c.Get("conv").shape[0];
  return {c.Get("q_out").Numel() / t, c.Get("v_out").Numel() / t};
}

OracleResult Oracle(const Case& c) {
  const auto [k, v] = Dims(c);
  return glue::ExactParts(oracle::GdnConvSplit<double>(c.Get("conv").shape[0], k, v, c.Get("conv").Values()));
}

std::vector<TensorData> OracleBytes(const Case& c) {
  const TensorData& in = c.Get("conv");
  const auto [k, v] = Dims(c);
  return glue::PartBytes(c, in.dtype, oracle::GdnConvSplit<uint64_t>(in.shape[0], k, v, glue::Bits(in)));
}

std::vector<OutputSpec> Outputs(const Case&) { return glue::ExactPartOutputs(); }

}  // namespace

OpSpec Spec_gdn_conv_split() {
  OpSpec s;
  s.name = "gdn_conv_split";
  s.family = "gdn";
  s.dtypes = "cpu: conv f32/bf16 [T,2K+V], T > 0; q_out/k_out (T*K elements each), v_out (T*V) one dtype of f32/bf16, any shape";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = Oracle;
  s.oracle_bytes = OracleBytes;
  s.outputs = Outputs;
  s.contract = glue::SplitContract("conv");
  s.values.specials = {{"conv"}};
  s.errors = {
      mut::Dim("conv", 1, 1), mut::Dim("conv", 1, -1),
      glue::SplitNoRows("conv"),
      glue::PartCountNotMultiple("conv", "q_out"), glue::PartCountNotMultiple("conv", "v_out"),
      // k_out one row wider than q_out (and conv widened to match, so that
      // only the equal-key_dim condition breaks).
      {"k_out_key_dim_differs",
       [](Case& c) {
         TensorData& k = c.Get("k_out");
         const int64_t t = c.Get("conv").shape[0];
         k.shape = {k.Numel() + t};
         k.SetContiguous();
         c.Get("conv").shape[1] += 1;
         c.Get("conv").SetContiguous();
         return true;
       },
       "k_out"},
      mut::DType("k_out", vt::DType::kBF16), mut::DType("k_out", vt::DType::kF32),
      mut::DType("v_out", vt::DType::kBF16), mut::DType("v_out", vt::DType::kF32),
  };
  s.claims = {RowSlice({"conv", "q_out", "k_out", "v_out"})};
  return s;
}

}  // namespace vt::conform
