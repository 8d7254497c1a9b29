// attn_gate_split CPU kernel: per token and head, the fused projection row
// holds [q(Dh) | gate(Dh)]; the q half goes to q_out, the gate half to
// gate_out, each element widened to f32 and stored to its destination dtype.
// Contract (validated by the API): qgate [T, Hq*2*Dh], q_out and gate_out
// [T,Hq,Dh], all contiguous, no overlap. Split: tokens.
#include "api/kernel_types.h"
#include "cpu/glue/convert.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void AttnGateSplitCpu(const ExecContext& ctx, const Tensor& q_out, const Tensor& gate_out,
                      const Tensor& qgate) {
  const int64_t heads = q_out.shape[1], dh = q_out.shape[2];
  const ConvertFn to_q = PickConvert(q_out.dtype, qgate.dtype);
  const ConvertFn to_gate = PickConvert(gate_out.dtype, qgate.dtype);
  const auto* src = static_cast<const unsigned char*>(qgate.data);
  auto* q = static_cast<unsigned char*>(q_out.data);
  auto* g = static_cast<unsigned char*>(gate_out.data);
  const int64_t se = static_cast<int64_t>(qgate.ElementSize());
  const int64_t qe = static_cast<int64_t>(q_out.ElementSize());
  const int64_t ge = static_cast<int64_t>(gate_out.ElementSize());
  ParallelForRows(ctx, q_out.shape[0], [&](int64_t r0, int64_t r1) {
    for (int64_t t = r0; t < r1; ++t) {
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t pair = (t * heads + h) * 2 * dh;  // start of this head's [q | gate]
        const int64_t out = (t * heads + h) * dh;
        to_q(q + out * qe, src + pair * se, dh);
        to_gate(g + out * ge, src + (pair + dh) * se, dh);
      }
    }
  });
}

}  // namespace

void Register_attn_gate_split() {
  RegisterTyped<kernel::AttnGateSplitFn>("attn_gate_split", Backend::kCPU, &AttnGateSplitCpu);
}

}  // namespace vt::cpu
