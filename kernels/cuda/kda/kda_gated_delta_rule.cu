// kda_gated_delta_rule CUDA kernel: the KDA recurrence (cuda/kda/kda_recurrence.cuh)
// on the caller's per-key-channel log decay g [T,Hv,Dk] f32.
#include "cuda/kda/kda_recurrence.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct GivenGate {
  const float* g;
  __device__ __forceinline__ float operator()(int64_t elem, int64_t, int64_t) const { return g[elem]; }
};

void KdaGatedDeltaRuleCuda(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                           const Tensor& g, const Tensor& beta, const Tensor& state, const Tensor& query_start_loc,
                           const KdaArgs& args) {
  kda::LaunchKda("kda_gated_delta_rule", out, q, k, v, beta, state, query_start_loc, args.scale,
                 GivenGate{static_cast<const float*>(g.data)});
}

}  // namespace

void Register_kda_gated_delta_rule() {
  RegisterTyped<kernel::KdaGatedDeltaRuleFn>("kda_gated_delta_rule", VT_CUDA_BACKEND, &KdaGatedDeltaRuleCuda);
}

}  // namespace vt::VT_CUDA_NS
