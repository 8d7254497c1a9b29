// The NVFP4 quantizer the four fp4 quant ops share: per row, per group of 16
// consecutive elements, one e4m3 block scale and sixteen e2m1 codes.
//   amax  = max |x| over the group (a NaN element does not count, signalling
//           or quiet: see QuantRows)
//   s     = clamp(gsi * (amax * f32(1/6)), +-448)        -> scale byte e4m3(s)
//   block = e4m3val(byte) * (1/gsi), 1/0 := 0
//   code  = e2m1(clamp(x * (1/block), +-6)), 1/0 := 0
// in f32, in exactly this order (the seed's; the f32_definition claim holds
// it to the bit). Contract (validated in kernels/api): x [M,K] f32/f16/bf16
// contiguous, K % 16 == 0; out_packed [M,K/2] and out_scale (linear [M,K/16]
// or swizzled [round_up(M,128), round_up(K/16,4)]) u8 contiguous, disjoint.
// The whole scale tensor is zeroed first (swizzled padding must read 0), then
// rows are split over threads; each row's bytes belong to one thread.
// The fused ops (activation + quant) are composites: QuantizeBf16Activation.
// Tiers: this file's QuantRows is the portable tier (the reference); avx2 and
// avx512 (fp4_tiers.h) quantize a row at a time with the same bytes, for
// every op whose OpTiers line lists them (the fused ops' activations run
// their own kernels as before; only the quantizer is this tier code).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "cpu/access.h"
#include "cpu/quant/fp4_tiers.h"
#include "vt/codec.h"
#include "vt/isa.h"
#include "vt/ops_quant.h"
#include "vt/tensor.h"
#include "vt/threadpool.h"

namespace vt::cpu::fp4 {

inline constexpr int64_t kGroup = 16;

// NaN passes through (neither comparison holds), as the spec's clamp does.
inline float Clamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
inline float RecipOrZero(float v) { return v == 0.0f ? 0.0f : 1.0f / v; }

// CUTLASS's 128x4 scale tile: 128 rows x 4 groups = 512 bytes, stored as
// [32 rows i%32][4 row blocks (i%128)/32][4 groups g%4]; tiles are row-major
// over (row tile, group tile) with scale_cols/4 group tiles per row tile.
inline int64_t SwizzledScaleOffset(int64_t row, int64_t group, int64_t scale_cols) {
  const int64_t tile = (row / 128) * (scale_cols / 4) + group / 4;
  const int64_t in_tile = (row % 32) * 16 + ((row % 128) / 32) * 4 + group % 4;
  return tile * 512 + in_tile;
}

// Elem: x's storage (access.h F32Elem / F16Elem / BF16Elem), resolved once per call.
template <class Elem>
void QuantRows(const Tensor& x, uint8_t* packed, uint8_t* scale, int64_t scale_cols, float gsi,
               Fp4ScaleLayout layout, int64_t r0, int64_t r1) {
  const void* src = x.data;
  const int64_t k = x.shape[1], groups = k / kGroup;
  const float gsi_recip = RecipOrZero(gsi);
  float v[kGroup];
  for (int64_t i = r0; i < r1; ++i) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t base = i * k + g * kGroup;
      // amax skips every NaN, as the seed's std::fmax skips a quiet one. Not
      // fmax itself: glibc's fmaxf returns a NaN when an operand is a
      // signalling NaN, so a group holding one got a NaN amax - or, after it,
      // the max of the elements behind it - depending on the C library and
      // the NaN's place (found by the raw-NaN specials, issue 21).
      float amax = 0.0f;
      for (int64_t j = 0; j < kGroup; ++j) {
        v[j] = Elem::Load(src, base + j);
        const float a = std::fabs(v[j]);
        if (a > amax) amax = a;
      }
      const float s = Clamp(gsi * (amax * (1.0f / kFp4E2M1Max)), -kFp8E4M3Max, kFp8E4M3Max);
      const uint8_t code = F32ToFp8E4M3(s);
      const int64_t at = layout == Fp4ScaleLayout::kLinear ? i * groups + g
                                                           : SwizzledScaleOffset(i, g, scale_cols);
      scale[at] = code;
      const float inv_block = RecipOrZero(Fp8E4M3ToF32(code) * gsi_recip);
      for (int64_t j = 0; j < kGroup; j += 2) {
        const float lo = Clamp(v[j] * inv_block, -kFp4E2M1Max, kFp4E2M1Max);
        const float hi = Clamp(v[j + 1] * inv_block, -kFp4E2M1Max, kFp4E2M1Max);
        packed[base / 2 + j / 2] = static_cast<uint8_t>(F32ToFp4E2M1(lo) | (F32ToFp4E2M1(hi) << 4));
      }
    }
  }
}

// `op` names the calling op: its OpTiers line decides which tiers it runs.
inline void QuantizeFp4(const ExecContext& ctx, std::string_view op, const Tensor& out_packed,
                        const Tensor& out_scale, const Tensor& x, float gsi, Fp4ScaleLayout layout) {
  auto* packed = static_cast<uint8_t*>(out_packed.data);
  auto* scale = static_cast<uint8_t*>(out_scale.data);
  const int64_t scale_elems = out_scale.Numel();
  if (scale_elems > 0) std::memset(scale, 0, static_cast<size_t>(scale_elems));
  const int64_t scale_cols = out_scale.shape[1];
  const Isa tier = PickTier(ctx.ResolvedIsa(), OpTiers(op));
  if (tier != Isa::kPortable) {
    const int64_t k = x.shape[1], groups = k / kGroup;
    const Fp4RowJob job{x.dtype, k, gsi, RecipOrZero(gsi), Fp8E4M3Values()};
    const auto* xb = static_cast<const unsigned char*>(x.data);
    ParallelForRows(ctx, x.shape[0], [&](int64_t r0, int64_t r1) {
      CountTierRun(tier);
      std::vector<uint8_t> codes(static_cast<size_t>(groups));
      for (int64_t i = r0; i < r1; ++i) {
        Fp4QuantRowOn(tier, job, xb + i * k * x.ElementSize(), packed + i * (k / 2), codes.data());
        for (int64_t g = 0; g < groups; ++g) {
          const int64_t at = layout == Fp4ScaleLayout::kLinear ? i * groups + g : SwizzledScaleOffset(i, g, scale_cols);
          scale[at] = codes[static_cast<size_t>(g)];
        }
      }
    });
    return;
  }
  WithFloatElem(x.dtype, [&](auto elem) {
    using Elem = decltype(elem);
    ParallelForRows(ctx, x.shape[0], [&](int64_t r0, int64_t r1) {
      CountTierRun(Isa::kPortable);
      QuantRows<Elem>(x, packed, scale, scale_cols, gsi, layout, r0, r1);
    });
  });
}

// A fused op, DEFINED as the composite: `activation(act)` writes its result
// into a bf16 [rows, cols] scratch `act` - the store/load boundary of the
// fused CUDA producer, kept exactly - and the quantizer reads it.
template <class Activation>
void QuantizeBf16Activation(const ExecContext& ctx, std::string_view op, const Tensor& out_packed,
                            const Tensor& out_scale, int64_t rows, int64_t cols, float gsi, Fp4ScaleLayout layout,
                            Activation&& activation) {
  std::vector<uint16_t> scratch(static_cast<size_t>(rows * cols));
  const Tensor act = Tensor::Contiguous(scratch.data(), DType::kBF16, {rows, cols});
  activation(act);
  QuantizeFp4(ctx, op, out_packed, out_scale, act, gsi, layout);
}

}  // namespace vt::cpu::fp4
