// Catalog entry: mul_col_vec_f32 (in place x[m,n] *= col[n]: folding a per-output-
// channel weight scale into a GEMM result, whose rows may be padded).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/mul_col_vec_f32.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_mul_col_vec_f32 {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier) {
  p.Set("pad", *gen::Pad());  // x's row stride is N + pad: gaps must stay untouched
  // No exp here: the general magnitudes (x * col stays far below overflow).
  p.Set("scale", *gen::Scale());
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

}  // namespace
}  // namespace local_mul_col_vec_f32

OpSpec Spec_mul_col_vec_f32() {
  using namespace local_mul_col_vec_f32;
  OpSpec s = act::ActSpec({
      .name = "mul_col_vec_f32",
      .calls = {Run, Eval<entry::Bounded>, Eval<float>},
      .out = "x",
      .rule = Exact("one f32 multiply of the given x and col, rounded once to x's dtype "
                    "(in place): defined exactly"),
      .dtypes = "cpu: x f32/bf16 [M,N] in place, row stride >= N; col f32 [N] contiguous",
      // x f32 / bf16 (read and written); col: f32 only. "T" (rows, M) is the catalog-wide row key.
      .keys = {entry::DrawOut("x"), entry::Fixed("col", "f32")},
      .width = "N",
      .draw = Draw,
      .build = Build,
  });
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
