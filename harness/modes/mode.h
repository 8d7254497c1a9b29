// Check modes: each is a function over (OpSpec, case). A mode enumerates the
// cases it checks for an op (generated tier cases, error cases, claim cases,
// golden folders, ...) and checks one case at a time, returning the shared
// CaseResult. The runner, the CLIs and the gtest suites only see this
// interface, so the golden / torch / cuda modes plug in without change.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/catalog/op_spec.h"
#include "harness/core/result.h"
#include "harness/core/run_config.h"

namespace vt::conform {

struct CaseRef {
  std::string id;       // identity (+ "!error", "#claim", or a golden folder path)
  Params params;
  std::string variant;  // error-case / claim name, or golden folder
  std::string note;     // non-empty: a pseudo-case explaining why nothing could run
};

class Mode {
 public:
  virtual ~Mode() = default;
  virtual std::string_view name() const = 0;
  // Whether the op has what this mode needs (coverage matrix).
  virtual bool Covers(const OpSpec& op) const = 0;
  virtual std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const = 0;
  virtual CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const = 0;
  // A case id (as printed in a repro line) back to a CaseRef.
  virtual CaseRef Parse(const OpSpec& op, const std::string& id) const;
};

const std::vector<std::unique_ptr<Mode>>& AllModes();
const Mode* FindMode(std::string_view name);

// Cases a mode draws per tier (per claim / error case where that applies).
int DrawCount(std::string_view mode, Tier tier);
// Generated cases of an op for a tier: the same stream for every mode, so the
// threads mode's cases are a prefix of the oracle mode's.
std::vector<Params> TierCases(const OpSpec& op, const RunConfig& cfg, int count);

// One CaseRef per generated tier case (the oracle and threads modes).
std::vector<CaseRef> TierRefs(const OpSpec& op, const RunConfig& cfg, std::string_view mode);

// A result pre-filled with the case's identity fields.
CaseResult StartResult(const OpSpec& op, std::string_view mode, const CaseRef& ref, const RunConfig& cfg);

}  // namespace vt::conform
