// Catalog entry: index_copy (Tensor.index_copy_ over dim 0: a row scatter,
// in place on out; repeated indices: the last occurrence wins).
#include <set>

#include "harness/catalog/catalog.h"
#include "harness/catalog/glue/index_entry.h"
#include "oracles/glue/index_copy.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_index_copy {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("dtype", *glue::AnyDType());
  // "distinct" indices, or "dups": drawn with repeats (at M > N always),
  // the case the last-wins rule and the one-writer-per-row split are for.
  const std::string kind = *gen::Pick(std::vector<std::string>{"distinct", "dups", "dups"});
  const int64_t n = *gen::Pick(std::vector<int64_t>{1, 2, 3, 17, 64, 257});
  int64_t m = *gen::Rows(tier);
  if (kind == "distinct") m = std::min(m, n);
  p.Set("idx_kind", kind);
  p.Set("N", n);
  p.Set("M", m);  // then the row knobs: out's rows may be padded
}

void Build(Case& c) {
  const Params& p = c.params;
  const vt::DType dt = p.DType("dtype");
  const int64_t n = p.Int("N"), m = p.Int("M");
  const std::string kind = p.Str("idx_kind") == "distinct" ? "distinct" : "random";
  c.Add("out", dt, glue::RowsShape(p, n), Role::kInPlace, glue::RowFill(p, dt)).SetNestedPadding(p.Int("pad"));
  c.Input("in", dt, glue::RowsShape(p, m), glue::RowFill(p, dt));
  glue::SetIndices(c.Input("idx", vt::DType::kI32, {m}, Fill::Const(0)), glue::DrawIndices(p.seed, "idx", m, n, kind));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::IndexCopy(ctx, ws["out"], ws["in"], ws["idx"]); }

// Rows no index names keep theirs.
template <class E>
entry::Outs<E> Move(const Case& c, const glue::Read<E>& read) {
  const TensorData& out = c.Get("out");
  return {{"out", oracle::IndexCopy<E>(glue::RowElems(out), read(out), read(c.Get("in")), glue::Indices(c.Get("idx")))}};
}

// index_select with the same distinct indices reads back exactly the rows
// index_copy wrote.
Claim SelectRoundTrip() {
  Claim cl;
  cl.name = "index_select_roundtrip";
  cl.statement = "index_select(index_copy(out, in, idx), idx) == in for distinct idx";
  cl.applies = [](const Params& p) { return p.Str("idx_kind") == "distinct" && p.Int("M") > 0; };
  cl.check = [](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const Execution a = Execute(op, c, ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    Case s;
    s.params = Params("index_select");
    s.params.Set("dtype", c.params.Str("dtype"));
    s.params.seed = c.params.seed;
    const TensorData& in = c.Get("in");
    TensorData out = CopyTensor(in, "out", Role::kOutput);
    std::fill(out.storage.begin(), out.storage.end(), 0xA5);  // poison: every byte must be written
    s.tensors = {CopyTensor(a.after.Get("out"), "in", Role::kInput), CopyTensor(c.Get("idx"), "idx", Role::kInput),
                 out};
    const OpSpec* sel = FindOp("index_select");
    const Execution b = Execute(*sel, s, ctx);
    if (!b.guard_error.empty()) return ClaimOutcome::Violated("index_select: " + b.guard_error);
    const std::string d = DiffBytes(b.after.Get("out"), in);
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
  };
  return cl;
}

// Only the last occurrence of each index, with its row: what the repeats
// must come down to.
Case LastOnly(const Case& c) {
  Case m = c;
  const auto idx = glue::Indices(c.Get("idx"));
  const TensorData& in = c.Get("in");
  const auto bits = glue::Bits(in);
  const int64_t row = glue::RowElems(in);
  std::set<int64_t> seen;
  std::vector<int64_t> keep_idx;
  std::vector<uint64_t> keep_rows;
  for (std::size_t i = idx.size(); i-- > 0;) {
    if (!seen.insert(idx[i]).second) continue;
    keep_idx.insert(keep_idx.begin(), idx[i]);
    keep_rows.insert(keep_rows.begin(), bits.begin() + static_cast<std::ptrdiff_t>(i) * row,
                     bits.begin() + static_cast<std::ptrdiff_t>(i + 1) * row);
  }
  std::vector<int64_t> shape = in.shape;
  shape[0] = static_cast<int64_t>(keep_idx.size());
  TensorData rows = glue::FromBits("in", in.dtype, shape, keep_rows);
  rows.role = Role::kInput;
  m.Get("in") = rows;
  TensorData& ix = m.Get("idx");
  ix = TensorFromValues("idx", vt::DType::kI32, {static_cast<int64_t>(keep_idx.size())}, Role::kInput,
                        std::vector<double>(keep_idx.begin(), keep_idx.end()));
  m.params.Set("idx_kind", "distinct");
  m.params.Set("M", static_cast<int64_t>(keep_idx.size()));
  return m;
}

bool HasRepeats(const Params& p) { return p.Str("idx_kind") == "dups" && p.Int("M") > p.Int("N"); }

}  // namespace
}  // namespace local_index_copy

OpSpec Spec_index_copy() {
  using namespace local_index_copy;
  glue::Mover m{.name = "index_copy",
                .dtypes = "cpu: out any dtype [N,D...] row-strided, in place; in out's dtype [M,D...]; idx i32 [M], each in "
                           "[0,N), repeats: last wins",
                .draw = Draw, .build = Build, .run = Run, .values = Move<double>, .bits = Move<uint64_t>,
                .reason = "a row scatter of raw bytes, last occurrence wins, other rows unchanged: defined exactly "
                           "(byte check, NaN payloads kept)"};
  OpSpec s = glue::IndexSpec(m, "out", "in", mut::Dim("idx", 0, 1));
  s.contract = {{entry::Written("out", glue::kAnyDType, entry::kRowStrided),
                 entry::Operand("in", glue::kAnyDType, entry::kContiguous),
                 entry::Operand("idx", {vt::DType::kI32}, entry::kContiguous, {1})},
                {}};
  s.claims.insert(s.claims.begin(),
                  {SelectRoundTrip(), SameAs("last_wins", "repeated indices == only the last occurrence of each "
                                                          "(rows and indices)",
                                             HasRepeats, "index_copy", LastOnly, {{"out", "out"}})});
  return s;
}

}  // namespace vt::conform
