// Top-k ties (issue 21): index outputs are judged tie-aware. Among candidates
// whose scores are equal, or within the Bounded oracle's error bound, any
// order is a right output - the kernel's, or upstream's in a golden - and the
// weights are those of the ids chosen; a pick outside the tied set fails.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/modes/golden_check.h"
#include "harness/tests/unit/golden_files.h"
#include "oracles/moe/moe_router_topk.h"

namespace vt::conform {
namespace {

using oracle::Bounded;
using oracle::RouterPicks;
using oracle::RouterSpec;

std::string WhyNot(const std::vector<double>& logits, const RouterSpec& a, const std::vector<int64_t>& pick,
                   const std::vector<double>* bias = nullptr) {
  const auto row = oracle::RouterRowScores<Bounded>(logits.data(), static_cast<int64_t>(logits.size()), bias, a);
  return oracle::RouterPicksWhyNot(row, a, pick);
}

RouterSpec Softmax(int64_t k) {
  RouterSpec a;
  a.top_k = k;
  return a;
}

// 1 + one f32 ulp: a near-tie the truth orders but no f32 bound can.
const double kOneUlpAbove1 = 1.0 + 0x1p-23;

TEST(RouterTies, ExactTieAcceptsEitherOrderAndPickButNotAnOutsider) {
  const std::vector<double> x = {3, 1, 1, 0};
  EXPECT_EQ(WhyNot(x, Softmax(2), {0, 1}), "");
  EXPECT_EQ(WhyNot(x, Softmax(2), {0, 2}), "");  // torch.topk may pick the higher id
  EXPECT_EQ(WhyNot(x, Softmax(3), {0, 2, 1}), "");  // any order among the tied
  EXPECT_NE(WhyNot(x, Softmax(2), {0, 3}), "");  // 3 is certainly below 1 and 2
  EXPECT_NE(WhyNot(x, Softmax(2), {1, 0}), "");  // 0 is certainly above 1: not first
  EXPECT_NE(WhyNot(x, Softmax(2), {0, 0}), "");  // an id twice
  EXPECT_NE(WhyNot(x, Softmax(2), {0, 4}), "");  // not an expert
}

TEST(RouterTies, NearTieWithinTheBoundAcceptsEitherOrder) {
  const std::vector<double> near = {3, kOneUlpAbove1, 1, 0};
  EXPECT_EQ(WhyNot(near, Softmax(2), {0, 1}), "");
  EXPECT_EQ(WhyNot(near, Softmax(2), {0, 2}), "");
  // Apart by far more than any f32 evaluation errs: not a tie.
  const std::vector<double> apart = {3, 1.5, 1, 0};
  EXPECT_NE(WhyNot(apart, Softmax(2), {0, 2}), "");
}

TEST(RouterTies, GroupedPicksMustComeFromGroupsThatCanBeKept) {
  RouterSpec a;
  a.top_k = 2;
  a.n_group = 2;
  a.topk_group = 1;
  a.sigmoid = true;
  // Groups {0,1} and {2,3}: group 0 (max 2) is certainly above group 1 (max 0).
  EXPECT_EQ(WhyNot({2, 1, 0, -1}, a, {0, 1}), "");
  EXPECT_NE(WhyNot({2, 1, 0, -1}, a, {0, 2}), "");
  // Tied groups: either group may be kept, but not both (topk_group 1).
  EXPECT_EQ(WhyNot({2, 1, 2, 1}, a, {2, 3}), "");
  EXPECT_EQ(WhyNot({2, 1, 2, 1}, a, {0, 1}), "");
  EXPECT_NE(WhyNot({2, 1, 2, 1}, a, {0, 2}), "");
}

// The oracle mode's reference (OpSpec::oracle_given): a row whose kernel
// picks are a right order is judged against them, with their weights; any
// other row against the oracle's own picks.
TEST(RouterTies, OracleGivenTakesTheKernelsPicksOnlyWhereTied) {
  const OpSpec* op = FindOp("moe_router_topk");
  ASSERT_NE(op, nullptr);
  ASSERT_TRUE(op->oracle_given);
  Params p("moe_router_topk");
  p.Set("logits", "f32").Set("T", 2).Set("E", 4).Set("top_k", 2).Set("renormalize", 1);
  p.Set("scoring", "softmax").Set("num_expert_group", 0).Set("topk_group", 0);
  p.Set("routed_scaling_factor", 1.0).Set("bias", "none").Set("vals", "normal").Set("scale", 1.0);
  Case c = MakeCase(*op, p);
  c.Get("logits").SetValues({3, 1, 1, 0, /*row 1:*/ 3, 1.5, 1, 0});
  Case got = c;
  got.Get("indices").SetValues({0, 2, /*row 1, a non-tied wrong pick:*/ 0, 2});
  const OracleResult want = op->oracle_given(c, got);
  EXPECT_EQ(want.at("indices").v, (std::vector<double>{0, 2, 0, 1}));
  // Row 0's weights are those of experts {0, 2}; 1 and 2 tie, so they equal
  // the lowest-index choice's.
  const OracleResult own = op->oracle(c);
  EXPECT_EQ(own.at("indices").v, (std::vector<double>{0, 1, 0, 1}));
  EXPECT_DOUBLE_EQ(want.at("weights").v[1], own.at("weights").v[1]);
}

// The golden checker: upstream's pick among tied candidates passes, the
// kernel's being another; a pick outside the tied set still fails.
namespace fs = std::filesystem;
using golden_files::Json;

fs::path RouterGolden(const std::string& name, const std::vector<double>& logits, const std::vector<double>& ids) {
  const fs::path d = golden_files::TempDir(name);
  const int64_t t = static_cast<int64_t>(ids.size()) / 2, e = static_cast<int64_t>(logits.size()) / t;
  // Upstream's weights for its own ids: softmax over the row, renormalized
  // over the picks (the truth, in double).
  std::vector<double> w;
  for (int64_t r = 0; r < t; ++r) {
    double a = std::exp(logits[static_cast<size_t>(r * e) + static_cast<size_t>(ids[static_cast<size_t>(2 * r)])]);
    double b = std::exp(logits[static_cast<size_t>(r * e) + static_cast<size_t>(ids[static_cast<size_t>(2 * r + 1)])]);
    w.push_back(a / (a + b));
    w.push_back(b / (a + b));
  }
  Json tensors = Json::object();
  golden_files::WriteTensor(d, tensors, "router_logits", "f32", {t, e}, logits);
  golden_files::WriteTensor(d, tensors, "topk_weights", "f32", {t, 2}, w);
  golden_files::WriteTensor(d, tensors, "topk_ids", "i32", {t, 2}, ids);
  golden_files::WriteManifest(d, {{"op", "moe_router_topk"},
                                  {"args", {{"top_k", 2}, {"renormalize", true}, {"scoring_func", "softmax"}}},
                                  {"tensors", tensors},
                                  {"inputs", {"router_logits"}},
                                  {"outputs", {"topk_weights", "topk_ids"}},
                                  {"tol", {{"atol", 1e-6}, {"rtol", 1e-6}}}});
  return d;
}

TEST(RouterTies, GoldenWithUpstreamsTiePickPassesAndAWrongPickFails) {
  const std::vector<double> exact = {3, 1, 1, 0, /*row 1, no tie:*/ 0.5, 2, -1, 1};
  const CaseResult tie = CheckGoldenDir(RouterGolden("tie_exact", exact, {0, 2, 1, 3}).string(), RunConfig{});
  EXPECT_EQ(tie.status, Outcome::kPassed) << tie.reason << "\n" << tie.detail;
  EXPECT_NE(tie.detail.find("1 rows where upstream and the kernel picked different experts"), std::string::npos)
      << tie.detail;

  const std::vector<double> near = {3, kOneUlpAbove1, 1, 0, 0.5, 2, -1, 1};
  const CaseResult swap = CheckGoldenDir(RouterGolden("tie_near", near, {0, 2, 1, 3}).string(), RunConfig{});
  EXPECT_EQ(swap.status, Outcome::kPassed) << swap.reason << "\n" << swap.detail;

  const CaseResult wrong = CheckGoldenDir(RouterGolden("pick_wrong", exact, {0, 3, 1, 3}).string(), RunConfig{});
  EXPECT_EQ(wrong.status, Outcome::kFailedIncorrect) << wrong.reason << "\n" << wrong.detail;

  const std::vector<double> apart = {3, 1.5, 1, 0, 0.5, 2, -1, 1};
  const CaseResult not_tied = CheckGoldenDir(RouterGolden("not_tied", apart, {0, 2, 1, 3}).string(), RunConfig{});
  EXPECT_EQ(not_tied.status, Outcome::kFailedIncorrect) << not_tied.reason << "\n" << not_tied.detail;
}

// moe_block: the block follows upstream's recorded ids on a tied row (with
// the f32 definition's weights for them), and only there.
TEST(RouterTies, MoeBlockFollowsUpstreamOnlyOnTiedRows) {
  auto f32 = [](const std::string& name, vt::DType dt, std::vector<int64_t> shape, std::vector<double> v) {
    return TensorFromValues(name, dt, std::move(shape), Role::kInput, v);
  };
  const TensorData logits = f32("logits", vt::DType::kF32, {2, 4}, {3, 1, 1, 0, 3, 1.5, 1, 0});
  vt::MoeRouterTopKArgs ra;
  ra.top_k = 2;
  ra.renormalize = true;
  TensorData ids = f32("ids", vt::DType::kI32, {2, 2}, {0, 1, 0, 1});
  TensorData weights = f32("w", vt::DType::kF32, {2, 2}, {0.5, 0.5, 0.5, 0.5});
  // Row 0: upstream picked expert 2, tied with 1. Row 1: upstream's 2 is
  // certainly below 1 - not a tie, the kernel's pick stays.
  const TensorData upstream = f32("topk_ids", vt::DType::kI64, {2, 2}, {0, 2, 0, 2});
  const std::string line = FollowTiedPicks(upstream, logits, nullptr, ra, ids, weights);
  EXPECT_NE(line.find("1 rows"), std::string::npos) << line;
  EXPECT_EQ(ids.Values(), (std::vector<double>{0, 2, 0, 1}));
  const double e3 = std::exp(3.0), e1 = std::exp(1.0);
  EXPECT_NEAR(weights.Values()[0], e3 / (e3 + e1), 1e-6);
  EXPECT_NEAR(weights.Values()[1], e1 / (e3 + e1), 1e-6);
  EXPECT_EQ(weights.Values()[2], 0.5);  // untouched
}

// A tie in upstream's own logits that the kernel's logits split (a matmul
// rounded apart): with upstream's logits given, each logit lies anywhere
// between the two, so the tie holds and the block follows upstream; without
// them the kernel's split is taken as certain. A pick right under neither
// logits still stays the kernel's.
TEST(RouterTies, MoeBlockTieInUpstreamsLogitsSplitByTheKernels) {
  auto t = [](const std::string& name, vt::DType dt, std::vector<int64_t> shape, std::vector<double> v) {
    return TensorFromValues(name, dt, std::move(shape), Role::kInput, v);
  };
  const TensorData ours = t("logits", vt::DType::kF32, {1, 4}, {3, 1.0078125, 1, 0});  // bf16 split 1 | 1
  const TensorData theirs = t("router_logits", vt::DType::kF32, {1, 4}, {3, 1, 1, 0});
  vt::MoeRouterTopKArgs ra;
  ra.top_k = 2;
  ra.renormalize = true;
  const TensorData upstream = t("topk_ids", vt::DType::kI64, {1, 2}, {2, 0});  // any order
  for (const bool given : {false, true}) {
    TensorData ids = t("ids", vt::DType::kI32, {1, 2}, {0, 1});
    TensorData weights = t("w", vt::DType::kF32, {1, 2}, {0.5, 0.5});
    const std::string line = FollowTiedPicks(upstream, ours, nullptr, ra, ids, weights, given ? &theirs : nullptr);
    EXPECT_EQ(ids.Values(), given ? (std::vector<double>{0, 2}) : (std::vector<double>{0, 1})) << line;
  }
  // Upstream's ids unsorted (torch.topk may return them so: vLLM's CPU router
  // did on regen seed 1135319442) on an exact tie: followed, in the spec's order.
  const TensorData tied = t("logits", vt::DType::kF32, {1, 4}, {3, 1, 1, 0});
  TensorData ids_u = t("ids", vt::DType::kI32, {1, 2}, {0, 1});
  TensorData weights_u = t("w", vt::DType::kF32, {1, 2}, {0.5, 0.5});
  EXPECT_NE(FollowTiedPicks(upstream, tied, nullptr, ra, ids_u, weights_u), "");
  EXPECT_EQ(ids_u.Values(), (std::vector<double>{0, 2}));
  const TensorData far = t("router_logits", vt::DType::kF32, {1, 4}, {3, 1.0078125, 1.0078125, 0});
  const TensorData wrong = t("topk_ids", vt::DType::kI64, {1, 2}, {3, 0});  // expert 3 is below both
  TensorData ids = t("ids", vt::DType::kI32, {1, 2}, {0, 1});
  TensorData weights = t("w", vt::DType::kF32, {1, 2}, {0.5, 0.5});
  EXPECT_EQ(FollowTiedPicks(wrong, ours, nullptr, ra, ids, weights, &far), "");
  EXPECT_EQ(ids.Values(), (std::vector<double>{0, 1}));
}

}  // namespace
}  // namespace vt::conform
