// One drawn case held to upstream vLLM (vt-fuzz --upstream, docs/fuzzing.md):
// the op's inverse adapter (UpstreamMap::to_upstream) turns the case into a
// runner key's call, the worker (worker_client.h) runs vLLM's callable on it,
// the call and the reply are written as a golden folder, and that folder is
// judged by the golden checker itself (CheckGoldenDir: tie-aware indices,
// partial verdicts, the manifest's derived tolerances) - so a saved failure is
// a golden case `vt-golden check` reruns without vLLM. Before the verdict the
// adapter's own mapping of that folder must give back the drawn case (the
// round trip), or the case is an ERROR: a mapping that is not the adapter's
// inverse would check something other than what was drawn.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/op_spec.h"
#include "harness/core/result.h"
#include "harness/core/run_config.h"
#include "harness/upstream/worker_client.h"

namespace vt::conform::upstream {

// The reason of an upstream case counted SKIPPED because upstream's
// reference cannot judge its draw (all or mostly zero: UnjudgeableDraw)
// starts with this; vt-fuzz counts such skips toward its lost-signal rule.
inline constexpr const char* kUnjudgeableByUpstream = "upstream's reference cannot judge this draw: ";

// The upstream map of `op` (harness/upstream/maps.cpp), or nullptr.
const UpstreamMap* MapOf(const OpSpec& op);
// Runner keys whose upstream callable is a Triton kernel (the worker then
// needs the environment made by `vt-golden regen --setup --with-triton`).
bool NeedsTriton(const std::string& runner_key);

// The golden folder of a call and upstream's reply (manifest.json and one
// .npy per tensor; the reply's per-output tolerances merged into args; the
// drawn case's identity under "fuzz"). Throws on a file error.
void WriteGolden(const std::string& dir, const UpstreamCall& call, const Reply& reply, const Params& drawn);

// Knobs that only choose how a case's tensors are drawn or built (value
// distributions, how chunk metadata was cut): the golden holds the tensors,
// which the round trip compares byte for byte, so an adapter need not - and
// where two choices give the same tensors cannot - recover them.
extern const std::vector<std::string> kDrawOnlyKnobs;
// kDrawOnlyKnobs and the map's own draw_only knobs.
std::vector<std::string> DrawOnlyKnobs(const UpstreamMap& m);

// "" when the adapter's case `back` is the drawn case: every tensor of `drawn`
// is there with its name, dtype and shape - inputs with the same logical
// bytes - and every knob `back` sets that `drawn` has agrees (numbers by
// value), `ignore` aside. Else what differs, in one line.
std::string RoundTripDiff(const Case& drawn, const Case& back, const std::vector<std::string>& ignore);

class Checker {
 public:
  Checker(Worker& worker, std::string scratch_dir, double timeout_s)
      : worker_(worker), scratch_(std::move(scratch_dir)), timeout_s_(timeout_s) {}
  // Whether the op's runner key can express the case drawn from `p`.
  bool Expressible(const OpSpec& op, const Params& p) const;
  // The verdict on the case drawn from `p` (mode "upstream", id its
  // identity): SKIPPED with why when the runner key cannot express it,
  // FAILED (ERROR) with one line for a worker error, timeout or crash or a
  // broken round trip, else the golden checker's verdict on the folder.
  CaseResult Check(const OpSpec& op, const Params& p, const RunConfig& cfg);
  // The golden folder the last Check wrote ("" when it wrote none).
  const std::string& last_golden() const { return last_; }
  int calls() const { return calls_; }

 private:
  Worker& worker_;
  std::string scratch_, last_;
  double timeout_s_;
  int calls_ = 0;
};

}  // namespace vt::conform::upstream
