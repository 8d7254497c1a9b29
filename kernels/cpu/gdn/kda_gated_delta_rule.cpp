// kda_gated_delta_rule CPU kernel: the KDA recurrence (cpu/gdn/kda_recurrence.h)
// on the caller's per-key-channel log decay g [T,Hv,Dk].
#include <vector>

#include "api/gdn/gdn_kernel_types.h"
#include "cpu/gdn/kda_recurrence.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void KdaGatedDeltaRuleCpu(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                          const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                          const Tensor& query_start_loc, const KdaArgs& args) {
  static const std::vector<Isa> kTiers = OpTiers("kda_gated_delta_rule");
  KdaRecurrence(ctx, PickTier(ctx.ResolvedIsa(), kTiers), out, q, k, v, g, beta, state, query_start_loc, args.scale);
}

}  // namespace

void Register_kda_gated_delta_rule() {
  RegisterTyped<kernel::KdaGatedDeltaRuleFn>("kda_gated_delta_rule", Backend::kCPU, &KdaGatedDeltaRuleCpu);
}

}  // namespace vt::cpu
