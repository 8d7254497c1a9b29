#include "harness/catalog/glue/cast_entry.h"

#include "harness/catalog/catalog.h"
#include "oracles/glue/cast_bf16.h"
#include "oracles/glue/cast_f32.h"
#include "vt/ops.h"

namespace vt::conform::glue {
namespace local_cast_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// in's shape: gen::RankShape of [T, D] ("2d" [T,D], "3d" [T,G,D], "4d"
// [T,G,G2,D], "1d" [T*D]); its outer strides padded by "pad" elements (read
// through its strides, H-4). out is [T, count / T] here; the reshape knob
// draws it flat, reversed, [1, n] or rank 4 (only its count matters).
std::vector<int64_t> InShape(const Params& p) { return gen::RankShape(p, p.Int("T"), p.Int("D")); }

rc::Gen<Params> Gen(const std::string& name, vt::DType in, vt::DType out, Tier tier) {
  return rc::gen::exec([=] {
    Params p(name);
    p.Set("in", std::string(vt::Name(in)));
    p.Set("out", std::string(vt::Name(out)));
    p.Set("T", *gen::Rows(tier));
    p.Set("D", *gen::Width(tier));
    gen::DrawRank(p, tier);
    p.Set("pad", *gen::Pad());
    p.Set("scale", *gen::Scale());
    p.Set("fill", *FillKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  c.Input("in", p.DType("in"), InShape(p), InputFill(p)).SetNestedPadding(p.Int("pad"));
  int64_t width = 1;  // elements per row of T
  for (int64_t d : gen::RankShape(p, 1, p.Int("D"))) width *= d;
  c.Output("out", p.DType("out"), {p.Int("T"), width});
}

OracleResult Oracle(const Case& c) { return {{"out", ExactValues(oracle::Cast<double>(c.Get("in").Values()))}}; }

std::vector<TensorData> OracleBytes(const Case& c) {
  const TensorData &in = c.Get("in"), &out = c.Get("out");
  return {FromBits("out", out.dtype, out.shape, ThroughF32(in.dtype, out.dtype, oracle::Cast<uint64_t>(Bits(in))))};
}

// The same values packed: a strided input view is read as its logical elements.
Case Packed(const Case& c) {
  Case m = c;
  m.params.Set("pad", 0);
  m.Get("in") = CopyTensor(c.Get("in"), "in", Role::kInput);
  return m;
}

bool Strided(const Params& p) { return p.Int("pad") > 0 && p.Int("T") > 0; }

}  // namespace
}  // namespace local_cast_entry

Claim CastRoundTrip(std::string name, std::string statement, std::string next_op, vt::DType next_out,
                    std::function<std::vector<uint64_t>(const Case&)> expect) {
  Claim cl;
  cl.name = std::move(name);
  cl.statement = std::move(statement);
  cl.check = [next_op, next_out, expect](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const OpSpec* next = FindOp(next_op);
    if (next == nullptr) throw std::logic_error("claim names unknown op " + next_op);
    const Execution a = Execute(op, c, ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    Case b;
    b.params = Params(next_op);
    b.params.Set("in", c.params.Str("out"));
    b.params.Set("out", std::string(vt::Name(next_out)));
    b.params.seed = c.params.seed;
    const TensorData& mid = a.after.Get("out");
    b.tensors = {CopyTensor(mid, "in", Role::kInput),
                 TensorFromValues("out", next_out, mid.shape, Role::kOutput,
                                  std::vector<double>(static_cast<std::size_t>(mid.Numel()), 0.0))};
    const Execution r = Execute(*next, b, ctx);
    if (!r.guard_error.empty()) return ClaimOutcome::Violated(next_op + ": " + r.guard_error);
    const TensorData& got = r.after.Get("out");
    const std::string d = DiffBytes(got, FromBits("out", got.dtype, got.shape, expect(c)));
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
  };
  return cl;
}

OpSpec CastSpec(const std::string& name, vt::DType in, vt::DType out) {
  using namespace local_cast_entry;
  OpSpec s;
  s.name = name;
  s.family = "glue";
  s.dtypes = "cpu: in " + std::string(vt::Name(in)) + " (row-strided, read through its strides); out " +
             std::string(vt::Name(out)) + " contiguous, any shape of in's element count";
  s.gen = [=](Tier t) { return Gen(name, in, out, t); };
  s.build = Build;
  s.run = [name](const vt::ExecContext& ctx, const Workspace& ws) {
    if (name == "cast_bf16") {
      vt::CastBf16(ctx, ws["out"], ws["in"]);
    } else {
      vt::CastF32(ctx, ws["out"], ws["in"]);
    }
  };
  s.oracle = Oracle;
  s.oracle_bytes = OracleBytes;
  s.outputs = [](const Case&) {
    return std::vector<OutputSpec>{{"out", Exact(kMoveReason)}};
  };
  s.contract = {{entry::Operand("in", {in}, entry::kRowStrided), entry::Written("out", {out}, entry::kAnyShape)}, {}};
  s.values.specials = {{"in"}};
  // The element-count relation, from either side.
  s.errors = {mut::Dim("out", 1, 1), mut::Dim("out", 0, 1), mut::Dim("in", 0, 1)};
  s.claims = {RowSlice({"in", "out"}),
              SameAs("strided_eq_packed", "a row-strided in gives the bytes of the same values packed", Strided,
                     name, Packed, {{"out", "out"}})};
  return s;
}

}  // namespace vt::conform::glue
