// Catalog entry: mul_col_vec_f32 (in place x[m,n] *= col[n]: folding a per-output-
// channel weight scale into a GEMM result, whose rows may be padded).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/mul_col_vec_f32.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("mul_col_vec_f32");
    p.Set("x", *gen::FloatOut());  // f32 / bf16 (x is read and written)
    p.Set("col", "f32");           // the only column dtype
    p.Set("T", *gen::Rows(tier));  // rows (M); "T" is the catalog-wide row key
    p.Set("N", *gen::Width(tier));
    p.Set("pad", *gen::Pad());     // x's row stride is N + pad: gaps must stay untouched
    // No exp here: the general magnitudes (x * col stays far below overflow).
    p.Set("scale", *gen::Scale());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t m = p.Int("T"), n = p.Int("N");
  c.Add("x", p.DType("x"), {m, n}, Role::kInPlace, entry::Values(p)).SetRowPadding(p.Int("pad"));
  // Scale-like factors: around 1, some negative.
  c.Input("col", p.DType("col"), {n}, Fill::Normal(1.0, 0.5));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::MulColVecF32(ctx, ws["x"], ws["col"]); }

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  return {{"x", oracle::MulColVec<S>(x.shape[0], x.shape[1], x.Values(), c.Get("col").Values())}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"x", Exact("one f32 multiply of the given x and col, rounded once to x's dtype "
                      "(in place): defined exactly")}};
}

}  // namespace

OpSpec Spec_mul_col_vec_f32() {
  OpSpec s;
  s.name = "mul_col_vec_f32";
  s.family = "act";
  s.dtypes = "cpu: x f32/bf16 [M,N] in place, row stride >= N; col f32 [N] contiguous";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  // x accepts padded rows, so its layout errors are an inner stride and
  // overlapping rows rather than mut::Strided.
  s.contract = {{entry::Written("x", entry::kF32BF16, entry::kRowStrided, {2}), entry::Operand("col", entry::kF32, entry::kContiguous, {1})}, {}};
  s.values.specials = {{"x"}, {"col"}};
  s.errors = {mut::DType("x", vt::DType::kF16),    mut::DType("x", vt::DType::kI32),
              mut::DType("col", vt::DType::kBF16), mut::DType("col", vt::DType::kF16),
              mut::Dim("col", 0, 1),               mut::Dim("x", 1, -1),
              mut::AddDim("x"),                    mut::DropDim("x"),
              mut::AddDim("col"),                  mut::OverlappingRows("x"),
              mut::InnerStride("x"),               mut::Strided("col"),
              mut::NullData("x"),                  mut::NullData("col"),
              mut::OtherDevice("x"),               mut::OtherDevice("col"),
              mut::Alias("col", "x")};
  // mul_scalar's claim covers the cross-op identity (a constant column).
  s.claims = {RowSlice({"x"})};
  return s;
}

}  // namespace vt::conform
