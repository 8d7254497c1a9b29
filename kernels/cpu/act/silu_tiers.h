// The vector tier of silu_and_mul: out = (g / (1 + expf(-g))) * up, every
// step an f32 IEEE operation in the portable tier's order. The portable tier
// calls the C library's expf; a vector expf that does not reproduce it bit
// for bit is useless here (libmvec's differs on ~2% of inputs). So the tier
// carries a vector transcription of glibc's expf algorithm (the ARM
// optimized-routines design: N = 32 table of 2^(i/N), a cubic in double, one
// final rounding to f32) and, because that ties it to the glibc build, it
// checks itself once per process against the loaded expf (VectorExpfTable);
// when the check fails the tier computes every element with the scalar expf
// (still its bytes, only slower). Inputs whose expf is not on the algorithm's
// main path (|x| >= 88, NaN) always take the scalar expf.
#pragma once

#include <cstdint>

#include "vt/dtype.h"

namespace vt::cpu {

struct SiluJob {
  DType x_dt = DType::kF32;    // f32/f16/bf16
  DType out_dt = DType::kF32;  // f32/bf16
  const uint64_t* exp_tab = nullptr;  // VectorExpfTable(); null: scalar expf for every element
  bool stream_out = false;
};

// The 32 table entries of the vector expf (bits of 2^(i/32) less i << 47),
// or null when the transcription disagrees with this process's expf on any
// self-check input. Computed and checked once (thread-safe); AVX-512 only.
const uint64_t* VectorExpfTable();

// o[k] = silu(g[k]) * u[k] with the scalar expf (the portable tier's values).
void SiluMulScalar(const float* g, const float* u, float* o, int n);
// act[k] = silu(z[k]) or sigmoid(z[k]) with the scalar expf (the gated
// norms' portable values; compiled portable, callable from a tier's region).
void GateActScalar(const float* z, float* act, int n, bool sigmoid);

namespace avx512 {
// out[k] = silu(gate[k]) * up[k], k in [0, n); storage per job.
void SiluMulSpan(const SiluJob& job, const void* gate, const void* up, void* out, int64_t n);
// y[k] = the vector transcription's expf(x[k]) (main path inputs only); for the self-check.
void ExpfSpan(const uint64_t* tab, const float* x, float* y, int64_t n);
}  // namespace avx512

}  // namespace vt::cpu
