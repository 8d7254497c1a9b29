// harness/catalog/gen: the highest rank the validators accept (4) is drawn
// with every extent > 1 - by the "reshape" knob for any-shape operands
// (Rank4) and by the "rank" knob of row views (DrawRank) - because a wrong
// order of the middle dims is invisible at rank <= 3 or with an extent of 1.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/catalog.h"
#include "harness/catalog/gen.h"
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

int64_t Product(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

bool AllAboveOne(const std::vector<int64_t>& s) {
  for (int64_t d : s) {
    if (d < 2) return false;
  }
  return true;
}

TEST(Gen, Rank4FactorsTheCountIntoFourExtents) {
  for (int64_t n : {0, 1, 2, 12, 16, 17, 24, 255 * 64, 512 * 4096, 1000, 4099 * 3}) {
    for (std::size_t index = 0; index < 3; ++index) {
      const std::vector<int64_t> s = gen::Rank4(n, index);
      ASSERT_EQ(s.size(), 4u) << n;
      EXPECT_EQ(Product(s), n) << n;
    }
  }
  // Four prime factors or more: every extent > 1, and balanced.
  EXPECT_TRUE(AllAboveOne(gen::Rank4(16, 0)));
  EXPECT_EQ(gen::Rank4(16, 0), (std::vector<int64_t>{2, 2, 2, 2}));
  EXPECT_TRUE(AllAboveOne(gen::Rank4(512 * 4096, 0)));
  EXPECT_TRUE(AllAboveOne(gen::Rank4(1000, 1)));
  // Fewer: leading 1s, the rest > 1.
  EXPECT_EQ(gen::Rank4(17, 0), (std::vector<int64_t>{1, 1, 1, 17}));
  EXPECT_EQ(gen::Rank4(0, 0), (std::vector<int64_t>{1, 1, 1, 0}));
  const std::vector<int64_t> twelve = gen::Rank4(12, 0);
  EXPECT_EQ(twelve[0], 1);
  EXPECT_TRUE(AllAboveOne({twelve[1], twelve[2], twelve[3]}));
  // Operands of one count get unequal shapes where the factors differ.
  EXPECT_NE(gen::Rank4(24, 0), gen::Rank4(24, 1));
  EXPECT_EQ(gen::Reshaped({4, 6}, "rank4", 0), gen::Rank4(24, 0));
}

TEST(Gen, RankShapeFollowsTheRankKnob) {
  Params p("t");
  p.Set("G", 3).Set("G2", 2);
  const std::vector<std::pair<std::string, std::vector<int64_t>>> want = {
      {"1d", {35}}, {"2d", {5, 7}}, {"3d", {5, 3, 7}}, {"4d", {5, 3, 2, 7}}};
  for (const auto& [rank, shape] : want) {
    p.Set("rank", rank);
    EXPECT_EQ(gen::RankShape(p, 5, 7), shape) << rank;
  }
}

// Every op with an any-shape operand or a free-rank row knob has ci-tier
// cases in which one of its operands is rank 4 with every extent > 1.
TEST(Gen, EveryFreeRankOpDrawsRank4WithEveryExtentAboveOne) {
  RunConfig cfg;  // tier ci, the default seed
  int ops = 0;
  for (const OpSpec& op : Catalog()) {
    const std::vector<Params> cases = TierCases(op, cfg, DrawCount("oracle", cfg.tier));
    bool rank_knob = false;
    for (const Params& p : cases) rank_knob = rank_knob || (p.Has("rank") && p.args.at("rank").is_string());
    if (op.contract.AnyShape().empty() && !rank_knob) continue;
    ++ops;
    int hits = 0;
    for (const Params& p : cases) {
      for (const TensorData& t : BuildCase(op, p).tensors) {
        if (t.shape.size() == 4 && AllAboveOne(t.shape)) {
          ++hits;
          break;
        }
      }
    }
    EXPECT_GT(hits, 0) << op.name << ": no rank-4 operand with every extent > 1 in " << cases.size()
                       << " ci cases";
  }
  // moe_relu2, moe_silu_mul, sigmoid_gate_bf16, shared_expert_gate, mul_scalar,
  // soft_cap, qkv_split, cast_bf16, cast_f32, index_select, index_copy,
  // gdn_conv_split.
  EXPECT_GE(ops, 12);
}

}  // namespace
}  // namespace vt::conform
