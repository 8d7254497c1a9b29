// harness/cli/options: good command lines parse to the values they say (every
// seed form, the edges of every range), bad ones throw UsageError naming the
// flag; reports/atomic_file: a run's first act removes the previous reports.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/cli/options.h"
#include "reports/atomic_file.h"
#include "reports/report.h"

namespace vt::conform::cli {
namespace {

namespace fs = std::filesystem;

const Vocabulary& Voc() {
  static const Vocabulary v{{"rms_norm", "l2_norm"}, {"oracle", "threads", "equivalence", "negative", "golden"},
                            "/r", "/s"};
  return v;
}

template <typename Parse>
auto Call(Parse parse, const char* tool, std::vector<const char*> args) {
  args.insert(args.begin(), tool);
  return parse(static_cast<int>(args.size()), args.data(), Voc());
}

ConformOptions Conform(std::vector<const char*> args) { return Call(ParseConformOptions, "vt-conform", args); }

TEST(Options, SeedsInEveryAcceptedForm) {
  EXPECT_EQ(Conform({}).seed, kDefaultSeedValue);
  EXPECT_EQ(Conform({"--seed", "0x5eed2026"}).seed, 0x5eed2026u);
  EXPECT_EQ(Conform({"--seed", "0XFF"}).seed, 255u);
  EXPECT_EQ(Conform({"--seed", "1234"}).seed, 1234u);
  EXPECT_EQ(Conform({"--seed", "0"}).seed, 0u);
  EXPECT_EQ(Conform({"--seed=7"}).seed, 7u);
  EXPECT_EQ(Conform({"--seed", "18446744073709551615"}).seed, UINT64_MAX);
  EXPECT_EQ(Conform({"--seed", "0xffffffffffffffff"}).seed, UINT64_MAX);
}

TEST(Options, StrictNumberParsers) {
  uint64_t u = 42;
  for (const char* bad : {"", "0x", "-1", "+1", " 1", "1 ", "12abc", "0x1g", "18446744073709551616",
                          "0x10000000000000000", "1e3", "0b1"}) {
    EXPECT_FALSE(ParseU64(bad, u)) << "'" << bad << "'";
  }
  EXPECT_EQ(u, 42u) << "a refused value must not be half-written";
  int i = 0;
  EXPECT_TRUE(ParseInt("64", 1, 64, i));
  EXPECT_EQ(i, 64);
  EXPECT_FALSE(ParseInt("65", 1, 64, i));
  EXPECT_FALSE(ParseInt("0", 1, 64, i));
  EXPECT_FALSE(ParseInt("-1", 1, 64, i));
  EXPECT_FALSE(ParseInt("99999999999999999999", 1, 64, i));
}

TEST(Options, RangesAtTheirEdges) {
  EXPECT_EQ(Conform({"--threads", "1"}).threads, 1);
  EXPECT_EQ(Conform({"--threads", "64"}).threads, 64);
  EXPECT_EQ(Conform({}).threads, 0);  // 0 = the process default, never typed
  const ConformOptions s = Conform({"--shard", "3/8"});
  EXPECT_EQ(s.shard_index, 3);
  EXPECT_EQ(s.shard_count, 8);
  EXPECT_EQ(Conform({"--shard", "0/1"}).shard_count, 1);
  const FuzzOptions f = Call(ParseFuzzOptions, "vt-fuzz", {"--op", "l2_norm", "--cases", "1"});
  EXPECT_EQ(f.cases, 1);
  EXPECT_EQ((std::vector<std::string>{"l2_norm"}), f.ops);
  EXPECT_EQ(f.save_dir, "/s");
  EXPECT_TRUE(f.modes.empty());  // the campaign's modes
  EXPECT_FALSE(f.seed_given);
  const FuzzOptions g = Call(ParseFuzzOptions, "vt-fuzz",
                             {"--all", "--time", "120", "--threads", "1,16", "--mode", "oracle,negative", "--dtype",
                              "bf16", "--shard", "1/3", "--seed", "7", "--json", "/j.json"});
  EXPECT_TRUE(g.all);
  EXPECT_EQ(g.seconds, 120);
  EXPECT_EQ((std::vector<int>{1, 16}), g.threads);
  EXPECT_EQ((std::vector<std::string>{"oracle", "negative"}), g.modes);
  EXPECT_EQ((std::vector<std::string>{"bf16"}), g.dtypes);
  EXPECT_EQ(g.shard_index, 1);
  EXPECT_EQ(g.shard_count, 3);
  EXPECT_TRUE(g.seed_given);
  EXPECT_EQ(g.seed, 7u);
  EXPECT_EQ(g.json, "/j.json");
  EXPECT_EQ(Call(ParseFuzzOptions, "vt-fuzz", {"--replay", "/saved"}).replay_dir, "/saved");
  EXPECT_TRUE(Call(ParseFuzzOptions, "vt-fuzz", {"--list"}).list);
}

TEST(Options, FuzzUpstreamFlags) {
  const FuzzOptions u = Call(ParseFuzzOptions, "vt-fuzz", {"--op", "rms_norm", "--upstream"});
  EXPECT_TRUE(u.upstream);
  EXPECT_EQ(u.upstream_timeout, 120);
  EXPECT_EQ(Call(ParseFuzzOptions, "vt-fuzz", {"--all", "--upstream", "--upstream-timeout", "5"}).upstream_timeout, 5);
  auto refused = [](std::vector<const char*> args, const std::string& flag) {
    try {
      Call(ParseFuzzOptions, "vt-fuzz", args);
      ADD_FAILURE() << "accepted: " << flag;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  };
  refused({"--op", "rms_norm", "--upstream-timeout", "5"}, "--upstream-timeout");  // without --upstream
  refused({"--op", "rms_norm", "--upstream", "--upstream-timeout", "0"}, "--upstream-timeout");
  refused({"--replay", "/saved", "--upstream"}, "--upstream");
  refused({"--op", "rms_norm", "--upstream", "--mode", "oracle"}, "--upstream");
}

TEST(Options, ListsAndNames) {
  const ConformOptions o = Conform({"--op", "rms_norm,l2_norm", "--mode", "oracle", "--mode", "negative",
                                    "--tier", "smoke", "--report", "/x", "--quiet", "--no-isolate"});
  EXPECT_EQ((std::vector<std::string>{"rms_norm", "l2_norm"}), o.ops);
  EXPECT_EQ((std::vector<std::string>{"oracle", "negative"}), o.modes);
  EXPECT_EQ(o.tier, Tier::kSmoke);
  EXPECT_EQ(o.report_dir, "/x");
  EXPECT_TRUE(o.quiet && o.no_isolate);
  EXPECT_EQ(Conform({}).report_dir, "/r");
  const GoldenOptions g = Call(ParseGoldenOptions, "vt-golden", {"check", "/a", "/b", "--json", "o.json"});
  EXPECT_EQ(g.command, "check");
  EXPECT_EQ((std::vector<std::string>{"/a", "/b"}), g.dirs);
  EXPECT_EQ(g.json, "o.json");
  EXPECT_EQ(Call(ParseGoldenOptions, "vt-golden", {"lock", "/a", "--out", "l.json"}).out, "l.json");
}

// The message names the flag; what it accepts is in the same line.
void ExpectRefused(std::vector<const char*> args, const std::string& flag) {
  try {
    Conform(args);
    ADD_FAILURE() << "accepted: " << (args.empty() ? "" : args[0]) << " ...";
  } catch (const UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(flag), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(Options, BadFlagsThrowUsageErrorNamingTheFlag) {
  ExpectRefused({"--seed", "12abc"}, "--seed");
  ExpectRefused({"--threads", "65"}, "--threads");
  ExpectRefused({"--shard", "2/2"}, "--shard");
  ExpectRefused({"--op", "rms_norm,"}, "--op");
  ExpectRefused({"--op", "rms_norm", "--op", "rms_norm"}, "--op");
  ExpectRefused({"--mode", "oracle\nthreads"}, "--mode");  // the echoed value stays on one line
  ExpectRefused({"--case", "rms_norm(seed=1)"}, "--case");  // without one --op and one --mode
  ExpectRefused({"--nope"}, "--nope");
}

TEST(Options, HelpListsEveryFlagWithItsDefault) {
  const ConformOptions o = Conform({"--help"});
  ASSERT_TRUE(o.help);
  for (const char* flag : {"--list", "--coverage", "--op", "--mode", "--tier", "--seed", "--threads", "--case",
                           "--golden", "--report", "--shard", "--no-isolate", "--quiet"}) {
    EXPECT_NE(o.help_text.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(o.help_text.find("default 0x5eed2026"), std::string::npos);
  const GoldenOptions g = Call(ParseGoldenOptions, "vt-golden", {"--help"});
  for (const char* flag : {"check", "lock", "--json", "--threads", "--quiet", "--out"}) {
    EXPECT_NE(g.help_text.find(flag), std::string::npos) << flag;
  }
}

std::string Slurp(const fs::path& p) {
  std::ifstream f(p);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

TEST(AtomicFile, StartReportsLeavesNoEarlierPassBehind) {
  const fs::path dir = fs::temp_directory_path() / ("vt-cli-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "report.md") << "all passed\n";
  std::ofstream(dir / "report.html") << "all passed\n";
  std::ofstream(dir / "results.json") << R"({"schema":1,"status":"finished"})";
  vt::reports::StartReports(nlohmann::ordered_json{{"tool", "test"}}, dir.string());
  EXPECT_FALSE(fs::exists(dir / "report.md"));
  EXPECT_FALSE(fs::exists(dir / "report.html"));
  const auto doc = nlohmann::json::parse(Slurp(dir / "results.json"));
  EXPECT_EQ(doc.at("status"), "running");
  vt::reports::AtomicWriteFile((dir / "x.txt").string(), "new");
  EXPECT_EQ(Slurp(dir / "x.txt"), "new");
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.path().filename().string()[0] == '.';
  EXPECT_EQ(files, 0) << "a temporary file was left behind";
  fs::remove_all(dir);
}

TEST(AtomicFile, ASavedFolderAppearsWholeAndReplacesTheOldOne) {
  const fs::path root = fs::temp_directory_path() / ("vt-cli-dir-" + std::to_string(::getpid()));
  const std::string dir = (root / "sub" / "case").string();
  for (const char* content : {"first", "second"}) {
    const std::string tmp = vt::reports::MakeTempDirNextTo(dir);
    EXPECT_EQ(fs::path(tmp).parent_path(), fs::path(dir).parent_path()) << "a rename across folders is not atomic";
    EXPECT_FALSE(fs::exists(fs::path(dir) / "f.txt") && Slurp(fs::path(dir) / "f.txt") == content);
    std::ofstream(fs::path(tmp) / "f.txt") << content;
    vt::reports::CommitTempDir(tmp, dir);
    EXPECT_EQ(Slurp(fs::path(dir) / "f.txt"), content);
    EXPECT_FALSE(fs::exists(tmp));
  }
  int entries = 0;
  for (const auto& e : fs::directory_iterator(root / "sub")) entries += e.exists() ? 1 : 0;
  EXPECT_EQ(entries, 1) << "the replaced folder or a temporary one was left behind";
  fs::remove_all(root);
}

TEST(AtomicFile, AWriteErrorIsOneLineNamingThePath) {
  try {
    vt::reports::AtomicWriteFile("/proc/forbidden/results.json", "x");
    ADD_FAILURE() << "wrote into /proc";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("/proc/forbidden/results.json"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace vt::conform::cli
