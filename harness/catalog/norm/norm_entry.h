// Helpers shared by the norm-family catalog entries.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/entry.h"

namespace vt::conform::norm_entry {

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

// Knobs for those shapes: "rank", "T", "Hv" (rank 3) and "D", "pad".
void DrawGatedShape(Params& p, Tier tier);

// The logical [rows, D] shape of a gated-norm case.
inline int64_t GatedRows(const TensorData& x) { return x.Numel() / x.shape.back(); }

}  // namespace vt::conform::norm_entry
