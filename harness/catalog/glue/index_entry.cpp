#include "harness/catalog/glue/index_entry.h"

namespace vt::conform::glue {

rc::Gen<std::string> AnyDType() {
  return gen::Pick(std::vector<std::string>{"f32", "bf16", "f16", "i32", "i64", "u8", "i8"});
}

std::vector<int64_t> RowsShape(const Params& p, int64_t rows) {
  if (p.Str("rank") == "1d") return {rows};  // one element per index row
  return gen::RankShape(p, rows, p.Int("D"));
}

Fill RowFill(const Params& p, vt::DType dt) {
  if (vt::IsFloat(dt) || p.Str("fill") == "bits") return InputFill(p);
  if (dt == vt::DType::kU8) return Fill::Uniform(0.0, 256.0);
  if (dt == vt::DType::kI8) return Fill::Uniform(-128.0, 128.0);
  return Fill::Uniform(-1e9, 1e9);
}

int64_t RowElems(const TensorData& t) {
  int64_t n = 1;
  for (std::size_t d = 1; d < t.shape.size(); ++d) n *= t.shape[d];
  return n;
}

void DrawRowKnobs(Params& p, Tier tier) {
  gen::DrawRank(p, tier);
  p.Set("D", *HeadDim(tier));
  p.Set("pad", *gen::Pad());
}

OpSpec IndexSpec(Mover m, const std::string& indexed, const std::string& moved, ErrorCase third) {
  m.draw = seq::Then(m.draw, DrawRowKnobs);
  m.written = {"out"};
  m.from.clear();  // raw bytes: no conversion at all (a signalling NaN stays signalling)
  OpSpec s = MoveSpec(m);
  s.errors = {mut::Dim(moved, 0, 1), mut::Dim(moved, 1, 1), std::move(third), mut::AddDim(moved),
              mut::DType(moved, vt::DType::kI64), mut::DType(moved, vt::DType::kF32),
              mut::DType("idx", vt::DType::kI64),
              StridedIndex("idx"),
              IndexOutOfRange("idx", indexed, "N", [](int64_t n) { return n; }),
              IndexOutOfRange("idx", indexed, "minus1", [](int64_t) { return -1; })};
  const auto packed = [indexed](const Case& c) {
    Case p = c;
    p.params.Set("pad", 0);
    p.Get(indexed) = CopyTensor(c.Get(indexed), indexed, c.Get(indexed).role);
    return p;
  };
  const auto padded = [](const Params& p) { return p.Int("pad") > 0 && p.Str("rank") != "1d" && p.Int("M") > 0; };
  s.claims = {SameAs("strided_eq_packed", "padded rows of " + indexed + " give the bytes of the same rows packed",
                     padded, m.name, packed, {{"out", "out"}})};
  return s;
}

}  // namespace vt::conform::glue
