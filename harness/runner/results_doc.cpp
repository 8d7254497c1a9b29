#include "harness/runner/results_doc.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>

#include "vt/context.h"

namespace vt::conform {
namespace {

std::string Hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string NowUtc() {
  const std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return b;
}

nlohmann::ordered_json Number(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); }

}  // namespace

std::string GitSha() {
  const std::string cmd = std::string("git -C '") + VT_SOURCE_DIR + "' rev-parse --short HEAD 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  if (!p) return "unknown";
  char b[64] = {};
  if (std::fgets(b, sizeof b, p.get()) == nullptr) return "unknown";
  std::string s(b);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "unknown" : s;
}

std::string CompilerVersion() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string CpuModel() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

nlohmann::ordered_json CaseJson(const CaseResult& r) {
  return {{"id", r.id},           {"op", r.op},
          {"mode", r.mode},       {"tier", std::string(Name(r.tier))},
          {"status", std::string(Name(r.status))},
          {"reason", r.reason},   {"detail", r.detail},
          {"tolerance", r.tolerance},
          {"headroom", Number(r.headroom)},
          {"unjudged", r.unjudged},
          {"partial", r.partial},
          {"metrics", r.metrics}, {"seed", Hex(r.seed)},
          {"repro", r.repro},     {"seconds", r.seconds}};
}

nlohmann::ordered_json ResultsDocument(const Summary& s, const RunConfig& cfg, const RunMeta& meta) {
  using J = nlohmann::ordered_json;
  auto count = [&](Outcome o) {
    auto it = s.counts.find(o);
    return it == s.counts.end() ? 0 : it->second;
  };
  J doc;
  doc["schema"] = 1;
  doc["meta"] = {{"tool", meta.tool},
                 {"command", meta.command},
                 {"git_sha", GitSha()},
                 {"compiler", CompilerVersion()},
                 {"cpu", CpuModel()},
                 {"date", NowUtc()},
                 {"tier", std::string(Name(cfg.tier))},
                 {"seed", Hex(cfg.seed)},
                 {"threads", cfg.threads > 0 ? cfg.threads : vt::DefaultThreads()},
                 {"isa", std::string(vt::Name(vt::DefaultIsa()))},
                 {"isa_best", std::string(vt::Name(vt::BestIsa()))},
                 {"shard", meta.shard},
                 {"seconds", s.seconds}};
  doc["summary"] = {{"passed", count(Outcome::kPassed)},
                    {"failed_incorrect", count(Outcome::kFailedIncorrect)},
                    {"failed_error", count(Outcome::kFailedError)},
                    {"mistrusted", count(Outcome::kMistrusted)},
                    {"skipped", count(Outcome::kSkipped)},
                    {"unsupported", count(Outcome::kUnsupported)},
                    {"passed_partial", s.partial_passes},
                    {"final_line", s.FinalLine()}};
  J matrix = J::object();
  for (const CaseResult& r : s.results) {
    J& cell = matrix[r.op][r.mode];
    if (cell.is_null()) cell = {{"passed", 0}, {"failed", 0}, {"skipped", 0}, {"partial", 0}, {"max_headroom", 0.0}};
    if (r.status == Outcome::kPassed) cell["passed"] = cell["passed"].get<int>() + 1;
    if (r.status == Outcome::kPassed && r.unjudged > 0) cell["partial"] = cell["partial"].get<int>() + 1;
    if (IsFailure(r.status)) cell["failed"] = cell["failed"].get<int>() + 1;
    if (r.status == Outcome::kSkipped || r.status == Outcome::kUnsupported) cell["skipped"] = cell["skipped"].get<int>() + 1;
    if (std::isfinite(r.headroom)) cell["max_headroom"] = std::max(cell["max_headroom"].get<double>(), r.headroom);
  }
  doc["matrix"] = matrix;
  J cases = J::array();
  for (const CaseResult& r : s.results) cases.push_back(CaseJson(r));
  doc["cases"] = cases;
  return doc;
}

}  // namespace vt::conform
