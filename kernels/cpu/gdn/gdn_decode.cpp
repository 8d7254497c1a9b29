// gdn_decode CPU kernel: one token per request, in place on its state row
// (row b, or cache slot state_idx[b]); a NULL slot zero-fills the out row and
// leaves the cache alone. Contract (validated by the API): live slots are in
// range and distinct. Split: requests (each owns its slot and its out row).
#include "api/kernel_types.h"
#include "cpu/gdn/delta_rule_step.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GdnDecodeCpu(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                  const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                  const Tensor* state_idx, const GdnArgs& args) {
  const gdn::TokenOperands o = gdn::Operands(out, q, k, v, g, beta, state, args.scale);
  static const std::vector<Isa> kTiers = OpTiers("gdn_decode");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);  // delta_tiers.h; portable: HeadStep's loops
  const int32_t* idx = state_idx != nullptr ? state_idx->Ptr<int32_t>() : nullptr;
  const int64_t head_elems = o.dv * o.dk;
  ParallelForRows(ctx, q.shape[0], [&](int64_t r0, int64_t r1) {
    gdn::StepBuffers b(o.dk, o.dv, tier);
    for (int64_t t = r0; t < r1; ++t) {
      const int64_t slot = idx != nullptr ? idx[t] : t;
      if (slot < 0) {
        gdn::ZeroToken(out, t, o.hv_n, o.dv);
        continue;
      }
      float* row = state.Ptr<float>() + slot * o.hv_n * head_elems;
      for (int64_t hv = 0; hv < o.hv_n; ++hv) gdn::TokenHeadStep(o, row + hv * head_elems, t, hv, b);
    }
  });
}

}  // namespace

void Register_gdn_decode() {
  RegisterTyped<kernel::GdnDecodeFn>("gdn_decode", Backend::kCPU, &GdnDecodeCpu);
}

}  // namespace vt::cpu
