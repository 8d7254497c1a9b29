// Unit tests of vt_reports on hand-built documents: summary, merge order and
// refusals, diff, JUnit XML, the HTML plots' axes and legends.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "reports/diff.h"
#include "reports/html_plots.h"
#include "reports/junit.h"
#include "reports/merge.h"
#include "reports/report.h"

namespace vt::reports {
namespace {

Json Case(const std::string& id, const std::string& status, double headroom = 0.5) {
  return {{"id", id},         {"op", "rms_norm"},  {"family", "norm"},   {"mode", "oracle"},
          {"backend", "cpu"}, {"dtypes", "bf16"},  {"tier", "smoke"},    {"status", status},
          {"reason", status == "PASSED" ? "" : "why"}, {"detail", ""},   {"tolerance", ""},
          {"headroom", headroom}, {"unjudged", 0}, {"partial", ""},
          {"metrics", {{"out", {{"headroom", headroom}, {"format", "f32"}}}}},
          {"seed", "0x1"},    {"repro", "vt-conform --case " + id}, {"seconds", 0.01}};
}

// A finished vt-conform document of `shard` holding `cases`.
Json Doc(const std::string& shard, Json cases, const std::string& seed = "0x5eed2026") {
  Json d = {{"schema_version", kSchemaVersion}, {"status", "finished"},
            {"meta", {{"tool", "vt-conform"}, {"git_sha", "abc"}, {"tier", "smoke"}, {"seed", seed},
                      {"isa", "avx2"}, {"shard", shard}, {"seconds", 1.0}}},
            {"summary", Json::object()}, {"matrix", Json::object()}, {"cases_scope", "all"}, {"cases", cases}};
  Summarize(d);
  return d;
}

TEST(Summary, FinalLineCountsFailuresSkipsAndReasons) {
  const Json s = SummaryJson(TallyOf(Json::array({Case("a", "PASSED"), Case("b", "FAILED_ERROR"),
                                                  Case("c", "SKIPPED"), Case("d", "MISTRUSTED")})));
  EXPECT_EQ(s["final_line"], "1 passed, 1 failed, 1 mistrusted, 1 skipped (1x why)");
}

TEST(Merge, RebuildsTheUnshardedOrder) {
  // Unsharded order c0..c4; shard i holds c_k with k % 2 == i.
  const Json merged = MergeShards({Doc("1/2", {Case("c1", "PASSED"), Case("c3", "PASSED")}),
                                   Doc("0/2", {Case("c0", "PASSED"), Case("c2", "PASSED"), Case("c4", "PASSED")})},
                                  {"b.json", "a.json"});
  std::string order;
  for (const Json& c : merged["cases"]) order += c["id"].get<std::string>() + " ";
  EXPECT_EQ(order, "c0 c1 c2 c3 c4 ");
  EXPECT_EQ(merged["summary"]["passed"], 5);
  EXPECT_EQ(merged["meta"]["shard"], "0/1");
  EXPECT_EQ(merged["meta"]["merged_from"].size(), 2u);
  EXPECT_EQ(merged["cases_scope"], "all");
}

std::string Refusal(const std::vector<Json>& docs) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < docs.size(); ++k) names.push_back("s" + std::to_string(k) + ".json");
  try {
    MergeShards(docs, names);
  } catch (const MergeError& e) {
    return e.what();
  }
  return "";
}

TEST(Merge, RefusesWhatIsNotOneWholeRun) {
  const Json a = Doc("0/2", {Case("c0", "PASSED")}), b = Doc("1/2", {Case("c1", "PASSED")});
  EXPECT_NE(Refusal({a}).find("shard 1/2 is missing"), std::string::npos);
  EXPECT_NE(Refusal({a, b, b}).find("are both shard 1/2"), std::string::npos);
  EXPECT_NE(Refusal({a, Doc("1/2", Json::array(), "0x7")}).find("seed 0x7 vs 0x5eed2026"), std::string::npos);
  EXPECT_NE(Refusal({a, Doc("1/3", Json::array())}).find("is of 2 shards"), std::string::npos);
  Json old = b;
  old["schema_version"] = 1;
  EXPECT_NE(Refusal({a, old}).find("schema_version 1"), std::string::npos);
  EXPECT_EQ(Refusal({a, b}), "");
}

TEST(Diff, NewFailureFixedDisappearedAndHeadroom) {
  const Json old_doc = Doc("0/1", {Case("a", "PASSED"), Case("b", "FAILED_INCORRECT"), Case("c", "PASSED", 0.1),
                                   Case("gone", "PASSED"), Case("tiny", "PASSED", 1e-6)});
  const Json new_doc = Doc("0/1", {Case("a", "FAILED_ERROR"), Case("b", "PASSED"), Case("c", "PASSED", 0.3),
                                   Case("tiny", "PASSED", 5e-5), Case("new", "PASSED")});
  const Json d = DiffDocs(old_doc, new_doc);
  EXPECT_EQ(d["new_failures"].size(), 1u);
  EXPECT_EQ(d["new_failures"][0]["id"], "a");
  EXPECT_EQ(d["fixed"][0]["id"], "b");
  EXPECT_EQ(d["disappeared"][0]["id"], "gone");
  EXPECT_EQ(d["appeared"][0]["id"], "new");
  ASSERT_EQ(d["headroom_grew"].size(), 1u) << "below the floor (1e-3) a 50x change is noise";
  EXPECT_EQ(d["headroom_grew"][0]["id"], "c");
  EXPECT_TRUE(d["fails"].get<bool>());
  EXPECT_FALSE(DiffDocs(old_doc, old_doc)["fails"].get<bool>());
  EXPECT_NE(DiffMarkdown(d).find("new failures: 1"), std::string::npos);
}

TEST(JUnit, OneTestcasePerCaseEscapedFailureWithRepro) {
  Json bad = Case("x<&\"y\x01", "FAILED_INCORRECT");
  bad["detail"] = "  [3] got 2 want 1\n";
  const std::string xml = JUnitXml(Doc("0/1", {Case("a", "PASSED"), bad, Case("s", "SKIPPED")}));
  EXPECT_NE(xml.find("name=\"x&lt;&amp;&quot;y?\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"why\" type=\"FAILED_INCORRECT\">  [3] got 2 want 1\nrepro: vt-conform"),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"SKIPPED: why\"/>"), std::string::npos);
  EXPECT_NE(xml.find("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos);
}

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Html, EveryPlotHasAxesTitlesAndALegendAndNoNan) {
  const std::string strip = HeadroomStripPlot("p", "cap", {{"rms_norm", {{0.5, 0}, {NAN, 0}, {INFINITY, 0}, {0, 0}}}},
                                              {{"oracle", "#00f"}});
  const std::string hist = HeadroomHistogram("h", "cap", {0.5, 1e-9, 3, NAN}, {"x", "#00f"});
  for (const std::string& svg : {strip, hist}) {
    EXPECT_EQ(Count(svg, "class=\"axis axis-x\""), 1);
    EXPECT_EQ(Count(svg, "class=\"axis axis-y\""), 1);
    EXPECT_EQ(Count(svg, "class=\"axis-title\""), 2);
    EXPECT_GE(Count(svg, "class=\"legend-entry\""), 2);
    EXPECT_EQ(svg.find("nan"), std::string::npos);
    EXPECT_EQ(svg.find("inf"), std::string::npos);
  }
  EXPECT_EQ(Count(strip, "<circle cx"), 2 + 1) << "two placeable points plus the legend's dot";
}

TEST(Html, HeadroomPerDtypeAndNoneForEmptySections) {
  Json c16 = Case("b", "PASSED", 0.9);
  c16["metrics"]["out"]["format"] = "bf16";
  const std::string html = RenderHtml(Doc("0/1", {Case("a", "PASSED", 1e-4), c16}));
  EXPECT_NE(html.find("id=\"headroom-f32\""), std::string::npos);
  EXPECT_NE(html.find("id=\"headroom-bf16\""), std::string::npos);
  EXPECT_NE(html.find("id=\"hist-f32-rms_norm\""), std::string::npos);
  EXPECT_NE(html.find("Coverage: op x dtype x mode x backend"), std::string::npos);
  EXPECT_GE(Count(html, "<p class=\"none\">none"), 4) << "baseline, failures, partial verdicts, skips";
  const std::string empty = RenderHtml(Doc("0/1", Json::array()));
  EXPECT_GE(Count(empty, "<p class=\"none\">none"), 8);
  EXPECT_EQ(Count(empty, "<figure"), 0);
}

}  // namespace
}  // namespace vt::reports

namespace vt::reports {
namespace {

Json Unjudgeable(const std::string& id) {
  Json c = Case(id, "SKIPPED");
  c["reason"] = std::string(kUnjudgeablePrefix) + "out: the reference is all zero";
  return c;
}

// 20 cases of one op and mode, `bad` of them unjudgeable draws.
Json Cases(int bad) {
  Json cases = Json::array();
  for (int k = 0; k < 20; ++k) cases.push_back(k < bad ? Unjudgeable("u" + std::to_string(k)) : Case("p" + std::to_string(k), "PASSED"));
  return cases;
}

TEST(LostSignal, ShareAboveATenthAndAtLeastThreeFails) {
  EXPECT_TRUE(LostSignal(Cases(0)).empty());
  EXPECT_TRUE(LostSignal(Cases(2)).empty());  // 2 of 20: a tenth, not more
  const std::vector<std::string> lines = LostSignal(Cases(3));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("3 of 20 cases could not be judged"), std::string::npos) << lines[0];
}

TEST(LostSignal, CountedPerOpAndModeAndOnlyForUnjudgeableSkips) {
  Json cases = Cases(3);
  for (Json& c : cases) c["mode"] = c.value("id", "").front() == 'u' ? "threads" : "oracle";  // 3 of 3 in threads
  EXPECT_EQ(LostSignal(cases).size(), 1u);
  Json other = Cases(0);
  for (int k = 0; k < 5; ++k) other.push_back(Case("s" + std::to_string(k), "SKIPPED"));  // another skip reason
  EXPECT_TRUE(LostSignal(other).empty());
}

// vt-fuzz counts per mode instead of listing cases: the same rule on counts.
TEST(LostSignal, LineFromCountsAppliesTheSameRule) {
  EXPECT_EQ(LostSignalLine("op", "oracle", 2, 5), "");     // fewer than three
  EXPECT_EQ(LostSignalLine("op", "oracle", 3, 30), "");    // exactly a tenth
  EXPECT_EQ(LostSignalLine("op", "oracle", 0, 0), "");
  const std::string line = LostSignalLine("op", "oracle", 3, 29);
  EXPECT_EQ(line.rfind("op/oracle: 3 of 29 cases", 0), 0u) << line;
  // The list form and the count form agree on the same cases.
  EXPECT_EQ(LostSignal(Cases(3)).at(0), LostSignalLine("rms_norm", "oracle", 3, 20));
}

}  // namespace
}  // namespace vt::reports

namespace vt::reports {
namespace {

TEST(Summary, UnjudgeableDrawsGroupByWhatMadeThemNotTheirCounts) {
  Json a = Case("a", "SKIPPED"), b = Case("b", "SKIPPED"), c = Case("c", "SKIPPED");
  a["reason"] = std::string(kUnjudgeablePrefix) + "out: the reference is mostly zero (109 of 112 elements; ...)";
  b["reason"] = std::string(kUnjudgeablePrefix) + "out: the reference is mostly zero (23 of 24 elements; ...)";
  c["reason"] = "row_slice does not apply: fewer than 2 rows (one row)";  // other reasons kept whole
  const Json s = SummaryJson(TallyOf(Json::array({a, b, c})));
  EXPECT_EQ(s["final_line"], "0 passed, 0 failed, 3 skipped (1x row_slice does not apply: fewer than 2 rows (one row); 2x " +
                                 std::string(kUnjudgeablePrefix) + "out: the reference is mostly zero)");
}

}  // namespace
}  // namespace vt::reports
