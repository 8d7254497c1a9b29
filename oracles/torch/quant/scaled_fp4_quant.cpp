// scaled_fp4_quant: vLLM's ref_nvfp4_quant with the block scales in the
// case's layout (linear, or swizzle_blockscale's); fp4_ref.h.
#include "oracles/torch/quant/fp4_ref.h"

namespace vt::torchref {

Result Ref_scaled_fp4_quant(const Input& in) { return fp4::Quantize(in, Load(in, "x")); }

}  // namespace vt::torchref
