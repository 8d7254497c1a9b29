// embedding CUDA kernel: out[t, :] = table[ids[t], :], each element moved
// through f32 to out's dtype (as the CPU). A flat grid over out's elements.
// Every id was range-checked by the shared validation before the launch
// (read on the host through api::HostValues); all operands contiguous.
#include "cuda/glue/glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct GatherRow {
  DevPtr out, table, ids;
  int64_t h;
  __device__ void operator()(int64_t i) const {
    const int64_t t = i / h, col = i % h;
    MoveF32(out, i, table, LoadIndex(ids, t) * h + col);
  }
};

void EmbeddingCuda(const ExecContext&, const Tensor& out, const Tensor& table, const Tensor& ids) {
  LaunchForEach("embedding", out.Numel(), GatherRow{Dev(out), Dev(table), Dev(ids), table.shape[1]});
}

}  // namespace

void Register_embedding() { RegisterTyped<kernel::GatherFn>("embedding", VT_CUDA_BACKEND, &EmbeddingCuda); }

}  // namespace vt::VT_CUDA_NS
