// The call of a varlen recurrence runner key (gdn_prefill, kda_gated_delta_rule:
// fla's fused recurrent kernel over the batch, vt_regen/live.py) made of a
// case - the inverse of their golden adapters, for vt-fuzz --upstream. Both
// keys take the same tensors and dims; the caller adds its own args.
#pragma once

#include <cstdint>
#include <string>

#include "harness/golden/upstream_call.h"

namespace vt::conform::gdn_entry {

// The cost in the Triton interpreter (and the tolerance's per-token bound) is
// per token step of a program (one sequence, one value head, 32 value rows):
// measured 10-12 ms each on the loaded 2-core machine (lens [40], Hv 4, Dv 64:
// 320 steps, 3.8 s). Bounded at 200 (about 2.5 s) so a minute holds tens of
// cases; larger ones are the oracle mode's.
inline constexpr int64_t kUpstreamVarlenSteps = 200;

// `gate`: the case's gate tensor, sent under its own name ("g", or
// kda_chunk_prefill's "g_raw", whose gate upstream computes itself).
inline UpstreamCall UpstreamVarlenRecurrence(const Case& c, const std::string& key, Json extra_args,
                                             const std::string& gate = "g") {
  RequireElements(c, "out");
  const TensorData& q = c.Get("q");
  const TensorData& v = c.Get("v");
  const int64_t tokens = q.shape[0], hk = q.shape[1], dk = q.shape[2], hv = v.shape[1], dv = v.shape[2];
  const int64_t steps = tokens * hv * ((dv + 31) / 32);
  if (steps > kUpstreamVarlenSteps) {
    throw GoldenUnsupported(std::to_string(steps) + " Triton token steps (more than " +
                            std::to_string(kUpstreamVarlenSteps) + "): too slow in the Triton interpreter");
  }
  UpstreamCall u;
  u.op = key;
  u.args = {{"scale", c.params.Num("scale")}, {"Hk", hk}, {"Hv", hv}, {"Dk", dk}, {"Dv", dv},
            {"seqlens", c.params.args.at("lens")}, {"use_qk_l2norm_in_kernel", false},
            {"q_k_prenormalized", true}};
  u.args.update(extra_args);
  u.inputs = {UpstreamInput(c, "q", "q"),       UpstreamInput(c, "k", "k"),
              UpstreamInput(c, "v", "v"),       UpstreamInput(c, gate, gate),
              UpstreamInput(c, "beta", "beta"), UpstreamInput(c, "state", "state_in"),
              UpstreamInput(c, "query_start_loc", "query_start_loc")};
  u.outputs = {UpstreamOutput(c, "out", "out"), UpstreamOutput(c, "state", "state_out")};
  return u;
}

}  // namespace vt::conform::gdn_entry
