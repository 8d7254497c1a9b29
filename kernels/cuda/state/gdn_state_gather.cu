// gdn_state_gather CUDA kernel: working[r] = f32(cache[idx[r]]) (the leading
// Lw columns of each innermost cache row), or zeros where
// has_initial_state[r] == 0. A flat copy, a thread per working element (each
// written once); a repeated index only reads one cache row twice. Every index
// was range-checked by the shared validation (through api::HostValues).
#include "cuda/state/state.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void GatherKernel(float* working, DevPtr cache, DevPtr idx, DevPtr init, StateLayout l) {
  const int64_t n = l.rows * l.mid * l.lw;
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    const int64_t r = l.Row(i);
    const bool keep = init.p == nullptr || MetaValue(init, r) != 0;
    working[i] = keep ? Load(cache, l.CacheAt(MetaValue(idx, r), i)) : 0.0f;
  }
}

void GdnStateGatherCuda(const ExecContext&, const Tensor& working, const Tensor& cache, const Tensor& state_idx,
                        const Tensor* has_initial_state) {
  const StateLayout l = StateLayoutOf(working, cache);
  const int64_t n = working.Numel();
  if (n == 0) return;
  VT_LAUNCH(GatherKernel, FlatGrid(n), FlatThreads(), 0)
  (static_cast<float*>(working.data), Dev(cache), Dev(state_idx), Dev(has_initial_state), l);
  CheckLaunch("gdn_state_gather");
}

}  // namespace

void Register_gdn_state_gather() {
  RegisterTyped<kernel::GdnStateGatherFn>("gdn_state_gather", VT_CUDA_BACKEND, &GdnStateGatherCuda);
}

}  // namespace vt::VT_CUDA_NS
