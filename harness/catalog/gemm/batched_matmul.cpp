// Catalog entry: batched_matmul (torch.bmm; vLLM's MLA weight absorption,
// which passes transposed views whose batch axis is not the outermost one).
// What every GEMM entry shares comes from gemm_entry::Spec (gemm_entry.h).
#include "harness/catalog/gemm/gemm_entry.h"
#include "harness/catalog/catalog.h"
#include "oracles/gemm/batched_matmul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_batched_matmul {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// How an operand's [G, R, C] view lies in memory (the "<operand>_view" knobs):
//   contig      row-major
//   padded      rows padded by 3 elements (row stride C + 3)
//   transposed  the [R, G, C] buffer seen as [G, R, C]: batch stride C, row
//               stride G * C (the MLA call sites' layout)
//   broadcast   (inputs) batch stride 0: one matrix shared by every batch
void Place(TensorData& t, const std::string& how) {
  const int64_t g = t.shape[0], r = t.shape[1], c = t.shape[2];
  t.SetContiguous();
  // An empty view addresses nothing; its strides stay row-major so that it
  // round-trips through the case format (the "offset" layout already gives
  // empty views odd strides).
  if (t.Numel() == 0) return;
  if (how == "padded") {
    t.strides = {r * (c + 3), c + 3, 1};
  } else if (how == "transposed") {
    t.strides = {c, std::max<int64_t>(g, 1) * c, 1};
  } else if (how == "broadcast") {
    t.strides = {0, c, 1};
  }
}

rc::Gen<std::string> InputView() {
  return gen::Pick(std::vector<std::string>{"contig", "padded", "transposed", "broadcast"});
}

void Knobs(Params& p, Tier) {
  p.Set("in", *gen::FloatIn());  // a and b share one dtype
  p.Set("out", *gen::FloatOut());
  p.Set("G", *gen::Pick(std::vector<int64_t>{1, 2, 3, 5, 0}));
  p.Set("M", *gen::Pick(std::vector<int64_t>{1, 2, 3, 5, 16, 17, 33, 0}));
  p.Set("K", *gen::Pick(std::vector<int64_t>{1, 2, 7, 16, 17, 64, 129}));
  p.Set("N", *gen::Pick(std::vector<int64_t>{1, 3, 15, 16, 17, 33, 0}));
  p.Set("a_view", *InputView());
  p.Set("b_view", *InputView());
  p.Set("out_view", *gen::Pick(std::vector<std::string>{"contig", "padded", "transposed"}));
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t g = p.Int("G"), m = p.Int("M"), k = p.Int("K"), n = p.Int("N");
  Place(c.Input("a", p.DType("in"), {g, m, k}, gemm_entry::InputFill(p)), p.Str("a_view"));
  Place(c.Input("b", p.DType("in"), {g, k, n}, gemm_entry::InputFill(p)), p.Str("b_view"));
  Place(c.Output("out", p.DType("out"), {g, m, n}), p.Str("out_view"));
}

// Values of batch q of a [G, R, C] tensor (logical order).
std::vector<double> Batch(const TensorData& t, int64_t q) {
  const std::vector<double> v = t.Values();
  const int64_t per = t.shape[1] * t.shape[2];
  return {v.begin() + q * per, v.begin() + (q + 1) * per};
}

// Every batch q of out equals matmul(a[q], b[q]) run alone on contiguous copies.
Claim PerBatchMatmul() {
  Claim c;
  c.name = "matmul_per_batch";
  c.statement = "batched_matmul(a, b)[q] == matmul(a[q], b[q]) for every batch q, bit for bit";
  c.applies = [](const Params& p) { return p.Int("G") > 0; };
  c.check = [](const OpSpec& op, const Case& in, const vt::ExecContext& ctx) {
    const OpSpec* mm = FindOp("matmul");
    const Execution run = Execute(op, in, ctx);
    if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
    const TensorData& a = in.Get("a");
    const TensorData& b = in.Get("b");
    const TensorData& out = run.after.Get("out");
    const int64_t g = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
    for (int64_t q = 0; q < g; ++q) {
      Case d;
      d.params = Params("matmul");
      d.params.Set("a", in.params.Str("in"));
      d.params.Set("b", in.params.Str("in"));
      d.params.Set("out", in.params.Str("out"));
      d.params.Set("M", m);
      d.params.Set("K", k);
      d.params.Set("N", n);
      d.params.Set("fill", in.params.Str("fill"));
      d.params.Set("scale", in.params.Num("scale"));
      d.params.seed = in.params.seed;
      d.tensors.push_back(TensorFromValues("a", a.dtype, {m, k}, Role::kInput, Batch(a, q)));
      d.tensors.push_back(TensorFromValues("b", b.dtype, {k, n}, Role::kInput, Batch(b, q)));
      d.tensors.push_back(TensorFromValues("out", out.dtype, {m, n}, Role::kOutput,
                                           std::vector<double>(static_cast<std::size_t>(m * n), NAN)));
      const Execution alone = Execute(*mm, d, ctx);
      if (!alone.guard_error.empty()) return ClaimOutcome::Violated("matmul: " + alone.guard_error);
      const TensorData mine = TensorFromValues("out", out.dtype, {m, n}, Role::kOutput, Batch(out, q));
      const std::string diff = DiffBytes(mine, alone.after.Get("out"), /*any_nan=*/true);
      if (!diff.empty()) return ClaimOutcome::Violated("batch " + std::to_string(q) + ": " + diff);
    }
    return ClaimOutcome::Holds();
  };
  return c;
}

// b with a float dtype other than a's (the validator requires one dtype).
ErrorCase BDTypeDiffers() {
  return {"b_dtype_differs_from_a",
          [](Case& c) {
            TensorData* b = c.Find("b");
            if (b == nullptr) return false;
            b->dtype = b->dtype == vt::DType::kF32 ? vt::DType::kBF16 : vt::DType::kF32;
            b->fmt = oracle::FmtOf(b->dtype);
            b->SetContiguous();
            return true;
          },
          "b"};
}

// out's batches written over each other (batch stride 0, H-11).
ErrorCase OutBatchesOverlap() {
  return {"out_batches_overlap",
          [](Case& c) {
            TensorData* o = c.Find("out");
            if (o == nullptr || o->shape[0] < 2 || o->Numel() == 0) return false;
            o->SetContiguous();
            o->strides[0] = 0;
            return true;
          },
          "out"};
}

}  // namespace
}  // namespace local_batched_matmul

OpSpec Spec_batched_matmul() {
  using namespace local_batched_matmul;
  OpSpec s = gemm_entry::Spec("batched_matmul",
                              "cpu: a [G,M,K], b [G,K,N] f32/f16/bf16 (one dtype), out [G,M,N] f32/bf16; strided views",
                              Knobs, vt::BatchedMatmul, oracle::BatchedMatmul<entry::Bounded>,
                              oracle::BatchedMatmul<float>);
  s.build = Build;
  const auto batch = OperandRule::Layout::kBatchStrided;
  s.contract = {{entry::Operand("a", entry::kFloatIn, batch, {3}), entry::Operand("b", entry::kFloatIn, batch, {3}),
                 entry::Written("out", entry::kFloatOut, batch, {3})},
                {}};
  // A special in a[q, i, k] reaches out's row (q, i); the row carriers of a
  // rank-3 tensor are its leading index.
  s.values.specials = {{"a", true}};
  s.errors = {mut::Dim("b", 0, 1), mut::Dim("b", 1, 1), mut::Dim("a", 2, -1), mut::Dim("out", 2, 1),
              mut::Dim("out", 1, -1), mut::Dim("out", 0, 1), BDTypeDiffers(), OutBatchesOverlap()};
  s.claims = {PerBatchMatmul()};
  gemm_entry::AddSharedClaims(s, {"a", "b", "out"});
  return s;
}

}  // namespace vt::conform
