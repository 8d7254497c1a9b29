// Catalog entry: matmul (torch `a.float() @ b.float()`; vLLM's dense GEMM).
#include "harness/catalog/gemm/gemm_entry.h"
#include "harness/golden/golden_check.h"
#include "oracles/gemm/matmul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("matmul");
    p.Set("a", *gen::FloatIn());
    p.Set("b", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    p.Set("M", *gemm_entry::Rows(tier));
    p.Set("K", *gemm_entry::Depth(tier));
    p.Set("N", *gemm_entry::Cols(tier));
    p.Set("fill", *gemm_entry::FillKnob());
    p.Set("scale", *gen::Scale());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t m = p.Int("M"), k = p.Int("K"), n = p.Int("N");
  c.Input("a", p.DType("a"), {m, k}, gemm_entry::InputFill(p));
  c.Input("b", p.DType("b"), {k, n}, gemm_entry::InputFill(p));
  c.Output("out", p.DType("out"), {m, n});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::Matmul(ctx, ws["out"], ws["a"], ws["b"]); }

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& a = c.Get("a");
  const TensorData& b = c.Get("b");
  return {{"out", oracle::Matmul<S>(a.shape[0], a.shape[1], b.shape[1], a.Values(), b.Values())}};
}

std::vector<OutputSpec> Outputs(const Case& c) { return {gemm_entry::OutSpec(c.params)}; }

// The same product through matmul_bt: the weight as the torch Linear [N,K]
// (b transposed, contiguous) or, when `repacked`, b's own [K,N] bytes handed
// over as the loader's repack of that [N,K] weight.
Case AsMatmulBt(const Case& c, bool repacked) {
  const TensorData& b = c.Get("b");
  const int64_t k = b.shape[0], n = b.shape[1];
  Case d;
  d.params = Params("matmul_bt");
  for (const char* key : {"a", "b", "out", "M", "K", "N", "fill", "scale"}) d.params.Set(key, c.params.args[key]);
  d.params.Set("a_pad", 0);
  d.params.Set("repack", repacked ? 1 : 0);
  d.params.seed = c.params.seed;
  d.tensors.push_back(gemm_entry::PlainCopy(c.Get("a"), "a", Role::kInput));
  if (repacked) {
    d.tensors.push_back(gemm_entry::RepackedView(b, "b"));
  } else {
    d.tensors.push_back(TensorFromValues("b", b.dtype, {n, k}, Role::kInput, gemm_entry::Transposed(b.Values(), k, n)));
  }
  d.tensors.push_back(CopyTensor(c.Get("out"), "out", Role::kOutput));
  return d;
}

// Upstream matmul goldens (pure torch, a.float() @ b.float()): a [..., K]
// (leading dims flattened into rows), b [K, N], out [..., N]; any float
// dtypes the manifest records (an f16 out is compared by value against f32).
GoldenMapping GoldenMatmul(const GoldenCase& g) {
  GoldenMapping m;
  const TensorData a = AsRows(GoldenTensor(g, "a", "a", Role::kInput));
  const TensorData b = GoldenTensor(g, "b", "b", Role::kInput);
  const TensorData out = AsRows(GoldenOutputLike(g, "out", "out"));
  for (const TensorData* t : {&a, &b}) {
    if (!vt::IsFloat(t->dtype)) throw GoldenUnsupported(t->name + " is not a float tensor");
  }
  if (b.shape.size() != 2) throw GoldenUnsupported("b is not a 2-D [K,N] weight");
  Params p("matmul");
  p.Set("a", DTypeKey(a));
  p.Set("b", DTypeKey(b));
  p.Set("out", DTypeKey(out));
  p.Set("M", a.shape[0]);
  p.Set("K", a.shape[1]);
  p.Set("N", b.shape[1]);
  p.Set("fill", "normal");
  p.Set("scale", 1.0);
  m.c.params = p;
  m.c.tensors = {a, b, out};
  m.compare = {{"out", "out"}};
  return m;
}

}  // namespace

OpSpec Spec_matmul() {
  OpSpec s;
  s.name = "matmul";
  s.family = "gemm";
  s.dtypes = "cpu: a [M,K], b [K,N] f32/f16/bf16 (mixed); out [M,N] f32/bf16";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  s.contract = {{entry::Operand("a", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Operand("b", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Written("out", entry::kFloatOut, entry::kContiguous, {2})},
                {}};
  // A special in a[i, k] reaches all of out's row i: a quarter of the rows at most.
  s.values.specials = {{"a", true}};
  s.errors = {mut::Dim("b", 0, 1), mut::Dim("a", 1, -1), mut::Dim("out", 0, 1), mut::Dim("out", 1, 1),
              mut::Dim("out", 1, -1)};
  s.claims = {
      SameAs("bt_on_transposed_weight", "matmul(a, b) == matmul_bt(a, b^T as a contiguous [N,K] weight)", {},
             "matmul_bt", [](const Case& c) { return AsMatmulBt(c, false); }, {{"out", "out"}}),
      SameAs("bt_on_repacked_weight",
             "matmul(a, b) == matmul_bt(a, b's [K,N] bytes flagged elem_kn_repacked as an [N,K] weight)", {},
             "matmul_bt", [](const Case& c) { return AsMatmulBt(c, true); }, {{"out", "out"}}),
      RowSlice({"a", "out"}),
      gemm_entry::KZeroWritesZeros(),
  };
  s.goldens = {{"matmul", GoldenMatmul}};
  return s;
}

}  // namespace vt::conform
