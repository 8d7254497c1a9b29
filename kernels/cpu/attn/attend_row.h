// The one computation every attention kernel of the family shares: one query
// row of one q-head against an ordered list of visible keys. Three
// sequential f32 passes in ascending key order (the spec's order; the
// f32_definition check holds the bytes to it):
//   1. s_j = (q . k_j) * scale [+ bias_j]  and  m = max_j s_j
//   2. e_j = expf(s_j - m)                 and  denom = sum_j e_j
//   3. acc = sum_j (e_j * (1 / denom)) * v_j, stored once at out's dtype.
// The operand dtypes are resolved once per call (ForEachRow, through
// cpu/access.h's WithFloatInOutElem) and the inner loops are typed on them.
// Tiers: AttendRow is the portable tier (the reference); the ops call it
// through AttendRows, which runs the avx2 / avx512 vector tiers
// (attend_tiers.h) when ForEachRow's tier is one, so every op of the family
// gets them through this one pair of functions.
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

// Attends query row q[qoff .. qoff+d) over the n keys key_at(0..n-1) and
// stores the result at out[ooff .. ooff+d). bias (may be null) holds one
// additive f32 term per visible key from element boff on (read through
// memcpy: no operand needs alignment). n >= 1.
template <class In, class Out, class KeyAt>
void AttendRow(const void* q, int64_t qoff, int64_t d, float scale, int64_t n, const KeyAt& key_at,
               const void* bias, int64_t boff, void* out, int64_t ooff, RowScratch& s) {
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

// AttendRow for nq query rows that see the same keys (the q-heads of one
// GQA group): query u at q[qoff + u * qstep ..), its out row at out[ooff +
// u * ostep ..). The portable tier attends them one by one; a vector tier
// resolves the key rows to addresses once and runs the queries kMaxQueries
// (or 2, or 1) at a time, sharing each key and value load. Each query's
// bytes are its own AttendRow's either way.
template <class In, class Out, class KeyAt>
void AttendRows(const void* q, int64_t qoff, int64_t qstep, int64_t nq, int64_t d, float scale, int64_t n,
                const KeyAt& key_at, const void* bias, int64_t boff, void* out, int64_t ooff, int64_t ostep,
                RowScratch& s) {
  if (s.tier == Isa::kPortable) {
    for (int64_t u = 0; u < nq; ++u) {
      AttendRow<In, Out>(q, qoff + u * qstep, d, scale, n, key_at, bias, boff, out, ooff + u * ostep, s);
    }
    return;
  }
  constexpr int64_t kPad = avx512::kLanes;
  constexpr int64_t kOutBytes = std::is_same_v<Out, BF16Elem> ? 2 : 4;
  s.k.resize(static_cast<size_t>(n));
  s.v.resize(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    const KeyRow kr = key_at(j);
    s.k[static_cast<size_t>(j)] = static_cast<const unsigned char*>(kr.k) + kr.off * kElemBytes<In>;
    s.v[static_cast<size_t>(j)] = static_cast<const unsigned char*>(kr.v) + kr.off * kElemBytes<In>;
  }
  const int64_t stride = (n + kPad - 1) / kPad * kPad;
  s.probs.resize(static_cast<size_t>(stride * kMaxQueries));
  s.qf.resize(static_cast<size_t>(d * kMaxQueries));
  AttendJob job;
  job.in_dt = kElemDType<In>;
  job.out_dt = std::is_same_v<Out, BF16Elem> ? DType::kBF16 : DType::kF32;
  job.d = d;
  job.scale = scale;
  job.n = n;
  job.k = s.k.data();
  job.v = s.v.data();
  job.bias = bias != nullptr ? static_cast<const unsigned char*>(bias) + boff * 4 : nullptr;
  job.qf = s.qf.data();
  job.probs = s.probs.data();
  job.probs_stride = stride;
  job.exp_tab = s.exp_tab;
  for (int64_t u0 = 0; u0 < nq;) {
    job.nq = nq - u0 >= 4 ? 4 : nq - u0 >= 2 ? 2 : 1;
    for (int u = 0; u < job.nq; ++u) {
      job.q[u] = static_cast<const unsigned char*>(q) + (qoff + (u0 + u) * qstep) * kElemBytes<In>;
      job.out[u] = static_cast<unsigned char*>(out) + (ooff + (u0 + u) * ostep) * kOutBytes;
    }
    RunAttendTier(s.tier, job);
    u0 += job.nq;
  }
}

// The q-heads of one GQA group (group = Hq / Hkv, consecutive heads) in
// blocks of up to kMaxQueries, the queries one AttendRows job shares key
// loads over: the kernels' work items are (kv-head, block) pairs, so a large
// group (MQA) still spreads over the threads.
struct HeadBlocks {
  int64_t group, per;  // q-heads per kv-head; blocks per kv-head
  explicit HeadBlocks(int64_t g) : group(g), per((g + kMaxQueries - 1) / kMaxQueries) {}
  int64_t First(int64_t kv_head, int64_t b) const { return kv_head * group + b * kMaxQueries; }
  int64_t Count(int64_t b) const { return group - b * kMaxQueries < kMaxQueries ? group - b * kMaxQueries : kMaxQueries; }
};

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
