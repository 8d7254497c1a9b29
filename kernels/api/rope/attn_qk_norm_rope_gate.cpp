#include <tuple>

#include "api/kernel_types.h"
#include "api/rope/rope_checks.h"
#include "vt/registry.h"

namespace vt {

void AttnQkNormRopeGate(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& gate_out,
                        const Tensor& qgate, const Tensor& kf, const Tensor& q_norm, const Tensor& k_norm,
                        const Tensor& cos_sin, const RmsNormArgs& norm_args, const RopeArgs& rope_args) {
  const api::Checker c("attn_qk_norm_rope_gate");
  c.Operand(ctx, q_out, "q_out");
  c.Rank(q_out, "q_out", 3);
  c.FloatOut(q_out, "q_out");
  c.Contiguous(q_out, "q_out");
  const int64_t tokens = q_out.shape[0], hq = q_out.shape[1], dh = q_out.shape[2];
  c.Require("q_out.inner_nonzero", dh > 0, "Dh = q_out.shape[2] must be > 0 (mean over an empty head)");
  c.Operand(ctx, k_out, "k_out");
  c.Rank(k_out, "k_out", 3);
  c.SameDType(k_out, "k_out", q_out, "q_out");
  c.Contiguous(k_out, "k_out");
  c.Require("k_out.shape", k_out.shape[0] == tokens && k_out.shape[2] == dh,
            "k_out must be [T, Hkv, Dh] matching q_out " + q_out.Describe() + ", got " + k_out.Describe());
  const int64_t hkv = k_out.shape[1];
  c.Operand(ctx, gate_out, "gate_out");
  c.SameShape(gate_out, "gate_out", q_out, "q_out");
  c.Require("gate_out.dtype", gate_out.dtype == q_out.dtype || gate_out.dtype == DType::kF32,
            "gate_out must have q_out's dtype or be f32, got " + std::string(Name(gate_out.dtype)));
  c.Contiguous(gate_out, "gate_out");
  c.Operand(ctx, qgate, "qgate");
  c.Rank(qgate, "qgate", 2);
  c.FloatIn(qgate, "qgate");
  c.RowStrided(qgate, "qgate");
  c.Shape(qgate, "qgate", {tokens, hq * 2 * dh});
  c.Operand(ctx, kf, "kf");
  c.Rank(kf, "kf", 2);
  c.SameDType(kf, "kf", qgate, "qgate");
  c.RowStrided(kf, "kf");
  c.Shape(kf, "kf", {tokens, hkv * dh});
  for (const auto& [w, name] : {std::pair<const Tensor&, const char*>{q_norm, "q_norm"}, {k_norm, "k_norm"}}) {
    c.Operand(ctx, w, name);
    c.DType(w, name, {DType::kF32});
    c.Contiguous(w, name);
    c.Shape(w, name, {dh});
  }
  c.Operand(ctx, cos_sin, "cos_sin");
  c.DType(cos_sin, "cos_sin", {DType::kF32});
  c.Contiguous(cos_sin, "cos_sin");
  api::CheckRotaryDim(c, rope_args.rotary_dim, dh);
  c.Shape(cos_sin, "cos_sin", {tokens, rope_args.rotary_dim});
  c.PositiveFinite(norm_args.eps, "eps");
  const std::tuple<const Tensor&, const char*> outs[] = {{q_out, "q_out"}, {k_out, "k_out"}, {gate_out, "gate_out"}};
  const std::tuple<const Tensor&, const char*> ins[] = {
      {qgate, "qgate"}, {kf, "kf"}, {q_norm, "q_norm"}, {k_norm, "k_norm"}, {cos_sin, "cos_sin"}};
  for (std::size_t o = 0; o < 3; ++o) {
    const auto& [out, on] = outs[o];
    for (const auto& [in, in_name] : ins) c.NoOverlap(out, on, in, in_name);
    for (std::size_t p = o + 1; p < 3; ++p) c.NoOverlap(std::get<0>(outs[p]), std::get<1>(outs[p]), out, on);
  }
  GetKernel<kernel::AttnQkNormRopeGateFn>("attn_qk_norm_rope_gate", ctx.backend)(
      ctx, q_out, k_out, gate_out, qgate, kf, q_norm, k_norm, cos_sin, norm_args, rope_args);
}

}  // namespace vt
