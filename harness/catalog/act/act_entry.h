// The builder and helpers of the activation / elementwise catalog entries
// (harness/catalog/act). An entry states its dtype knobs, its own draws, its
// tensors, its run call and oracle (act::Glu / Flat / WithScalar make both from
// the function names for the common shapes) and its output rule; ActSpec adds
// what every such entry fills the same way (docs/adding-an-op.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry_parts.h"
#include "harness/golden/adapter.h"
#include "vt/ops.h"

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

// --- the builder -----------------------------------------------------------

// An entry's run call and its oracle at both scalars (every written operand's
// values, as entry::Outs).
struct Calls {
  std::function<void(const vt::ExecContext&, const Workspace&)> run;
  std::function<entry::Outs<entry::Bounded>(const Case&)> truth;
  std::function<entry::Outs<float>(const Case&)> f32;
};

using UnaryKernel = void (*)(const vt::ExecContext&, const vt::Tensor& out, const vt::Tensor& x);
using BinaryKernel = void (*)(const vt::ExecContext&, const vt::Tensor& out, const vt::Tensor& a, const vt::Tensor& b);
using ScalarKernel = void (*)(const vt::ExecContext&, const vt::Tensor& out, const vt::Tensor& x, double s);
template <class S>
using GluOracle = std::vector<S> (*)(int64_t rows, int64_t d, const std::vector<double>& x);
template <class S>
using FlatOracle = std::vector<S> (*)(const std::vector<double>& x);
template <class S>
using FlatBinaryOracle = std::vector<S> (*)(const std::vector<double>& a, const std::vector<double>& b);
template <class S>
using ScalarOracle = std::vector<S> (*)(const std::vector<double>& x, double s);

// A gated linear unit: kernel(out, x) on x [T, 2D]; oracle(T, D, x).
Calls Glu(UnaryKernel kernel, GluOracle<entry::Bounded> oracle, GluOracle<float> oracle_f32);
// Elementwise over the flat order: kernel(out, x); oracle(x).
Calls Flat(UnaryKernel kernel, FlatOracle<entry::Bounded> oracle, FlatOracle<float> oracle_f32);
// The same with two inputs, named a and b: kernel(out, a, b); oracle(a, b).
Calls Flat(const std::string& a, const std::string& b, BinaryKernel kernel, FlatBinaryOracle<entry::Bounded> oracle,
           FlatBinaryOracle<float> oracle_f32);
// x and the scalar knob `key`: the API takes it as the double drawn and
// narrows it itself; the oracle gets f32(key), the value the kernel uses.
Calls WithScalar(const std::string& key, ScalarKernel kernel, ScalarOracle<entry::Bounded> oracle,
                 ScalarOracle<float> oracle_f32);

// What an activation entry says; ActSpec builds the OpSpec (family "act").
struct Act {
  std::string name;
  // Its run call and oracle, the one operand it writes and that operand's
  // tolerance rule.
  Calls calls;
  std::string out = "out";
  Tolerance rule;
  std::string dtypes;  // for reports and --list
  // The generator draws, in this order (the case ids' order): these dtype
  // knobs, "T" (gen::Rows), `width` (gen::Width), the entry's own `draw`
  // ("scale" included), then the seed (`seed`; empty: gen::Seed()).
  std::vector<entry::DTypeKnob> keys = {entry::DrawIn("x"), entry::DrawOut("out")};
  std::string width = "D";
  std::function<void(Params&, Tier)> draw;
  std::function<rc::Gen<uint64_t>(const Params&)> seed = {};
  std::function<void(Case&)> build;
};

OpSpec ActSpec(const Act& a);

// The draws of a flat op whose operand shapes need only agree in element
// count: the "shape" knob (FlatShapeKnob), then "scale" from ExpScale().
void DrawFlatExp(Params& p, Tier tier);

// One input of a flat op: its name and the dtypes its validator accepts.
struct FlatInput {
  std::string name;
  std::vector<vt::DType> dtypes;
};
// What every flat binary op out = f(a, b) states alike: the contract (any
// ranks, equal element counts, so no rank error), special values in both
// inputs, the flat-slice claim, and after the entry's `dtype_errors` the
// element-count, layout, null-data, device (on b) and alias error cases.
void FlatBinaryRules(OpSpec& s, const FlatInput& a, const FlatInput& b, std::vector<vt::DType> out,
                     std::vector<ErrorCase> dtype_errors);

// A gated linear unit x [T, 2D] -> out [T, D] (silu_and_mul, gelu_and_mul):
// ActSpec with "scale" drawn from `scale` and x filled by `fill`, plus the
// contract, the special values in x, batch invariance (RowSlice) and the
// error cases every GLU validator refuses alike; `errors` are the entry's own.
OpSpec GluSpec(const std::string& name, rc::Gen<double> scale, Fill (*fill)(const Params&), Calls calls,
               Tolerance rule, std::vector<ErrorCase> errors);

// What a same-shape unary op with a scalar argument states alike (mul_scalar,
// soft_cap): x F and out O of one shape (rank 1..4), the scalar's `range`,
// special values in x, independent elements (FlatSlice), and the shared error
// cases before the entry's own `errors`.
void SameShapeRules(OpSpec& s, ScalarRule range, std::vector<ErrorCase> errors);

// x [T, 2D] -> out [T, D], x filled by `fill`.
void BuildGlu(Case& c, const Fill& fill);
// out and x of one RankShape, x filled by `fill`.
void BuildRankUnary(Case& c, const Fill& fill);

}  // namespace vt::conform::act
