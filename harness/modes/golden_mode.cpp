// golden mode: placeholder until the golden loader lands (issue: vt-golden check).
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

class GoldenMode : public Mode {
 public:
  std::string_view name() const override { return "golden"; }
  bool Covers(const OpSpec&) const override { return false; }
  std::vector<CaseRef> Enumerate(const OpSpec&, const RunConfig&) const override { return {}; }
  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    r.status = Outcome::kUnsupported;
    r.reason = "golden mode not built yet";
    return r;
  }
};

}  // namespace

std::unique_ptr<Mode> MakeGoldenMode() { return std::make_unique<GoldenMode>(); }

}  // namespace vt::conform
