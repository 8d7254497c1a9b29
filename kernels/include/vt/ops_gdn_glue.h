// GDN glue family: public API of the ops that turn the conv output and the
// a/b projections into the operands of the GDN recurrence (gdn_g_beta,
// gdn_conv_split, gdn_post_conv). Every function validates all operands
// (shapes, dtypes, layouts, overlaps) before the kernel writes a byte.
// Contracts and decisions: docs/ops/gdn_glue.md.
#pragma once

#include "vt/context.h"
#include "vt/ops_norm.h"
#include "vt/tensor.h"

namespace vt {

// Per token t and value head h (f32 arithmetic, one rounding at each store):
//   x = a[t,h] + dt_bias[h];  sp = x > 20 ? x : log1p(exp(x))   (softplus, guard 20)
//   g_out[t,h] = -exp(a_log[h]) * sp;  beta_out[t,h] = 1 / (1 + exp(-b[t,h]))
// g_out, beta_out [T,Hv] f32 contiguous; a, b [T,Hv] one dtype of f32/bf16,
// inner dim packed, row stride free (>= Hv); a_log, dt_bias [Hv] f32
// contiguous. Hv > 0; T = 0 is a no-op. No output overlaps anything.
void GdnGBeta(const ExecContext& ctx, const Tensor& g_out, const Tensor& beta_out, const Tensor& a,
              const Tensor& b, const Tensor& a_log, const Tensor& dt_bias);

// Row split of the GDN conv output: conv [T, 2*key_dim + value_dim] is
// [q | k | v] per token; q_out, k_out get T*key_dim elements each (any shape,
// equal counts), v_out T*value_dim. Values move through f32 (exact when the
// outputs hold conv's dtype). conv f32/bf16; the outputs one dtype of f32/bf16;
// all contiguous; T > 0 (the widths are counts / T); no overlap.
void GdnConvSplit(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                  const Tensor& conv);

// gdn_conv_split + l2_norm(q) + l2_norm(k) + gdn_g_beta in one pass, bit for
// bit equal to that composition: conv [T, 2*Hk*Dk + Hv*Dv] f32/bf16
// contiguous, T > 0; q_out, k_out [T,Hk,Dk] and v_out [T,Hv,Dv] one dtype of
// f32/bf16, contiguous, Dk > 0; q/k rows normalised as l2_norm does
// (x * (1 / sqrt(sum x^2 + eps))); g_out, beta_out, a, b, a_log, dt_bias as
// gdn_g_beta with Hv from v_out. args.eps finite and > 0.
void GdnPostConv(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                 const Tensor& g_out, const Tensor& beta_out, const Tensor& conv, const Tensor& a,
                 const Tensor& b, const Tensor& a_log, const Tensor& dt_bias, const L2NormArgs& args);

}  // namespace vt
