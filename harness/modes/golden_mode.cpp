// golden mode: the recorded upstream goldens (--golden DIR, default
// ../shared/goldens/vllm-upstream) whose manifest op maps onto this op through
// the catalog's adapters, each checked by CheckGoldenDir.
#include "harness/golden/golden_check.h"
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

class GoldenMode : public Mode {
 public:
  std::string_view name() const override { return "golden"; }
  bool Covers(const OpSpec& op) const override { return !op.goldens.empty(); }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    std::vector<CaseRef> refs;
    if (cfg.golden_dirs.empty()) return refs;
    for (const std::string& dir : FindGoldenDirs(cfg.golden_dirs)) {
      const auto [mapped, adapter] = FindGoldenAdapter(PeekManifestOp(dir));
      if (mapped == &op) refs.push_back({dir, Params(op.name), "", ""});
    }
    return refs;
  }

  CaseRef Parse(const OpSpec& op, const std::string& id) const override { return {id, Params(op.name), "", ""}; }

  CaseResult Check(const OpSpec&, const CaseRef& ref, const RunConfig& cfg) const override {
    return CheckGoldenDir(ref.id, cfg);
  }
};

}  // namespace

std::unique_ptr<Mode> MakeGoldenMode() { return std::make_unique<GoldenMode>(); }

}  // namespace vt::conform
