// The vector tiers' partition of a 2-D GEMM (gemm_tile.h: RunVectorTier) and
// their per-thread scratch. Portable code: no intrinsics here.
#include <algorithm>
#include <atomic>
#include <vector>

#include "cpu/gemm/gemm_tile.h"
#include "vt/threadpool.h"

namespace vt::cpu::gemm {
namespace {

// Block sizes of the partition. Within a block the tier runs K in passes
// and packs each pass's weight rows once for all the block's rows
// (gemm_simd.h KBlocked), so tall blocks amortise the weight packing and
// wide ones the activation packing. Blocks of up to kBlockRows rows (the
// rows of a problem shared out evenly in multiples of the 6-row tile) x
// kBlockCols columns match the tier's own sub-block; decode (M = 1) blocks
// are sized below.
constexpr int64_t kBlockRows = 384;  // gemm_simd.h kUnitRows
constexpr int64_t kBlockCols = 512;  // gemm_simd.h kColBlock: a multiple of both tiers' panel widths

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

float* Scratch(int slot, int64_t n) {
  static thread_local std::vector<float> buffers[3];
  std::vector<float>& b = buffers[slot];
  if (static_cast<int64_t>(b.size()) < n) b.resize(static_cast<std::size_t>(n));
  return b.data();
}

void RunVectorTier(const ExecContext& ctx, const Problem& p, int64_t m, int64_t n) {
  if (m <= 0 || n <= 0) return;
  // Rows per block: m shared out over the fewest blocks of at most
  // kBlockRows, rounded up to the 6-row tile (1024 rows: 3 blocks of 342 -> 348).
  const int64_t brows = std::min(m, (CeilDiv(m, CeilDiv(m, kBlockRows)) + 5) / 6 * 6);
  // Narrow problems split their columns finer so every thread gets work.
  const int nth = ctx.ResolvedThreads();
  int64_t bcols = kBlockCols;
  // Decode: one contiguous column range per thread (at most 4096 columns,
  // 16 KB of accumulators in L1), streamed row by row (gemm_simd.h DecodeRow).
  if (m == 1) bcols = std::min<int64_t>(4096, std::max<int64_t>(64, (CeilDiv(n, nth) + 63) / 64 * 64));
  while (m > 1 && bcols > 32 && CeilDiv(m, brows) * CeilDiv(n, bcols) < 2 * static_cast<int64_t>(nth)) bcols /= 2;
  const int64_t nrb = CeilDiv(m, brows), ncb = CeilDiv(n, bcols);
  const int64_t total = nrb * ncb;
  const int workers = static_cast<int>(std::min<int64_t>(nth, total));
  std::atomic<int64_t> next{0};
  // Blocks in column-major order: consecutive blocks share a column range,
  // so its weight panels are warm in the shared cache for the next thread.
  auto body = [&](int, int) {
    for (int64_t b = next.fetch_add(1, std::memory_order_relaxed); b < total;
         b = next.fetch_add(1, std::memory_order_relaxed)) {
      const int64_t rb = b % nrb, cb = b / nrb;
      ComputeBlock(p, rb * brows, std::min(m, (rb + 1) * brows), cb * bcols, std::min(n, (cb + 1) * bcols));
    }
  };
  if (workers <= 1) {
    body(0, 1);
    return;
  }
  ThreadPool::Global().Run(workers, body);
}

}  // namespace vt::cpu::gemm
