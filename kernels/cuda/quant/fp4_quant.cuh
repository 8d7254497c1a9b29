// The NVFP4 quantizer the four fp4 quant ops share, as the CPU's
// (kernels/cpu/quant/fp4_quant_rows.h), per row and group of 16 elements:
//   amax  = max |x| over the group (a NaN element does not count)
//   s     = clamp(gsi * (amax * f32(1/6)), +-448)        -> scale byte e4m3(s)
//   block = e4m3val(byte) * (1/gsi), 1/0 := 0
//   code  = e2m1(clamp(x * (1/block), +-6)), 1/0 := 0
// in f32, in exactly this order, so the bytes are the CPU's.
//
// Shape: a half-warp (16 lanes) per group, one element per lane. The lanes
// take max |x| with shuffles inside their 16-lane segment (width 16) and the
// segment's lane 0 broadcasts it; max is exact in any order, so the tree
// gives the CPU's sequential amax. Lane 0 writes the scale byte; each even
// lane takes its odd neighbour's code (shfl_down by 1) and writes the byte
// (element 2j in the low nibble). A grid-stride loop runs over the SLOTS of
// the scale tensor - (row, group) over its whole extent, the swizzled
// layout's padding included - so every scale byte is written exactly once
// (padding: 0, as the CPU's memset) and no thread writes a byte twice.
// The input functor `Act` gives element (row, col) of the quantized [M, K]
// tensor as f32: x itself, or a fused activation rounded through bf16.
#pragma once

#include "cuda/quant/fp4.cuh"

namespace vt::VT_CUDA_NS {
namespace fp4 {

inline constexpr int kLanes = 16;  // lanes per group: one element each

// max over the 16 lanes of this half-warp (mask: its lanes), every lane gets it.
__device__ __forceinline__ float GroupMax(float v, unsigned mask) {
  for (int off = kLanes / 2; off > 0; off >>= 1) {
    const float o = __shfl_down_sync(mask, v, off, kLanes);
    v = o > v ? o : v;
  }
  return __shfl_sync(mask, v, 0, kLanes);
}

// Where the scale tensor's slots lie: [slot_rows, slot_cols] = [M, K/16]
// linear, [round_up(M, 128), round_up(K/16, 4)] swizzled.
struct ScaleSlots {
  int64_t rows = 0, groups = 0;         // the real [M, K/16]
  int64_t slot_rows = 0, slot_cols = 0;  // the scale tensor's extent
  bool swizzled = false;
};

template <class Act>
__global__ void Fp4QuantKernel(uint8_t* packed, uint8_t* scale, ScaleSlots sl, float gsi, float gsi_recip, Act act) {
  const unsigned lane = threadIdx.x & 31u, j = lane & (kLanes - 1u);
  const unsigned mask = 0xFFFFu << (lane & 16u);  // this lane's half-warp
  const int64_t per_block = blockDim.x / kLanes;
  const int64_t slots = sl.slot_rows * sl.slot_cols, k = sl.groups * kGroup;
  // One slot per half-warp and turn: the bound is uniform over the 16 lanes.
  for (int64_t s = blockIdx.x * per_block + threadIdx.x / kLanes; s < slots;
       s += static_cast<int64_t>(gridDim.x) * per_block) {
    const int64_t i = s / sl.slot_cols, g = s % sl.slot_cols;
    const int64_t at = sl.swizzled ? SwizzledScaleOffset(i, g, sl.slot_cols) : i * sl.groups + g;
    if (i >= sl.rows || g >= sl.groups) {  // swizzled padding
      if (j == 0) scale[at] = 0;
      continue;
    }
    const float v = act(i, g * kGroup + j);
    const float a = fabsf(v);
    const float amax = GroupMax(a > 0.0f ? a : 0.0f, mask);  // NaN -> 0: skipped, as the CPU's `a > amax`
    const float sf = Clamp(gsi * (amax * (1.0f / kE2M1Max)), -kE4M3Max, kE4M3Max);
    const uint8_t code = F32ToFp8E4M3(sf);
    if (j == 0) scale[at] = code;
    const float inv_block = RecipOrZero(Fp8E4M3ToF32(code) * gsi_recip);
    const uint32_t nib = F32ToFp4E2M1(Clamp(v * inv_block, -kE2M1Max, kE2M1Max));
    const uint32_t hi = __shfl_down_sync(mask, nib, 1, kLanes);
    if ((j & 1u) == 0) packed[(i * k + g * kGroup + j) / 2] = static_cast<uint8_t>(nib | (hi << 4));
  }
}

// Quantizes the [rows, k] tensor `act` gives into out_packed / out_scale.
template <class Act>
void LaunchFp4Quant(const char* op, const Tensor& out_packed, const Tensor& out_scale, int64_t rows, int64_t k,
                    float gsi, Fp4ScaleLayout layout, Act act) {
  ScaleSlots sl;
  sl.rows = rows;
  sl.groups = k / kGroup;
  sl.swizzled = layout == Fp4ScaleLayout::kCutlassSwizzled;
  sl.slot_rows = out_scale.shape[0];
  sl.slot_cols = out_scale.shape[1];
  const int64_t lanes = sl.slot_rows * sl.slot_cols * kLanes;
  if (lanes == 0) return;
  VT_LAUNCH(Fp4QuantKernel<Act>, FlatGrid(lanes), FlatThreads(), 0)
  (static_cast<uint8_t*>(out_packed.data), static_cast<uint8_t*>(out_scale.data), sl, gsi, RecipOrZero(gsi), act);
  CheckLaunch(op);
}

// scaled_fp4_quant's input: x [M, K] contiguous, widened to f32.
struct PlainInput {
  DevPtr x;
  int64_t k = 0;
  __device__ float operator()(int64_t row, int64_t col) const { return Load(x, row * k + col); }
};

}  // namespace fp4
}  // namespace vt::VT_CUDA_NS
