// Catalog entry: gelu_and_mul (vLLM GeluAndMul(approximate="tanh"): Gemma's GeGLU).
#include "harness/catalog/act/act_entry.h"
#include "harness/golden/upstream_call.h"
#include "oracles/act/gelu_and_mul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_gelu_and_mul {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// x ~ U(-scale, scale).
Fill UniformFill(const Params& p) { return Fill::Uniform(-p.Num("scale"), p.Num("scale")); }

// vLLM GeluAndMul(approximate="tanh") goldens: x [..., 2D] -> out [..., D]; leading dims flattened.
GoldenMapping GoldenGeluAndMul(const GoldenCase& g) {
  const std::string approx = g.ArgStr("approximate", "tanh");
  if (approx != "tanh") throw GoldenUnsupported("gelu approximate='" + approx + "' (only the tanh form)");
  return act::GoldenGlu(g, "gelu_and_mul");
}

// The inverse of GoldenGlu (vt-fuzz --upstream): x [T, 2D] -> out [T, D] as
// the runner key's call.
UpstreamCall UpstreamGlu(const Case& c, const std::string& key, Json args) {
  RequireElements(c, "out");
  UpstreamCall u;
  u.op = key;
  u.args = std::move(args);
  u.inputs = {UpstreamInput(c, "x", "x")};
  u.outputs = {UpstreamOutput(c, "out", "out")};
  return u;
}

}  // namespace
}  // namespace local_gelu_and_mul

OpSpec Spec_gelu_and_mul() {
  using namespace local_gelu_and_mul;
  // "scale": never below -4 (UniformFill): for g < ~-4.7 the f32 formula's
  // 1 + tanh(inner) cancels to a few f32 ulps of 1 (or to 0), no bound tighter
  // than |out| exists there, and the trust check would rightly refuse such
  // cases (a normal's tail reaches there in a few small cases per thousand).
  // 4 covers the whole tanh knee and the deep negative side, 0.05 the
  // near-linear region, 1 and 2 the typical activations.
  OpSpec s = act::GluSpec("gelu_and_mul", gen::Pick(std::vector<double>{1.0, 2.0, 4.0, 0.05}), UniformFill,
                          act::Glu(vt::GeluAndMul, oracle::GeluAndMul<entry::Bounded>, oracle::GeluAndMul<float>),
                          Bound("f32: 0.044715*g*g*g, + g, * sqrt(2/pi) (both constants held as their f32 "
                                "roundings), tanhf (glibc, 2 ulps), 1 + that, (0.5*g) * that, times up: "
                                "running error bound of each f32 step, then one rounding to out "
                                "(docs/tolerance.md)"),
                          {mut::DType("x", vt::DType::kU8), mut::Dim("out", 1, -1), mut::DropDim("out")});
  // tanhf(inner) reaches +-1.0f only past |inner| ~ 9.01 (|g| ~ 5.15);
  // saturation shortcuts at |inner| > 7 (|g| > 4.6) differ in between.
  s.values.edges = [](const Params&) { return Symmetric("x", 4.5, 5.3); };
  // No other op evaluates GELU-tanh, so the only bit-exact claim is batch
  // invariance (GluSpec's RowSlice).
  s.goldens = {{"gelu_and_mul", GoldenGeluAndMul}, {"gelu_tanh_and_mul", GoldenGeluAndMul}};
  return s;
}

UpstreamMap UpstreamMap_gelu_and_mul() {
  using namespace local_gelu_and_mul;
  return {"gelu_and_mul", "gelu_and_mul", [](const Case& c) { return UpstreamGlu(c, "gelu_and_mul", Json{{"approximate", "tanh"}}); }};
}

}  // namespace vt::conform
