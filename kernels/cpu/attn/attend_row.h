// The one computation every attention kernel of the family shares: one query
// row of one q-head against an ordered list of visible keys. Three
// sequential f32 passes in ascending key order (the spec's order; the
// f32_definition check holds the bytes to it):
//   1. s_j = (q . k_j) * scale [+ bias_j]  and  m = max_j s_j
//   2. e_j = expf(s_j - m)                 and  denom = sum_j e_j
//   3. acc = sum_j (e_j * (1 / denom)) * v_j, stored once at out's dtype.
// The operand dtypes are resolved once per call (ForEachRow, through
// cpu/access.h's WithFloatInOutElem) and the inner loops are typed on them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cpu/access.h"
#include "vt/codec.h"
#include "vt/context.h"
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
// per head dim.
struct RowScratch {
  std::vector<float> probs;
  std::vector<float> acc;
};

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

// The split every attention kernel makes: rows [0, rows) of (query, head)
// pairs or (request, head) blocks - each owning its out rows, so bytes never
// depend on threads - in contiguous ranges over the thread pool, one
// RowScratch per range. row(In{}, Out{}, r, scratch) with the storage types
// of the inputs (f32/f16/bf16) and of out (f32/bf16); the validator has
// refused every other dtype.
template <class Row>
void ForEachRow(const ExecContext& ctx, DType in, DType out, int64_t rows, const Row& row) {
  WithFloatInOutElem(in, out, [&](auto i, auto o) {
    ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
      RowScratch scratch;
      for (int64_t r = r0; r < r1; ++r) row(i, o, r, scratch);
    });
  });
}

}  // namespace vt::cpu::attn
