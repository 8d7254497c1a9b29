// Catalog entry: moe_relu2 (vLLM relu_squared: NemotronH's expert activation, no gate).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/moe_relu2.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_moe_relu2 {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// relu of a symmetric N(0, scale^2) input zeroes about half of the outputs.
constexpr double kMaxZeroFraction = 0.6;

// Fraction of zero outputs a (seed, dtypes, count, scale) yields: x's contents
// derive only from (seed, "x", element index), so the generator can compute it.
double ZeroFraction(const Params& p, int64_t n, uint64_t seed) {
  if (n == 0) return 0.0;
  TensorData x;
  x.name = "x";
  x.dtype = p.DType("x");
  x.fmt = oracle::FmtOf(x.dtype);
  x.shape = {n};
  x.fill = entry::Values(p);
  x.SetContiguous();
  MaterializeTensor(x, seed);
  const oracle::Fmt out = oracle::FmtOf(p.DType("out"));
  int64_t zeros = 0;
  for (double v : x.Values()) zeros += oracle::RoundReal(out, entry::F32(v > 0 ? v * v : 0.0)) == 0.0;
  return static_cast<double>(zeros) / static_cast<double>(n);
}

void Draw(Params& p, Tier) {
  p.Set("shape", *act::FlatShapeKnob());  // exercises the "equal numel" contract
  // No exp here: the general magnitudes (30^2 * tails stays far below overflow).
  p.Set("scale", *gen::Scale());
}

// A small case can draw mostly non-positive x, and the trust check rightly
// refuses a mostly-zero reference: keep seeds whose output stays trustworthy.
rc::Gen<uint64_t> TrustedSeed(const Params& p) {
  const int64_t n = p.Int("T") * p.Int("D");
  return rc::gen::suchThat(gen::Seed(), [p, n](uint64_t seed) { return ZeroFraction(p, n, seed) <= kMaxZeroFraction; });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), d = p.Int("D");
  const std::string k = p.Str("shape");
  c.Input("x", p.DType("x"), act::FlatShape(k, 1, t, d), entry::Values(p));
  c.Output("out", p.DType("out"), act::FlatShape(k, 0, t, d));
}

}  // namespace
}  // namespace local_moe_relu2

OpSpec Spec_moe_relu2() {
  using namespace local_moe_relu2;
  OpSpec s = act::ActSpec({
      .name = "moe_relu2",
      .calls = act::Flat(vt::MoeRelu2, oracle::MoeRelu2<entry::Bounded>, oracle::MoeRelu2<float>),
      .rule = Exact("the clamp is exact and relu(x) * relu(x) is one f32 multiply of a given "
                    "value, rounded once to out: defined exactly"),
      .dtypes = "cpu: x f32/f16/bf16; out f32/bf16; any ranks, equal element counts",
      .draw = Draw,
      .seed = TrustedSeed,
      .build = Build,
  });
  // relu of a symmetric input zeroes ~50% of the outputs by definition; the
  // default 0.5 would mistrust half of all valid cases.
  s.max_zero_fraction = kMaxZeroFraction;
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kAnyShape), entry::Written("out", entry::kFloatOut, entry::kAnyShape)}, {}};
  s.values.specials = {{"x"}};  // relu(NaN) = 0 by the definition (f > 0 ? f : 0)
  s.errors = {mut::DType("x", vt::DType::kI32),   mut::DType("x", vt::DType::kI8),
              mut::DType("out", vt::DType::kF16), mut::DType("out", vt::DType::kU8),
              mut::Dim("out", 0, 1),              mut::Dim("x", 0, 1),
              mut::Strided("x"),                  mut::Strided("out"),
              mut::NullData("x"),                 mut::NullData("out"),
              mut::OtherDevice("x"),              mut::Alias("out", "x")};
  s.claims = {FlatSlice({"x", "out"})};
  return s;
}

}  // namespace vt::conform
