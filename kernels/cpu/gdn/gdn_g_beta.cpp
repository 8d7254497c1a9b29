// gdn_g_beta CPU kernel: the GDN gate (cpu/gdn/gdn_gate.h) per token and value
// head. Contract (validated by the API): g_out/beta_out [T,Hv] f32 contiguous,
// a/b [T,Hv] one dtype of f32/bf16 with packed rows (row stride free),
// a_log/dt_bias [Hv] f32, Hv > 0. Split: tokens (each owns its output rows).
#include "api/gdn/gdn_kernel_types.h"
#include "cpu/gdn/gdn_gate.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GdnGBetaCpu(const ExecContext& ctx, const Tensor& g_out, const Tensor& beta_out, const Tensor& a,
                 const Tensor& b, const Tensor& a_log, const Tensor& dt_bias) {
  const int64_t t = g_out.shape[0], hv = g_out.shape[1];
  const GdnGateHeads heads(a_log, dt_bias, hv);
  const ConvertFn widen = PickConvert(DType::kF32, a.dtype);  // a and b share one dtype
  const ConvertFn put = PickConvert(DType::kF32, DType::kF32);
  const auto es = static_cast<int64_t>(a.ElementSize());
  const auto* a_bytes = static_cast<const unsigned char*>(a.data);
  const auto* b_bytes = static_cast<const unsigned char*>(b.data);
  auto* g_bytes = static_cast<unsigned char*>(g_out.data);
  auto* beta_bytes = static_cast<unsigned char*>(beta_out.data);
  ParallelForRows(ctx, t, [&](int64_t r0, int64_t r1) {
    std::vector<float> av(static_cast<std::size_t>(hv)), bv(av.size()), gv(av.size()), betav(av.size());
    for (int64_t i = r0; i < r1; ++i) {
      widen(av.data(), a_bytes + i * a.stride[0] * es, hv);
      widen(bv.data(), b_bytes + i * b.stride[0] * es, hv);
      GdnGateRow(heads, av.data(), bv.data(), hv, gv.data(), betav.data());
      put(g_bytes + i * hv * 4, gv.data(), hv);
      put(beta_bytes + i * hv * 4, betav.data(), hv);
    }
  });
}

}  // namespace

void Register_gdn_g_beta() {
  RegisterTyped<kernel::GdnGBetaFn>("gdn_g_beta", Backend::kCPU, &GdnGBetaCpu);
}

}  // namespace vt::cpu
