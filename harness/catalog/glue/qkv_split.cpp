// Catalog entry: qkv_split (the merged q/k/v projection of GQA attention split
// into its three parts, with independent widths).
#include "harness/catalog/glue/glue_entry.h"
#include "oracles/glue/qkv_split.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

const auto& kParts = glue::kSplitParts;
const char* const kDims[] = {"Q", "K", "V"};

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("qkv_split");
    const std::string dt = *gen::Pick(std::vector<std::string>{"f32", "bf16"});
    p.Set("qkv", dt);
    for (const char* part : kParts) p.Set(part, dt);  // one dtype for all four
    p.Set("T", *gen::Rows(tier, /*with_zero=*/false));  // T = 0 is refused (widths = counts / T)
    // Widths: head multiples and odd sizes; an empty part (0) now and then.
    const std::vector<int64_t> widths = {1, 3, 8, 17, 64, 128, 129, 256, 512, 0};
    p.Set("Q", *gen::Pick(widths));
    p.Set("K", *gen::Pick(widths));
    p.Set("V", *gen::Pick(widths));
    p.Set("scale", *gen::Scale());
    p.Set("fill", *glue::FillKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T");
  c.Input("qkv", p.DType("qkv"), {t, p.Int("Q") + p.Int("K") + p.Int("V")}, glue::InputFill(p));
  for (int i = 0; i < 3; ++i) c.Output(kParts[i], p.DType(kParts[i]), {t, p.Int(kDims[i])});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::QkvSplit(ctx, ws["q_out"], ws["k_out"], ws["v_out"], ws["qkv"]);
}

// The widths the outputs' element counts give (an any-shape output may be
// drawn flat or reversed: its count is what defines the split).
std::vector<int64_t> Dims(const Case& c) {
  const int64_t t = c.Get("qkv").shape[0];
  std::vector<int64_t> d;
  for (const char* part : kParts) d.push_back(c.Get(part).Numel() / t);
  return d;
}

OracleResult Oracle(const Case& c) {
  return glue::ExactParts(oracle::QkvSplit<double>(c.Get("qkv").shape[0], Dims(c), c.Get("qkv").Values()));
}

std::vector<TensorData> OracleBytes(const Case& c) {
  const TensorData& in = c.Get("qkv");
  return glue::PartBytes(c, in.dtype, oracle::QkvSplit<uint64_t>(in.shape[0], Dims(c), glue::Bits(in)));
}

std::vector<OutputSpec> Outputs(const Case&) { return glue::ExactPartOutputs(); }

}  // namespace

OpSpec Spec_qkv_split() {
  OpSpec s;
  s.name = "qkv_split";
  s.family = "glue";
  s.dtypes = "cpu: qkv f32/bf16 [T,Q+K+V], T > 0; q_out/k_out/v_out qkv's dtype, any shape of T*Q/T*K/T*V elements";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = Oracle;
  s.oracle_bytes = OracleBytes;
  s.outputs = Outputs;
  s.contract = glue::SplitContract("qkv");
  s.values.specials = {{"qkv"}};
  s.errors = {
      mut::Dim("qkv", 1, 1), mut::Dim("qkv", 1, -1),
      glue::SplitNoRows("qkv"),
      glue::PartCountNotMultiple("qkv", "q_out"), glue::PartCountNotMultiple("qkv", "k_out"), glue::PartCountNotMultiple("qkv", "v_out"),
      // Another float dtype than qkv's (each inside the accepted set).
      mut::DType("q_out", vt::DType::kBF16), mut::DType("q_out", vt::DType::kF32),
      mut::DType("k_out", vt::DType::kBF16), mut::DType("k_out", vt::DType::kF32),
      mut::DType("v_out", vt::DType::kBF16), mut::DType("v_out", vt::DType::kF32),
  };
  s.claims = {RowSlice({"qkv", "q_out", "k_out", "v_out"})};
  return s;
}

}  // namespace vt::conform
