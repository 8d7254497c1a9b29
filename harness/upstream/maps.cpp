// The ops vt-fuzz --upstream can hold to upstream vLLM: one line per op whose
// catalog entry defines an UpstreamMap beside its golden adapter.
#include "harness/golden/upstream_call.h"

namespace vt::conform {

const std::vector<UpstreamMap>& UpstreamMaps() {
  static const std::vector<UpstreamMap> maps = {UpstreamMap_rms_norm(), UpstreamMap_mamba2_chunk_scan(),
                                                UpstreamMap_silu_and_mul(), UpstreamMap_gelu_and_mul(),
                                                UpstreamMap_embedding(),
                                                UpstreamMap_matmul(),
                                                UpstreamMap_l2_norm(),
                                                UpstreamMap_rms_norm_gated(),
                                                UpstreamMap_rope_neox(),
                                                UpstreamMap_causal_conv1d_fwd(),
                                                UpstreamMap_mamba2_state_update(),
                                                UpstreamMap_gdn_decode(),
                                                UpstreamMap_gdn_prefill(),
                                                UpstreamMap_scaled_fp4_quant(),
                                                UpstreamMap_silu_and_mul_fp4_quant(),
                                                UpstreamMap_silu_mul_fp4_quant(),
                                                UpstreamMap_sigmoid_gate_fp4_quant(),
                                                UpstreamMap_kda_gated_delta_rule(),
                                                UpstreamMap_moe_router_topk(),
                                                UpstreamMap_causal_conv1d_update(),
                                                UpstreamMap_matmul_nvfp4_fp4(),
                                                UpstreamMap_rope_from_cache(),
                                                UpstreamMap_kda_chunk_prefill(),
                                                UpstreamMap_attention(),
                                                UpstreamMap_moe_combine()};
  return maps;
}

namespace {

// A case tensor's dtype and shape under a manifest name, contiguous.
TensorData ContiguousLike(const TensorData& src, const std::string& as, Role role) {
  TensorData t;
  t.name = as;
  t.dtype = src.dtype;
  t.fmt = src.fmt;
  t.shape = src.shape;
  t.role = role;
  t.SetContiguous();
  return t;
}

}  // namespace

TensorData UpstreamInput(const Case& c, const std::string& name, const std::string& as) {
  const TensorData& src = c.Get(name);
  TensorData t = ContiguousLike(src, as, Role::kInput);
  t.storage = src.LogicalBytes();
  return t;
}

TensorData UpstreamOutput(const Case& c, const std::string& name, const std::string& as) {
  return ContiguousLike(c.Get(name), as, Role::kOutput);
}

void RequireElements(const Case& c, const std::string& name) {
  if (c.Get(name).Numel() == 0) throw GoldenUnsupported("no elements: nothing for upstream to vouch for");
}

}  // namespace vt::conform
