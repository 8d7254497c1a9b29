// concat_mla_nope_rope CPU kernel: out[t,h] = [nope[t,h] | rope[t,h or 0]],
// a copy through f32 (one dtype, so only a signalling NaN changes: quieted).
// Contract (validated by the API): out [T,H,Dn+Dr] with non-overlapping rows,
// nope [T,H,Dn], rope [T,H or 1,Dr], innermost strides 1, other strides free,
// no overlap with out. Split: tokens.
#include "api/kernel_types.h"
#include "cpu/glue/convert.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void ConcatMlaNopeRopeCpu(const ExecContext& ctx, const Tensor& out, const Tensor& nope, const Tensor& rope) {
  const int64_t heads = out.shape[1], dn = nope.shape[2], dr = rope.shape[2];
  if (out.shape[0] == 0 || heads == 0) return;
  // A single rope head is shared by all heads: its head stride counts as 0.
  const int64_t rope_head_stride = rope.shape[1] == 1 ? 0 : rope.stride[1];
  const ConvertFn move = PickConvert(out.dtype, out.dtype);
  const int64_t es = static_cast<int64_t>(out.ElementSize());
  auto* o = static_cast<unsigned char*>(out.data);
  const auto* n = static_cast<const unsigned char*>(nope.data);
  const auto* r = static_cast<const unsigned char*>(rope.data);
  ParallelForRows(ctx, out.shape[0], [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      for (int64_t h = 0; h < heads; ++h) {
        unsigned char* row = o + (t * out.stride[0] + h * out.stride[1]) * es;
        move(row, n + (t * nope.stride[0] + h * nope.stride[1]) * es, dn);
        move(row + dn * es, r + (t * rope.stride[0] + h * rope_head_stride) * es, dr);
      }
    }
  });
}

}  // namespace

void Register_concat_mla_nope_rope() {
  RegisterTyped<kernel::ConcatFn>("concat_mla_nope_rope", Backend::kCPU, &ConcatMlaNopeRopeCpu);
}

}  // namespace vt::cpu
