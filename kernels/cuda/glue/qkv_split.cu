// qkv_split CUDA kernel: row t of qkv [T, q_dim + k_dim + v_dim] is
// [q | k | v]; each part goes to row t of its packed output, moved through
// f32 (equal dtypes: only a signalling NaN changes, it comes out quiet - the
// CPU's move). A flat grid over qkv's elements: the thread of column c writes
// the one output element that column lands in. All contiguous (validated).
#include "cuda/glue/glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SplitColumn {
  DevPtr q, k, v, src;
  int64_t width, dq, dk, dv;  // width: qkv's row (the validation makes it dq + dk + dv)
  __device__ void operator()(int64_t i) const {
    const int64_t t = i / width, c = i % width;
    if (c < dq) {
      MoveF32(q, t * dq + c, src, i);
    } else if (c < dq + dk) {
      MoveF32(k, t * dk + (c - dq), src, i);
    } else if (c < dq + dk + dv) {
      MoveF32(v, t * dv + (c - dq - dk), src, i);
    }
  }
};

void QkvSplitCuda(const ExecContext&, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                  const Tensor& qkv) {
  const int64_t t = qkv.shape[0];
  if (t == 0) return;
  LaunchForEach("qkv_split", qkv.Numel(),
                SplitColumn{Dev(q_out), Dev(k_out), Dev(v_out), Dev(qkv), qkv.shape[1], q_out.Numel() / t, k_out.Numel() / t,
                            v_out.Numel() / t});
}

}  // namespace

void Register_qkv_split() { RegisterTyped<kernel::QkvSplitFn>("qkv_split", VT_CUDA_BACKEND, &QkvSplitCuda); }

}  // namespace vt::VT_CUDA_NS
