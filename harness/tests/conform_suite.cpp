// The conformance suites as GoogleTest tests: one test per (mode, tier, op),
// registered from the catalog, named "<mode>_<tier>.<op>". Each runs every
// case of that triple through the runner; a failing case adds a failure with
// its reason, the first bad elements and the repro command. A triple that ran
// zero cases fails: a suite that checks nothing proves nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "harness/catalog/catalog.h"
#include "harness/runner/runner.h"

namespace {

using namespace vt::conform;

class ConformTest : public testing::Test {
 public:
  ConformTest(const OpSpec* op, const Mode* mode, Tier tier) : op_(op), mode_(mode), tier_(tier) {}

  void TestBody() override {
    RunConfig cfg;
    cfg.tier = tier_;
    if (const char* s = std::getenv("VT_CONFORM_SEED")) cfg.seed = std::stoull(s, nullptr, 0);
    const std::vector<CaseResult> results = RunOpMode(*op_, *mode_, cfg);
    int ran = 0, skipped = 0;
    for (const CaseResult& r : results) {
      if (r.status == Outcome::kSkipped || r.status == Outcome::kUnsupported) {
        ++skipped;
        continue;
      }
      ++ran;
      if (IsFailure(r.status)) {
        ADD_FAILURE() << Name(r.status) << " " << r.id << "\n  " << r.reason << "\n"
                      << r.detail << "  repro: " << r.repro;
      }
    }
    RecordProperty("cases_ran", ran);
    RecordProperty("cases_skipped", skipped);
    // The isa mode on a CPU that runs none of the op's vector tiers: nothing
    // to compare, said as a skip with its reason rather than a failure.
    if (ran == 0 && skipped > 0 && mode_->name() == "isa") GTEST_SKIP() << results.front().reason;
    EXPECT_GT(ran, 0) << op_->name << "/" << mode_->name() << "/" << Name(tier_) << " ran zero cases";
  }

 private:
  const OpSpec* op_;
  const Mode* mode_;
  Tier tier_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  for (Tier tier : {Tier::kSmoke, Tier::kCi, Tier::kFull}) {
    for (const auto& mode : AllModes()) {
      if (mode->name() == "golden") continue;  // goldens have their own test (golden_test)
      for (const OpSpec& op : Catalog()) {
        if (!mode->Covers(op)) continue;
        const std::string suite = std::string(mode->name()) + "_" + std::string(Name(tier));
        const OpSpec* op_ptr = &op;
        const Mode* mode_ptr = mode.get();
        testing::RegisterTest(suite.c_str(), op.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [=]() -> testing::Test* { return new ConformTest(op_ptr, mode_ptr, tier); });
      }
    }
  }
  return RUN_ALL_TESTS();
}
