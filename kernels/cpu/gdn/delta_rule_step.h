// The gated delta rule's per-token step for one value head, shared by the GDN
// recurrence kernels so that prefill, decode and spec decode run the same f32
// instruction sequence (gdn_prefill == gdn_decode token by token, bit for bit).
// Order (fixed by the spec; -ffp-contract=off keeps every product rounded):
//   pass 1, per value row vi: S[vi,:] *= decay, dot = sum_ki S[vi,ki] k[ki]
//           (sequential in ki), v'[vi] = (v[vi] - dot) * beta;
//   pass 2, per value row vi: S[vi,ki] += v'[vi] k[ki], out[vi] = sum_ki
//           S[vi,ki] q'[ki] (sequential in ki, the updated S).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "cpu/access.h"
#include "cpu/gdn/delta_tiers.h"
#include "vt/isa.h"
#include "vt/tensor.h"

namespace vt::cpu::gdn {

// Reads n consecutive elements of t from `elem` into dst as f32; the dtype is
// resolved once per row, not per element.
inline void LoadRow(const Tensor& t, int64_t elem, int64_t n, float* dst) {
  switch (t.dtype) {
    case DType::kF32: {
      const auto* base = static_cast<const unsigned char*>(t.data) + elem * 4;
      for (int64_t i = 0; i < n; ++i) std::memcpy(&dst[i], base + i * 4, 4);
      break;
    }
    case DType::kF16:
    case DType::kBF16: {
      const auto* base = static_cast<const unsigned char*>(t.data) + elem * 2;
      const bool half = t.dtype == DType::kF16;
      for (int64_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, base + i * 2, 2);
        dst[i] = half ? F16ToF32(h) : BF16ToF32(h);
      }
      break;
    }
    default:
      for (int64_t i = 0; i < n; ++i) dst[i] = LoadF32(t, elem + i);
  }
}

// Stores n floats to t from `elem`, rounded to t's dtype.
inline void StoreRow(const Tensor& t, int64_t elem, int64_t n, const float* src) {
  switch (t.dtype) {
    case DType::kF32:
      std::memcpy(static_cast<unsigned char*>(t.data) + elem * 4, src, static_cast<size_t>(n) * 4);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) StoreF32(t, elem + i, src[i]);
  }
}

// Per-thread scratch of one head step, and the tier it runs. One is made per
// block of work (a ParallelForRows chunk), so it counts that block's tier run
// (vt::CountTierRun; the isa mode reads it). A vector tier's v and out rows
// are padded to DeltaStride(dv) (whole vectors; only the first dv are read
// and written by the callers) and it holds the head block transposed in t.
struct StepBuffers {
  StepBuffers(int64_t dk, int64_t dv, Isa tier_in)
      : q(static_cast<size_t>(dk)), k(static_cast<size_t>(dk)), v(Rows(dv, tier_in)), out(Rows(dv, tier_in)),
        tier(tier_in) {
    if (tier != Isa::kPortable) t.resize(static_cast<size_t>(dk * DeltaStride(dv)));
    CountTierRun(tier);
  }
  static size_t Rows(int64_t dv, Isa tier) { return static_cast<size_t>(tier == Isa::kPortable ? dv : DeltaStride(dv)); }
  std::vector<float> q, k, v, out;
  Isa tier;
  std::vector<float> t;  // a vector tier's held block [dk][DeltaStride(dv)]
  bool held = false;     // t, not the caller's s, is the block's current value
};

// A run of tokens on one head block (gdn_prefill, gdn_spec_decode): a vector
// tier transposes the block into b.t once (HoldBlock), steps every token
// there (HeadStep then neither reads nor writes its s) and writes it back
// once (PutBlock, to any [dv, dk] destination; ReleaseBlock ends the run).
// The portable tier steps s itself: these are no-ops for it.
inline void HoldBlock(const float* s, int64_t dk, int64_t dv, StepBuffers& b) {
  if (b.tier == Isa::kPortable) return;
  DeltaHoldOn(b.tier, s, dk, dv, b.t.data());
  b.held = true;
}
inline void PutBlock(float* s, int64_t dk, int64_t dv, const StepBuffers& b) {
  if (b.held) DeltaPutOn(b.tier, b.t.data(), dk, dv, s);
}
// (s == nullptr: the held block is dropped, as a spec decode's running state.)
inline void ReleaseBlock(float* s, int64_t dk, int64_t dv, StepBuffers& b) {
  if (s != nullptr) PutBlock(s, dk, dv, b);
  b.held = false;
}

// One token of one value head on the f32 block s [dv, dk]. b.q holds q * scale,
// b.k holds k, b.v holds v on entry; b.out receives the output row and b.v is
// overwritten with v'. The portable tier is the loops below (the reference);
// a vector tier (delta_tiers.h) runs the same operations with value rows in
// lanes, from the same decay: on the block it holds, or on s itself when no
// run holds it (decode).
inline void HeadStep(float* s, int64_t dk, int64_t dv, float g, float beta, StepBuffers& b) {
  const float decay = std::exp(g);
  if (b.tier != Isa::kPortable) {
    const DeltaStepJob job{b.t.data(), dk, dv, decay, beta, b.q.data(), b.k.data(), b.v.data(), b.out.data()};
    if (b.held) {
      DeltaStepOn(b.tier, job);
    } else {
      DeltaStepOnceOn(b.tier, job, s);
    }
    return;
  }
  for (int64_t vi = 0; vi < dv; ++vi) {
    float* row = s + vi * dk;
    float dot = 0.0f;
    for (int64_t ki = 0; ki < dk; ++ki) {
      row[ki] *= decay;
      dot += row[ki] * b.k[static_cast<size_t>(ki)];
    }
    b.v[static_cast<size_t>(vi)] = (b.v[static_cast<size_t>(vi)] - dot) * beta;
  }
  for (int64_t vi = 0; vi < dv; ++vi) {
    float* row = s + vi * dk;
    const float vn = b.v[static_cast<size_t>(vi)];
    float o = 0.0f;
    for (int64_t ki = 0; ki < dk; ++ki) {
      row[ki] += vn * b.k[static_cast<size_t>(ki)];
      o += row[ki] * b.q[static_cast<size_t>(ki)];
    }
    b.out[static_cast<size_t>(vi)] = o;
  }
}

// Token t of value head hv of a [T,Hk,Dk] / [T,Hv,Dv] / [T,Hv] operand set:
// loads q (scaled), k, v, runs HeadStep on s and stores the out row.
struct TokenOperands {
  const Tensor& out;
  const Tensor& q;
  const Tensor& k;
  const Tensor& v;
  const float* g;
  const float* beta;
  int64_t hk_n, hv_n, dk, dv;
  float scale;
};

inline void TokenHeadStep(const TokenOperands& o, float* s, int64_t t, int64_t hv, StepBuffers& b) {
  const int64_t hk = hv / (o.hv_n / o.hk_n);  // GQA: consecutive value heads share a key head
  LoadRow(o.q, (t * o.hk_n + hk) * o.dk, o.dk, b.q.data());
  for (float& x : b.q) x *= o.scale;
  LoadRow(o.k, (t * o.hk_n + hk) * o.dk, o.dk, b.k.data());
  LoadRow(o.v, (t * o.hv_n + hv) * o.dv, o.dv, b.v.data());
  HeadStep(s, o.dk, o.dv, o.g[t * o.hv_n + hv], o.beta[t * o.hv_n + hv], b);
  StoreRow(o.out, (t * o.hv_n + hv) * o.dv, o.dv, b.out.data());
}

// Zero-fills out rows [t * Hv * Dv, ...) of one token (a NULL state slot).
inline void ZeroToken(const Tensor& out, int64_t t, int64_t hv_n, int64_t dv) {
  const std::vector<float> zeros(static_cast<size_t>(hv_n * dv), 0.0f);
  StoreRow(out, t * hv_n * dv, hv_n * dv, zeros.data());
}

inline TokenOperands Operands(const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                              const Tensor& g, const Tensor& beta, const Tensor& state, float scale) {
  return {out, q, k, v, g.Ptr<float>(), beta.Ptr<float>(), q.shape[1], state.shape[1],
          q.shape[2], state.shape[2], scale};
}

}  // namespace vt::cpu::gdn
