// Catalog entry: gdn_conv_split (the GDN conv output split into q, k, v:
// rearrange_mixed_qkv in vLLM's GDN layer).
#include "harness/catalog/glue/glue_entry.h"
#include "oracles/gdn/gdn_conv_split.h"
#include "vt/ops.h"
#include "vt/ops_gdn_glue.h"

namespace vt::conform {
namespace local_gdn_conv_split {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("conv", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
  p.Set("out", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));  // q/k/v share one dtype
  p.Set("T", *gen::Rows(tier, /*with_zero=*/false));  // T = 0 is refused (widths = counts / T)
  // key_dim = Hk * Dk, value_dim = Hv * Dv: head multiples, odd sizes, an empty v now and then.
  p.Set("K", *gen::Pick(std::vector<int64_t>{1, 3, 16, 17, 64, 128, 256, 512}));
  p.Set("V", *gen::Pick(std::vector<int64_t>{1, 5, 32, 64, 128, 256, 1024, 0}));
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

// key_dim / value_dim from q_out's and v_out's element counts.
template <class E>
entry::Outs<E> Move(const Case& c, const glue::Read<E>& read) {
  const TensorData& in = c.Get("conv");
  return glue::Parts(oracle::GdnConvSplit<E>(in.shape[0], glue::PartWidth(c, "conv", "q_out"),
                                             glue::PartWidth(c, "conv", "v_out"), read(in)));
}

// k_out one row wider than q_out (and conv widened to match, so that only
// the equal-key_dim condition breaks).
ErrorCase KeyDimDiffers() {
  return {"k_out_key_dim_differs",
          [](Case& c) {
            TensorData& k = c.Get("k_out");
            const int64_t t = c.Get("conv").shape[0];
            k.shape = {k.Numel() + t};
            k.SetContiguous();
            c.Get("conv").shape[1] += 1;
            c.Get("conv").SetContiguous();
            return true;
          },
          "k_out"};
}

}  // namespace
}  // namespace local_gdn_conv_split

OpSpec Spec_gdn_conv_split() {
  using namespace local_gdn_conv_split;
  glue::Mover m{.name = "gdn_conv_split", .family = "gdn",
                .dtypes = "cpu: conv f32/bf16 [T,2K+V], T > 0; q_out/k_out (T*K elements each), v_out (T*V) one dtype of f32/bf16, any shape",
                .draw = Draw, .build = Build, .run = Run, .values = Move<double>, .bits = Move<uint64_t>};
  return glue::SplitSpec(m, "conv",
                         {glue::PartCountNotMultiple("conv", "q_out"), glue::PartCountNotMultiple("conv", "v_out"),
                          KeyDimDiffers(), mut::DType("k_out", vt::DType::kBF16), mut::DType("k_out", vt::DType::kF32),
                          mut::DType("v_out", vt::DType::kBF16), mut::DType("v_out", vt::DType::kF32)});
}

}  // namespace vt::conform
