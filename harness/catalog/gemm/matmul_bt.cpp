// Catalog entry: matmul_bt (vLLM F.linear(x, W), W the torch Linear weight [N,K]).
// What every GEMM entry shares comes from gemm_entry::Spec (gemm_entry.h).
#include "harness/catalog/gemm/gemm_entry.h"
#include "oracles/gemm/matmul_bt.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_matmul_bt {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Knobs(Params& p, Tier tier) {
  gemm_entry::DrawMatrices(p, tier);
  p.Set("a_pad", *gen::Pad());  // a column slice of a wider activation buffer
  p.Set("repack", *gen::Flag());
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t m = p.Int("M"), k = p.Int("K"), n = p.Int("N");
  TensorData& a = c.Input("a", p.DType("a"), {m, k}, gemm_entry::InputFill(p));
  if (p.Int("a_pad") > 0) a.SetRowPadding(p.Int("a_pad"));
  TensorData& b = c.Input("b", p.DType("b"), {n, k}, gemm_entry::InputFill(p));
  if (p.Flag("repack")) {
    // The loader's repack: the same logical [N,K] weight, its bytes [K,N].
    b.strides = {1, std::max<int64_t>(n, 1)};
    b.kn_repacked = true;
  }
  c.Output("out", p.DType("out"), {m, n});
}

// The same product through matmul on the [K,N] weight (b^T, contiguous) and a
// contiguous copy of the activation.
Case AsMatmul(const Case& c) {
  return gemm_entry::SameProductAs(c, "matmul", gemm_entry::TransposedCopy(c.Get("b"), "b"));
}

// The same weight in the other form: a repacked one as the plain contiguous
// [N,K] weight, a plain one as the loader's repack (its [K,N] bytes, flagged).
Case OtherRepackForm(const Case& c) {
  Case d = c;
  const TensorData& b = c.Get("b");
  d.params.Set("repack", c.params.Flag("repack") ? 0 : 1);
  if (b.kn_repacked) {
    d.Get("b") = gemm_entry::PlainCopy(b, "b", Role::kInput);
  } else {
    d.Get("b") = gemm_entry::RepackedView(gemm_entry::TransposedCopy(b, "b"), "b");
  }
  return d;
}

}  // namespace
}  // namespace local_matmul_bt

OpSpec Spec_matmul_bt() {
  using namespace local_matmul_bt;
  OpSpec s = gemm_entry::Spec("matmul_bt",
                              "cpu: a [M,K] f32/f16/bf16 (padded rows), b [N,K] f32/f16/bf16 (or its [K,N] "
                              "repack); out [M,N] f32/bf16",
                              Knobs, vt::MatmulBT, oracle::MatmulBt<entry::Bounded>, oracle::MatmulBt<float>);
  s.build = Build;
  OperandRule weight = entry::Operand("b", entry::kFloatIn, entry::kContiguous, {2});
  weight.kn_repack = true;  // the one operand that honours elem_kn_repacked
  s.contract = {{entry::Operand("a", entry::kFloatIn, entry::kRowStrided, {2}), weight,
                 entry::Written("out", entry::kFloatOut, entry::kContiguous, {2})},
                {}};
  // A special in a[i, k] reaches out's row i; in w[j, k], out's column j.
  s.values.specials = {{"a", true}, {"b", true}};
  s.errors = {mut::Dim("b", 1, 1), mut::Dim("a", 1, -1), mut::Dim("out", 0, 1), mut::Dim("out", 1, 1),
              mut::Dim("out", 1, -1)};
  s.claims = {
      SameAs("matmul_on_transposed_weight", "matmul_bt(a, w) == matmul(contiguous a, w^T as a [K,N] weight)", {},
             "matmul", AsMatmul, {{"out", "out"}}),
      SameAs("repack_form_irrelevant",
             "matmul_bt gives the same bytes whether w is plain [N,K] or the loader's [K,N] repack",
             {}, "matmul_bt", OtherRepackForm, {{"out", "out"}}),
  };
  gemm_entry::AddSharedClaims(s, {"a", "out"});
  return s;
}

}  // namespace vt::conform
