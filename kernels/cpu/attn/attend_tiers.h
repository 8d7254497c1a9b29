// The vector tiers of AttendRow (attend_row.h), shared by every attention op
// of the family. Portable declarations only: the tier code lives in
// attend_avx512.cpp / attend_avx2.cpp (attend_row.inc, one source per tier).
//
// Bytes: the portable tier's three passes are three sets of independent
// sequential chains, and the tiers put different chains in lanes, never one
// chain across lanes:
//   1. one dot product per KEY, sequential in the head dim: kW keys' chains
//      side by side (a kW x kW transpose of each key panel, as norm_panel
//      does for rows), then * scale, + bias per lane; the max skips NaN
//      scores exactly as `dot > m` does (a zero's sign in m never reaches a
//      byte: s - (+0) and s - (-0) are equal, and expf(+-0) = 1);
//   2. e_j = expf(s_j - m) (avx512: the silu tiers' bit-exact vector expf,
//      scalar expf off its main path; avx2: scalar expf) and denom summed
//      in ascending j as one scalar chain;
//   3. one accumulator per HEAD DIM element, sequential in j: kW head-dim
//      elements in lanes, every j added in ascending order.
#pragma once

#include <cstdint>

#include "vt/dtype.h"
#include "vt/isa.h"

namespace vt::cpu {

// Up to kMaxQueries query rows (the q-heads of one GQA group, which read
// the same keys) over the same n >= 1 visible keys: AttendRow's arguments,
// with the key rows resolved to addresses. Each query's bytes are its own
// AttendRow's: the queries share loads, never a sum.
inline constexpr int kMaxQueries = 4;
struct AttendJob {
  DType in_dt = DType::kF32;   // q, k, v storage: f32/f16/bf16
  DType out_dt = DType::kF32;  // f32/bf16
  int nq = 1;                  // 1, 2 or 4 queries
  const void* q[kMaxQueries] = {};  // query row u, d elements
  void* out[kMaxQueries] = {};      // its out row, d elements of out_dt
  int64_t d = 0;
  float scale = 0.0f;
  int64_t n = 0;
  const void* const* k = nullptr;  // k[j]: key row j (ascending visible order), d elements
  const void* const* v = nullptr;  // v[j]: its value row
  const void* bias = nullptr;      // n f32 (any alignment) or null; the same for every query
  float* qf = nullptr;             // scratch: nq * d floats (the widened queries)
  float* probs = nullptr;          // scratch: nq rows of probs_stride floats
  int64_t probs_stride = 0;        // >= n, a multiple of 16
  const uint64_t* exp_tab = nullptr;  // VectorExpfTable() (avx512), null: scalar expf
};

// p[j] = expf(p[j] - m) for j in [0, n), each added to denom in order; the
// updated denom. Portable code (the C library's expf), callable from a tier.
float ExpChainScalar(float* p, int64_t n, float m, float denom);

// Runs job on vector tier `tier` (kAvx2 or kAvx512, one the CPU supports).
void RunAttendTier(Isa tier, const AttendJob& job);

namespace avx512 {
inline constexpr int kLanes = 16;
void AttendRowTier(const AttendJob& job);
}  // namespace avx512
namespace avx2 {
inline constexpr int kLanes = 8;
void AttendRowTier(const AttendJob& job);
}  // namespace avx2

}  // namespace vt::cpu
