// A recorded golden mapped onto a case of one op: the types an adapter
// returns (GoldenMapping, GoldenAdapter, GoldenTolerance, GoldenUnsupported).
// The catalog's entries hold their adapters (OpSpec::goldens) and the golden
// checker (harness/modes/golden_check.h) runs them, so both import this
// file; it knows the case model alone (adapter.h has the helpers that build
// a mapping from the golden's files).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/case.h"
#include "vt/context.h"

namespace vt::conform {

struct GoldenCase;  // golden_io.h

// A golden (upstream vLLM capture) mapped onto one of an op's cases: the
// case to run and which of its tensors to compare with which golden tensor.
// A golden variant the op cannot express throws GoldenUnsupported with the
// reason (reported UNSUPPORTED, never passed).
struct GoldenTolerance {
  double atol = 0, rtol = 0;
  std::string why;
};
struct GoldenMapping {
  Case c;
  std::vector<std::pair<std::string, std::string>> compare;  // case tensor -> golden tensor
  std::string run_op;  // the catalog op that runs the case; empty: the adapter's own op
  // Optional, per case tensor: a derived tolerance TIGHTER than the manifest's
  // (never looser: the checker refuses that), for an output the manifest's
  // tolerance cannot vouch for (e.g. a bf16 cos/sin cache under atol 1e-2,
  // where most sin values near position 0 are below the atol).
  std::map<std::string, GoldenTolerance> tighter;
  // Checks the adapter made itself on recorded intermediates that no op
  // outputs (e.g. upstream's inv_freq before the cache is built from it):
  // each adds a line to the verdict, and a failed one fails the case.
  struct SideCheck {
    std::string golden;  // the manifest tensor checked
    std::string line;    // what was measured, for the verdict's detail
    std::string failure; // empty: it held
  };
  std::vector<SideCheck> side_checks;
  // Optional: a composite's tail, run after the op on each run's result (at
  // that run's context): further catalog ops that add or update tensors of
  // `after` for `compare` to name (dense_attention's attn * sigmoid(gate)).
  std::function<void(Case& after, const vt::ExecContext& ctx)> then;
  // Only for a manifest that carries no 'tol' at all (a focused upstream
  // test recorded with its own agreement figures instead): the atol/rtol to
  // judge by, with the reason. Ignored when the manifest has a 'tol'.
  std::optional<GoldenTolerance> tol_if_absent;
  // Optional, per golden tensor name: the golden's values re-laid by the
  // adapter (same values, another order) where the recorded order is not
  // part of the contract - e.g. a top-k whose upstream order is unspecified,
  // aligned to the kernel's expert order. Compared instead of the file's.
  std::map<std::string, TensorData> golden_relaid;
};
struct GoldenAdapter {
  std::string manifest_op;  // the manifest's "op" ("rmsnorm", "l2norm", ...)
  std::function<GoldenMapping(const GoldenCase&)> map;
};
class GoldenUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};


}  // namespace vt::conform
