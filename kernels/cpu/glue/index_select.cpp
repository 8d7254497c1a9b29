// index_select CPU kernel: out[i,...] = in[idx[i],...], raw bytes (any dtype).
// Contract (validated by the API, before this runs): idx [M] i32 contiguous,
// every value in [0, N); in [N, D...] row-strided; out [M, D...] contiguous;
// no overlap. Split: output rows (the seed ran this sequentially; rows are
// independent, so the bytes are the same at every thread count).
#include "api/kernel_types.h"
#include "cpu/glue/rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void IndexSelectCpu(const ExecContext& ctx, const Tensor& out, const Tensor& in, const Tensor& idx) {
  const int64_t m = idx.shape[0];
  if (m == 0) return;
  const int64_t row_bytes = out.Numel() / m * static_cast<int64_t>(out.ElementSize());
  const auto* ix = static_cast<const unsigned char*>(idx.data);
  auto* dst = static_cast<unsigned char*>(out.data);
  ParallelForRows(ctx, m, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      int32_t row;
      std::memcpy(&row, ix + i * 4, 4);
      MoveRow(in, row, dst + i * row_bytes, /*to_packed=*/true);
    }
  });
}

}  // namespace

void Register_index_select() {
  RegisterTyped<kernel::GatherFn>("index_select", Backend::kCPU, &IndexSelectCpu);
}

}  // namespace vt::cpu
