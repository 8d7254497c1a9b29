#include "api/check.h"
#include "api/gdn/kda_checks.h"
#include "api/gdn/gdn_kernel_types.h"
#include "vt/registry.h"

namespace vt {

void KdaChunkPrefill(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                     const Tensor& v, const Tensor& g_raw, const Tensor& beta, const Tensor& a_log,
                     const Tensor& dt_bias, const Tensor& state, const Tensor& query_start_loc,
                     const KdaArgs& args) {
  const api::Checker c("kda_chunk_prefill");
  api::CheckKda(c, ctx, out, q, k, v, g_raw, "g_raw", beta, state, query_start_loc, args);
  // CheckKda has fixed the ranks: q [T,Hk,Dk], v [T,Hv,Dv], state rank 4.
  const int64_t hv = v.shape[1], dk = q.shape[2];
  c.Require("state.one_sequence", state.shape[0] == 1,
            "state must hold one sequence ([1, Hv, Dv, Dk]), got " + state.Describe());
  c.Operand(ctx, a_log, "a_log");
  c.DType(a_log, "a_log", {DType::kF32});
  c.Shape(a_log, "a_log", {hv});
  c.Contiguous(a_log, "a_log");
  c.Operand(ctx, dt_bias, "dt_bias");
  c.DType(dt_bias, "dt_bias", {DType::kF32});
  c.Rank(dt_bias, "dt_bias", 1);
  c.Contiguous(dt_bias, "dt_bias");
  c.Require("dt_bias.extent", dt_bias.shape[0] == 0 || dt_bias.shape[0] == hv * dk,
            "dt_bias must be [Hv*Dk] = [" + std::to_string(hv * dk) + "] or empty [0], got " + dt_bias.Describe());
  api::CheckKdaNoOverlap(c, out, state, {{"a_log", &a_log}, {"dt_bias", &dt_bias}});
  GetKernel<kernel::KdaChunkPrefillFn>("kda_chunk_prefill", ctx.backend)(ctx, out, q, k, v, g_raw, beta, a_log,
                                                                         dt_bias, state, query_start_loc, args);
}

}  // namespace vt
