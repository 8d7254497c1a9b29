// golden mode: the recorded upstream goldens (--golden DIR, default
// ../shared/goldens/vllm-upstream) whose manifest op maps onto this op through
// the catalog's adapters, each checked by CheckGoldenDir. A folder no op can
// claim because its manifest cannot be read, or names an unknown op, is not
// left out: it is checked (and FAILED) under the first catalog op with
// goldens, so a whole-catalog run counts it once. Folders of known ops the
// catalog cannot run yet are vt-golden's UNSUPPORTED lines, not cases here.
#include "harness/catalog/catalog.h"
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/modes/golden_check.h"
#include "harness/modes/known_ops.h"
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

const OpSpec* FirstGoldenOp() {
  for (const OpSpec& op : Catalog()) {
    if (!op.goldens.empty()) return &op;
  }
  return nullptr;
}

class GoldenMode : public Mode {
 public:
  std::string_view name() const override { return "golden"; }
  bool Covers(const OpSpec& op) const override {
    if (!op.goldens.empty()) return true;
    for (const CompositeGoldenAdapter& c : CompositeGoldenAdapters()) {
      if (c.run_op == op.name) return true;  // e.g. long_context_rope -> rope_from_cache
    }
    return false;
  }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    std::vector<CaseRef> refs;
    if (cfg.golden_dirs.empty()) return refs;
    const bool orphans_here = FirstGoldenOp() == &op;
    std::vector<std::string> dirs;
    try {
      dirs = FindGoldenDirs(cfg.golden_dirs);
    } catch (const GoldenError& e) {
      // A missing or unlistable --golden folder is one FAILED case, not an abort.
      if (orphans_here) refs.push_back({e.file(), Params(op.name), "", std::string("refused: ") + e.what()});
      return refs;
    }
    for (const std::string& dir : dirs) {
      const std::string manifest_op = PeekManifestOp(dir);
      const auto [mapped, adapter] = FindGoldenAdapter(manifest_op);
      const bool orphan = manifest_op.empty() || !IsKnownGoldenOp(manifest_op);
      if (mapped == &op || (orphan && orphans_here)) refs.push_back({dir, Params(op.name), "", ""});
    }
    return refs;
  }

  CaseRef Parse(const OpSpec& op, const std::string& id) const override { return {id, Params(op.name), "", ""}; }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    if (!ref.note.empty()) {
      CaseResult r = StartResult(op, name(), ref, cfg);
      r.status = Outcome::kFailedError;
      r.reason = ref.note;
      return r;
    }
    return CheckGoldenDir(ref.id, cfg);
  }
};

}  // namespace

std::unique_ptr<Mode> MakeGoldenMode() { return std::make_unique<GoldenMode>(); }

}  // namespace vt::conform
