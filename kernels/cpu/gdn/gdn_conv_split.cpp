// gdn_conv_split CPU kernel: row t of conv [T, 2*key_dim + value_dim] is
// [q | k | v]; each part goes to row t of its packed output, widened to f32
// and stored to the outputs' dtype (the seed's float move: exact when the
// dtype is kept or widened; a signalling NaN comes out quiet).
// Contract (validated by the API): T > 0, q/k counts equal, widths = counts / T,
// contiguous, no overlap. Split: tokens.
#include "api/gdn/gdn_kernel_types.h"
#include "cpu/glue/convert.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GdnConvSplitCpu(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                     const Tensor& conv) {
  const int64_t t = conv.shape[0];
  const int64_t key_dim = q_out.Numel() / t, value_dim = v_out.Numel() / t;
  const int64_t width = conv.shape[1];
  const ConvertFn move = PickConvert(q_out.dtype, conv.dtype);  // the outputs share one dtype
  const auto in_es = static_cast<int64_t>(conv.ElementSize());
  const auto out_es = static_cast<int64_t>(q_out.ElementSize());
  const auto* src = static_cast<const unsigned char*>(conv.data);
  auto* q = static_cast<unsigned char*>(q_out.data);
  auto* k = static_cast<unsigned char*>(k_out.data);
  auto* v = static_cast<unsigned char*>(v_out.data);
  ParallelForRows(ctx, t, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      const unsigned char* row = src + i * width * in_es;
      move(q + i * key_dim * out_es, row, key_dim);
      move(k + i * key_dim * out_es, row + key_dim * in_es, key_dim);
      move(v + i * value_dim * out_es, row + 2 * key_dim * in_es, value_dim);
    }
  });
}

}  // namespace

void Register_gdn_conv_split() {
  RegisterTyped<kernel::GdnConvSplitFn>("gdn_conv_split", Backend::kCPU, &GdnConvSplitCpu);
}

}  // namespace vt::cpu
