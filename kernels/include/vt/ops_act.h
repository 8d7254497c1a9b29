// Activation / elementwise glue family: public API. Validation first (see
// ops_norm.h for the conventions); all arithmetic in f32, one rounding at the
// store. Contracts: docs/ops/act.md.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

// out[t,j] = silu(x[t,j]) * x[t,D+j], silu(g) = g / (1 + exp(-g)).
// x [T,2D] F, out [T,D] O, contiguous.
void SiluAndMul(const ExecContext& ctx, const Tensor& out, const Tensor& x);

// out[t,j] = gelu_tanh(x[t,j]) * x[t,D+j] (tanh approximation). Shapes as SiluAndMul.
void GeluAndMul(const ExecContext& ctx, const Tensor& out, const Tensor& x);

// out = x * float(scalar). Same shape; x F, out O; float(scalar) finite.
void MulScalar(const ExecContext& ctx, const Tensor& out, const Tensor& x, double scalar);

// out = cap * tanh(x / cap) (true division). Same shape; float(cap) > 0, finite.
void SoftCap(const ExecContext& ctx, const Tensor& out, const Tensor& x, double cap);

// out = silu(gate) * up, flat elementwise. gate, up F; out O; equal element counts.
void MoeSiluMul(const ExecContext& ctx, const Tensor& out, const Tensor& gate, const Tensor& up);

// out = max(x, 0)^2, flat elementwise, squared in f32, rounded once. x F, out O.
void MoeRelu2(const ExecContext& ctx, const Tensor& out, const Tensor& x);

// out = bf16(attn * sigmoid(gate)). out bf16; attn f32/bf16; gate f32; equal counts.
void SigmoidGateBf16(const ExecContext& ctx, const Tensor& out, const Tensor& attn,
                     const Tensor& gate);

// out[t,c] = bf16(sigmoid(gl[t]) * sd[t,c]). out [T,H] bf16; sd f32/bf16 with
// T*H elements; gl f32 [T] or [T,1].
void SharedExpertGate(const ExecContext& ctx, const Tensor& out, const Tensor& sd,
                      const Tensor& gl);

// IN PLACE: x[m,n] *= col[n]. x [M,N] f32 or bf16, rows may be padded (row
// stride >= N); col [N] f32 contiguous.
void MulColVecF32(const ExecContext& ctx, const Tensor& x, const Tensor& col);

}  // namespace vt
