// gdn_state_scatter CPU kernel (in place on cache): cache[idx[r]] =
// working[r] rounded to the cache dtype (nearest even), the leading Lw
// columns of each innermost cache row; other columns and slots untouched.
// Contract (validated by the API): shapes as gdn_state_gather; every index
// in [0, slots) and distinct; no overlap between cache and the inputs.
// Split: working rows; distinct slots make every cache row single-writer.
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GdnStateScatterCpu(const ExecContext& ctx, const Tensor& cache, const Tensor& working, const Tensor& state_idx) {
  const int64_t rows = working.shape[0];
  if (rows == 0) return;
  const int inner = working.rank - 1;
  const int64_t lw = working.shape[inner], lc = cache.shape[inner];
  int64_t mid = 1;
  for (int d = 1; d < inner; ++d) mid *= working.shape[d];
  std::vector<int64_t> slot(static_cast<std::size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) slot[static_cast<std::size_t>(r)] = IntAt(state_idx, r);
  WithFloatElem(cache.dtype, [&](auto cs) {
    using CS = decltype(cs);
    ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t src_row = r * mid * lw, dst_row = slot[static_cast<std::size_t>(r)] * mid * lc;
        for (int64_t m = 0; m < mid; ++m) {
          for (int64_t e = 0; e < lw; ++e) {
            CS::Store(cache.data, dst_row + m * lc + e, F32Elem::Load(working.data, src_row + m * lw + e));
          }
        }
      }
    });
  });
}

}  // namespace

void Register_gdn_state_scatter() {
  RegisterTyped<kernel::GdnStateScatterFn>("gdn_state_scatter", Backend::kCPU, &GdnStateScatterCpu);
}

}  // namespace vt::cpu
