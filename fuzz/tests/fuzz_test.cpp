// vt-fuzz's own tests: the shared vocabulary (harness/fuzz/vocabulary.h) and
// the engine on a toy op with a planted bug, whose minimal failing case is
// known: the engine must find it, shrink to exactly it, and save it.
#include <filesystem>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "fuzz/campaign.h"
#include "fuzz/engine.h"
#include "harness/catalog/gen.h"
#include "harness/fuzz/vocabulary.h"

namespace vt::conform {
namespace {

namespace fs = std::filesystem;

TEST(Vocabulary, ExtentsAreTheEdges) {
  const std::vector<int64_t> v = vocab::ExtentValues(16, true);
  for (int64_t want : {0, 1, 2, 3, 5, 7, 13, 15, 16, 17, 33}) {
    EXPECT_NE(std::find(v.begin(), v.end(), want), v.end()) << want;
  }
  const std::vector<int64_t> no_zero = vocab::ExtentValues(16, false);
  EXPECT_EQ(std::find(no_zero.begin(), no_zero.end(), 0), no_zero.end());
  const std::vector<int64_t> capped = vocab::ExtentValues(64, false, 20);
  EXPECT_EQ(capped.back(), 20);
  for (int64_t x : capped) EXPECT_LE(x, 20);
  // The generator draws only listed values, and all of them.
  std::set<int64_t> seen;
  rc::Random r(7);
  const auto g = vocab::Extent(16, true);
  for (int k = 0; k < 2000; ++k) seen.insert(g(r.split(), rc::kNominalSize).value());
  EXPECT_EQ(seen, std::set<int64_t>(v.begin(), v.end()));
}

TEST(Vocabulary, SlotIndicesHaveNullSlotsAndStayInRange) {
  const auto a = vocab::SlotIndices(42, "idx", 200, 300, 0.25, true);
  EXPECT_EQ(a, vocab::SlotIndices(42, "idx", 200, 300, 0.25, true));  // a pure function
  EXPECT_NE(a, vocab::SlotIndices(43, "idx", 200, 300, 0.25, true));
  std::set<int64_t> used;
  int nulls = 0;
  for (int64_t i : a) {
    if (i == -1) {
      ++nulls;
      continue;
    }
    EXPECT_TRUE(i >= 0 && i < 300) << i;
    EXPECT_TRUE(used.insert(i).second) << "repeated " << i;
  }
  EXPECT_GT(nulls, 20);
  EXPECT_LT(nulls, 80);
  for (int64_t i : vocab::SlotIndices(1, "idx", 50, 4, 0.0, false)) EXPECT_TRUE(i >= 0 && i < 4);
  for (int64_t i : vocab::SlotIndices(1, "idx", 50, 4, 1.0, false)) EXPECT_EQ(i, -1);
  // More distinct slots asked for than exist: the excess is NULL, never a repeat.
  const auto d = vocab::SlotIndices(5, "idx", 6, 3, 0.0, true);
  EXPECT_EQ(std::count(d.begin(), d.end(), -1), 3);
}

TEST(Vocabulary, StrideKnobPadsExactlyTheOperandsThatAcceptIt) {
  Contract k;
  k.operands = {{"x", {vt::DType::kF32}, OperandRule::Layout::kRowStrided, false, {}},
                {"w", {vt::DType::kF32}, OperandRule::Layout::kContiguous, false, {}},
                {"v", {vt::DType::kF32}, OperandRule::Layout::kRowStrided, false, {}},
                {"out", {vt::DType::kF32}, OperandRule::Layout::kContiguous, true, {}}};
  EXPECT_EQ((std::vector<std::string>{"x", "v"}), vocab::StridedOperands(k));
  Case c;
  c.params = Params("toy");
  c.params.Set(vocab::kStrideKnob, 3);
  c.Input("x", vt::DType::kF32, {4, 5}, Fill::Normal(0, 1));
  c.Input("w", vt::DType::kF32, {4, 5}, Fill::Normal(0, 1));
  c.Input("v", vt::DType::kF32, {5}, Fill::Normal(0, 1));  // rank 1: no outer stride to pad
  c.Output("out", vt::DType::kF32, {4, 5});
  vocab::ApplyStrideKnob(k, c);
  EXPECT_EQ((std::vector<int64_t>{8, 1}), c.Get("x").strides);
  EXPECT_TRUE(c.Get("w").IsContiguous());
  EXPECT_TRUE(c.Get("v").IsContiguous());
  EXPECT_TRUE(c.Get("out").IsContiguous());
}

TEST(Vocabulary, ValueKnobsAreWhatTheOpDeclares) {
  ValueDecl none;
  EXPECT_EQ((std::vector<std::string>{"normal"}), vocab::ValueKnobs(none));
  ValueDecl both;
  both.specials = {{"x"}};
  both.edges = [](const Params&) { return std::vector<ValueBand>{}; };
  EXPECT_EQ((std::vector<std::string>{"normal", "special", "edges"}), vocab::ValueKnobs(both));
}

// A toy copy op, out = x, with a planted bug: element [2, 1] is off by one.
// Its smallest failing case is T = 3, D = 2 (both shrink toward 1).
OpSpec ToyOp() {
  OpSpec s;
  s.name = "toy_copy";
  s.family = "test";
  s.gen = [](Tier) {
    return rc::gen::exec([] {
      Params p("toy_copy");
      p.Set("T", *gen::Pick(std::vector<int64_t>{1, 2, 3, 4, 9, 17}));
      p.Set("D", *gen::Pick(std::vector<int64_t>{1, 2, 5, 8}));
      p.Set("layout", "separate");
      p.seed = *gen::Seed();
      return p;
    });
  };
  s.build = [](Case& c) {
    const int64_t t = c.params.Int("T"), d = c.params.Int("D");
    c.Input("x", vt::DType::kF32, {t, d}, Fill::Integer(-8, 8));
    c.Output("out", vt::DType::kF32, {t, d});
  };
  s.run = [](const vt::ExecContext&, const Workspace& ws) {
    const vt::Tensor& x = ws["x"];
    const vt::Tensor& out = ws["out"];
    for (int64_t i = 0; i < x.shape[0]; ++i) {
      for (int64_t j = 0; j < x.shape[1]; ++j) {
        const float v = static_cast<const float*>(x.data)[i * x.stride[0] + j];
        static_cast<float*>(out.data)[i * out.stride[0] + j] = (i == 2 && j == 1) ? v + 1.0f : v;
      }
    }
  };
  s.oracle = [](const Case& c) {
    Expected e;
    e.v = c.Get("x").Values();
    e.e.assign(e.v.size(), 0.0);
    return OracleResult{{"out", e}};
  };
  s.outputs = [](const Case&) { return std::vector<OutputSpec>{{"out", Exact("a copy"), true}}; };
  return s;
}

TEST(Engine, FindsShrinksAndSavesThePlantedBug) {
  const OpSpec op = ToyOp();
  fuzz::Campaign c;
  c.op = op.name;
  c.axes = {{"rows", {fuzz::IntIn("T", 1, 2), fuzz::IntIn("T", 3, 100)}}};
  fuzz::Settings s;
  s.seed = 11;
  s.max_cases = 40;
  s.threads = {1};
  s.modes = {"oracle"};
  s.save_dir = (fs::temp_directory_path() / ("vt-fuzz-test-" + std::to_string(::getpid()))).string();
  s.quiet = true;
  std::ostringstream log;
  const fuzz::OpReport r = fuzz::FuzzOp(op, c, s, log);
  EXPECT_EQ(r.cases, 40);
  ASSERT_GT(r.failed, 0) << log.str();
  // The steering reached both options (T <= 2 never fails, T >= 3 with D >= 2 does).
  EXPECT_GT(r.coverage.at("rows: T in 1..2"), 0);
  EXPECT_GT(r.coverage.at("rows: T in 3..100"), 0);
  const fuzz::Found& f = r.failures.front();
  EXPECT_FALSE(f.repeat);
  const Params shrunk = Params::FromIdentity(f.shrunk.id);
  EXPECT_EQ(shrunk.Int("T"), 3) << f.shrunk.id;
  EXPECT_EQ(shrunk.Int("D"), 2) << f.shrunk.id;
  EXPECT_EQ(f.shrunk.status, Outcome::kFailedIncorrect);
  EXPECT_NE(f.shrunk.repro.find("--case"), std::string::npos);
  ASSERT_FALSE(f.saved.empty()) << log.str();
  EXPECT_TRUE(fs::exists(fs::path(f.saved) / "manifest.json"));
  EXPECT_TRUE(fs::exists(fs::path(f.saved) / "fuzz.json"));
  EXPECT_TRUE(fs::exists(fs::path(f.saved) / "x.npy"));
  // Later failures of the same kind are counted, not shrunk again.
  for (std::size_t k = 1; k < r.failures.size(); ++k) EXPECT_TRUE(r.failures[k].repeat);
  fs::remove_all(s.save_dir);
}

TEST(Engine, ACorrectOpPassesAndTheStreamIsReproducible) {
  OpSpec op = ToyOp();
  op.run = [](const vt::ExecContext&, const Workspace& ws) {
    const vt::Tensor& x = ws["x"];
    const vt::Tensor& out = ws["out"];
    for (int64_t i = 0; i < x.shape[0]; ++i) {
      for (int64_t j = 0; j < x.shape[1]; ++j) {
        static_cast<float*>(out.data)[i * out.stride[0] + j] = static_cast<const float*>(x.data)[i * x.stride[0] + j];
      }
    }
  };
  fuzz::Campaign c;
  c.op = op.name;
  c.axes = {{"rows", {fuzz::IntIn("T", 1, 2), fuzz::IntIn("T", 3, 100)}}};
  fuzz::Settings s;
  s.seed = 5;
  s.max_cases = 30;
  s.threads = {1};
  s.modes = {"oracle"};
  s.quiet = true;
  std::ostringstream log;
  const fuzz::OpReport a = fuzz::FuzzOp(op, c, s, log), b = fuzz::FuzzOp(op, c, s, log);
  EXPECT_EQ(a.failed, 0) << log.str();
  EXPECT_EQ(a.coverage, b.coverage);  // the same seed draws the same cases
  // Two shards together draw what one run draws.
  s.shard_count = 2;
  s.max_cases = 15;
  const fuzz::OpReport s0 = fuzz::FuzzOp(op, c, s, log);
  s.shard_index = 1;
  const fuzz::OpReport s1 = fuzz::FuzzOp(op, c, s, log);
  for (const auto& [k, n] : a.coverage) {
    EXPECT_EQ(n, (s0.coverage.count(k) ? s0.coverage.at(k) : 0) + (s1.coverage.count(k) ? s1.coverage.at(k) : 0)) << k;
  }
}

}  // namespace
}  // namespace vt::conform
