// Catalog entry: silu_and_mul (vLLM SiluAndMul: the SwiGLU of Llama/Qwen MLPs).
#include "harness/catalog/act/act_entry.h"
#include "harness/golden/upstream_call.h"
#include "oracles/act/silu_and_mul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_silu_and_mul {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// The same gate/up pairs as separate contiguous tensors for moe_silu_mul. Both
// kernels evaluate SiluF32(gate) * up in f32 and round once to out's dtype, so
// the bytes agree by construction. "out" is still poisoned: derive gets the
// case before any run.
Case AsMoeSiluMul(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t t = x.shape[0], d = x.shape[1] / 2;
  const auto xs = x.Values();
  std::vector<double> gate, up;
  for (int64_t i = 0; i < t; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      gate.push_back(xs[static_cast<std::size_t>(i * 2 * d + j)]);
      up.push_back(xs[static_cast<std::size_t>(i * 2 * d + d + j)]);
    }
  }
  Case m;
  m.params = Params("moe_silu_mul");
  m.params.Set("gate", c.params.Str("x"));
  m.params.Set("up", c.params.Str("x"));
  m.params.Set("out", c.params.Str("out"));
  m.params.seed = c.params.seed;
  m.tensors.push_back(TensorFromValues("gate", x.dtype, {t, d}, Role::kInput, gate));
  m.tensors.push_back(TensorFromValues("up", x.dtype, {t, d}, Role::kInput, up));
  m.tensors.push_back(CopyTensor(c.Get("out"), "out", Role::kOutput));
  return m;
}

// vLLM SiluAndMul goldens: x [..., 2D] -> out [..., D]; leading dims flattened.
GoldenMapping GoldenSiluAndMul(const GoldenCase& g) { return act::GoldenGlu(g, "silu_and_mul"); }

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
}  // namespace local_silu_and_mul

OpSpec Spec_silu_and_mul() {
  using namespace local_silu_and_mul;
  OpSpec s = act::GluSpec("silu_and_mul", act::ExpScale(), entry::Values,
                          act::Glu(vt::SiluAndMul, oracle::SiluAndMul<entry::Bounded>, oracle::SiluAndMul<float>),
                          Bound("f32: expf(-g) (glibc, 1 ulp), 1 + that, g / that, times up: running "
                                "error bound of each f32 step, then one rounding to out (docs/tolerance.md)"),
                          {mut::DType("out", vt::DType::kI32), mut::Dim("out", 1, 1), mut::DropDim("x"),
                           mut::AddDim("out"), mut::OtherDevice("x")});
  s.values.edges = [](const Params&) { return ExpBands("x"); };
  s.claims.push_back(SameAs("moe_silu_mul_halves",
                            "silu_and_mul(x) == moe_silu_mul(gate = x[:, :D], up = x[:, D:]) with the same out dtype",
                            {}, "moe_silu_mul", AsMoeSiluMul, {{"out", "out"}}));
  s.goldens = {{"silu_and_mul", GoldenSiluAndMul}};
  return s;
}

UpstreamMap UpstreamMap_silu_and_mul() {
  using namespace local_silu_and_mul;
  return {"silu_and_mul", "silu_and_mul", [](const Case& c) { return UpstreamGlu(c, "silu_and_mul", Json::object()); }};
}

}  // namespace vt::conform
