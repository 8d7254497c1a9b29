// kda_chunk_prefill CUDA kernel: the KDA gate (cpu/gdn/kda_chunk_prefill.cpp:
// g = -exp(A_log[h]) * softplus(g_raw + dt_bias), threshold 20, f32) fused
// into the KDA recurrence's staging (cuda/kda/kda_recurrence.cuh): each
// token's decay row is computed where it is consumed, with the CPU's
// operations in the CPU's order, instead of a [T,Hv,Dk] scratch pass. The
// recurrence is the definition here, as on the CPU: the chunked (WY) form
// upstream runs re-associates the reductions, while the recurrence keeps the
// CPU's rounding sequence and so its bytes.
#include <cmath>

#include "cuda/kda/kda_recurrence.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct RawGate {
  const float* raw;    // g_raw [T,Hv,Dk]
  const float* a_log;  // [Hv]
  const float* bias;   // [Hv*Dk], or nullptr (an empty dt_bias)
  int64_t dk;
  __device__ __forceinline__ float operator()(int64_t elem, int64_t hv, int64_t i) const {
    float x = raw[elem];
    if (bias != nullptr) x = x + bias[hv * dk + i];
    const float neg_rate = -ExpF(a_log[hv]);
    return neg_rate * SoftplusGuard20(x);
  }
};

void KdaChunkPrefillCuda(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                         const Tensor& g_raw, const Tensor& beta, const Tensor& a_log, const Tensor& dt_bias,
                         const Tensor& state, const Tensor& query_start_loc, const KdaArgs& args) {
  const RawGate gate{static_cast<const float*>(g_raw.data), static_cast<const float*>(a_log.data),
                     dt_bias.shape[0] != 0 ? static_cast<const float*>(dt_bias.data) : nullptr, g_raw.shape[2]};
  kda::LaunchKda("kda_chunk_prefill", out, q, k, v, beta, state, query_start_loc, args.scale, gate);
}

}  // namespace

void Register_kda_chunk_prefill() {
  RegisterTyped<kernel::KdaChunkPrefillFn>("kda_chunk_prefill", VT_CUDA_BACKEND, &KdaChunkPrefillCuda);
}

}  // namespace vt::VT_CUDA_NS
