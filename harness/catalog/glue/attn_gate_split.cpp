// Catalog entry: attn_gate_split (Qwen3-Next gated attention: the fused q
// projection [T, Hq*2*Dh], per head [q | gate], split into q and gate).
#include "harness/catalog/glue/glue_entry.h"
#include "oracles/glue/attn_gate_split.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_attn_gate_split {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("qgate", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
  p.Set("q_out", *gen::FloatOut());
  p.Set("gate_out", "f32");  // the only gate dtype
  p.Set("T", *gen::Rows(tier));
  p.Set("Hq", *gen::Heads(tier));
  p.Set("Dh", *glue::HeadDim(tier));
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), hq = p.Int("Hq"), dh = p.Int("Dh");
  c.Input("qgate", p.DType("qgate"), {t, hq * 2 * dh}, glue::InputFill(p));
  c.Output("q_out", p.DType("q_out"), {t, hq, dh});
  c.Output("gate_out", p.DType("gate_out"), {t, hq, dh});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::AttnGateSplit(ctx, ws["q_out"], ws["gate_out"], ws["qgate"]);
}

template <class E>
entry::Outs<E> Move(const Case& c, const glue::Read<E>& read) {
  const TensorData& q = c.Get("q_out");
  auto s = oracle::AttnGateSplit<E>(q.shape[0], q.shape[1], q.shape[2], read(c.Get("qgate")));
  return {{"q_out", std::move(s.q)}, {"gate_out", std::move(s.gate)}};
}

// The same split as qkv_split over rows of one head: qgate [T, Hq*2*Dh] is
// [T*Hq, 2*Dh] rows of [q | gate], so q = the first Dh columns, gate = the
// next Dh, nothing left for v. qkv_split keeps one dtype for all parts, so
// this holds for the all-f32 cases (gate_out is always f32).
Case AsQkvSplit(const Case& c) {
  const TensorData& q = c.Get("q_out");
  const int64_t rows = q.shape[0] * q.shape[1], dh = q.shape[2];
  Case m;
  m.params = Params("qkv_split");
  for (const char* k : {"qkv", "q_out", "k_out", "v_out"}) m.params.Set(k, "f32");
  m.params.Set("T", rows);
  m.params.Set("Q", dh);
  m.params.Set("K", dh);
  m.params.Set("V", 0);
  m.params.seed = c.params.seed;
  auto as = [](const TensorData& src, const std::string& name, Role role, std::vector<int64_t> shape) {
    TensorData t = CopyTensor(src, name, role);
    t.shape = std::move(shape);
    t.SetContiguous();
    return t;
  };
  m.tensors = {as(c.Get("qgate"), "qkv", Role::kInput, {rows, 2 * dh}),
               as(q, "q_out", Role::kOutput, {rows, dh}),
               as(c.Get("gate_out"), "k_out", Role::kOutput, {rows, dh}),
               TensorFromValues("v_out", vt::DType::kF32, {rows, 0}, Role::kOutput, {})};
  return m;
}

bool AllF32(const Params& p) {
  return p.Str("qgate") == "f32" && p.Str("q_out") == "f32" && p.Int("T") * p.Int("Hq") > 0;
}

}  // namespace
}  // namespace local_attn_gate_split

OpSpec Spec_attn_gate_split() {
  using namespace local_attn_gate_split;
  glue::Mover m{.name = "attn_gate_split",
                .dtypes = "cpu: qgate f32/bf16 [T,Hq*2*Dh]; q_out f32/bf16 [T,Hq,Dh]; gate_out f32 [T,Hq,Dh]",
                .draw = Draw, .build = Build, .run = Run, .values = Move<double>, .bits = Move<uint64_t>,
                .written = {"q_out", "gate_out"},
                .from = "qgate"};
  OpSpec s = glue::MoveSpec(m);
  s.contract = {{entry::Operand("qgate", entry::kF32BF16, entry::kContiguous, {2}),
                 entry::Written("q_out", entry::kF32BF16, entry::kContiguous, {3}),
                 entry::Written("gate_out", entry::kF32, entry::kContiguous, {3})},
                {}};
  s.values.specials = {{"qgate"}};
  // Shape relations, one broken at a time: qgate's width or token count
  // against q_out, gate_out's extents against q_out.
  s.errors = {mut::Dim("qgate", 1, 1),    mut::Dim("qgate", 1, -1), mut::Dim("qgate", 0, 1),
              mut::Dim("gate_out", 2, 1), mut::Dim("gate_out", 1, 1), mut::Dim("gate_out", 0, 1)};
  s.claims = {RowSlice({"qgate", "q_out", "gate_out"}),
              SameAs("qkv_split_per_head",
                     "attn_gate_split == qkv_split on qgate viewed [T*Hq, 2*Dh] (Q = K = Dh, V = 0): "
                     "q_out == q, gate_out == k (all f32)",
                     AllF32, "qkv_split", AsQkvSplit, {{"q_out", "q_out"}, {"gate_out", "k_out"}})};
  return s;
}

}  // namespace vt::conform
