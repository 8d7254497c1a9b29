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
  p.Set("scale", *gen::Scale());
  p.Set("fill", *FillKnob());
}

}  // namespace vt::conform::glue
