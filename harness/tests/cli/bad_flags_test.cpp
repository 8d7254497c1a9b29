// The three built CLIs against bad command lines, as a new user types them:
// each must exit 1 or 2 (never 0, never a signal, never hang) with exactly one
// line on stderr that names the flag. A good command line must still run.
// Paths of the binaries come from CMake (VT_CONFORM_BIN, VT_GOLDEN_BIN, VT_FUZZ_BIN, VT_REPORT_BIN).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  bool exited = false, timed_out = false;
  int code = -1, signal = 0;
  std::string err;
};

// fork + exec with stdout to /dev/null and stderr captured; killed after
// `limit` (a parser that lets a bad flag through may start a long run).
Outcome RunTool(const std::string& bin, const std::vector<std::string>& args, std::chrono::seconds limit) {
  int pipefd[2];
  if (::pipe(pipefd) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, 1);
    ::dup2(pipefd[1], 2);
    ::close(pipefd[0]);
    std::vector<char*> argv{const_cast<char*>(bin.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(pipefd[1]);
  Outcome o;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  char buf[4096];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      o.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd p{pipefd[0], POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    const ssize_t n = ::read(pipefd[0], buf, sizeof buf);
    if (n <= 0) break;  // stderr closed: the process is ending
    o.err.append(buf, static_cast<std::size_t>(n));
  }
  ::close(pipefd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  o.exited = WIFEXITED(status);
  o.code = o.exited ? WEXITSTATUS(status) : -1;
  o.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return o;
}

const std::string kTmp = (fs::temp_directory_path() / ("vt-bad-flags-" + std::to_string(::getpid()))).string();

struct Bad {
  std::string tool;  // conform, golden, fuzz, report
  std::vector<std::string> args;
  std::string names;  // what the one line must contain (the flag)
  bool bare = false;  // no quick-run context added
};

// Keeps an accidentally accepted command short and off the build's report
// folder: the quick flags are added unless the case sets that flag itself.
std::vector<std::string> WithContext(const Bad& b) {
  std::vector<std::string> args = b.args;
  if (b.bare) return args;
  std::vector<std::vector<std::string>> ctx;
  if (b.tool == "conform") {
    ctx = {{"--tier", "smoke"}, {"--op", "rms_norm"}, {"--mode", "oracle"}, {"--report", kTmp + "/r"}, {"--quiet"}};
  } else if (b.tool == "fuzz") {
    ctx = {{"--op", "rms_norm"}, {"--tier", "smoke"}, {"--cases", "2"}, {"--save", kTmp + "/s"}};
  }
  for (const auto& c : ctx) {
    bool given = false;
    for (const auto& a : b.args) given |= a == c[0] || a.rfind(c[0] + "=", 0) == 0;
    if (!given) args.insert(args.end(), c.begin(), c.end());
  }
  return args;
}

std::string Bin(const std::string& tool) {
  if (tool == "report") return VT_REPORT_BIN;
  return tool == "conform" ? VT_CONFORM_BIN : tool == "golden" ? VT_GOLDEN_BIN : VT_FUZZ_BIN;
}

// A runnable rms_norm oracle case id with one knob's text replaced
// ("T=2" -> "T=2.5"): one bad knob in an otherwise valid id.
std::string RmsNormIdWith(const std::string& knob, const std::string& replacement) {
  std::string id =
      "rms_norm(x=bf16,w=bf16,out=f32,T=2,H=17,gemma=0,residual=f32,eps=1e-05,scale=30.0,layout=packed,"
      "values=normal,seed=0x62522bc54999a249)";
  id.replace(id.find(knob), knob.size(), replacement);
  return id;
}

std::vector<Bad> BadCommandLines() {
  const std::string nog = "/nonexistent-golden-dir";
  return {
      {"conform", {"--seed", "abc"}, "--seed"},
      {"conform", {"--seed", "99999999999999999999999"}, "--seed"},
      {"conform", {"--seed", "18446744073709551616"}, "--seed"},  // 2^64
      {"conform", {"--seed", "12abc"}, "--seed"},
      {"conform", {"--seed", "-1"}, "--seed"},
      {"conform", {"--seed", "+5"}, "--seed"},
      {"conform", {"--seed", ""}, "--seed"},
      {"conform", {"--seed", "0x"}, "--seed"},
      {"conform", {"--seed", " 5"}, "--seed"},
      {"conform", {"--seed", "0x1g"}, "--seed"},
      {"conform", {"--seed"}, "--seed", true},  // missing value
      {"conform", {"--threads", "abc"}, "--threads"},
      {"conform", {"--threads", "-1"}, "--threads"},
      {"conform", {"--threads", "0"}, "--threads"},
      {"conform", {"--threads", "100000"}, "--threads"},
      {"conform", {"--threads", "65"}, "--threads"},
      {"conform", {"--threads", "4x"}, "--threads"},
      {"conform", {"--shard", "a/b"}, "--shard"},
      {"conform", {"--shard", "0/4/9"}, "--shard"},
      {"conform", {"--shard", "4/4"}, "--shard"},
      {"conform", {"--shard", "1"}, "--shard"},
      {"conform", {"--shard", "0/0"}, "--shard"},
      {"conform", {"--shard", "-1/4"}, "--shard"},
      {"conform", {"--shard", "/4"}, "--shard"},
      {"conform", {"--jobs", "0"}, "--jobs"},
      {"conform", {"--jobs", "abc"}, "--jobs"},
      {"conform", {"--jobs", "65"}, "--jobs"},
      {"conform", {"--jobs", "2", "--shard", "0/2"}, "--jobs"},
      {"conform", {"--jobs", "2", "--case", "rms_norm(T=7,seed=0x1)"}, "--jobs"},
      {"conform", {"--op", ""}, "--op"},
      {"conform", {"--op", "nosuchop"}, "--op"},
      {"conform", {"--op", "rms_norm,,l2_norm"}, "--op"},
      {"conform", {"--op", "rms_norm,"}, "--op"},
      {"conform", {"--op", "rms_norm", "--op", "rms_norm"}, "--op"},
      {"conform", {"--mode", ""}, "--mode"},
      {"conform", {"--mode", "bogus"}, "--mode"},
      {"conform", {"--mode", "oracle,bogus"}, "--mode"},
      {"conform", {"--tier", "huge"}, "--tier"},
      {"conform", {"--tier", ""}, "--tier"},
      {"conform", {"--case", ""}, "--case"},
      {"conform", {"--case", "garbage"}, "--case"},
      {"conform", {"--case", "rms_norm(T=7"}, "--case"},
      {"conform", {"--case", "rms_norm(T=7,seed=12abc)"}, "--case"},
      {"conform", {"--case", "rms_norm(T=7)"}, "--case"},
      {"conform", {"--case", "l2_norm(T=7,seed=0x1)"}, "--case"},  // not the --op
      {"conform", {"--mode", "equivalence", "--case", "rms_norm(T=7,seed=0x1)"}, "--case"},  // no #claim
      {"conform", {"--mode", "negative", "--case", "rms_norm(T=7,seed=0x1)"}, "--case"},     // no !error
      {"conform", {"--op", "rms_norm,l2_norm", "--case", "rms_norm(T=7,seed=0x1)"}, "--case"},
      // Knobs of the wrong kind (issue 21): refused, never run as another case.
      {"conform", {"--case", RmsNormIdWith("T=2", "T=2.5")}, "argument 'T' must be an integer"},
      {"conform", {"--case", RmsNormIdWith("T=2", "T=2.0")}, "argument 'T' must be an integer"},
      {"conform", {"--case", RmsNormIdWith("T=2", "T=abc")}, "argument 'T' must be an integer"},
      {"conform", {"--case", RmsNormIdWith("eps=1e-05", "eps=x")}, "argument 'eps' must be a number"},
      {"conform", {"--case", RmsNormIdWith("x=bf16", "x=7")}, "argument 'x' must be a name"},
      {"conform", {"--case", "rms_norm(T=7,seed=0x1)"}, "--case"},  // knobs missing
      {"conform", {"--report", "/proc/forbidden/x"}, "--report"},
      {"conform", {"--report", "/etc/passwd/x"}, "--report"},  // under a file
      {"conform", {"--report", ""}, "--report"},
      {"conform", {"--junit", "/proc/forbidden/x.xml"}, "--junit"},
      {"conform", {"--junit", "/tmp"}, "--junit"},  // a folder
      {"conform", {"--junit", ""}, "--junit"},
      {"conform", {"--baseline", "/nonexistent-baseline.json"}, "--baseline"},
      {"conform", {"--baseline", "/etc/passwd"}, "--baseline"},  // not JSON
      {"conform", {"--baseline", "/proc/self/status"}, "--baseline"},
      {"conform", {"--golden", ""}, "--golden"},
      {"conform", {"--mode", "golden", "--golden", "/nonexistent-golden-dir"}, "--golden"},
      {"conform", {"--mode", "golden", "--golden", "/etc/passwd"}, "--golden"},  // a file
      {"conform", {"--bogus"}, "--bogus"},
      {"conform", {"-x"}, "-x"},
      {"conform", {"stray"}, "stray"},
      {"fuzz", {"--cases", "abc"}, "--cases"},
      {"fuzz", {"--cases", "-5"}, "--cases"},
      {"fuzz", {"--cases", "0"}, "--cases"},
      {"fuzz", {"--cases", "99999999999"}, "--cases"},
      {"fuzz", {"--mode", ""}, "--mode"},
      {"fuzz", {"--mode", "golden"}, "--mode"},
      {"fuzz", {"--mode", "oracle,oracle"}, "--mode"},
      {"fuzz", {"--threads", "1,0"}, "--threads"},
      {"fuzz", {"--threads", "65"}, "--threads"},
      {"fuzz", {"--dtype", "f64"}, "--dtype"},
      {"fuzz", {"--time", "0"}, "--time"},
      {"fuzz", {"--time", "abc"}, "--time"},
      {"fuzz", {"--shard", "3/3"}, "--shard"},
      {"fuzz", {"--all"}, "--op"},  // --op and --all together
      {"fuzz", {"--replay", "/nonexistent-fuzz-replay"}, "--replay", true},
      {"fuzz", {"--json", "/proc/forbidden/x.json"}, "--json"},
      {"fuzz", {"--op", ""}, "--op"},
      {"fuzz", {"--op", "nosuchop"}, "--op"},
      {"fuzz", {"--tier", "smoke"}, "--op", true},  // --op is required
      {"fuzz", {"--seed", "0x10000000000000000"}, "--seed"},
      {"fuzz", {"--threads", "0"}, "--threads"},
      {"fuzz", {"--save", "/proc/forbidden/x"}, "--save"},
      {"fuzz", {"--tier", "bogus"}, "--tier"},
      {"report", {}, "subcommand", true},
      {"report", {"frob"}, "frob", true},
      {"report", {"merge"}, "SHARD", true},
      {"report", {"merge", "/nonexistent-shard.json", "-o", kTmp + "/m"}, "/nonexistent-shard.json", true},
      {"report", {"merge", "/etc/hostname", "-o", kTmp + "/m"}, "/etc/hostname", true},  // not JSON
      {"report", {"diff", "/etc/passwd"}, "NEW", true},
      {"report", {"diff", "/etc/passwd", "/etc/passwd"}, "/etc/passwd", true},
      {"report", {"diff", "/etc/passwd", "/etc/passwd", "--factor", "0.5"}, "--factor", true},
      {"report", {"summary", "/proc/self/status"}, "/proc/self/status", true},
      {"golden", {}, "subcommand", true},
      {"golden", {"frob", nog}, "frob", true},
      {"golden", {"check"}, "DIR", true},
      {"golden", {"check", ""}, "DIR", true},
      {"golden", {"lock", nog}, "--out", true},
      {"golden", {"lock", nog, "--out", ""}, "--out", true},
      {"golden", {"lock", nog, "--out", "/etc/passwd/x"}, "--out", true},
      {"golden", {"check", nog, "--json", "/proc/forbidden/x.json"}, "--json", true},
      {"golden", {"check", nog, "--json", "/tmp"}, "--json", true},  // a folder
      {"golden", {"check", nog, "--json"}, "--json", true},
      {"golden", {"check", nog, "--threads", "0"}, "--threads", true},
      {"golden", {"check", nog, "--threads", "abc"}, "--threads", true},
      {"golden", {"check", nog, "--bogus"}, "--bogus", true},
  };
}

TEST(BadFlags, EachIsOneLineNamingTheFlagAndExitOneOrTwo) {
  const std::vector<Bad> cases = BadCommandLines();
  std::set<std::pair<std::string, std::vector<std::string>>> distinct;
  for (const Bad& b : cases) distinct.insert({b.tool, b.args});
  ASSERT_EQ(distinct.size(), cases.size()) << "a bad command line is listed twice";
  ASSERT_GE(cases.size(), 40u);
  for (const Bad& b : cases) {
    std::string shown = "vt-" + b.tool;
    for (const auto& a : b.args) shown += " '" + a + "'";
    const Outcome o = RunTool(Bin(b.tool), WithContext(b), std::chrono::seconds(60));
    EXPECT_FALSE(o.timed_out) << shown << ": hung";
    EXPECT_EQ(o.signal, 0) << shown << ": killed by signal " << o.signal << "\n" << o.err;
    EXPECT_TRUE(o.exited && (o.code == 1 || o.code == 2)) << shown << ": exit " << o.code << "\n" << o.err;
    const std::size_t nl = o.err.find('\n');
    EXPECT_TRUE(nl != std::string::npos && nl + 1 == o.err.size()) << shown << ": not one line:\n" << o.err;
    EXPECT_NE(o.err.find(b.names), std::string::npos) << shown << ": does not name " << b.names << ":\n" << o.err;
  }
  fs::remove_all(kTmp);
}

TEST(BadFlags, GoodFlagsStillRun) {
  // 2^64-1 and a 0x seed both reach the run, and the reports say "finished".
  for (const char* seed : {"18446744073709551615", "0x5eed2026"}) {
    const Outcome o = RunTool(VT_CONFORM_BIN,
                          {"--op", "rms_norm", "--mode", "oracle", "--tier", "smoke", "--threads", "2", "--shard",
                           "0/2", "--seed", seed, "--quiet", "--report", kTmp + "/good"},
                          std::chrono::seconds(120));
    EXPECT_TRUE(o.exited && o.code == 0) << seed << ": exit " << o.code << "\n" << o.err;
    EXPECT_TRUE(fs::exists(kTmp + "/good/report.md")) << seed;
  }
  const Outcome h = RunTool(VT_GOLDEN_BIN, {"--help"}, std::chrono::seconds(30));
  EXPECT_TRUE(h.exited && h.code == 0);
  fs::remove_all(kTmp);
}

// --jobs N: N processes, each a shard, merged into the document one process
// writes - every case, in order, with the same verdict, reason and figures
// (only timings differ) - and the run's exit status; a failure in a job
// still fails the run.
nlohmann::json CasesWithoutTimes(const std::string& results) {
  std::ifstream f(results);
  nlohmann::json d = nlohmann::json::parse(f);
  nlohmann::json cases = d.at("cases");
  for (auto& c : cases) c.erase("seconds");
  return cases;
}

TEST(Jobs, MergedRunIsTheOneProcessRun) {
  const std::vector<std::string> run = {"--op", "rms_norm,embedding", "--mode", "oracle,threads,negative",
                                        "--tier", "smoke", "--seed", "0x77", "--quiet"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = run;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const Outcome one = RunTool(VT_CONFORM_BIN, with({"--report", kTmp + "/one"}), std::chrono::seconds(300));
  const Outcome three =
      RunTool(VT_CONFORM_BIN, with({"--jobs", "3", "--report", kTmp + "/three"}), std::chrono::seconds(300));
  ASSERT_TRUE(one.exited && one.code == 0) << one.err;
  ASSERT_TRUE(three.exited && three.code == 0) << three.err;
  const nlohmann::json a = CasesWithoutTimes(kTmp + "/one/results.json");
  const nlohmann::json b = CasesWithoutTimes(kTmp + "/three/results.json");
  ASSERT_GT(a.size(), 20u);
  EXPECT_EQ(a, b);
  EXPECT_FALSE(fs::exists(kTmp + "/three/jobs")) << "the jobs' folders are removed after the merge";
  fs::remove_all(kTmp);
}

}  // namespace
