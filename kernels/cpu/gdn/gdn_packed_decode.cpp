// gdn_packed_decode CPU kernel (vLLM fused_recurrent_gated_delta_rule_packed_decode):
// straight from the packed projections. Per request row and value head, in f32:
// q, k read from mixed_qkv [q | k | v] and L2-normalised (eps 1e-6 inside the
// root; q then scaled: q * (inv * scale)); x = a + dt_bias, g = -exp(a_log) *
// (x <= 20 ? log1p(exp(x)) : x); beta = sigmoid(b) rounded through b's dtype;
// the delta-rule step on the cache row read through the state's dtype, the
// updated state rounded to that dtype at its store while the output row uses
// the unrounded f32 values. Contract (validated by the API): live slots in
// range and distinct. Split: requests (each owns its slot and its out row).
#include <algorithm>
#include <cmath>

#include "api/kernel_types.h"
#include "cpu/gdn/delta_rule_step.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

// In place: x[i] *= 1 / sqrt(sum x^2 + 1e-6) * extra (the product formed first).
void L2Normalize(std::vector<float>& x, float extra) {
  float sumsq = 0.0f;
  for (float e : x) sumsq += e * e;
  const float inv = 1.0f / std::sqrt(sumsq + 1e-6f);
  const float f = inv * extra;
  for (float& e : x) e *= f;
}

float SoftplusGuarded(float x) { return x <= 20.0f ? std::log1p(std::exp(std::min(x, 20.0f))) : x; }

// A vector tier's step (delta_tiers.h) on the head block at element `base`:
// the same f32 operations as the portable loop below (HeadStep's order); a
// bf16/f16 state is widened into `block` first (exact) and rounded back at
// the store, as the portable loop rounds each row at its store.
void VectorHeadStep(const Tensor& state, int64_t base, float g, float beta, std::vector<float>& block,
                    gdn::StepBuffers& step) {
  const int64_t dk = state.shape[3], dv = state.shape[2];
  if (state.dtype == DType::kF32) {
    gdn::HeadStep(state.Ptr<float>() + base, dk, dv, g, beta, step);
    return;
  }
  gdn::LoadRow(state, base, dv * dk, block.data());
  gdn::HeadStep(block.data(), dk, dv, g, beta, step);
  gdn::StoreRow(state, base, dv * dk, block.data());
}

void GdnPackedDecodeCpu(const ExecContext& ctx, const Tensor& out, const Tensor& mixed_qkv,
                        const Tensor& a, const Tensor& b, const Tensor& a_log, const Tensor& dt_bias,
                        const Tensor& state, const Tensor& state_idx, const GdnArgs& args) {
  const int64_t hv_n = state.shape[1], dv = state.shape[2], dk = state.shape[3];
  const int64_t hk_n = (mixed_qkv.shape[1] - hv_n * dv) / (2 * dk);
  const int64_t ratio = hv_n / hk_n;
  const int64_t ms = mixed_qkv.stride[0];
  const int32_t* idx = state_idx.Ptr<int32_t>();
  std::vector<float> alog(static_cast<size_t>(hv_n)), bias(static_cast<size_t>(hv_n));
  gdn::LoadRow(a_log, 0, hv_n, alog.data());
  gdn::LoadRow(dt_bias, 0, hv_n, bias.data());
  static const std::vector<Isa> kTiers = OpTiers("gdn_packed_decode");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  ParallelForRows(ctx, mixed_qkv.shape[0], [&](int64_t r0, int64_t r1) {
    gdn::StepBuffers step(dk, dv, tier);  // counts this block's tier run
    std::vector<float>&q = step.q, &k = step.k, &v = step.v;  // (v padded on vector tiers: rows < dv used)
    std::vector<float> block(tier != Isa::kPortable && state.dtype != DType::kF32 ? static_cast<size_t>(dv * dk) : 0);
    std::vector<float> srow(static_cast<size_t>(dk)), o(static_cast<size_t>(dv)), av(static_cast<size_t>(hv_n)),
        bv(static_cast<size_t>(hv_n));
    for (int64_t bt = r0; bt < r1; ++bt) {
      const int64_t slot = idx[bt];
      if (slot < 0) {
        gdn::ZeroToken(out, bt, hv_n, dv);
        continue;
      }
      gdn::LoadRow(a, bt * a.stride[0], hv_n, av.data());
      gdn::LoadRow(b, bt * b.stride[0], hv_n, bv.data());
      for (int64_t hv = 0; hv < hv_n; ++hv) {
        const int64_t hk = hv / ratio;
        gdn::LoadRow(mixed_qkv, bt * ms + hk * dk, dk, q.data());
        gdn::LoadRow(mixed_qkv, bt * ms + (hk_n + hk) * dk, dk, k.data());
        gdn::LoadRow(mixed_qkv, bt * ms + 2 * hk_n * dk + hv * dv, dv, v.data());
        L2Normalize(q, args.scale);
        L2Normalize(k, 1.0f);
        const float x = av[static_cast<size_t>(hv)] + bias[static_cast<size_t>(hv)];
        const float g = -std::exp(alog[static_cast<size_t>(hv)]) * SoftplusGuarded(x);
        const float beta = RoundThrough(b.dtype, SigmoidF32(bv[static_cast<size_t>(hv)]));
        if (tier != Isa::kPortable) {
          VectorHeadStep(state, (slot * hv_n + hv) * dv * dk, g, beta, block, step);
          gdn::StoreRow(out, (bt * hv_n + hv) * dv, dv, step.out.data());
          continue;
        }
        const float decay = std::exp(g);
        for (int64_t vi = 0; vi < dv; ++vi) {
          const int64_t base = ((slot * hv_n + hv) * dv + vi) * dk;
          gdn::LoadRow(state, base, dk, srow.data());
          float dot = 0.0f;
          for (int64_t ki = 0; ki < dk; ++ki) {
            srow[static_cast<size_t>(ki)] *= decay;
            dot += srow[static_cast<size_t>(ki)] * k[static_cast<size_t>(ki)];
          }
          const float vn = (v[static_cast<size_t>(vi)] - dot) * beta;
          float acc = 0.0f;
          for (int64_t ki = 0; ki < dk; ++ki) {
            srow[static_cast<size_t>(ki)] += vn * k[static_cast<size_t>(ki)];
            acc += srow[static_cast<size_t>(ki)] * q[static_cast<size_t>(ki)];
          }
          gdn::StoreRow(state, base, dk, srow.data());
          o[static_cast<size_t>(vi)] = acc;
        }
        gdn::StoreRow(out, (bt * hv_n + hv) * dv, dv, o.data());
      }
    }
  });
}

}  // namespace

void Register_gdn_packed_decode() {
  RegisterTyped<kernel::GdnPackedDecodeFn>("gdn_packed_decode", Backend::kCPU, &GdnPackedDecodeCpu);
}

}  // namespace vt::cpu
