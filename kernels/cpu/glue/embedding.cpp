// embedding CPU kernel: out[t,:] = table[ids[t],:], each element widened to
// f32 and stored to out's dtype. Contract (validated by the API, before this
// runs): table [V,H], ids [T] i32/i64 with every id in [0, V), out [T,H], all
// contiguous, no overlap. Split: tokens (output rows).
#include <cstring>

#include "api/kernel_types.h"
#include "cpu/glue/convert.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

template <class Id>
void Gather(const ExecContext& ctx, const Tensor& out, const Tensor& table, const Tensor& ids) {
  const int64_t h = table.shape[1];
  const ConvertFn move = PickConvert(out.dtype, table.dtype);
  const auto* id = static_cast<const unsigned char*>(ids.data);
  const auto* src = static_cast<const unsigned char*>(table.data);
  auto* dst = static_cast<unsigned char*>(out.data);
  const int64_t se = static_cast<int64_t>(table.ElementSize());
  const int64_t de = static_cast<int64_t>(out.ElementSize());
  ParallelForRows(ctx, ids.shape[0], [&](int64_t r0, int64_t r1) {
    for (int64_t t = r0; t < r1; ++t) {
      Id row;
      std::memcpy(&row, id + t * static_cast<int64_t>(sizeof(Id)), sizeof(Id));
      move(dst + t * h * de, src + static_cast<int64_t>(row) * h * se, h);
    }
  });
}

void EmbeddingCpu(const ExecContext& ctx, const Tensor& out, const Tensor& table, const Tensor& ids) {
  if (ids.dtype == DType::kI32) {
    Gather<int32_t>(ctx, out, table, ids);
  } else {
    Gather<int64_t>(ctx, out, table, ids);
  }
}

}  // namespace

void Register_embedding() {
  RegisterTyped<kernel::GatherFn>("embedding", Backend::kCPU, &EmbeddingCpu);
}

}  // namespace vt::cpu
