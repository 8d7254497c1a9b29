// Catalog entry: cast_f32 (bf16 -> f32, torch .to(torch.float32): exact).
#include "harness/catalog/glue/cast_entry.h"
#include "oracles/glue/moves.h"

namespace vt::conform {

OpSpec Spec_cast_f32() {
  OpSpec s = glue::CastSpec("cast_f32", vt::DType::kBF16, vt::DType::kF32);
  // Widening is exact, so cast_bf16 undoes it: every pattern comes back, a
  // signalling NaN quieted (the only bf16 -> f32 -> bf16 change).
  s.claims.push_back(glue::CastRoundTrip(
      "cast_bf16_after", "cast_bf16(cast_f32(x)) == x (a signalling NaN comes back quiet)", "cast_bf16",
      vt::DType::kBF16, [](const Case& c) {
        return glue::ThroughF32(vt::DType::kBF16, vt::DType::kBF16, glue::Bits(c.Get("in")));
      }));
  return s;
}

}  // namespace vt::conform
