// index_copy CUDA kernel (in place on out): out[idx[i], ...] = in[i, ...],
// raw bytes (any dtype). Repeated indices: the LAST occurrence wins, as on the
// CPU, and no two threads ever write one row: a block owns source row i
// (grid-stride over rows), first looks for a later j > i with idx[j] ==
// idx[i] (its threads split the scan, a shared flag collects the finding),
// and copies the row only when there is none. No atomics: the flag is only
// ever set to 1, so concurrent writers store the same value. out is
// row-strided (cpu/glue/rows.h addressing), in and idx contiguous; every
// index range-checked by the shared validation before the launch.
#include "cuda/glue/glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void IndexCopyKernel(void* out, View out_view, const void* in, const int32_t* idx, int64_t m,
                                int64_t row_elems, int64_t inner, int es) {
  __shared__ int overwritten;  // a later source row lands on the same destination row
  for (int64_t i = blockIdx.x; i < m; i += gridDim.x) {
    const int32_t row = idx[i];
    if (threadIdx.x == 0) overwritten = 0;
    __syncthreads();
    for (int64_t j = i + 1 + threadIdx.x; j < m; j += blockDim.x) {
      if (idx[j] == row) overwritten = 1;
    }
    __syncthreads();
    const bool copy = overwritten == 0;
    // Every thread has read the flag before the next row's thread 0 resets it.
    __syncthreads();
    if (!copy) continue;
    for (int64_t q = threadIdx.x; q < row_elems; q += blockDim.x) {
      CopyElement(out, SubRowOffset(out_view, row, q / inner) + q % inner, in, i * row_elems + q, es);
    }
  }
}

void IndexCopyCuda(const ExecContext&, const Tensor& out, const Tensor& in, const Tensor& idx) {
  const int64_t m = idx.shape[0];
  if (m == 0) return;
  const RowShape s = IndexRowShape(out);
  const int64_t row_elems = s.sub_rows * s.inner;
  VT_LAUNCH(IndexCopyKernel, RowGrid(m), RowThreads(row_elems), 0)
  (out.data, ViewOf(out), in.data, static_cast<const int32_t*>(idx.data), m, row_elems, s.inner,
   static_cast<int>(out.ElementSize()));
  CheckLaunch("index_copy");
}

}  // namespace

void Register_index_copy() { RegisterTyped<kernel::GatherFn>("index_copy", VT_CUDA_BACKEND, &IndexCopyCuda); }

}  // namespace vt::VT_CUDA_NS
