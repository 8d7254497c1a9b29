// Catalog entry: concat_mla_nope_rope (DeepSeek MLA: per head, the no-rope
// part and the rotary part concatenated; one rope head may serve all heads).
#include "harness/catalog/glue/glue_entry.h"
#include "oracles/glue/concat_mla_nope_rope.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_concat_mla_nope_rope {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("dtype", *gen::FloatIn());  // f16 is legal here
  p.Set("T", *gen::Rows(tier));
  p.Set("H", *gen::Heads(tier));
  p.Set("Dn", *gen::Pick(std::vector<int64_t>{1, 3, 16, 17, 128}));
  p.Set("Dr", *gen::Pick(std::vector<int64_t>{1, 64, 0, 2}));  // 0: NoPE (later versions)
  p.Set("bcast", *gen::Flag());                               // rope [T,1,Dr]
  // packed; padded (outer strides + pad); head_major (nope/rope stored
  // [H,T,D]); slices (nope/rope the column slices of a [T,H,Dn+Dr] buffer).
  p.Set("view", *gen::Pick(std::vector<std::string>{"packed", "padded", "head_major", "slices"}));
  p.Set("pad", *gen::Pick(std::vector<int64_t>{1, 3, 16}));
}

// Strides of a [t, h, d] view under the case's "view" knob (`full` is the
// [.., .., Dn+Dr] row the slices are cut from).
void Place(TensorData& x, const std::string& view, int64_t pad, int64_t full) {
  const int64_t t = x.shape[0], h = x.shape[1], d = x.shape[2];
  if (view == "padded") {
    x.SetNestedPadding(pad);  // token and head strides both padded
  } else if (view == "head_major") {
    x.strides = {d, t * d, 1};
  } else if (view == "slices") {
    x.strides = {h * full, full, 1};
  }
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), h = p.Int("H"), dn = p.Int("Dn"), dr = p.Int("Dr");
  const vt::DType dt = p.DType("dtype");
  const std::string view = p.Str("view");
  Place(c.Input("nope", dt, {t, h, dn}, glue::InputFill(p)), view, p.Int("pad"), dn + dr);
  Place(c.Input("rope", dt, {t, p.Flag("bcast") ? 1 : h, dr}, glue::InputFill(p)), view, p.Int("pad"), dn + dr);
  TensorData& out = c.Output("out", dt, {t, h, dn + dr});
  if (view == "padded") out.SetNestedPadding(p.Int("pad"));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::ConcatMlaNopeRope(ctx, ws["out"], ws["nope"], ws["rope"]);
}

template <class E>
entry::Outs<E> Move(const Case& c, const glue::Read<E>& read) {
  const TensorData &n = c.Get("nope"), &r = c.Get("rope"), &o = c.Get("out");
  return {{"out", oracle::ConcatMlaNopeRope<E>(o.shape[0], o.shape[1], n.shape[2], r.shape[2], r.shape[1], read(n),
                                               read(r))}};
}

// The single rope head written out for every head: the broadcast is the
// expansion (bit for bit; the expanded tensor holds the same patterns).
Case Expanded(const Case& c) {
  Case m = c;
  m.params.Set("bcast", 0);
  const TensorData& r = c.Get("rope");
  const int64_t t = r.shape[0], h = c.Get("out").shape[1], dr = r.shape[2];
  const auto bits = glue::Bits(r);
  std::vector<uint64_t> wide;
  for (int64_t i = 0; i < t; ++i) {
    for (int64_t j = 0; j < h; ++j) {
      wide.insert(wide.end(), bits.begin() + i * dr, bits.begin() + (i + 1) * dr);
    }
  }
  TensorData e = glue::FromBits("rope", r.dtype, {t, h, dr}, wide);
  e.role = Role::kInput;
  m.Get("rope") = e;
  return m;
}

bool Broadcast(const Params& p) { return p.Flag("bcast") && p.Int("H") > 1 && p.Int("T") > 0; }

// Every operand packed (the same logical values).
Case Packed(const Case& c) {
  Case m = c;
  m.params.Set("view", "packed");
  for (const char* n : {"nope", "rope", "out"}) m.Get(n) = CopyTensor(c.Get(n), n, c.Get(n).role);
  return m;
}

bool Strided(const Params& p) { return p.Str("view") != "packed" && p.Int("T") > 0; }

ErrorCase Custom(std::string name, std::function<bool(Case&)> m, std::string expect) {
  return {std::move(name), std::move(m), std::move(expect)};
}

}  // namespace
}  // namespace local_concat_mla_nope_rope

OpSpec Spec_concat_mla_nope_rope() {
  using namespace local_concat_mla_nope_rope;
  glue::Mover m{.name = "concat_mla_nope_rope",
                .dtypes = "cpu: out [T,H,Dn+Dr], nope [T,H,Dn], rope [T,H|1,Dr]; one dtype f32/f16/bf16; innermost stride 1",
                .draw = Draw, .build = Build, .run = Run, .values = Move<double>, .bits = Move<uint64_t>,
                .written = {"out"},
                .from = "out"};  // one dtype: the move stores each pattern through f32 to it
  OpSpec s = glue::MoveSpec(m);
  s.contract = {{entry::Written("out", entry::kFloatIn, entry::kRowStrided, {3}),
                 entry::Operand("nope", entry::kFloatIn, entry::kInnerUnit, {3}),
                 entry::Operand("rope", entry::kFloatIn, entry::kInnerUnit, {3})},
                {}};
  s.values.specials = {{"nope"}, {"rope"}};
  s.errors = {
      mut::Dim("out", 2, 1), mut::Dim("nope", 2, 1), mut::Dim("rope", 2, 1), mut::Dim("nope", 0, 1),
      mut::Dim("rope", 0, 1), mut::Dim("nope", 1, 1),
      // rope heads neither 1 nor H.
      Custom("rope_heads_not_1_or_H",
             [](Case& c) {
               TensorData& r = c.Get("rope");
               const int64_t h = c.Get("out").shape[1];
               if (h < 1) return false;
               r.shape[1] = h + 1;
               r.SetContiguous();
               return true;
             },
             "rope"),
      // Dn = 0 (out keeps the relation out = Dn + Dr).
      Custom("nope_no_columns",
             [](Case& c) {
               TensorData &n = c.Get("nope"), &o = c.Get("out");
               o.shape[2] -= n.shape[2];
               n.shape[2] = 0;
               n.SetContiguous();
               o.SetContiguous();
               return true;
             },
             "Dn > 0"),
      mut::DType("nope", vt::DType::kF32), mut::DType("nope", vt::DType::kBF16),
      mut::DType("rope", vt::DType::kF16), mut::DType("rope", vt::DType::kF32)};
  s.claims = {RowSlice({"nope", "rope", "out"}),
              SameAs("broadcast_eq_expanded", "rope [T,1,Dr] gives the bytes of that head repeated over H", Broadcast,
                     "concat_mla_nope_rope", Expanded, {{"out", "out"}}),
              SameAs("strided_eq_packed", "strided / head-major / sliced views give the bytes of packed ones",
                     Strided, "concat_mla_nope_rope", Packed, {{"out", "out"}})};
  return s;
}

}  // namespace vt::conform
