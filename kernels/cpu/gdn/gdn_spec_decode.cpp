// gdn_spec_decode CPU kernel (fla fused_recurrent with IS_SPEC_DECODING and
// INPLACE_FINAL_STATE): request r starts from slot idx[r][accepted-1], runs its
// tokens in order, and after token t stores the running state into slot
// idx[r][t] (a NULL column skips that store). A NULL start slot zero-fills the
// request's out rows and stores nothing. Contract (validated by the API): every
// live slot in range and used once in the table, cu_seqlens tiles [0,T], each
// request fits its columns, accepted in [1,C]. Split: (request, value head)
// items; the running state lives in a private buffer, so reading the start
// slot and writing the snapshots never meet another item's slots.
#include <algorithm>

#include "api/kernel_types.h"
#include "cpu/gdn/delta_rule_step.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GdnSpecDecodeCpu(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                      const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                      const Tensor& cu_seqlens, const Tensor& state_indices,
                      const Tensor& num_accepted_tokens, const GdnArgs& args) {
  const gdn::TokenOperands o = gdn::Operands(out, q, k, v, g, beta, state, args.scale);
  static const std::vector<Isa> kTiers = OpTiers("gdn_spec_decode");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);  // delta_tiers.h; portable: HeadStep's loops
  const int64_t reqs = state_indices.shape[0], cols = state_indices.shape[1];
  const int32_t* cu = cu_seqlens.Ptr<int32_t>();
  const int32_t* idx = state_indices.Ptr<int32_t>();
  const int32_t* accepted = num_accepted_tokens.Ptr<int32_t>();
  const int64_t head_elems = o.dv * o.dk, row_elems = o.hv_n * head_elems;
  ParallelForRows(ctx, reqs * o.hv_n, [&](int64_t r0, int64_t r1) {
    gdn::StepBuffers b(o.dk, o.dv, tier);
    std::vector<float> running(static_cast<size_t>(head_elems));
    const std::vector<float> zeros(static_cast<size_t>(o.dv), 0.0f);
    for (int64_t item = r0; item < r1; ++item) {
      const int64_t r = item / o.hv_n, hv = item % o.hv_n;
      const int64_t lo = cu[r], hi = cu[r + 1];
      const int32_t start = idx[r * cols + accepted[r] - 1];
      if (start < 0) {
        for (int64_t t = lo; t < hi; ++t) gdn::StoreRow(out, (t * o.hv_n + hv) * o.dv, o.dv, zeros.data());
        continue;
      }
      const float* src = state.Ptr<float>() + start * row_elems + hv * head_elems;
      if (tier != Isa::kPortable) {  // the running state held transposed by the tier (delta_tiers.h)
        gdn::HoldBlock(src, o.dk, o.dv, b);
        for (int64_t t = lo; t < hi; ++t) {
          gdn::TokenHeadStep(o, nullptr, t, hv, b);
          const int32_t snap = idx[r * cols + (t - lo)];
          if (snap >= 0) gdn::PutBlock(state.Ptr<float>() + snap * row_elems + hv * head_elems, o.dk, o.dv, b);
        }
        gdn::ReleaseBlock(nullptr, o.dk, o.dv, b);
        continue;
      }
      std::copy(src, src + head_elems, running.begin());
      for (int64_t t = lo; t < hi; ++t) {
        gdn::TokenHeadStep(o, running.data(), t, hv, b);
        const int32_t snap = idx[r * cols + (t - lo)];
        if (snap < 0) continue;
        std::copy(running.begin(), running.end(), state.Ptr<float>() + snap * row_elems + hv * head_elems);
      }
    }
  });
}

}  // namespace

void Register_gdn_spec_decode() {
  RegisterTyped<kernel::GdnSpecDecodeFn>("gdn_spec_decode", Backend::kCPU, &GdnSpecDecodeCpu);
}

}  // namespace vt::cpu
