// Catalog entry: mul_scalar (Gemma's embedding normaliser: hidden * sqrt(hidden_size)).
#include <cmath>

#include "harness/catalog/act/act_entry.h"
#include "oracles/act/mul_scalar.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_mul_scalar {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  gen::DrawRank(p, tier);
  // Negative, tiny, large, and sqrt(2048) (Gemma's normaliser at hidden size
  // 2048). 1e-3, 33.3, 0.1 and sqrt(2048) are not f32 values: the kernel
  // multiplies by f32(s), which is also what the oracle is given.
  p.Set("s", *gen::Pick(std::vector<double>{2.0, -0.5, 1e-3, 33.3, 45.254833995939045, 0.1}));
  // No exp/tanh here: the general magnitudes (x * s stays far below f32/bf16 overflow).
  p.Set("scale", *gen::Scale());
}

// x * s as the in-place column scale with every column factor equal to f32(s):
// both kernels form the one f32 product LoadF32(x) * f32(s) and store it to the
// same dtype, so the bytes agree for any reshape of x to [numel / last, last].
bool SameStoreDType(const Params& p) {
  return p.Str("x") == p.Str("out") && (p.Str("x") == "f32" || p.Str("x") == "bf16");
}

Case AsMulColVec(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t n = x.shape.back(), m = n == 0 ? 0 : x.Numel() / n;
  Case d;
  d.params = Params("mul_col_vec_f32");
  d.params.Set("x", c.params.Str("x"));
  d.params.Set("T", m);
  d.params.Set("N", n);
  d.params.seed = c.params.seed;
  d.tensors.push_back(act::Reshaped(x, "x", Role::kInPlace, {m, n}));
  d.tensors.push_back(TensorFromValues("col", vt::DType::kF32, {n}, Role::kInput,
                                       std::vector<double>(static_cast<std::size_t>(n), c.params.F32("s"))));
  return d;
}

}  // namespace
}  // namespace local_mul_scalar

OpSpec Spec_mul_scalar() {
  using namespace local_mul_scalar;
  OpSpec s = act::ActSpec({
      .name = "mul_scalar",
      .calls = act::WithScalar("s", vt::MulScalar, oracle::MulScalar<entry::Bounded>, oracle::MulScalar<float>),
      .rule = Exact("one f32 multiply of the given x and f32(s), rounded once to out: defined "
                    "exactly"),
      .dtypes = "cpu: x f32/f16/bf16; out f32/bf16 (same shape, rank 1..4); f32(s) finite",
      .width = "H",
      .draw = Draw,
      .build = [](Case& c) { act::BuildRankUnary(c, entry::Values(c.params)); },
  });
  act::SameShapeRules(s, entry::Finite("s"),
                      {mut::DType("out", vt::DType::kI8), mut::Dim("x", 0, 1), mut::DropDim("out"),
                       mut::OtherDevice("x"),
                       mut::Arg("s", 1e39),  // finite double, inf as f32
                       mut::Arg("s", -1e39), mut::Arg("s", NAN)});
  s.claims.push_back(SameAs("mul_col_vec_const",
                            "mul_scalar(x, s) == mul_col_vec_f32 in place on x reshaped [numel/last, last] with "
                            "col = f32(s) repeated (x and out of one dtype, f32 or bf16)",
                            SameStoreDType, "mul_col_vec_f32", AsMulColVec, {{"out", "x"}}));
  return s;
}

}  // namespace vt::conform
