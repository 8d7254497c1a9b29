// attn_gate_split CUDA kernel: per token and head the fused row is
// [q(Dh) | gate(Dh)]; element d of the head goes to q_out and element Dh + d
// to gate_out, each moved through f32 to its destination dtype (as the CPU).
// A flat grid over q_out's elements; each thread writes one q and one gate
// element. All operands contiguous (validated).
#include "cuda/glue/glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SplitHead {
  DevPtr q, gate, src;
  int64_t dh;
  __device__ void operator()(int64_t i) const {
    const int64_t head = i / dh, d = i % dh;  // head = t * Hq + h
    const int64_t pair = head * 2 * dh;       // start of this head's [q | gate]
    MoveF32(q, i, src, pair + d);
    MoveF32(gate, i, src, pair + dh + d);
  }
};

void AttnGateSplitCuda(const ExecContext&, const Tensor& q_out, const Tensor& gate_out, const Tensor& qgate) {
  LaunchForEach("attn_gate_split", q_out.Numel(), SplitHead{Dev(q_out), Dev(gate_out), Dev(qgate), q_out.shape[2]});
}

}  // namespace

void Register_attn_gate_split() {
  RegisterTyped<kernel::AttnGateSplitFn>("attn_gate_split", VT_CUDA_BACKEND, &AttnGateSplitCuda);
}

}  // namespace vt::VT_CUDA_NS
