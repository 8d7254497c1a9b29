#include "harness/catalog/norm/norm_entry.h"

#include <cmath>

#include "oracles/bits.h"

namespace vt::conform::norm_entry {

OpSpec NormSpec(const Norm& n) {
  const std::function<void(Params&, Tier)> draw = n.draw;
  const rc::Gen<double> scale = n.scale;
  const bool input_scale = n.input_scale;
  auto draws = [draw, scale, input_scale](Params& p, Tier tier) {
    draw(p, tier);
    p.Set("eps", *gen::Eps());
    p.Set("scale", *scale);
    if (input_scale) p.Set("input_scale", *InputScale(p.Num("scale"), p.Num("eps")));
  };
  return entry::Assemble({n.name, "norm", n.dtypes, n.keys, draws, {}, n.fns});
}

TensorData QuantFp8Static(const TensorData& bf16, float input_scale, const std::string& name) {
  const float inv_scale = 1.0f / input_scale;
  const auto vals = bf16.Values();
  TensorData q;
  q.name = name;
  q.dtype = vt::DType::kU8;
  q.fmt = oracle::Fmt::kFp8E4M3;
  q.shape = bf16.shape;
  q.role = Role::kOutput;
  q.SetContiguous();
  q.storage.resize(vals.size());
  for (std::size_t k = 0; k < vals.size(); ++k) {
    // The kernel's f32 product, then its store to fp8 (an f32 value: one rounding).
    const float scaled = static_cast<float>(vals[k]) * inv_scale;
    q.storage[k] = static_cast<uint8_t>(oracle::EncodeBits(oracle::Fmt::kFp8E4M3, scaled));
  }
  return q;
}

rc::Gen<double> InputScale(double scale, double eps) {
  const double rms = scale / std::sqrt(scale * scale + eps);
  // values / input_scale: ~4 (mid-range), ~120 with tails past 448, ~0.1 (tails among the subnormals).
  return rc::gen::map(gen::Pick(std::vector<double>{0.25, 0.25, 1.0 / 120.0, 8.0}),
                      [rms](double k) { return static_cast<double>(static_cast<float>(rms * k)); });
}

void DrawRankedRows(Params& p, Tier tier, const std::string& heads) {
  const int64_t rank = *gen::Pick(std::vector<int64_t>{2, 3});
  p.Set("rank", rank);
  p.Set("T", *gen::Rows(tier));
  if (rank == 3) p.Set(heads, *gen::Heads(tier));
}

void DrawRmsShape(Params& p, Tier tier) {
  p.Set("T", *gen::Rows(tier));
  p.Set("H", *gen::Width(tier));
  p.Set("gemma", *gen::Flag());
  p.Set("residual", *gen::Pick(std::vector<std::string>{"none", "f32", "bf16"}));
}

void DrawGated(Params& p, Tier tier) {
  DrawRankedRows(p, tier, "Hv");
  p.Set("D", *gen::Width(tier));
  p.Set("pad", *gen::Pad());
  p.Set("sigmoid", *gen::Flag());
}

void BuildRmsInputs(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), h = p.Int("H");
  c.Input("x", p.DType("x"), {t, h}, entry::Values(p));
  c.Input("weight", p.DType("w"), {h}, p.Flag("gemma") ? Fill::Uniform(-0.5, 0.5) : Fill::Uniform(0.5, 1.5));
  if (p.Str("residual") != "none") c.Add("residual", p.DType("residual"), {t, h}, Role::kInPlace, entry::Values(p));
}

void BuildGatedInputs(Case& c, vt::DType x_dt, vt::DType gate_dt, vt::DType w_dt) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), d = p.Int("D");
  const std::vector<int64_t> shape =
      p.Int("rank") == 3 ? std::vector<int64_t>{t, p.Int("Hv"), d} : std::vector<int64_t>{t, d};
  c.Input("x", x_dt, shape, entry::Values(p));
  TensorData& gate = c.Input("gate", gate_dt, shape, Fill::Normal(0.0, 2.0));
  if (p.Int("pad") > 0) gate.SetRowPadding(p.Int("pad"));
  c.Input("weight", w_dt, {d}, Fill::Uniform(0.5, 1.5));
}

}  // namespace vt::conform::norm_entry
