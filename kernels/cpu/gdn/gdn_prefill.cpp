// gdn_prefill CPU kernel: the gated delta rule over each sequence of a varlen
// batch, sequence s starting from state[s] and leaving its final state there.
// Contract (validated by the API): operands as in vt/ops_gdn.h, query_start_loc
// tiles [0,T] and is non-decreasing. Split: (sequence, value head) items; each
// owns one [Dv,Dk] state block and its out rows, and runs its tokens in order.
#include "api/kernel_types.h"
#include "cpu/gdn/delta_rule_step.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GdnPrefillCpu(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                   const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                   const Tensor& query_start_loc, const GdnArgs& args) {
  const gdn::TokenOperands o = gdn::Operands(out, q, k, v, g, beta, state, args.scale);
  static const std::vector<Isa> kTiers = OpTiers("gdn_prefill");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);  // delta_tiers.h; portable: HeadStep's loops
  const int64_t seqs = state.shape[0];
  const int32_t* qsl = query_start_loc.Ptr<int32_t>();
  ParallelForRows(ctx, seqs * o.hv_n, [&](int64_t r0, int64_t r1) {
    gdn::StepBuffers b(o.dk, o.dv, tier);
    for (int64_t item = r0; item < r1; ++item) {
      const int64_t seq = item / o.hv_n, hv = item % o.hv_n;
      float* s = state.Ptr<float>() + item * o.dv * o.dk;  // state[seq][hv]
      if (qsl[seq] == qsl[seq + 1]) continue;  // an empty sequence leaves its slot alone
      gdn::HoldBlock(s, o.dk, o.dv, b);        // vector tiers: the block stays transposed for the run
      for (int64_t t = qsl[seq]; t < qsl[seq + 1]; ++t) gdn::TokenHeadStep(o, s, t, hv, b);
      gdn::ReleaseBlock(s, o.dk, o.dv, b);
    }
  });
}

}  // namespace

void Register_gdn_prefill() {
  RegisterTyped<kernel::GdnPrefillFn>("gdn_prefill", Backend::kCPU, &GdnPrefillCpu);
}

}  // namespace vt::cpu
