// vt-golden: recorded upstream goldens against the kernels.
//   vt-golden check DIR... [--json FILE] [--threads N] [--quiet]
//       every case folder (a folder with manifest.json) under DIR...: its status,
//       the measured error next to the manifest's atol/rtol and next to the
//       project's own tolerance model; final line "N passed, M failed, K unsupported";
//       exit 0 only when nothing failed (UNSUPPORTED ops are reported, not failed).
//   vt-golden regen ...
//       regenerate goldens from upstream vLLM's own code: hands its arguments to
//       golden/regen/vt_golden_regen.py (python3; $VT_REGEN_TOOL overrides the
//       path), which runs vLLM in its own pinned environment (docs/goldens.md).
//   vt-golden lock DIR... --out FILE
//       record the sha256 of every file's data of every case, keyed by the case's
//       folder name and its manifest's canonical sha256 (golden_io.h: neither
//       changes when the manifest is reformatted), so a later corrupted byte in a
//       known case is refused by name (golden/checksums/*.json are read by every load).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <map>
#include <string_view>
#include <vector>

#include "harness/cli/options.h"
#include "harness/modes/golden_check.h"
#include "harness/golden/safe_file.h"
#include "harness/golden/sha256.h"
#include "harness/runner/results_doc.h"
#include "harness/runner/runner.h"
#include "reports/atomic_file.h"
#include "reports/report.h"

namespace {

using namespace vt::conform;
namespace fs = std::filesystem;

// The case folders under `roots`; false (after one line on stderr) when a
// root cannot be listed.
bool ListCaseDirs(const std::vector<std::string>& roots, std::vector<std::string>& dirs) {
  try {
    dirs = FindGoldenDirs(roots);
  } catch (const GoldenError& e) {
    std::cerr << "vt-golden: " << e.what() << "\n";
    return false;
  }
  return true;
}

int Check(const std::vector<std::string>& roots, const std::string& json, int threads, bool quiet,
          const std::string& command) {
  RunConfig cfg;
  cfg.threads = threads;
  cfg.golden_dirs = roots;
  std::vector<std::string> dirs;
  if (!ListCaseDirs(roots, dirs)) return 2;
  Summary s;
  for (const std::string& dir : dirs) {
    CaseResult r = CheckGoldenDir(dir, cfg);
    r.repro = "vt-golden check '" + dir + "'";
    ++s.counts[r.status];
    std::cout << Name(r.status) << " " << fs::path(dir).filename().string() << " [" << r.op << "]";
    if (!r.reason.empty()) std::cout << ": " << r.reason;
    if (r.status == Outcome::kPassed && r.unjudged > 0) std::cout << " (partial: " << r.partial << ")";
    std::cout << "\n";
    if (r.status == Outcome::kPassed && r.unjudged > 0) ++s.partial_passes;
    if (!quiet || IsFailure(r.status)) std::cout << r.detail;
    if (IsFailure(r.status)) std::cout << "  repro: " << r.repro << "\n";
    if (r.status == Outcome::kUnsupported) ++s.skip_reasons[r.reason];
    std::cout << std::flush;  // each case's line is out before the next case starts
    s.results.push_back(std::move(r));
  }
  auto get = [&](Outcome o) { return s.counts.count(o) ? s.counts.at(o) : 0; };
  const int failed = get(Outcome::kFailedIncorrect) + get(Outcome::kFailedError) + get(Outcome::kMistrusted);
  if (!json.empty()) {
    RunMeta meta;
    meta.tool = "vt-golden";
    meta.command = command;
    try {
      vt::reports::AtomicWriteFile(json, vt::reports::FinishedDocument(ResultsDocument(s, cfg, meta)).dump(1) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "vt-golden: --json: " << cli::OneLine(e.what()) << "\n";
      return 2;
    }
    std::cout << "json: " << json << "\n";
  }
  std::cout << get(Outcome::kPassed) << " passed, " << failed << " failed";
  if (get(Outcome::kMistrusted) > 0) std::cout << " (" << get(Outcome::kMistrusted) << " of them mistrusted)";
  std::cout << ", " << get(Outcome::kUnsupported) << " unsupported";
  if (s.partial_passes > 0) std::cout << "; " << s.partial_passes << " of the passes partial (elements not judged)";
  std::cout << "\n";
  if (dirs.empty()) {
    std::cout << "vt-golden: no case folder (with manifest.json) under the given paths\n";
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

int Lock(const std::vector<std::string>& roots, const std::string& out) {
  nlohmann::ordered_json doc;
  doc["note"] =
      "sha256 of the data of recorded golden files, per case folder name, with the sha256 of the "
      "case's canonical manifest (keys sorted, numbers in shortest form, per-file sha256 left out); "
      "written by vt-golden lock";
  nlohmann::ordered_json cases = nlohmann::ordered_json::object();
  std::vector<std::string> dirs;
  if (!ListCaseDirs(roots, dirs)) return 2;
  for (const std::string& dir : dirs) {
    const std::string folder = fs::path(dir).filename().string();
    try {
      // Not LoadGolden: it checks against the current lock, which this replaces.
      const std::string mpath = (fs::path(dir) / "manifest.json").string();
      const Manifest m = ParseManifest(ReadSmallFile(ResolveInside(dir, "manifest.json"), kMaxManifestBytes), mpath);
      nlohmann::ordered_json files = nlohmann::ordered_json::object();
      for (const TensorSpec& t : m.tensors) files[t.file] = Sha256Hex(ReadNpy(ResolveInside(dir, t.file)).data);
      if (cases.contains(folder)) throw GoldenError(dir, "a second case folder named '" + folder + "'");
      cases[folder] = {{"manifest", m.canonical_sha256}, {"files", files}};
    } catch (const std::exception& e) {
      std::cerr << "vt-golden: not locked: " << e.what() << "\n";
      return 1;
    }
  }
  doc["cases"] = cases;
  try {
    vt::reports::AtomicWriteFile(out, doc.dump(1) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "vt-golden: --out: " << cli::OneLine(e.what()) << "\n";
    return 2;
  }
  std::cout << "locked " << cases.size() << " cases into " << out << "\n";
  return 0;
}

}  // namespace

// `vt-golden regen ARGS...` becomes `python3 TOOL ARGS...`: the regeneration
// tool is Python because upstream vLLM is; it parses its own flags.
int Regen(int argc, char** argv) {
  const char* env = std::getenv("VT_REGEN_TOOL");
  const std::string tool = env != nullptr && *env != '\0' ? env : VT_REGEN_TOOL;
  std::vector<char*> args;
  std::string python = "python3", tool_arg = tool;
  args.push_back(python.data());
  args.push_back(tool_arg.data());
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execvp(args[0], args.data());
  std::cerr << "vt-golden: regen: cannot run python3 " << tool << ": " << std::strerror(errno)
            << " (install python3; the tool is golden/regen/vt_golden_regen.py)\n";
  return 2;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "regen") return Regen(argc, argv);
  cli::GoldenOptions o;
  try {
    o = cli::ParseGoldenOptions(argc, argv, cli::Vocabulary{});
    if (o.help) {
      std::cout << o.help_text;
      return 0;
    }
    // Before any case is read: a results document must not be lost at the end.
    if (!o.json.empty()) cli::CheckWritableFile("--json", o.json);
    if (!o.out.empty()) cli::CheckWritableFile("--out", o.out);
  } catch (const cli::UsageError& e) {
    std::cerr << "vt-golden: " << cli::OneLine(e.what()) << "\n";
    return 2;
  }
  std::string command = "vt-golden";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  if (o.command == "check") return Check(o.dirs, o.json, o.threads, o.quiet, command);
  try {
    return Lock(o.dirs, o.out);
  } catch (const std::exception& e) {
    // A folder the lock cannot read is refused by name, never an abort.
    std::cerr << "vt-golden: lock: " << cli::OneLine(e.what()) << "\n";
    return 1;
  }
}
