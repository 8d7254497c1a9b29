// The vector tiers of the gated delta rule's per-token head step (HeadStep in
// delta_rule_step.h, shared by gdn_prefill, gdn_decode, gdn_spec_decode and
// gdn_packed_decode; with a per-key decay, KDA's step: kda_recurrence.cpp). Portable declarations only: the tier code lives in
// delta_panel_avx512.cpp / delta_panel_avx2.cpp (delta_panel.inc).
//
// Lanes are VALUE ROWS. The state block is [dv, dk] with dk contiguous, and
// each value row's two dots over dk are sequential chains in ki (the seed's
// order). A tier holds the block transposed, t[ki][vi] (row stride
// DeltaStride(dv), rows past dv zero), so one vector is one ki of W value
// rows and each lane's chain runs in ki order, never split; G vectors of rows
// are stepped together (independent chains, no add latency stall). The
// transposes in and out are pure data movement (W x W register transposes).
// The decay multiply and the rank-1 update are elementwise; every product is
// rounded (no FMA), every operation is the portable tier's, in its order.
#pragma once

#include <cstdint>

#include "vt/isa.h"

namespace vt::cpu::gdn {

// Row stride of a held block: dv rounded up to 64 (whole groups of both tiers).
inline int64_t DeltaStride(int64_t dv) { return (dv + 63) / 64 * 64; }

// One token on a held block t [dk][DeltaStride(dv)]. q holds q * scale [dk],
// k [dk]; v [DeltaStride(dv)] holds v on entry (rows < dv) and v' on return;
// out [DeltaStride(dv)] receives S q'. decay = exp(g), formed by the caller;
// KDA's per-key decay: decay_k [dk] (exp of each key channel's g), which then
// replaces decay (S[r, ki] *= decay_k[ki]).
struct DeltaStepJob {
  float* t = nullptr;
  int64_t dk = 0, dv = 0;
  float decay = 0.0f, beta = 0.0f;
  const float* q = nullptr;
  const float* k = nullptr;
  float* v = nullptr;
  float* out = nullptr;
  const float* decay_k = nullptr;
};

#define VT_DELTA_TIER_DECLS                                                \
  void DeltaHold(const float* s, int64_t dk, int64_t dv, float* t);       \
  void DeltaPut(const float* t, int64_t dk, int64_t dv, float* s);        \
  void DeltaStep(const DeltaStepJob& job);                                 \
  void DeltaStepOnce(const DeltaStepJob& job, float* s);
namespace avx512 {
VT_DELTA_TIER_DECLS
}
namespace avx2 {
VT_DELTA_TIER_DECLS
}
#undef VT_DELTA_TIER_DECLS

// The tier's functions (kAvx2 or kAvx512, one the CPU supports):
// Hold transposes the state block s [dv, dk] into t (padding rows zeroed),
// Put writes a held block back to s [dv, dk] (rows < dv only), Step runs one
// token on a held block.
void DeltaHoldOn(Isa tier, const float* s, int64_t dk, int64_t dv, float* t);
void DeltaPutOn(Isa tier, const float* t, int64_t dk, int64_t dv, float* s);
void DeltaStepOn(Isa tier, const DeltaStepJob& job);
// One token on the block s [dv, dk] itself, no run holding it (decode): the
// same operations, group by group through job.t (dk * 64 floats of scratch).
void DeltaStepOnceOn(Isa tier, const DeltaStepJob& job, float* s);

}  // namespace vt::cpu::gdn
