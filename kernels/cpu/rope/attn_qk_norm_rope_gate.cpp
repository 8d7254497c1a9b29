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
#include <cmath>
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/rope/rope_common.h"
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

void AttnQkNormRopeGateCpu(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& gate_out,
                           const Tensor& qgate, const Tensor& kf, const Tensor& q_norm, const Tensor& k_norm,
                           const Tensor& cos_sin, const RmsNormArgs& na, const RopeArgs& ra) {
  const int64_t hq = q_out.shape[1], dh = q_out.shape[2], hkv = k_out.shape[1], rot = ra.rotary_dim;
  // qgate f32/f16/bf16 in, q_out f32/bf16 out: both storages resolved once.
  WithFloatInOutElem(qgate.dtype, q_out.dtype, [&](auto in, auto out) {
    using In = decltype(in);
    using Out = decltype(out);
    ParallelForRows(ctx, q_out.shape[0], [&](int64_t r0, int64_t r1) {
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
