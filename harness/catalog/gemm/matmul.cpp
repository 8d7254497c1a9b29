// Catalog entry: matmul (torch `a.float() @ b.float()`; vLLM's dense GEMM).
// What every GEMM entry shares comes from gemm_entry::Spec (gemm_entry.h).
#include "harness/catalog/gemm/gemm_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/gemm/matmul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_matmul {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t m = p.Int("M"), k = p.Int("K"), n = p.Int("N");
  c.Input("a", p.DType("a"), {m, k}, gemm_entry::InputFill(p));
  c.Input("b", p.DType("b"), {k, n}, gemm_entry::InputFill(p));
  c.Output("out", p.DType("out"), {m, n});
}

// The same product through matmul_bt: the weight as the torch Linear [N,K]
// (b transposed, contiguous) or, when `repacked`, b's own [K,N] bytes handed
// over as the loader's repack of that [N,K] weight.
Case AsMatmulBt(const Case& c, bool repacked) {
  const TensorData& b = c.Get("b");
  Case d = gemm_entry::SameProductAs(c, "matmul_bt",
                                     repacked ? gemm_entry::RepackedView(b, "b") : gemm_entry::TransposedCopy(b, "b"));
  d.params.Set("a_pad", 0);
  d.params.Set("repack", repacked ? 1 : 0);
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
  // How the inputs were drawn: a manifest vt-fuzz --upstream writes records
  // them (the integer fill makes the own model exact); a capture does not.
  p.Set("fill", g.ArgStr("fill", "normal"));
  p.Set("scale", g.ArgNum("scale", 1.0));
  m.c.params = p;
  m.c.tensors = {a, b, out};
  m.compare = {{"out", "out"}};
  return m;
}

// The inverse of GoldenMatmul (vt-fuzz --upstream): a.float() @ b.float(),
// any float dtypes; the fill and scale knobs ride along in args.
UpstreamCall UpstreamMatmul(const Case& c) {
  RequireElements(c, "out");
  UpstreamCall u;
  u.op = "matmul";
  u.args = {{"fill", c.params.Str("fill")}, {"scale", c.params.Num("scale")}};
  u.inputs = {UpstreamInput(c, "a", "a"), UpstreamInput(c, "b", "b")};
  u.outputs = {UpstreamOutput(c, "out", "out")};
  return u;
}

}  // namespace
}  // namespace local_matmul

OpSpec Spec_matmul() {
  using namespace local_matmul;
  OpSpec s = gemm_entry::Spec("matmul", "cpu: a [M,K], b [K,N] f32/f16/bf16 (mixed); out [M,N] f32/bf16",
                              gemm_entry::DrawMatrices, vt::Matmul, oracle::Matmul<entry::Bounded>,
                              oracle::Matmul<float>);
  s.build = Build;
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
  };
  gemm_entry::AddSharedClaims(s, {"a", "out"});
  s.goldens = {{"matmul", GoldenMatmul}};
  return s;
}

UpstreamMap UpstreamMap_matmul() {
  using namespace local_matmul;
  return {"matmul", "matmul", UpstreamMatmul};
}

}  // namespace vt::conform
