#include "harness/runner/results_doc.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <thread>

#include "harness/catalog/catalog.h"
#include "harness/modes/thread_counts.h"
#include "reports/summarize.h"
#include "vt/context.h"
#include "vt/isa.h"

// Build facts, from CMake (harness/CMakeLists.txt); "unknown" when built otherwise.
#ifndef VT_META_VERSION
#define VT_META_VERSION "unknown"
#endif
#ifndef VT_META_BUILD_TYPE
#define VT_META_BUILD_TYPE "unknown"
#endif
#ifndef VT_META_CXX_FLAGS
#define VT_META_CXX_FLAGS "unknown"
#endif
#ifndef VT_META_CMAKE_VERSION
#define VT_META_CMAKE_VERSION "unknown"
#endif
#ifndef VT_META_TORCH_VERSION
#define VT_META_TORCH_VERSION ""
#endif
#ifndef VT_META_NVCC_VERSION
#define VT_META_NVCC_VERSION ""
#endif
#ifndef VT_META_HAVE_TORCH
#define VT_META_HAVE_TORCH 0
#endif
#ifndef VT_META_HAVE_CUDA
#define VT_META_HAVE_CUDA 0
#endif
#ifndef VT_META_HAVE_CUDA_EMU
#define VT_META_HAVE_CUDA_EMU 0
#endif

namespace vt::conform {
namespace {

using J = nlohmann::ordered_json;

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

J Number(double v) { return std::isfinite(v) ? J(v) : J(); }

// The first line `cmd` prints, "" when it fails.
std::string FirstLine(const std::string& cmd) {
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  if (!p) return "";
  char b[256] = {};
  if (std::fgets(b, sizeof b, p.get()) == nullptr) return "";
  std::string s(b);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

J OrNull(const std::string& s) { return s.empty() ? J() : J(s); }

J Names(const std::vector<std::string>& v) {
  J a = J::array();
  for (const auto& s : v) a.push_back(s);
  return a;
}

// The dtypes a case names ("bf16+f32"), from the Params part of its id
// ("op(x=bf16,...,seed=...)" then "!error" / "#claim" / nothing); "" when the
// id is not of that form (golden folders).
std::string CaseDtypes(const std::string& id) {
  const std::size_t open = id.find('('), close = id.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  try {
    const Params p = Params::FromIdentity(id.substr(0, close + 1));
    std::vector<std::string> names;
    for (const auto& [k, v] : p.args.items()) {
      if (!v.is_string() || !vt::ParseDType(v.get<std::string>())) continue;
      const std::string n = v.get<std::string>();
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
    std::sort(names.begin(), names.end());
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : "+") + n;
    return s;
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

std::string GitSha() {
  const std::string s = FirstLine(std::string("git -C '") + VT_SOURCE_DIR + "' rev-parse HEAD 2>/dev/null");
  return s.empty() ? "unknown" : s;
}

bool GitDirty() {
  return !FirstLine(std::string("git -C '") + VT_SOURCE_DIR + "' status --porcelain --untracked-files=no 2>/dev/null")
              .empty();
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

J CaseJson(const CaseResult& r, const std::string& backend) {
  const OpSpec* spec = FindOp(r.op);
  return {{"id", r.id},
          {"op", r.op},
          {"family", spec != nullptr ? spec->family : std::string()},
          {"mode", r.mode},
          {"backend", backend},
          {"dtypes", CaseDtypes(r.id)},
          {"tier", std::string(Name(r.tier))},
          {"status", std::string(Name(r.status))},
          {"reason", r.reason},
          {"detail", r.detail},
          {"tolerance", r.tolerance},
          {"headroom", Number(r.headroom)},
          {"unjudged", r.unjudged},
          {"partial", r.partial},
          {"metrics", r.metrics},
          {"seed", Hex(r.seed)},
          {"repro", r.repro},
          {"seconds", r.seconds}};
}

J MetaJson(const RunConfig& cfg, const RunMeta& meta) {
  J threads_mode = J::array();
  for (int t : ThreadsModeCounts()) threads_mode.push_back(t);
  const std::string torch_version = VT_META_TORCH_VERSION, nvcc_version = VT_META_NVCC_VERSION;
  return {{"tool", meta.tool},
          {"tool_version", VT_META_VERSION},
          {"command", meta.command},
          {"git_sha", GitSha()},
          {"git_dirty", GitDirty()},
          {"compiler", CompilerVersion()},
          {"compiler_flags", VT_META_CXX_FLAGS},
          {"build_type", VT_META_BUILD_TYPE},
          {"cpu", CpuModel()},
          {"cpu_count", static_cast<int>(std::thread::hardware_concurrency())},
          {"isa", std::string(vt::Name(vt::DefaultIsa()))},
          {"isa_best", std::string(vt::Name(vt::BestIsa()))},
          {"date", NowUtc()},
          {"tier", std::string(Name(cfg.tier))},
          {"seed", Hex(cfg.seed)},
          {"threads", cfg.threads > 0 ? cfg.threads : vt::DefaultThreads()},
          {"threads_mode", threads_mode},
          {"shard", meta.shard},
          {"selection", {{"ops", Names(meta.ops)}, {"modes", Names(meta.modes)}, {"case", meta.case_id}}},
          {"backend", std::string(vt::Name(cfg.cuda_backend))},
          {"cuda", {{"nvcc", VT_META_HAVE_CUDA != 0}, {"emu", VT_META_HAVE_CUDA_EMU != 0}}},
          {"torch", VT_META_HAVE_TORCH != 0},
          {"versions",
           {{"vt", VT_META_VERSION},
            {"cmake", VT_META_CMAKE_VERSION},
            {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_PATCH)},
            {"libtorch", OrNull(torch_version)},
            {"nvcc", OrNull(nvcc_version)}}},
          {"seconds", 0.0}};
}

J ResultsDocument(const Summary& s, const RunConfig& cfg, const RunMeta& meta) {
  J doc = J::object();
  doc["schema_version"] = vt::reports::kSchemaVersion;
  doc["meta"] = MetaJson(cfg, meta);
  doc["meta"]["seconds"] = s.seconds;
  doc["summary"] = J::object();  // filled from the cases below (keeps the key order)
  doc["matrix"] = J::object();
  doc["cases_scope"] = "all";
  J cases = J::array();
  // The cuda mode runs on the run's CUDA backend; every other mode on the CPU.
  for (const CaseResult& r : s.results) {
    cases.push_back(CaseJson(r, r.mode == "cuda" ? std::string(vt::Name(cfg.cuda_backend)) : "cpu"));
  }
  doc["cases"] = std::move(cases);
  vt::reports::Summarize(doc);
  return doc;
}

}  // namespace vt::conform
