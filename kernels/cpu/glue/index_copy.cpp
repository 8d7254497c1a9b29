// index_copy CPU kernel (in place on out): out[idx[i],...] = in[i,...], raw
// bytes (any dtype). Repeated indices: the LAST occurrence wins, as in the
// seed's sequential loop. To keep that at every thread count, each
// destination row is written by exactly one source row - its last occurrence,
// found in one sequential pass before the parallel copy - so no two threads
// ever write one row.
// Contract (validated by the API): idx [M] i32 contiguous, every value in
// [0, N); out [N, D...] row-strided; in [M, D...] contiguous; no overlap.
// Split: source rows (each writes a distinct destination row).
#include <vector>

#include "api/kernel_types.h"
#include "cpu/glue/rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void IndexCopyCpu(const ExecContext& ctx, const Tensor& out, const Tensor& in, const Tensor& idx) {
  const int64_t m = idx.shape[0];
  if (m == 0) return;
  std::vector<int32_t> rows(static_cast<std::size_t>(m));
  std::memcpy(rows.data(), idx.data, static_cast<std::size_t>(m) * 4);
  // last[r]: the source row whose copy lands in destination row r.
  std::vector<int64_t> last(static_cast<std::size_t>(out.shape[0]), -1);
  for (int64_t i = 0; i < m; ++i) last[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)])] = i;
  const int64_t row_bytes = in.Numel() / m * static_cast<int64_t>(in.ElementSize());
  auto* src = static_cast<unsigned char*>(in.data);  // read only (MoveRow's packed side)
  ParallelForRows(ctx, m, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      const int32_t row = rows[static_cast<std::size_t>(i)];
      if (last[static_cast<std::size_t>(row)] != i) continue;  // a later occurrence wins
      MoveRow(out, row, src + i * row_bytes, /*to_packed=*/false);
    }
  });
}

}  // namespace

void Register_index_copy() {
  RegisterTyped<kernel::GatherFn>("index_copy", Backend::kCPU, &IndexCopyCpu);
}

}  // namespace vt::cpu
