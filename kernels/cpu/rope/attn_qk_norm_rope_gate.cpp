// attn_qk_norm_rope_gate CPU kernel (the fused full-attention preamble).
// Contract (validated by vt::AttnQkNormRopeGate): qgate [T, Hq*2*Dh] (per head
// [q | gate]) and kf [T, Hkv*Dh] of one float dtype, inner-packed rows;
// q_norm/k_norm [Dh] f32; cos_sin [T, rot] f32, row t = token t's [cos | sin];
// q_out/k_out [T,H,Dh] of one dtype (f32/bf16), gate_out [T,Hq,Dh] of that
// dtype or f32; all outputs contiguous.
// Per head row v (Dh values): inv = 1/sqrt(sum(v*v)/Dh + eps) (sequential f32
// sum), n_j = (v_j * inv) * w'_j (w' = w + 1 if gemma); for j < rot/2:
// out_j = n_j c_j - n_{j+h} s_j, out_{j+h} = n_j s_j + n_{j+h} c_j (h = rot/2,
// NeoX); out_j = n_j for j >= rot. gate_out = the gate half, copied.
// Split: tokens.
// Tiers: portable (below, the reference), avx2 and avx512, per token: each
// head group's rows through the row-norm panel (norm_tiers.h: kLanes heads'
// sequential sums in lanes) into f32 rows (q_out itself when it is f32, else
// a scratch row block), rotated in place by rope_rows (rope_tiers.h), then
// rounded to bf16 by ConvertSpan; the gate copy is ConvertSpan too. There is
// no sigmoid here: the gate is only copied, so nothing needs expf.
#include <algorithm>
#include <cmath>
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/rope/rope_common.h"
#include "cpu/rope/rope_tiers.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

// One head: normalise src[at .. at+dh) into `normed`, then rotate into out.
template <class In, class Out>
void NormRopeHead(const void* src, int64_t at, int64_t dh, const void* w, bool gemma, float eps,
                  const float* cs, int64_t rot, std::vector<float>& normed, void* out, int64_t out_at) {
  float sumsq = 0.0f;
  for (int64_t j = 0; j < dh; ++j) {
    const float v = In::Load(src, at + j);
    sumsq += v * v;
  }
  const float inv = 1.0f / std::sqrt(sumsq / static_cast<float>(dh) + eps);
  for (int64_t j = 0; j < dh; ++j) {
    float wj = F32Elem::Load(w, j);
    if (gemma) wj += 1.0f;
    normed[static_cast<size_t>(j)] = In::Load(src, at + j) * inv * wj;
  }
  const int64_t half = rot / 2;
  for (int64_t j = 0; j < half; ++j) {
    const float x = normed[static_cast<size_t>(j)], y = normed[static_cast<size_t>(j + half)];
    Out::Store(out, out_at + j, x * cs[j] - y * cs[half + j]);
    Out::Store(out, out_at + j + half, x * cs[half + j] + y * cs[j]);
  }
  for (int64_t j = rot; j < dh; ++j) Out::Store(out, out_at + j, normed[static_cast<size_t>(j)]);
}

// One token's `rows` head rows (row r at src + r * ld elements, dh values):
// normalised with w into f32 rows dh apart (out itself when it is f32, else
// scratch), rotated there with the token's cos|sin row, then rounded to out.
struct TierHeads {
  Isa tier;
  const NormRowsJob& base;  // dtypes, eps, gemma, h = dh
  const RopeRowsJob& rope;  // f32 rows, NeoX, the token's cos / sin
  float* scratch;           // rows * dh floats when out is bf16
};
void NormRopeHeadsTier(const TierHeads& th, const void* src, int64_t ld, int64_t rows, const void* w, void* out,
                       DType out_dt) {
  NormRowsJob j = th.base;
  j.x = src, j.x_ld = ld, j.w = w;
  const bool f32 = out_dt == DType::kF32;
  j.out = f32 ? out : th.scratch, j.out_dt = DType::kF32;
  float inv[avx512::kLanes];
  const int lanes = NormLanes(th.tier);
  for (int64_t r0 = 0; r0 < rows; r0 += lanes) {
    NormPanelOn(th.tier, j, r0, static_cast<int>(std::min<int64_t>(lanes, rows - r0)), inv);
  }
  RopeRowsOn(th.tier, th.rope, j.out, rows, j.h * 4);
  if (!f32) ConvertSpanOn(th.tier, th.scratch, DType::kF32, out, out_dt, rows * j.h);
}

void AttnQkNormRopeGateTier(const ExecContext& ctx, Isa tier, const Tensor& q_out, const Tensor& k_out,
                            const Tensor& gate_out, const Tensor& qgate, const Tensor& kf, const Tensor& q_norm,
                            const Tensor& k_norm, const Tensor& cos_sin, const RmsNormArgs& na, const RopeArgs& ra) {
  const int64_t hq = q_out.shape[1], dh = q_out.shape[2], hkv = k_out.shape[1], rot = ra.rotary_dim;
  const int64_t ies = qgate.ElementSize(), oes = q_out.ElementSize(), ges = gate_out.ElementSize();
  NormRowsJob base;
  base.x_dt = qgate.dtype, base.w_dt = DType::kF32, base.gemma = na.gemma;
  base.h = dh, base.eps = na.eps, base.mean = true;
  const auto* qb = static_cast<const unsigned char*>(qgate.data);
  const auto* kb = static_cast<const unsigned char*>(kf.data);
  const auto* csb = static_cast<const unsigned char*>(cos_sin.data);
  auto* qo = static_cast<unsigned char*>(q_out.data);
  auto* ko = static_cast<unsigned char*>(k_out.data);
  auto* go = static_cast<unsigned char*>(gate_out.data);
  ParallelForRows(ctx, q_out.shape[0], [&](int64_t r0, int64_t r1) {
    CountTierRun(tier);
    std::vector<float> scratch(q_out.dtype == DType::kF32 ? 0 : static_cast<size_t>(std::max(hq, hkv) * dh));
    for (int64_t t = r0; t < r1; ++t) {
      RopeRowsJob rj;
      rj.neox = true, rj.half = rot / 2;
      rj.c = csb + t * rot * 4, rj.s = csb + (t * rot + rot / 2) * 4;
      const TierHeads th{tier, base, rj, scratch.data()};
      const unsigned char* qrow = qb + t * qgate.stride[0] * ies;
      NormRopeHeadsTier(th, qrow, 2 * dh, hq, q_norm.data, qo + t * hq * dh * oes, q_out.dtype);
      for (int64_t h = 0; h < hq; ++h) {
        ConvertSpanOn(tier, qrow + (h * 2 + 1) * dh * ies, qgate.dtype, go + (t * hq + h) * dh * ges, gate_out.dtype, dh);
      }
      NormRopeHeadsTier(th, kb + t * kf.stride[0] * ies, dh, hkv, k_norm.data, ko + t * hkv * dh * oes, k_out.dtype);
    }
  });
}

void AttnQkNormRopeGateCpu(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& gate_out,
                           const Tensor& qgate, const Tensor& kf, const Tensor& q_norm, const Tensor& k_norm,
                           const Tensor& cos_sin, const RmsNormArgs& na, const RopeArgs& ra) {
  static const std::vector<Isa> kTiers = OpTiers("attn_qk_norm_rope_gate");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    AttnQkNormRopeGateTier(ctx, tier, q_out, k_out, gate_out, qgate, kf, q_norm, k_norm, cos_sin, na, ra);
    return;
  }
  const int64_t hq = q_out.shape[1], dh = q_out.shape[2], hkv = k_out.shape[1], rot = ra.rotary_dim;
  // qgate f32/f16/bf16 in, q_out f32/bf16 out: both storages resolved once.
  WithFloatInOutElem(qgate.dtype, q_out.dtype, [&](auto in, auto out) {
    using In = decltype(in);
    using Out = decltype(out);
    ParallelForRows(ctx, q_out.shape[0], [&](int64_t r0, int64_t r1) {
      CountTierRun(Isa::kPortable);
      std::vector<float> normed(static_cast<size_t>(dh)), cs(static_cast<size_t>(rot));
      for (int64_t t = r0; t < r1; ++t) {
        // The token's cos|sin row (read through memcpy: operands need no alignment).
        for (int64_t j = 0; j < rot; ++j) cs[static_cast<size_t>(j)] = F32Elem::Load(cos_sin.data, t * rot + j);
        for (int64_t h = 0; h < hq; ++h) {
          const int64_t row = t * qgate.stride[0] + h * 2 * dh, o = (t * hq + h) * dh;
          NormRopeHead<In, Out>(qgate.data, row, dh, q_norm.data, na.gemma, na.eps, cs.data(), rot, normed, q_out.data, o);
          for (int64_t j = 0; j < dh; ++j) StoreF32(gate_out, o + j, In::Load(qgate.data, row + dh + j));
        }
        for (int64_t h = 0; h < hkv; ++h) {
          NormRopeHead<In, Out>(kf.data, t * kf.stride[0] + h * dh, dh, k_norm.data, na.gemma, na.eps, cs.data(), rot, normed,
                                k_out.data, (t * hkv + h) * dh);
        }
      }
    });
  });
}

}  // namespace

void Register_attn_qk_norm_rope_gate() {
  RegisterTyped<kernel::AttnQkNormRopeGateFn>("attn_qk_norm_rope_gate", Backend::kCPU, &AttnQkNormRopeGateCpu);
}

}  // namespace vt::cpu
