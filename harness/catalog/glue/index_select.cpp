// Catalog entry: index_select (torch.index_select over dim 0: a row gather,
// e.g. GDN's speculative-token split).
#include "harness/catalog/glue/index_entry.h"
#include "oracles/glue/index_select.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("index_select");
    p.Set("dtype", *glue::AnyDType());
    p.Set("N", *gen::Pick(std::vector<int64_t>{1, 2, 3, 17, 64, 257}));
    p.Set("M", *gen::Rows(tier));
    glue::DrawRowKnobs(p, tier);  // in's rows may be padded
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const vt::DType dt = p.DType("dtype");
  const int64_t n = p.Int("N"), m = p.Int("M");
  c.Input("in", dt, glue::RowsShape(p, n), glue::RowFill(p, dt)).SetRowPadding(p.Int("pad"));
  glue::SetIndices(c.Input("idx", vt::DType::kI32, {m}, Fill::Const(0)), glue::DrawIndices(p.seed, "idx", m, n, "random"));
  c.Output("out", dt, glue::RowsShape(p, m));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::IndexSelect(ctx, ws["out"], ws["in"], ws["idx"]); }

OracleResult Oracle(const Case& c) {
  const TensorData& in = c.Get("in");
  return {{"out", glue::ExactValues(oracle::IndexSelect<double>(glue::RowElems(in), in.Values(),
                                                                glue::Indices(c.Get("idx"))))}};
}

// Raw bytes: no conversion at all (a signalling NaN stays signalling).
std::vector<TensorData> OracleBytes(const Case& c) {
  const TensorData &in = c.Get("in"), &out = c.Get("out");
  return {glue::FromBits("out", out.dtype, out.shape,
                         oracle::IndexSelect<uint64_t>(glue::RowElems(in), glue::Bits(in), glue::Indices(c.Get("idx"))))};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Exact("a row gather of raw bytes: defined exactly (byte check, NaN payloads kept)")}};
}

Case Packed(const Case& c) {
  Case m = c;
  m.params.Set("pad", 0);
  m.Get("in") = CopyTensor(c.Get("in"), "in", Role::kInput);
  return m;
}

bool Padded(const Params& p) { return p.Int("pad") > 0 && p.Str("rank") != "1d" && p.Int("M") > 0; }

}  // namespace

OpSpec Spec_index_select() {
  OpSpec s;
  s.name = "index_select";
  s.family = "glue";
  s.dtypes = "cpu: in any dtype [N,D...] row-strided; idx i32 [M], each in [0,N); out in's dtype [M,D...]";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = Oracle;
  s.oracle_bytes = OracleBytes;
  s.outputs = Outputs;
  s.contract = {{entry::Operand("in", glue::kAnyDType, entry::kRowStrided),
                 entry::Operand("idx", {vt::DType::kI32}, entry::kContiguous, {1}),
                 entry::Written("out", glue::kAnyDType, entry::kContiguous)},
                {}};
  s.errors = {mut::Dim("out", 0, 1), mut::Dim("out", 1, 1), mut::Dim("in", 1, 1), mut::AddDim("out"),
              mut::DType("out", vt::DType::kI64), mut::DType("out", vt::DType::kF32),
              mut::DType("idx", vt::DType::kI64),
              glue::StridedIndex("idx"),
              glue::IndexOutOfRange("idx", "in", "N", [](int64_t n) { return n; }),
              glue::IndexOutOfRange("idx", "in", "minus1", [](int64_t) { return -1; })};
  // The row extent here is M (RowSlice's own guard reads "T").
  Claim rows = RowSlice({"idx", "out"});
  rows.applies = [](const Params& p) { return p.Int("M") >= 2; };
  s.claims = {rows,
              SameAs("strided_eq_packed", "padded rows of in give the bytes of the same rows packed", Padded,
                     "index_select", Packed, {{"out", "out"}})};
  return s;
}

}  // namespace vt::conform
