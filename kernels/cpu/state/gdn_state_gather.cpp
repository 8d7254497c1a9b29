// gdn_state_gather CPU kernel: working[r] = f32(cache[idx[r]]) (leading
// columns of each innermost row), or zeros where has_initial_state[r] == 0.
// Contract (validated by the API): cache [slots, mid..., Lc] f32/f16/bf16
// contiguous; working [N, mid..., Lw] f32 contiguous, Lw <= Lc; every index
// in [0, slots); no overlap between working and the inputs.
// Split: working rows (each written by one thread); repeated indices only
// read one cache row twice.
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GdnStateGatherCpu(const ExecContext& ctx, const Tensor& working, const Tensor& cache, const Tensor& state_idx,
                       const Tensor* has_initial_state) {
  const int64_t rows = working.shape[0];
  if (rows == 0) return;
  const int inner = working.rank - 1;
  const int64_t lw = working.shape[inner], lc = cache.shape[inner];
  int64_t mid = 1;  // innermost rows per slot
  for (int d = 1; d < inner; ++d) mid *= working.shape[d];
  std::vector<int64_t> slot(static_cast<std::size_t>(rows));
  std::vector<bool> keep(static_cast<std::size_t>(rows), true);
  for (int64_t r = 0; r < rows; ++r) {
    slot[static_cast<std::size_t>(r)] = IntAt(state_idx, r);
    if (has_initial_state != nullptr) keep[static_cast<std::size_t>(r)] = IntAt(*has_initial_state, r) != 0;
  }
  WithFloatElem(cache.dtype, [&](auto cs) {
    using CS = decltype(cs);
    ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const bool k = keep[static_cast<std::size_t>(r)];
        const int64_t src_row = slot[static_cast<std::size_t>(r)] * mid * lc, dst_row = r * mid * lw;
        for (int64_t m = 0; m < mid; ++m) {
          for (int64_t e = 0; e < lw; ++e) {
            F32Elem::Store(working.data, dst_row + m * lw + e, k ? CS::Load(cache.data, src_row + m * lc + e) : 0.0f);
          }
        }
      }
    });
  });
}

}  // namespace

void Register_gdn_state_gather() {
  RegisterTyped<kernel::GdnStateGatherFn>("gdn_state_gather", Backend::kCPU, &GdnStateGatherCpu);
}

}  // namespace vt::cpu
