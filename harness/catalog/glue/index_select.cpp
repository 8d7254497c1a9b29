// Catalog entry: index_select (torch.index_select over dim 0: a row gather,
// e.g. GDN's speculative-token split).
#include "harness/catalog/glue/index_entry.h"
#include "oracles/glue/index_select.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_index_select {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("dtype", *glue::AnyDType());
  p.Set("N", *gen::Pick(std::vector<int64_t>{1, 2, 3, 17, 64, 257}));
  p.Set("M", *gen::Rows(tier));  // then the row knobs: in's rows may be padded
}

void Build(Case& c) {
  const Params& p = c.params;
  const vt::DType dt = p.DType("dtype");
  const int64_t n = p.Int("N"), m = p.Int("M");
  c.Input("in", dt, glue::RowsShape(p, n), glue::RowFill(p, dt)).SetNestedPadding(p.Int("pad"));
  glue::SetIndices(c.Input("idx", vt::DType::kI32, {m}, Fill::Const(0)), glue::DrawIndices(p.seed, "idx", m, n, "random"));
  c.Output("out", dt, glue::RowsShape(p, m));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::IndexSelect(ctx, ws["out"], ws["in"], ws["idx"]); }

template <class E>
entry::Outs<E> Move(const Case& c, const glue::Read<E>& read) {
  const TensorData& in = c.Get("in");
  return {{"out", oracle::IndexSelect<E>(glue::RowElems(in), read(in), glue::Indices(c.Get("idx")))}};
}

}  // namespace
}  // namespace local_index_select

OpSpec Spec_index_select() {
  using namespace local_index_select;
  glue::Mover m{.name = "index_select",
                .dtypes = "cpu: in any dtype [N,D...] row-strided; idx i32 [M], each in [0,N); out in's dtype [M,D...]",
                .draw = Draw, .build = Build, .run = Run, .values = Move<double>, .bits = Move<uint64_t>,
                .reason = "a row gather of raw bytes: defined exactly (byte check, NaN payloads kept)"};
  OpSpec s = glue::IndexSpec(m, "in", "out", mut::Dim("in", 1, 1));
  s.contract = {{entry::Operand("in", glue::kAnyDType, entry::kRowStrided),
                 entry::Operand("idx", {vt::DType::kI32}, entry::kContiguous, {1}),
                 entry::Written("out", glue::kAnyDType, entry::kContiguous)},
                {}};
  // The row extent here is M (RowSlice's own guard reads "T").
  Claim rows = RowSlice({"idx", "out"});
  rows.applies = [](const Params& p) { return p.Int("M") >= 2; };
  s.claims.insert(s.claims.begin(), rows);
  return s;
}

}  // namespace vt::conform
