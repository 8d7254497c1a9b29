// The gate's behaviour at its edges: a fatal signal still names the case it
// hit, and an all-NaN reference is trusted only where NaN payloads are
// compared byte for byte.
#include <gtest/gtest.h>

#include <csignal>

#include "harness/catalog/catalog.h"
#include "harness/modes/mode.h"
#include "harness/core/crash_note.h"

namespace vt::conform {
namespace {

TEST(CrashNote, AFatalSignalPrintsTheCurrentCaseAndStillDies) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        ArmCrashNote();
        SetCrashNote("CRASHED op/oracle op(x=1)\n  repro: vt-conform --op op\n");
        std::raise(SIGSEGV);
      },
      "dying \\(fatal signal\\) while running:\nCRASHED op/oracle op\\(x=1\\)\n  repro: vt-conform --op op");
}

TEST(CrashNote, DisarmedTheSignalIsSilent) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ArmCrashNote();
        SetCrashNote("CRASHED op/oracle\n");
        DisarmCrashNote();
        std::raise(SIGSEGV);
      },
      ::testing::KilledBySignal(SIGSEGV), "^$");
}

CaseResult OracleCheck(const std::string& op, const std::string& id) {
  const OpSpec* spec = FindOp(op);
  const Mode* mode = FindMode("oracle");
  RunConfig cfg;
  cfg.tier = Tier::kFull;
  cfg.threads = 1;
  return mode->Check(*spec, mode->Parse(*spec, id), cfg);
}

// qkv_split moves raw bytes; one element under fill=bits can be a NaN, and
// its payload is compared byte for byte (found by vt-fuzz as a MISTRUSTED).
TEST(TrustRule, AllNaNIsTrustedWhereTheBytesAreCompared) {
  const CaseResult r = OracleCheck(
      "qkv_split",
      "qkv_split(qkv=f32,q_out=f32,k_out=f32,v_out=f32,T=1,Q=1,K=1,V=1,scale=1.0,fill=bits,layout=separate,"
      "reshape=keep,values=normal,seed=0x15)");
  EXPECT_EQ(r.status, Outcome::kPassed) << r.reason << r.detail;
}

// The same for zeros: a byte-compared output judges each zero exactly (sign
// bit included), so an all-zero scatter under fill=bits is a full check (the
// vt-fuzz soak's finding, shrunk), not MISTRUSTED.
TEST(TrustRule, ZerosAreDataWhereTheBytesAreCompared) {
  const CaseResult r = OracleCheck(
      "gdn_state_scatter",
      "gdn_state_scatter(cache=f16,T=1,rank=3,H=1,D=1,wide=0,extra=0,scale=1.0,fill=bits,layout=separate,"
      "values=normal,seed=0x7e)");
  EXPECT_EQ(r.status, Outcome::kPassed) << r.reason << r.detail;
}

// gelu_and_mul at edge values where 1 + tanh cancels: every element's bound
// is wider than its value (vt-fuzz, seed 0x3a715b0db39feb6b, shrunk), but the
// bytes equal the f32 definition in the seed's order - every element judged
// exactly, so not MISTRUSTED; the metric shows the case has such elements.
TEST(TrustRule, BoundsWiderThanTheValueJudgedByTheF32Definition) {
  const CaseResult r = OracleCheck(
      "gelu_and_mul",
      "gelu_and_mul(x=f32,out=f32,T=2,D=1,scale=1.0,layout=separate,values=edges,seed=0x49fd39b53d86a373)");
  EXPECT_EQ(r.status, Outcome::kPassed) << r.reason << r.detail;
  EXPECT_EQ(r.metrics["out"].value("judged_by_f32_definition_only", 0), 2);
  EXPECT_EQ(r.unjudged, 0);
}

}  // namespace
}  // namespace vt::conform
