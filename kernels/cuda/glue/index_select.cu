// index_select CUDA kernel: out[i, ...] = in[idx[i], ...], raw bytes (any
// dtype). in is row-strided (its index rows addressed as cpu/glue/rows.h
// does), out and idx contiguous; every index range-checked by the shared
// validation before the launch. A flat grid over out's elements.
#include "cuda/glue/glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SelectElement {
  void* out;
  const void* in;
  DevPtr idx;
  View in_view;
  int64_t row_elems, inner;
  int es;
  __device__ void operator()(int64_t e) const {
    const int64_t i = e / row_elems, q = e % row_elems;
    const int64_t src = SubRowOffset(in_view, LoadIndex(idx, i), q / inner) + q % inner;
    CopyElement(out, e, in, src, es);
  }
};

void IndexSelectCuda(const ExecContext&, const Tensor& out, const Tensor& in, const Tensor& idx) {
  const int64_t m = idx.shape[0];
  if (m == 0) return;
  const RowShape s = IndexRowShape(in);
  LaunchForEach("index_select", out.Numel(),
                SelectElement{out.data, in.data, Dev(idx), ViewOf(in), s.sub_rows * s.inner, s.inner,
                              static_cast<int>(in.ElementSize())});
}

}  // namespace

void Register_index_select() { RegisterTyped<kernel::GatherFn>("index_select", VT_CUDA_BACKEND, &IndexSelectCuda); }

}  // namespace vt::VT_CUDA_NS
