// Catalog entry: cast_bf16 (f32 -> bf16, torch .to(torch.bfloat16)).
#include "harness/catalog/glue/cast_entry.h"
#include "oracles/glue/moves.h"

namespace vt::conform {

OpSpec Spec_cast_bf16() {
  OpSpec s = glue::CastSpec("cast_bf16", vt::DType::kF32, vt::DType::kBF16);
  // cast_f32 after cast_bf16 gives the bf16 rounding of every input, as f32.
  s.claims.push_back(glue::CastRoundTrip(
      "cast_f32_after", "cast_f32(cast_bf16(x)) == f32(bf16 rounding of x) (NaN: quieted, top payload kept)",
      "cast_f32", vt::DType::kF32, [](const Case& c) {
        std::vector<uint64_t> v;
        for (uint64_t b : glue::Bits(c.Get("in"))) {
          const uint32_t h = oracle::ThroughF32Bits(oracle::Fmt::kF32, oracle::Fmt::kBF16, static_cast<uint32_t>(b));
          v.push_back(oracle::WidenToF32Bits(oracle::Fmt::kBF16, h));
        }
        return v;
      }));
  return s;
}

}  // namespace vt::conform
