// The one computation every attention kernel of the family shares: one query
// row of one q-head against an ordered list of visible keys. Three
// sequential f32 passes in ascending key order (the spec's order; the
// f32_definition check holds the bytes to it):
//   1. s_j = (q . k_j) * scale [+ bias_j]  and  m = max_j s_j
//   2. e_j = expf(s_j - m)                 and  denom = sum_j e_j
//   3. acc = sum_j (e_j * (1 / denom)) * v_j, stored once at out's dtype.
// The operand dtypes are resolved once per call (ForEachRow, through
// cpu/access.h's WithFloatInOutElem) and the inner loops are typed on them.
// Tiers: this portable loop (the reference) and avx2 / avx512 vector tiers
// (attend_tiers.h), chosen once per call by ForEachRow's tier and run from
// AttendRow, so every op of the family gets them through this one function.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "cpu/access.h"
#include "cpu/act/silu_tiers.h"
#include "cpu/attn/attend_tiers.h"
#include "vt/codec.h"
#include "vt/context.h"
#include "vt/isa.h"
#include "vt/tensor.h"
#include "vt/threadpool.h"

namespace vt::cpu::attn {

// Where visible key number n (0-based, ascending) lives: key and value
// storage and the element offset of its head row (same offset in both).
struct KeyRow {
  const void* k;
  const void* v;
  int64_t off;
};

// Per-thread scratch: one score/probability per visible key, one accumulator
// per head dim; the tier the call runs and, for a vector tier, the key and
// value row addresses and the widened query.
struct RowScratch {
  std::vector<float> probs;
  std::vector<float> acc;
  Isa tier = Isa::kPortable;
  const uint64_t* exp_tab = nullptr;  // the avx512 tier's vector expf table (null: scalar expf)
  std::vector<const void*> k, v;
  std::vector<float> qf;
};

template <class E>
constexpr int64_t kElemBytes = std::is_same_v<E, F32Elem> ? 4 : 2;

template <class E>
constexpr DType kElemDType = std::is_same_v<E, F32Elem> ? DType::kF32
                             : std::is_same_v<E, F16Elem> ? DType::kF16
                                                          : DType::kBF16;

// AttendRow on the scratch's vector tier: the key rows resolved to
// addresses, the scratch sized in whole vectors of the widest tier.
template <class In, class Out, class KeyAt>
void AttendRowVector(const void* q, int64_t qoff, int64_t d, float scale, int64_t n, const KeyAt& key_at,
                     const void* bias, int64_t boff, void* out, int64_t ooff, RowScratch& s) {
  constexpr int64_t kPad = avx512::kLanes;
  s.k.resize(static_cast<size_t>(n));
  s.v.resize(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    const KeyRow kr = key_at(j);
    s.k[static_cast<size_t>(j)] = static_cast<const unsigned char*>(kr.k) + kr.off * kElemBytes<In>;
    s.v[static_cast<size_t>(j)] = static_cast<const unsigned char*>(kr.v) + kr.off * kElemBytes<In>;
  }
  s.probs.resize(static_cast<size_t>((n + kPad - 1) / kPad * kPad));
  s.qf.resize(static_cast<size_t>(d));
  AttendJob job;
  job.in_dt = kElemDType<In>;
  job.out_dt = std::is_same_v<Out, BF16Elem> ? DType::kBF16 : DType::kF32;
  job.q = static_cast<const unsigned char*>(q) + qoff * kElemBytes<In>;
  job.d = d;
  job.scale = scale;
  job.n = n;
  job.k = s.k.data();
  job.v = s.v.data();
  job.bias = bias != nullptr ? static_cast<const unsigned char*>(bias) + boff * 4 : nullptr;
  job.out = static_cast<unsigned char*>(out) + ooff * (std::is_same_v<Out, BF16Elem> ? 2 : 4);
  job.qf = s.qf.data();
  job.probs = s.probs.data();
  job.exp_tab = s.exp_tab;
  RunAttendTier(s.tier, job);
}

// Attends query row q[qoff .. qoff+d) over the n keys key_at(0..n-1) and
// stores the result at out[ooff .. ooff+d). bias (may be null) holds one
// additive f32 term per visible key from element boff on (read through
// memcpy: no operand needs alignment). n >= 1.
template <class In, class Out, class KeyAt>
void AttendRow(const void* q, int64_t qoff, int64_t d, float scale, int64_t n, const KeyAt& key_at,
               const void* bias, int64_t boff, void* out, int64_t ooff, RowScratch& s) {
  if (s.tier != Isa::kPortable) {
    AttendRowVector<In, Out>(q, qoff, d, scale, n, key_at, bias, boff, out, ooff, s);
    return;
  }
  s.probs.resize(static_cast<size_t>(n));
  s.acc.assign(static_cast<size_t>(d), 0.0f);
  float* probs = s.probs.data();
  float m = -std::numeric_limits<float>::infinity();
  for (int64_t j = 0; j < n; ++j) {
    const KeyRow kr = key_at(j);
    float dot = 0.0f;
    for (int64_t e = 0; e < d; ++e) dot += In::Load(q, qoff + e) * In::Load(kr.k, kr.off + e);
    dot *= scale;
    if (bias != nullptr) dot += F32Elem::Load(bias, boff + j);
    probs[j] = dot;
    if (dot > m) m = dot;
  }
  float denom = 0.0f;
  for (int64_t j = 0; j < n; ++j) {
    const float e = std::exp(probs[j] - m);
    probs[j] = e;
    denom += e;
  }
  const float inv = 1.0f / denom;
  float* acc = s.acc.data();
  for (int64_t j = 0; j < n; ++j) {
    const float p = probs[j] * inv;
    const KeyRow kr = key_at(j);
    for (int64_t e = 0; e < d; ++e) acc[e] += p * In::Load(kr.v, kr.off + e);
  }
  for (int64_t e = 0; e < d; ++e) Out::Store(out, ooff + e, acc[e]);
}

// The split every attention kernel makes: rows [0, rows) of (query, head)
// pairs or (request, head) blocks - each owning its out rows, so bytes never
// depend on threads - in contiguous ranges over the thread pool, one
// RowScratch per range. row(In{}, Out{}, r, scratch) with the storage types
// of the inputs (f32/f16/bf16) and of out (f32/bf16); the validator has
// refused every other dtype. `tiers`: the op's line of the tier table
// (OpTiers); the call runs the tier PickTier gives, counted once per range.
template <class Row>
void ForEachRow(const ExecContext& ctx, const std::vector<Isa>& tiers, DType in, DType out, int64_t rows,
                const Row& row) {
  const Isa tier = PickTier(ctx.ResolvedIsa(), tiers);
  const uint64_t* exp_tab = tier == Isa::kAvx512 ? VectorExpfTable() : nullptr;
  WithFloatInOutElem(in, out, [&](auto i, auto o) {
    ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
      CountTierRun(tier);
      RowScratch scratch;
      scratch.tier = tier;
      scratch.exp_tab = exp_tab;
      for (int64_t r = r0; r < r1; ++r) row(i, o, r, scratch);
    });
  });
}

}  // namespace vt::cpu::attn
