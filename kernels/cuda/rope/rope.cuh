// Device pieces shared by the RoPE-family CUDA kernels. Each mirrors its
// CPU twin in cpu/rope/rope_common.h expression for expression (same
// operations, same order, double where the CPU uses double), so that on
// cuda-emu - where ::pow / ::cos / ::sin are the host libm the CPU calls -
// the bytes are the CPU's, and on a device only the libm's last-bit
// behaviour may differ (harness/modes/cuda_bytes.cpp).
//   PositionAt    positions[i] of an i32 / i64 tensor (contiguous, aligned:
//                 the workspace places every operand at its element size)
//   PairCosSin    f32 cos/sin of pair i's double angle (Llama-3 rescaled)
//   MropeAxis     the position row a pair reads under multimodal RoPE
//   RotatePair    (x, y) -> (x*c - y*s, x*s + y*c) in f32, in place or not
#pragma once

#include <cmath>
#include <cstdint>

#include "cuda/core/access.cuh"
#include "vt/ops_rope.h"

namespace vt::VT_CUDA_NS::rope {

// A positions operand: base pointer and whether it holds int64.
struct DevPositions {
  const void* p = nullptr;
  bool i64 = false;
};
inline DevPositions DevPos(const Tensor& t) { return DevPositions{t.data, t.dtype == DType::kI64}; }

__device__ __forceinline__ int64_t PositionAt(DevPositions pos, int64_t i) {
  // Read at the stored width: an i64 position past 2^31 must keep its high bits.
  return pos.i64 ? static_cast<const int64_t*>(pos.p)[i] : static_cast<int64_t>(static_cast<const int32_t*>(pos.p)[i]);
}

// The Llama-3 band rescale of one frequency (rope_common.h Llama3Rescale):
// keep high frequencies, divide low ones by the factor, blend between.
__device__ __forceinline__ double Llama3Rescale(double freq, const RopeArgs& a) {
  const double factor = static_cast<double>(a.llama3_scaling_factor);
  if (!(factor > 0.0)) return freq;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  const double low = static_cast<double>(a.llama3_low_freq_factor);
  const double high = static_cast<double>(a.llama3_high_freq_factor);
  const double orig = static_cast<double>(a.llama3_orig_max_position);
  const double wavelen = kTwoPi / freq;
  if (wavelen < orig / high) return freq;
  if (wavelen > orig / low) return freq / factor;
  const double smooth = low != high ? (orig / wavelen - low) / (high - low) : 0.0;
  return (1.0 - smooth) * freq / factor + smooth * freq;
}

struct CosSin {
  float c, s;
};

// cos/sin of pair `pair` at position `pos`: the angle in double (an f32
// angle loses the low bits of pos * freq at positions of 1e5), each rounded
// once to f32.
__device__ __forceinline__ CosSin PairCosSin(int64_t pos, int64_t pair, int rot, const RopeArgs& a) {
  double freq = ::pow(static_cast<double>(a.base), -2.0 * static_cast<double>(pair) / static_cast<double>(rot));
  freq = Llama3Rescale(freq, a);
  const double angle = static_cast<double>(pos) * freq;
  return {static_cast<float>(::cos(angle)), static_cast<float>(::sin(angle))};
}

// Which of the three position rows pair `pair` reads (rope_common.h MropeAxis).
__device__ __forceinline__ int MropeAxis(int64_t pair, const RopeArgs& a) {
  const int* s = a.mrope_section;
  if (a.mrope_interleaved) {
    if (pair % 3 == 1 && pair <= 3 * static_cast<int64_t>(s[1])) return 1;
    if (pair % 3 == 2 && pair <= 3 * static_cast<int64_t>(s[2])) return 2;
    return 0;
  }
  if (pair < s[0]) return 0;
  if (pair < static_cast<int64_t>(s[0]) + s[1]) return 1;
  return 2;
}

// Element offsets of a rotation pair within a head: NeoX (i, i + rot/2) or
// GPT-J (2i, 2i + 1).
__device__ __forceinline__ int64_t PairFirst(int64_t pair, bool neox) { return neox ? pair : 2 * pair; }
__device__ __forceinline__ int64_t PairSecond(int64_t pair, int64_t half, bool neox) {
  return neox ? pair + half : 2 * pair + 1;
}

// Reads src[sa], src[sb] and writes the rotated pair to dst[da], dst[db]
// (the same places for an in-place rotation): two f32 products and one
// add/sub each, no contraction (nvcc --fmad=false).
__device__ __forceinline__ void RotatePair(DevPtr dst, int64_t da, int64_t db, DevPtr src, int64_t sa, int64_t sb,
                                           float c, float s) {
  const float x = Load(src, sa);
  const float y = Load(src, sb);
  Store(dst, da, x * c - y * s);
  Store(dst, db, x * s + y * c);
}

}  // namespace vt::VT_CUDA_NS::rope
