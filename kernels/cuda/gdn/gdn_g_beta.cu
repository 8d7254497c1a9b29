// gdn_g_beta CUDA kernel: the GDN gate (cuda/gdn/gdn_glue.cuh, the CPU's
// cpu/gdn/gdn_gate.h) over every (token, value head): a flat grid, one
// thread per g / beta pair.
#include "cuda/gdn/gdn_glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void GdnGBetaCuda(const ExecContext&, const Tensor& g_out, const Tensor& beta_out, const Tensor& a, const Tensor& b,
                  const Tensor& a_log, const Tensor& dt_bias) {
  LaunchForEach("gdn_g_beta", g_out.Numel(), GateOf(g_out, beta_out, a, b, a_log, dt_bias));
}

}  // namespace

void Register_gdn_g_beta() { RegisterTyped<kernel::GdnGBetaFn>("gdn_g_beta", VT_CUDA_BACKEND, &GdnGBetaCuda); }

}  // namespace vt::VT_CUDA_NS
