#include "harness/catalog/act/act_entry.h"

#include <utility>

namespace vt::conform::act {
namespace {

using entry::Bounded;

void Append(std::vector<ErrorCase>& to, std::vector<ErrorCase> more) {
  for (ErrorCase& e : more) to.push_back(std::move(e));
}

template <class S>
entry::Outs<S> Out(std::vector<S> v) {
  return {{"out", std::move(v)}};
}

template <class S>
entry::Outs<S> OfGlu(GluOracle<S> f, const Case& c) {
  const TensorData& x = c.Get("x");
  return Out(f(x.shape[0], x.shape[1] / 2, x.Values()));
}

}  // namespace

Calls Glu(UnaryKernel kernel, GluOracle<Bounded> oracle, GluOracle<float> oracle_f32) {
  return {[kernel](const vt::ExecContext& ctx, const Workspace& ws) { kernel(ctx, ws["out"], ws["x"]); },
          [oracle](const Case& c) { return OfGlu(oracle, c); },
          [oracle_f32](const Case& c) { return OfGlu(oracle_f32, c); }};
}

Calls Flat(UnaryKernel kernel, FlatOracle<Bounded> oracle, FlatOracle<float> oracle_f32) {
  return {[kernel](const vt::ExecContext& ctx, const Workspace& ws) { kernel(ctx, ws["out"], ws["x"]); },
          [oracle](const Case& c) { return Out(oracle(c.Get("x").Values())); },
          [oracle_f32](const Case& c) { return Out(oracle_f32(c.Get("x").Values())); }};
}

Calls Flat(const std::string& a, const std::string& b, BinaryKernel kernel, FlatBinaryOracle<Bounded> oracle,
           FlatBinaryOracle<float> oracle_f32) {
  return {[=](const vt::ExecContext& ctx, const Workspace& ws) { kernel(ctx, ws["out"], ws[a], ws[b]); },
          [=](const Case& c) { return Out(oracle(c.Get(a).Values(), c.Get(b).Values())); },
          [=](const Case& c) { return Out(oracle_f32(c.Get(a).Values(), c.Get(b).Values())); }};
}

Calls WithScalar(const std::string& key, ScalarKernel kernel, ScalarOracle<Bounded> oracle,
                 ScalarOracle<float> oracle_f32) {
  return {[=](const vt::ExecContext& ctx, const Workspace& ws) { kernel(ctx, ws["out"], ws["x"], ws.params().Num(key)); },
          [=](const Case& c) { return Out(oracle(c.Get("x").Values(), c.params.F32(key))); },
          [=](const Case& c) { return Out(oracle_f32(c.Get("x").Values(), c.params.F32(key))); }};
}

OpSpec ActSpec(const Act& a) {
  const std::string width = a.width;
  const std::function<void(Params&, Tier)> draw = a.draw;
  const OutputSpec out{a.out, a.rule};
  auto draws = [width, draw](Params& p, Tier tier) {
    p.Set("T", *gen::Rows(tier));
    p.Set(width, *gen::Width(tier));
    draw(p, tier);
  };
  auto outputs = [out](const Case&) { return std::vector<OutputSpec>{out}; };
  return entry::Assemble(
      {a.name, "act", a.dtypes, a.keys, draws, a.seed, {a.build, a.calls.run, a.calls.truth, a.calls.f32, outputs}});
}

void DrawFlatExp(Params& p, Tier) {
  p.Set("shape", *FlatShapeKnob());  // exercises the "equal numel" contract
  p.Set("scale", *ExpScale());
}

void FlatBinaryRules(OpSpec& s, const FlatInput& a, const FlatInput& b, std::vector<vt::DType> out,
                     std::vector<ErrorCase> dtype_errors) {
  s.contract = {{entry::Operand(a.name, a.dtypes, entry::kAnyShape), entry::Operand(b.name, b.dtypes, entry::kAnyShape),
                 entry::Written("out", std::move(out), entry::kAnyShape)},
                {}};
  s.values.specials = {{a.name}, {b.name}};
  s.errors = std::move(dtype_errors);
  Append(s.errors, {mut::Dim("out", 0, 1), mut::Dim(a.name, 0, 1), mut::Dim(b.name, 0, -1), mut::Strided(a.name),
                    mut::Strided(b.name), mut::Strided("out"), mut::NullData(a.name), mut::NullData(b.name),
                    mut::NullData("out"), mut::OtherDevice(b.name), mut::Alias("out", a.name), mut::Alias("out", b.name)});
  s.claims = {FlatSlice({a.name, b.name, "out"})};
}

OpSpec GluSpec(const std::string& name, rc::Gen<double> scale, Fill (*fill)(const Params&), Calls calls,
               Tolerance rule, std::vector<ErrorCase> errors) {
  OpSpec s = ActSpec({
      .name = name,
      .calls = std::move(calls),
      .rule = std::move(rule),
      .dtypes = "cpu: x f32/f16/bf16 [T,2D]; out f32/bf16 [T,D]",
      .draw = [scale](Params& p, Tier) { p.Set("scale", *scale); },
      .build = [fill](Case& c) { BuildGlu(c, fill(c.params)); },
  });
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2}), entry::Written("out", entry::kFloatOut)}, {}};
  s.values.specials = {{"x"}};
  s.errors = {mut::DType("x", vt::DType::kI32), mut::DType("out", vt::DType::kF16),
              mut::Dim("x", 1, 1),  // odd inner dim
              mut::Dim("out", 0, 1), mut::AddDim("x"), mut::Strided("x"), mut::Strided("out"), mut::NullData("x"),
              mut::NullData("out"), mut::OtherDevice("out"), mut::Alias("out", "x")};
  Append(s.errors, std::move(errors));
  s.claims = {RowSlice({"x", "out"})};
  return s;
}

void SameShapeRules(OpSpec& s, ScalarRule range, std::vector<ErrorCase> errors) {
  s.contract = {{entry::Operand("x", entry::kFloatIn), entry::Written("out", entry::kFloatOut)}, {std::move(range)}};
  s.values.specials = {{"x"}};
  s.errors = {mut::DType("x", vt::DType::kI32), mut::DType("out", vt::DType::kF16), mut::Dim("out", 0, 1),
              mut::AddDim("out"), mut::Strided("x"), mut::Strided("out"), mut::NullData("x"), mut::NullData("out"),
              mut::Alias("out", "x")};
  Append(s.errors, std::move(errors));
  s.claims = {FlatSlice({"x", "out"})};
}

void BuildGlu(Case& c, const Fill& fill) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), d = p.Int("D");
  c.Input("x", p.DType("x"), {t, 2 * d}, fill);
  c.Output("out", p.DType("out"), {t, d});
}

void BuildRankUnary(Case& c, const Fill& fill) {
  const Params& p = c.params;
  c.Input("x", p.DType("x"), RankShape(p), fill);
  c.Output("out", p.DType("out"), RankShape(p));
}

}  // namespace vt::conform::act
