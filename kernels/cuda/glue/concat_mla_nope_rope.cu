// concat_mla_nope_rope CUDA kernel: out[t, h] = [nope[t, h] | rope[t, h or 0]],
// moved through f32 (one dtype: only a signalling NaN changes, quieted - the
// CPU's move). Strides are free except the innermost (validated); a single
// rope head is shared by every head (its head stride counts as 0). A flat
// grid over out's logical elements.
#include "cuda/glue/glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct ConcatElement {
  DevPtr out, nope, rope;
  View o, n, r;
  int64_t heads, dn, dr, rope_head_stride;
  __device__ void operator()(int64_t i) const {
    const int64_t width = dn + dr;
    const int64_t c = i % width, th = i / width;
    const int64_t t = th / heads, h = th % heads;
    const int64_t dst = t * o.stride[0] + h * o.stride[1] + c;
    if (c < dn) {
      MoveF32(out, dst, nope, t * n.stride[0] + h * n.stride[1] + c);
    } else {
      MoveF32(out, dst, rope, t * r.stride[0] + h * rope_head_stride + (c - dn));
    }
  }
};

void ConcatMlaNopeRopeCuda(const ExecContext&, const Tensor& out, const Tensor& nope, const Tensor& rope) {
  const int64_t heads = out.shape[1];
  const int64_t rope_head_stride = rope.shape[1] == 1 ? 0 : rope.stride[1];
  LaunchForEach("concat_mla_nope_rope", out.Numel(),
                ConcatElement{Dev(out), Dev(nope), Dev(rope), ViewOf(out), ViewOf(nope), ViewOf(rope), heads,
                              nope.shape[2], rope.shape[2], rope_head_stride});
}

}  // namespace

void Register_concat_mla_nope_rope() {
  RegisterTyped<kernel::ConcatFn>("concat_mla_nope_rope", VT_CUDA_BACKEND, &ConcatMlaNopeRopeCuda);
}

}  // namespace vt::VT_CUDA_NS
