// Helpers the activation / elementwise-glue catalog entries share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/golden/adapter.h"

namespace vt::conform::act {

// Input magnitudes for ops that evaluate exp/tanh in f32. 1 (typical), 4 (tails
// reach |z| ~ 20: deep in sigmoid/silu saturation, still far from expf's f32
// overflow at 88.7, where the kernel's exp(-z) would become inf), 0.05 (the
// near-linear region around 0).
inline rc::Gen<double> ExpScale() { return gen::Pick(std::vector<double>{1.0, 1.0, 4.0, 0.05}); }

// Operand shapes of a flat elementwise op, where only element counts must
// agree. Knob values: "same" (every operand [T,D]), "flat_out" (out [T*D], the
// rest [T,D]: the MoE workspace buffer case) or "mixed" (out [T,1,D], operand 1
// [T*D], operand 2 [T,D,1]). Operand 0 is the output. T leads every form, so a
// mut::Dim on dim 0 changes the element count even when T = 0.
inline rc::Gen<std::string> FlatShapeKnob() {
  return gen::Pick(std::vector<std::string>{"same", "same", "flat_out", "mixed"});
}
inline std::vector<int64_t> FlatShape(const std::string& knob, int operand, int64_t t, int64_t d) {
  if (knob == "flat_out" && operand == 0) return {t * d};
  if (knob == "mixed") {
    if (operand == 0) return {t, 1, d};
    if (operand == 1) return {t * d};
    return {t, d, 1};
  }
  return {t, d};
}

// The tensors of a flat binary op: inputs a (operand 1) and b (operand 2),
// N(0, scale^2), and the output, shaped by the case's "shape" knob.
inline void BuildFlatBinary(Case& c, const std::string& a, const std::string& b) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), d = p.Int("D");
  const std::string k = p.Str("shape");
  c.Input(a, p.DType(a), FlatShape(k, 1, t, d), entry::Values(p));
  c.Input(b, p.DType(b), FlatShape(k, 2, t, d), entry::Values(p));
  c.Output("out", p.DType("out"), FlatShape(k, 0, t, d));
}

// Same-shape unary ops (out and x share one shape of any rank): [T, H] under
// the "rank" knob (gen::DrawRank): "2d" [T,H], "3d" [T,G,H] (G heads),
// "4d" [T,G,G2,H] or "1d" [T*H].
inline std::vector<int64_t> RankShape(const Params& p) { return gen::RankShape(p, p.Int("T"), p.Int("H")); }

// A contiguous copy of src under a new name/role, viewed with another shape of
// the same element count (a reshape of the logical contents).
inline TensorData Reshaped(const TensorData& src, const std::string& name, Role role,
                           std::vector<int64_t> shape) {
  TensorData t = CopyTensor(src, name, role);
  t.shape = std::move(shape);
  t.SetContiguous();
  return t;
}

// A gated-linear-unit golden (vLLM SiluAndMul / GeluAndMul): x [..., 2D] ->
// out [..., D] (or y), leading dims flattened into rows, mapped onto `op`.
inline GoldenMapping GoldenGlu(const GoldenCase& g, const std::string& op) {
  GoldenMapping m;
  const TensorData x = AsRows(GoldenTensor(g, "x", "x", Role::kInput));
  const std::string out = GoldenPick(g, {"out", "y"});
  if (x.shape[1] % 2 != 0) throw GoldenUnsupported("x's last dim is odd");
  Params p(op);
  p.Set("x", DTypeKey(x));
  p.Set("out", DTypeKey(GoldenOutputLike(g, out, "out")));
  p.Set("T", x.shape[0]);
  p.Set("D", x.shape[1] / 2);
  m.c.params = p;
  m.c.tensors = {x, AsRows(GoldenOutputLike(g, out, "out"))};
  m.compare = {{"out", out}};
  return m;
}

}  // namespace vt::conform::act
