// Kernel signatures of the GDN glue and KDA ops (the kernel_types.h of
// vt/ops_gdn_glue.h and vt/ops_kda.h).
#pragma once

#include "vt/ops_gdn_glue.h"
#include "vt/ops_kda.h"

namespace vt::kernel {

// GDN glue family (vt/ops_gdn_glue.h).
using GdnGBetaFn = void(const ExecContext&, const Tensor& g_out, const Tensor& beta_out, const Tensor& a,
                        const Tensor& b, const Tensor& a_log, const Tensor& dt_bias);
using GdnConvSplitFn = void(const ExecContext&, const Tensor& q_out, const Tensor& k_out,
                            const Tensor& v_out, const Tensor& conv);
using GdnPostConvFn = void(const ExecContext&, const Tensor& q_out, const Tensor& k_out,
                           const Tensor& v_out, const Tensor& g_out, const Tensor& beta_out,
                           const Tensor& conv, const Tensor& a, const Tensor& b, const Tensor& a_log,
                           const Tensor& dt_bias, const L2NormArgs&);
// KDA family (vt/ops_kda.h). kda_chunk_prefill's kernel receives the gate
// already computed ([T,Hv,Dk] f32), so both ops share one recurrence kernel.
using KdaGatedDeltaRuleFn = void(const ExecContext&, const Tensor& out, const Tensor& q,
                                 const Tensor& k, const Tensor& v, const Tensor& g,
                                 const Tensor& beta, const Tensor& state,
                                 const Tensor& query_start_loc, const KdaArgs&);
using KdaChunkPrefillFn = void(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k,
                               const Tensor& v, const Tensor& g_raw, const Tensor& beta,
                               const Tensor& a_log, const Tensor& dt_bias, const Tensor& state,
                               const Tensor& query_start_loc, const KdaArgs&);

}  // namespace vt::kernel
