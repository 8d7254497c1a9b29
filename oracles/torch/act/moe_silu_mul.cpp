// moe_silu_mul: the fused-MoE SILU activation (fused_moe/activation.py ->
// SiluAndMul.forward_native on [gate | up]), gate and up given apart:
// F.silu(gate) * up over the flattened elements.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_moe_silu_mul(const Input& in) {
  return {{"out", Out(Silu(Flat(in, "gate")) * Flat(in, "up"))}};
}

}  // namespace vt::torchref
