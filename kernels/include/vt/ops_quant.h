// Quantization family (NVFP4): public API. Validation first (see ops_norm.h for
// the conventions), then the backend kernel. Contracts: docs/ops/quant.md.
//
// Formats: fp4 e2m1 codes travel packed two per u8 byte (element 2j in the LOW
// nibble, 2j+1 in the high nibble); block scales are fp8 e4m3fn bytes (u8), one
// per 16 consecutive elements of a row ("group"). gsi is the input's global
// scale inverse (vLLM's input_global_scale_inv): finite and >= 0; 0 gives all
// zero codes.
#pragma once

#include <cstdint>

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

// Where group g of row i's scale byte lives in out_scale.
//   kLinear          out_scale [M, K/16], at [i, g].
//   kCutlassSwizzled out_scale [round_up(M,128), round_up(K/16,4)], laid out
//                    in CUTLASS's 128x4 tiles (docs/ops/quant.md); padding 0.
enum class Fp4ScaleLayout : int32_t { kLinear = 0, kCutlassSwizzled = 1 };

// Per row i and 16-group g of x [M,K] (K % 16 == 0):
//   amax = max |x| (NaN ignored); s = clamp(gsi * (amax * (1/6)), +-448);
//   scale byte = e4m3(s); block = e4m3val(byte) * (1/gsi) (1/0 := 0);
//   code = e2m1(clamp(x * (1/block), +-6)) (1/0 := 0).
// x F contiguous; out_packed [M,K/2] u8; out_scale u8 in `layout`'s shape,
// zero-filled whole (padding included) before any scale is written.
void ScaledFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                    const Tensor& x, float gsi, Fp4ScaleLayout layout = Fp4ScaleLayout::kLinear);

// MoeSiluMul(gate, up) into a bf16 [M,I] scratch, then ScaledFp4Quant of it.
// gate, up [M,I] of one F dtype, contiguous; I % 16 == 0.
void SiluMulFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                     const Tensor& gate, const Tensor& up, float gsi,
                     Fp4ScaleLayout layout = Fp4ScaleLayout::kLinear);

// SiluAndMul(gate_up) into a bf16 [M,I] scratch, then ScaledFp4Quant of it.
// gate_up [M,2I] f32 or bf16 (gate half first), contiguous; I % 16 == 0.
void SiluAndMulFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                        const Tensor& gate_up, float gsi,
                        Fp4ScaleLayout layout = Fp4ScaleLayout::kLinear);

// SigmoidGateBf16(attn, gate) into a bf16 [M,K] scratch, then ScaledFp4Quant.
// attn [M,K] f32/bf16, gate [M,K] f32, contiguous; K % 16 == 0.
void SigmoidGateFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                         const Tensor& attn, const Tensor& gate, float gsi,
                         Fp4ScaleLayout layout = Fp4ScaleLayout::kLinear);

// out[m,n] = alpha * sum_k (e2m1(a[m,k]) * e4m3(a_scale[m,k/16])) *
//                          (e2m1(b[n,k]) * e4m3(b_scale[n,k/16])),
// f32, sequential over k, one rounding at the store. K = 2 * a_packed.shape[1],
// K % 16 == 0. a_packed [M,K/2], a_scale [M,K/16] (linear), b_packed [N,K/2],
// b_scale [N,K/16] all u8; out [M,N] f32/bf16; alpha finite. NaN scale bytes
// (0x7F/0xFF) give NaN.
void MatmulNvfp4Fp4(const ExecContext& ctx, const Tensor& out, const Tensor& a_packed,
                    const Tensor& a_scale, const Tensor& b_packed, const Tensor& b_scale,
                    float alpha);

}  // namespace vt
