// gdn_post_conv CPU kernel (fla fused_post_conv_prep): per token, the conv row
// [q | k | v] is split; each q and k head row is l2-normalised exactly as
// l2_norm does (sequential f32 sum of squares, inv = 1 / sqrt(sum + eps),
// x * inv); v is moved; g/beta come from the shared gate (cpu/gdn/gdn_gate.h).
// Same f32 operations in the same order as gdn_conv_split -> l2_norm(q),
// l2_norm(k) -> gdn_g_beta, so the bytes are those of the composition.
// Contract (validated by the API): T > 0, Dk > 0, Hv > 0, shapes of
// ops_gdn_glue.h, contiguous except a/b (row stride free), no overlap.
// Split: tokens.
#include <cmath>
#include <vector>

#include "api/gdn/gdn_kernel_types.h"
#include "cpu/gdn/gdn_gate.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

// x * (1 / sqrt(sum x^2 + eps)) over one row, in place.
void L2NormalizeRow(float* x, int64_t d, float eps) {
  float sumsq = 0.0f;
  for (int64_t j = 0; j < d; ++j) sumsq += x[j] * x[j];
  const float inv = 1.0f / std::sqrt(sumsq + eps);
  for (int64_t j = 0; j < d; ++j) x[j] *= inv;
}

void GdnPostConvCpu(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                    const Tensor& g_out, const Tensor& beta_out, const Tensor& conv, const Tensor& a,
                    const Tensor& b, const Tensor& a_log, const Tensor& dt_bias, const L2NormArgs& args) {
  const int64_t t = conv.shape[0], width = conv.shape[1];
  const int64_t hk = q_out.shape[1], dk = q_out.shape[2], hv = v_out.shape[1], dv = v_out.shape[2];
  const int64_t key_dim = hk * dk, value_dim = hv * dv;
  const GdnGateHeads heads(a_log, dt_bias, hv);
  const ConvertFn widen_conv = PickConvert(DType::kF32, conv.dtype);
  const ConvertFn move_v = PickConvert(v_out.dtype, conv.dtype);
  const ConvertFn store = PickConvert(q_out.dtype, DType::kF32);  // q/k/v share one dtype
  const ConvertFn widen_ab = PickConvert(DType::kF32, a.dtype);
  const ConvertFn put_f32 = PickConvert(DType::kF32, DType::kF32);
  const auto ces = static_cast<int64_t>(conv.ElementSize()), oes = static_cast<int64_t>(q_out.ElementSize());
  const auto abes = static_cast<int64_t>(a.ElementSize());
  const auto* cb = static_cast<const unsigned char*>(conv.data);
  const auto* ab = static_cast<const unsigned char*>(a.data);
  const auto* bb = static_cast<const unsigned char*>(b.data);
  auto* qb = static_cast<unsigned char*>(q_out.data);
  auto* kb = static_cast<unsigned char*>(k_out.data);
  auto* vb = static_cast<unsigned char*>(v_out.data);
  auto* gb = static_cast<unsigned char*>(g_out.data);
  auto* betab = static_cast<unsigned char*>(beta_out.data);
  ParallelForRows(ctx, t, [&](int64_t r0, int64_t r1) {
    std::vector<float> head(static_cast<std::size_t>(dk));
    std::vector<float> av(static_cast<std::size_t>(hv)), bv(av.size()), gv(av.size()), betav(av.size());
    for (int64_t i = r0; i < r1; ++i) {
      const unsigned char* row = cb + i * width * ces;
      for (int64_t h = 0; h < hk; ++h) {
        widen_conv(head.data(), row + h * dk * ces, dk);
        L2NormalizeRow(head.data(), dk, args.eps);
        store(qb + (i * key_dim + h * dk) * oes, head.data(), dk);
        widen_conv(head.data(), row + (key_dim + h * dk) * ces, dk);
        L2NormalizeRow(head.data(), dk, args.eps);
        store(kb + (i * key_dim + h * dk) * oes, head.data(), dk);
      }
      move_v(vb + i * value_dim * oes, row + 2 * key_dim * ces, value_dim);
      widen_ab(av.data(), ab + i * a.stride[0] * abes, hv);
      widen_ab(bv.data(), bb + i * b.stride[0] * abes, hv);
      GdnGateRow(heads, av.data(), bv.data(), hv, gv.data(), betav.data());
      put_f32(gb + i * hv * 4, gv.data(), hv);
      put_f32(betab + i * hv * 4, betav.data(), hv);
    }
  });
}

}  // namespace

void Register_gdn_post_conv() {
  RegisterTyped<kernel::GdnPostConvFn>("gdn_post_conv", Backend::kCPU, &GdnPostConvCpu);
}

}  // namespace vt::cpu
