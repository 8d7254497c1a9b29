// gdn_state_scatter CUDA kernel (in place on cache): cache[idx[r]] =
// working[r] rounded to the cache dtype (nearest even), the leading Lw
// columns of each innermost cache row; other columns and slots untouched. A
// flat copy, a thread per working element; the shared validation refuses a
// repeated slot (two rows racing for one cache row, H-2), so every cache
// element has at most one writer.
#include "cuda/state/state.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void ScatterKernel(DevPtr cache, const float* working, DevPtr idx, StateLayout l) {
  const int64_t n = l.rows * l.mid * l.lw;
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    Store(cache, l.CacheAt(MetaValue(idx, l.Row(i)), i), working[i]);
  }
}

void GdnStateScatterCuda(const ExecContext&, const Tensor& cache, const Tensor& working, const Tensor& state_idx) {
  const StateLayout l = StateLayoutOf(working, cache);
  const int64_t n = working.Numel();
  if (n == 0) return;
  VT_LAUNCH(ScatterKernel, FlatGrid(n), FlatThreads(), 0)
  (Dev(cache), static_cast<const float*>(working.data), Dev(state_idx), l);
  CheckLaunch("gdn_state_scatter");
}

}  // namespace

void Register_gdn_state_scatter() {
  RegisterTyped<kernel::GdnStateScatterFn>("gdn_state_scatter", VT_CUDA_BACKEND, &GdnStateScatterCuda);
}

}  // namespace vt::VT_CUDA_NS
