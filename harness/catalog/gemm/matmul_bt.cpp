// Catalog entry: matmul_bt (vLLM F.linear(x, W), W the torch Linear weight [N,K]).
#include "harness/catalog/gemm/gemm_entry.h"
#include "oracles/gemm/matmul_bt.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("matmul_bt");
    p.Set("a", *gen::FloatIn());
    p.Set("b", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    p.Set("M", *gemm_entry::Rows(tier));
    p.Set("K", *gemm_entry::Depth(tier));
    p.Set("N", *gemm_entry::Cols(tier));
    p.Set("a_pad", *gen::Pad());  // a column slice of a wider activation buffer
    p.Set("repack", *gen::Flag());
    p.Set("fill", *gemm_entry::FillKnob());
    p.Set("scale", *gen::Scale());
    p.seed = *gen::Seed();
    return p;
  });
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

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::MatmulBT(ctx, ws["out"], ws["a"], ws["b"]); }

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& a = c.Get("a");
  const TensorData& b = c.Get("b");
  return {{"out", oracle::MatmulBt<S>(a.shape[0], a.shape[1], b.shape[0], a.Values(), b.Values())}};
}

std::vector<OutputSpec> Outputs(const Case& c) { return {gemm_entry::OutSpec(c.params)}; }

// The same product through matmul on the [K,N] weight (b^T, contiguous) and a
// contiguous copy of the activation.
Case AsMatmul(const Case& c) {
  const TensorData& b = c.Get("b");
  const int64_t n = b.shape[0], k = b.shape[1];
  Case d;
  d.params = Params("matmul");
  for (const char* key : {"a", "b", "out", "M", "K", "N", "fill", "scale"}) d.params.Set(key, c.params.args[key]);
  d.params.seed = c.params.seed;
  d.tensors.push_back(gemm_entry::PlainCopy(c.Get("a"), "a", Role::kInput));
  d.tensors.push_back(TensorFromValues("b", b.dtype, {k, n}, Role::kInput, gemm_entry::Transposed(b.Values(), n, k)));
  d.tensors.push_back(CopyTensor(c.Get("out"), "out", Role::kOutput));
  return d;
}

// The same weight in the other form: a repacked one as the plain contiguous
// [N,K] weight, a plain one as the loader's repack (its [K,N] bytes, flagged).
Case OtherRepackForm(const Case& c) {
  Case d = c;
  const TensorData& b = c.Get("b");
  const int64_t n = b.shape[0], k = b.shape[1];
  d.params.Set("repack", c.params.Flag("repack") ? 0 : 1);
  if (b.kn_repacked) {
    d.Get("b") = gemm_entry::PlainCopy(b, "b", Role::kInput);
  } else {
    const TensorData kn = TensorFromValues("b", b.dtype, {k, n}, Role::kInput, gemm_entry::Transposed(b.Values(), n, k));
    d.Get("b") = gemm_entry::RepackedView(kn, "b");
  }
  return d;
}

}  // namespace

OpSpec Spec_matmul_bt() {
  OpSpec s;
  s.name = "matmul_bt";
  s.family = "gemm";
  s.dtypes = "cpu: a [M,K] f32/f16/bf16 (padded rows), b [N,K] f32/f16/bf16 (or its [K,N] repack); out [M,N] f32/bf16";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
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
      RowSlice({"a", "out"}),
      gemm_entry::KZeroWritesZeros(),
  };
  return s;
}

}  // namespace vt::conform
