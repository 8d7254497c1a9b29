// qkv_split CPU kernel: row t of qkv [T, q_dim+k_dim+v_dim] is [q | k | v];
// each part goes to row t of its packed output ([T, part_dim] in element
// order), moved through f32 like every float move of the seed (equal dtypes,
// so only a signalling NaN changes: it comes out quiet).
// Contract (validated by the API): T > 0, widths = counts / T, one dtype,
// contiguous, no overlap. Split: tokens.
#include "api/kernel_types.h"
#include "cpu/glue/convert.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void QkvSplitCpu(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out,
                 const Tensor& v_out, const Tensor& qkv) {
  const int64_t t = qkv.shape[0];
  const int64_t dims[3] = {q_out.Numel() / t, k_out.Numel() / t, v_out.Numel() / t};
  unsigned char* outs[3] = {static_cast<unsigned char*>(q_out.data),
                            static_cast<unsigned char*>(k_out.data),
                            static_cast<unsigned char*>(v_out.data)};
  const ConvertFn move = PickConvert(qkv.dtype, qkv.dtype);
  const auto* src = static_cast<const unsigned char*>(qkv.data);
  const int64_t es = static_cast<int64_t>(qkv.ElementSize());
  const int64_t width = qkv.shape[1];
  ParallelForRows(ctx, t, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      int64_t col = 0;  // where this part starts inside the row
      for (int p = 0; p < 3; ++p) {
        move(outs[p] + i * dims[p] * es, src + (i * width + col) * es, dims[p]);
        col += dims[p];
      }
    }
  });
}

}  // namespace

void Register_qkv_split() {
  RegisterTyped<kernel::QkvSplitFn>("qkv_split", Backend::kCPU, &QkvSplitCpu);
}

}  // namespace vt::cpu
