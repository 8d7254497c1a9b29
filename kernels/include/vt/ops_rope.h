// RoPE family: public API. Every function validates all operands, scalar
// arguments and position VALUES first (vt::Error naming the op and the
// violated condition, before any byte of any operand - the in-place q/k
// included - is written), then runs the backend kernel chosen by ctx.backend.
// Operand contracts and semantics: docs/ops/rope.md. Leading (token) extents
// may be 0 (no-op). Outputs must not overlap inputs or each other, except the
// in-place operands named below.
#pragma once

#include "vt/context.h"
#include "vt/ops_norm.h"
#include "vt/tensor.h"

namespace vt {

struct RopeArgs {
  float base = 10000.0f;       // > 0, finite (rope_neox, rope_cos_sin_cache)
  int rotary_dim = 0;          // even, 0 < rotary_dim <= head dim (must be set)
  bool is_neox_style = true;   // pairs (i, i + rot/2); false: GPT-J pairs (2i, 2i + 1).
                               // rope_neox and the fused norm-rope-gate are always NeoX.
  int mrope_section[3] = {0, 0, 0};  // [3,T] positions only: entries >= 0 summing to rot/2
  bool mrope_interleaved = false;    // axis of pair i: i % 3 while i <= 3 * section[axis]
  // Llama-3 frequency rescale (rope_neox, rope_cos_sin_cache): on when
  // llama3_scaling_factor > 0 (0 = off, negative refused); the other three
  // must be > 0 and finite whatever the factor (the defaults are Llama-3.1's).
  float llama3_scaling_factor = 0.0f;
  float llama3_low_freq_factor = 1.0f;
  float llama3_high_freq_factor = 4.0f;
  float llama3_orig_max_position = 8192.0f;
};

// IN PLACE NeoX rotation of q [T,Hq,D] and k [T,Hk,D] (same dtype, f32 or
// bf16, contiguous) at positions [T] (i32/i64, >= 0): pair i of the first
// rotary_dim dims uses freq_i = base^(-2i/rot) (double, Llama-3 rescaled when
// on), angle = pos * freq_i (double), c/s = f32(cos/sin(angle)); the rotation
// is f32 and stored at q's dtype. Dims >= rotary_dim are untouched.
void RopeNeox(const ExecContext& ctx, const Tensor& q, const Tensor& k, const Tensor& positions,
              const RopeArgs& args);

// IN PLACE rotation of q [T,Hq,D] and the optional k [T,Hk,D] from a cos/sin
// cache [P,rot] (row p = [cos(0..rot/2) | sin(0..rot/2)], q's dtype; f32 or
// bf16). q/k inner dim packed, token/head strides may be padded. positions
// [T] or, for multimodal RoPE, [3,T] (i32/i64, contiguous): pair i reads the
// position row of its mrope axis. Every position must lie in [0, P).
void RopeFromCache(const ExecContext& ctx, const Tensor& q, const Tensor* k, const Tensor& positions,
                   const Tensor& cos_sin_cache, const RopeArgs& args);

// cos_sin [T,rot] f32 contiguous: row t = [f32(cos(angle_i)) | f32(sin(angle_i))]
// with rope_neox's double-precision angle of positions[t], so a rotation from
// this cache is bit-identical to rope_neox (f32 q).
void RopeCosSinCache(const ExecContext& ctx, const Tensor& cos_sin, const Tensor& positions,
                     const RopeArgs& args);

// DeepSeek MLA prologue. x [T, off+rot] (row stride free, inner packed):
// latent_out [T,off] = rms_norm(x[:, :off]) with norm_weight [off];
// pe_out [T,rot] = rope_from_cache of x[:, off:] (one head, positions [T]).
// x, norm_weight, outputs and the cache share f32 or bf16.
void FusedNormRope(const ExecContext& ctx, const Tensor& latent_out, const Tensor& pe_out,
                   const Tensor& x, const Tensor& norm_weight, const Tensor& positions,
                   const Tensor& cos_sin_cache, const RmsNormArgs& norm_args,
                   const RopeArgs& rope_args);

// Fused full-attention preamble (Qwen3-Next). qgate [T, Hq*2*Dh] laid out per
// head as [q | gate], kf [T, Hkv*Dh] (same float dtype, row-strided);
// q_norm, k_norm [Dh] f32; cos_sin [T,rot] f32 (rope_cos_sin_cache's, one row
// per token). q_out [T,Hq,Dh] = NeoX rotation of rms_norm(q) (gemma weight
// when norm_args.gemma), k_out [T,Hkv,Dh] likewise for k, dims >= rot normed
// but not rotated; gate_out [T,Hq,Dh] = the gate half, copied.
void AttnQkNormRopeGate(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out,
                        const Tensor& gate_out, const Tensor& qgate, const Tensor& kf,
                        const Tensor& q_norm, const Tensor& k_norm, const Tensor& cos_sin,
                        const RmsNormArgs& norm_args, const RopeArgs& rope_args);

}  // namespace vt
