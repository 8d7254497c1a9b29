// The inverse of a golden adapter, for vt-fuzz --upstream (harness/upstream/):
// a catalog case as the call of an upstream runner key - the manifest op, its
// args, the input tensors under their manifest names (contiguous) and the
// outputs wanted with their manifest dtypes and shapes. Mapping the golden made
// of this call and upstream's outputs back through the runner key's adapter
// (GoldenAdapter::map) must give the same case: the round trip
// (harness/upstream/upstream_check.h). Each mapped op defines its
// `UpstreamMap_<op>()` in its catalog entry, beside its adapter; the list of
// them is harness/upstream/maps.cpp. A case the runner key cannot express
// throws GoldenUnsupported with the reason.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/core/case.h"
#include "harness/golden/mapping.h"

namespace vt::conform {

struct UpstreamCall {
  std::string op;  // the runner key = the manifest op
  Json args = Json::object();
  std::vector<TensorData> inputs;   // contiguous, named as in the manifest
  std::vector<TensorData> outputs;  // wanted: manifest name, dtype and shape (no storage)
};

struct UpstreamMap {
  std::string op;          // the catalog op
  std::string runner_key;  // the manifest op its adapter reads (vt_golden_regen.py OPS)
  std::function<UpstreamCall(const Case&)> to_upstream;
  // Knobs of this op that only choose how its tensors are drawn (value
  // ranges), beyond the shared ones (upstream_check.h kDrawOnlyKnobs): the
  // round trip compares the tensors byte for byte instead.
  std::vector<std::string> draw_only = {};
};

// Every mapped op's map (harness/upstream/maps.cpp).
const std::vector<UpstreamMap>& UpstreamMaps();

// A case tensor as a contiguous manifest input named `as` (its logical bytes).
TensorData UpstreamInput(const Case& c, const std::string& name, const std::string& as);
// A case output as a wanted manifest output named `as`: its dtype and shape.
TensorData UpstreamOutput(const Case& c, const std::string& name, const std::string& as);
// GoldenUnsupported when the case's tensor `name` has no elements (nothing
// for upstream to vouch for: the golden checker MISTRUSTS an empty output).
void RequireElements(const Case& c, const std::string& name);

// Defined beside each op's golden adapter.
UpstreamMap UpstreamMap_rms_norm();
UpstreamMap UpstreamMap_mamba2_chunk_scan();
UpstreamMap UpstreamMap_silu_and_mul();
UpstreamMap UpstreamMap_gelu_and_mul();
UpstreamMap UpstreamMap_embedding();
UpstreamMap UpstreamMap_matmul();
UpstreamMap UpstreamMap_l2_norm();
UpstreamMap UpstreamMap_rms_norm_gated();
UpstreamMap UpstreamMap_rope_neox();
UpstreamMap UpstreamMap_causal_conv1d_fwd();
UpstreamMap UpstreamMap_mamba2_state_update();
UpstreamMap UpstreamMap_gdn_decode();
UpstreamMap UpstreamMap_gdn_prefill();
UpstreamMap UpstreamMap_scaled_fp4_quant();
UpstreamMap UpstreamMap_silu_and_mul_fp4_quant();
UpstreamMap UpstreamMap_silu_mul_fp4_quant();
UpstreamMap UpstreamMap_sigmoid_gate_fp4_quant();
UpstreamMap UpstreamMap_kda_gated_delta_rule();
UpstreamMap UpstreamMap_moe_router_topk();
UpstreamMap UpstreamMap_causal_conv1d_update();
UpstreamMap UpstreamMap_matmul_nvfp4_fp4();
UpstreamMap UpstreamMap_rope_from_cache();  // long_context_rope (harness/catalog/composite/)
UpstreamMap UpstreamMap_kda_chunk_prefill();
UpstreamMap UpstreamMap_attention();
UpstreamMap UpstreamMap_moe_combine();

}  // namespace vt::conform
