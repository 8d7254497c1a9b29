// The builder and helpers of the norm-family catalog entries
// (harness/catalog/norm; docs/adding-an-op.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry_parts.h"

namespace vt::conform::norm_entry {

// What a norm entry says; NormSpec builds the OpSpec (family "norm").
struct Norm {
  std::string name;
  // The generator draws, in this order (the case ids' order): these dtype
  // knobs, the entry's own `draw` (shape, flags), "eps" (gen::Eps), "scale",
  // for an fp8 op "input_scale" (InputScale of those two), then the seed.
  std::vector<entry::DTypeKnob> keys;
  std::string dtypes;  // for reports and --list
  std::function<void(Params&, Tier)> draw;
  rc::Gen<double> scale = gen::Scale();
  bool input_scale = false;
  entry::Fns fns;  // {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs}
};

OpSpec NormSpec(const Norm& n);

// Static per-tensor fp8 quant of a bf16 tensor, as vLLM's unfused epilogue
// defines it: e4m3(bf16 * (1 / scale)), reciprocal formed once in f32,
// saturating. Returns a u8 tensor (fmt fp8) named `name`.
TensorData QuantFp8Static(const TensorData& bf16, float input_scale, const std::string& name);

// A static fp8 input_scale that puts the normed values (RMS about
// scale / sqrt(scale^2 + eps)) in a chosen part of the e4m3 range: mid-range
// codes, past the 448 saturation in the tails, or down among the subnormals.
// (A fixed scale would make some cases all-zero codes: MISTRUSTED.)
rc::Gen<double> InputScale(double scale, double eps);

// rms_norm-style inputs from "T", "H", "x", "w", "gemma", "residual": x and the
// in-place residual N(0, scale^2); checkpoint-like weights - around 1 for plain
// RMSNorm, around 0 for Gemma's (1 + w) - bounded away from making (1 + w) or w
// vanish for a whole row.
void BuildRmsInputs(Case& c);

// Gated-norm operands (rms_norm_gated and its fp8 variant): x/gate [rows, D] or
// [T, Hv, D]; the gate's token stride padded by "pad" elements.
void BuildGatedInputs(Case& c, vt::DType x_dt, vt::DType gate_dt, vt::DType w_dt);

// "rank" (2 or 3), "T" and, at rank 3, the middle extent `heads`.
void DrawRankedRows(Params& p, Tier tier, const std::string& heads);

// rms_norm's knobs "T", "H", "gemma" and "residual" (none, f32, bf16).
void DrawRmsShape(Params& p, Tier tier);

// The gated norms' knobs: the shape ("rank", "T", "Hv" at rank 3, "D"), the
// gate's "pad" and "sigmoid" (its activation: silu or sigmoid).
void DrawGated(Params& p, Tier tier);

// The optional in-place residual of an rms_norm-style oracle: its values as
// S (updated by the oracle) and format, and the residual's entry in the
// oracle's outputs.
template <class S>
struct ResidualIn {
  explicit ResidualIn(const Case& c) : t(c.Find("residual")) {
    if (t != nullptr) values = entry::Inputs<S>(t->Values());
  }
  std::vector<S>* get() { return t != nullptr ? &values : nullptr; }
  oracle::Fmt fmt() const { return t != nullptr ? t->fmt : oracle::Fmt::kF32; }
  void AddTo(entry::Outs<S>& o) const {
    if (t != nullptr) o["residual"] = values;
  }
  const TensorData* t;
  std::vector<S> values;
};

// The logical [rows, D] shape of a gated-norm case.
inline int64_t GatedRows(const TensorData& x) { return x.Numel() / x.shape.back(); }

}  // namespace vt::conform::norm_entry
