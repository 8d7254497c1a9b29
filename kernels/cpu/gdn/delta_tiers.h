// The vector tiers of the gated delta rule's per-token head step (HeadStep in
// delta_rule_step.h, shared by gdn_prefill, gdn_decode, gdn_spec_decode and
// gdn_packed_decode). Portable declarations only: the tier code lives in
// delta_panel_avx512.cpp / delta_panel_avx2.cpp (delta_panel.inc).
// Each lane is one VALUE ROW of the [Dv, Dk] state: its two dots over Dk stay
// one sequential chain in ki each (the seed's order), kW rows side by side
// through a register transpose of each kW x kW block; the decay multiply and
// the rank-1 update are elementwise, each product rounded (no FMA).
#pragma once

#include <cstdint>

#include "vt/isa.h"

namespace vt::cpu::gdn {

struct DeltaHeadJob {
  float* s = nullptr;        // the f32 state block [dv, dk], in place
  int64_t dk = 0, dv = 0;
  float decay = 0.0f;        // exp(g), formed by the caller (portable libm)
  float beta = 0.0f;
  const float* q = nullptr;  // q * scale [dk]
  const float* k = nullptr;  // [dk]
  float* v = nullptr;        // v on entry, v' = (v - S k) * beta on return [dv]
  float* out = nullptr;      // the output row S q' [dv]
  float* panel = nullptr;    // scratch of dk * 16 floats (one panel, transposed)
};

namespace avx512 {
void DeltaHead(const DeltaHeadJob& job);
}
namespace avx2 {
void DeltaHead(const DeltaHeadJob& job);
}

// DeltaHead of `tier` (kAvx2 or kAvx512, one the CPU supports).
void DeltaHeadOn(Isa tier, const DeltaHeadJob& job);

}  // namespace vt::cpu::gdn
