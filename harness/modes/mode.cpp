#include "harness/modes/mode.h"

#include "harness/catalog/gen.h"
#include "harness/core/rng.h"

namespace vt::conform {

std::unique_ptr<Mode> MakeOracleMode();
std::unique_ptr<Mode> MakeThreadsMode();
std::unique_ptr<Mode> MakeEquivalenceMode();
std::unique_ptr<Mode> MakeNegativeMode();
std::unique_ptr<Mode> MakeGoldenMode();
std::unique_ptr<Mode> MakeCudaMode();
std::unique_ptr<Mode> MakeTorchMode();

const std::vector<std::unique_ptr<Mode>>& AllModes() {
  static const std::vector<std::unique_ptr<Mode>> kModes = [] {
    std::vector<std::unique_ptr<Mode>> v;
    v.push_back(MakeOracleMode());
    v.push_back(MakeThreadsMode());
    v.push_back(MakeEquivalenceMode());
    v.push_back(MakeNegativeMode());
    v.push_back(MakeGoldenMode());
    v.push_back(MakeCudaMode());
    v.push_back(MakeTorchMode());
    return v;
  }();
  return kModes;
}

const Mode* FindMode(std::string_view name) {
  for (const auto& m : AllModes()) {
    if (m->name() == name) return m.get();
  }
  return nullptr;
}

CaseRef Mode::Parse(const OpSpec&, const std::string& id) const {
  CaseRef r;
  r.id = id;
  r.params = Params::FromIdentity(id);
  return r;
}

int DrawCount(std::string_view mode, Tier tier) {
  const int t = static_cast<int>(tier);  // smoke, ci, full
  if (mode == "oracle") return std::vector<int>{4, 64, 400}[t];
  if (mode == "threads") return std::vector<int>{2, 24, 120}[t];
  if (mode == "equivalence") return std::vector<int>{2, 12, 60}[t];
  if (mode == "negative") return std::vector<int>{1, 3, 8}[t];
  if (mode == "cuda") return std::vector<int>{2, 16, 64}[t];
  if (mode == "torch") return std::vector<int>{4, 64, 400}[t];
  return std::vector<int>{4, 64, 400}[t];
}

std::vector<Params> TierCases(const OpSpec& op, const RunConfig& cfg, int count) {
  return gen::Draw(op.gen(cfg.tier), cfg.seed ^ HashName(op.name), count);
}

std::vector<CaseRef> TierRefs(const OpSpec& op, const RunConfig& cfg, std::string_view mode) {
  std::vector<CaseRef> refs;
  for (const Params& p : TierCases(op, cfg, DrawCount(mode, cfg.tier))) refs.push_back({p.Identity(), p, "", ""});
  return refs;
}

CaseResult StartResult(const OpSpec& op, std::string_view mode, const CaseRef& ref, const RunConfig& cfg) {
  CaseResult r;
  r.id = ref.id;
  r.op = op.name;
  r.mode = std::string(mode);
  r.tier = cfg.tier;
  r.seed = ref.params.seed;
  return r;
}

}  // namespace vt::conform
