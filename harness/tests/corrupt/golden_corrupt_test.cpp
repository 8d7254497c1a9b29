// The corrupted-golden test (issue 8): builds the corpus of corpus.h in a
// temporary folder and runs `vt-golden check` on each corrupted case, with a
// timeout. Each must exit 1 or 2 (never 0, never a signal, never a hang) and
// print one line that names the case folder and holds the expected problem.
// The base case must pass (exit 0), so every refusal is the corruption's.
// Then `vt-conform --mode golden` over one folder mixing the good case with
// bad ones must report them all: the good one PASSED, the bad ones FAILED.
//   vt_golden_corrupt_test VT_GOLDEN VT_CONFORM SHARED_GOLDENS_DIR
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "harness/tests/corrupt/corpus.h"

namespace {

using namespace vt::corrupt;

struct Run {
  bool finished = false;  // false: killed after the timeout
  bool signaled = false;
  int code = -1;
  std::string output;  // stdout and stderr together
};

// fork + exec with stdout/stderr into a file; SIGKILL to its process group
// after `seconds`.
Run Exec(const std::vector<std::string>& argv, const fs::path& log, int seconds) {
  Run r;
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    FILE* f = std::fopen(log.c_str(), "w");
    if (f == nullptr) _exit(127);
    dup2(fileno(f), 1);
    dup2(fileno(f), 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.output = ReadFile(log);
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.finished = true;
  r.signaled = WIFSIGNALED(status);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.output = ReadFile(log);
  return r;
}

// The verdict line of a case: the one line that names the folder and the problem.
bool HasLine(const std::string& out, const std::string& folder, const std::string& expect) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.find(folder) != std::string::npos && line.find(expect) != std::string::npos) return true;
  }
  return false;
}

std::string Tail(const std::string& s) { return s.size() > 1500 ? "..." + s.substr(s.size() - 1500) : s; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: vt_golden_corrupt_test VT_GOLDEN VT_CONFORM SHARED_GOLDENS_DIR\n";
    return 2;
  }
  const std::string vt_golden = argv[1], vt_conform = argv[2];
  const fs::path known = fs::path(argv[3]) / "rmsnorm_f32_8x128";
  const fs::path root = fs::temp_directory_path() / ("vt_golden_corrupt_" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "logs");
  int failures = 0, checked = 0, skipped = 0;
  auto fail = [&](const std::string& what) {
    ++failures;
    std::cout << "FAIL " << what << "\n";
  };

  // The base case passes: what the corruptions break was working.
  WriteBaseCase(root / "base" / "good_case");
  const Run base = Exec({vt_golden, "check", (root / "base" / "good_case").string()}, root / "logs" / "base", 60);
  if (!base.finished || base.code != 0) fail("the uncorrupted base case does not pass:\n" + Tail(base.output));

  std::set<std::string> names, ran;
  for (const Corruption& c : AllCorruptions()) {
    if (!names.insert(c.name).second) fail("duplicate corruption name " + c.name);
    const fs::path dir = root / "cases" / c.name / c.name;  // its own parent: escapes land beside it
    fs::create_directories(dir.parent_path());
    if (c.from_shared) {
      if (!fs::is_directory(known)) {
        ++skipped;
        std::cout << "SKIP " << c.name << ": absent " << known << " (the recorded upstream captures)\n";
        continue;
      }
      fs::copy(known, dir, fs::copy_options::recursive);
    } else {
      WriteBaseCase(dir);
    }
    c.apply(dir);
    if (c.name == "npy_char_device" && !fs::is_character_file(dir / "x.npy")) {
      ++skipped;
      std::cout << "SKIP " << c.name << ": mknod is not permitted here\n";
      continue;
    }
    ++checked;
    ran.insert(c.name);
    const Run r = Exec({vt_golden, "check", dir.string()}, root / "logs" / c.name, 30);
    std::string why;
    if (!r.finished) why = "hung (killed after 30 s)";
    else if (r.signaled) why = "crashed (signal)";
    else if (r.code == 0) why = "passed (exit 0)";
    else if (r.code != 1 && r.code != 2) why = "exit " + std::to_string(r.code) + " (want 1 or 2)";
    else if (!HasLine(r.output, c.name, c.expect)) why = "no line naming '" + c.name + "' with '" + c.expect + "'";
    if (!why.empty()) {
      fail(c.name + ": " + why + "\n" + Tail(r.output));
    } else {
      std::cout << "ok   " << c.name << " (exit " << r.code << ")\n";
    }
  }

  // A known case under its own folder name, its manifest's meaning changed
  // (so the canonical digest no longer matches) and a data byte flipped: the
  // lock still finds it by folder name.
  if (fs::is_directory(known)) {
    const fs::path d = root / "renamed" / known.filename();
    fs::create_directories(d.parent_path());
    fs::copy(known, d, fs::copy_options::recursive);
    std::string m = ReadFile(d / "manifest.json");
    const std::size_t at = m.find("\"eps\"");
    if (at == std::string::npos) {
      fail("the recorded " + known.string() + " has no eps to change");
    } else {
      m.insert(at, "\"note\": \"changed\", ");
      WriteFile(d / "manifest.json", m);
      std::string w = ReadFile(d / "weight.npy");
      w[w.size() - 3] = static_cast<char>(w[w.size() - 3] ^ 0x01);
      WriteFile(d / "weight.npy", w);
      const Run r = Exec({vt_golden, "check", d.string()}, root / "logs" / "renamed", 30);
      if (!r.finished || r.code != 1 || !HasLine(r.output, "weight.npy", "recorded checksum")) {
        fail("a flipped byte in a known case with a changed manifest was not refused by folder name\n" + Tail(r.output));
      } else {
        std::cout << "ok   known case, changed manifest, flipped byte: refused by folder name\n";
      }
    }
  }

  // All of them in one run, with a JSON report: one bad case never stops the
  // others, every case gets its line, and the report is written.
  const fs::path json = root / "all.json";
  const Run all = Exec({vt_golden, "check", (root / "cases").string(), "--json", json.string()}, root / "logs" / "all", 300);
  std::string missing;
  for (const std::string& n : ran) {
    if (!HasLine(all.output, " " + n + " [", "FAILED") && !HasLine(all.output, " " + n + " [", "MISTRUSTED")) missing += " " + n;
  }
  if (!all.finished || all.signaled || all.code != 1) {
    fail("vt-golden check over all corrupted cases: want exit 1\n" + Tail(all.output));
  } else if (!missing.empty() || all.output.find("\n0 passed, ") == std::string::npos) {
    fail("vt-golden check over all corrupted cases: no FAILED/MISTRUSTED line for" + missing + "\n" + Tail(all.output));
  } else if (!fs::exists(json) || ReadFile(json).find("\"cases\"") == std::string::npos) {
    fail("vt-golden check --json over all corrupted cases wrote no results document");
  } else {
    std::cout << "ok   all " << ran.size() << " in one run: each FAILED or MISTRUSTED, --json written\n";
  }

  // vt-conform's golden mode over good + bad cases: none left out.
  const fs::path mixed = root / "mixed";
  WriteBaseCase(mixed / "a_good");
  WriteBaseCase(mixed / "b_bad_eps");
  WriteFile(mixed / "b_bad_eps" / "manifest.json",
            ReadFile(mixed / "b_bad_eps" / "manifest.json").replace(
                ReadFile(mixed / "b_bad_eps" / "manifest.json").find("1e-06"), 5, "\"abc\""));
  WriteBaseCase(mixed / "c_unreadable");
  WriteFile(mixed / "c_unreadable" / "manifest.json", "{\"op\": ");
  const Run conform = Exec({vt_conform, "--mode", "golden", "--tier", "smoke", "--golden", mixed.string(), "--report",
                            (root / "report").string()},
                           root / "logs" / "mixed", 120);
  const std::string out = conform.output;
  if (!conform.finished || conform.signaled || conform.code != 1) {
    fail("vt-conform --mode golden over a mixed folder: want exit 1\n" + Tail(out));
  } else if (!HasLine(out, "b_bad_eps", "FAILED") || !HasLine(out, "c_unreadable", "FAILED") ||
             out.find("1 passed, 2 failed") == std::string::npos) {
    fail("vt-conform --mode golden over a mixed folder: want a_good PASSED, b_bad_eps and c_unreadable FAILED\n" +
         Tail(out));
  } else {
    std::cout << "ok   vt-conform --mode golden: 1 passed, 2 failed over a mixed folder\n";
  }

  std::cout << checked << " corruptions checked, " << skipped << " skipped, " << failures << " failures\n";
  if (checked < 60) {
    std::cout << "FAIL fewer than 60 corruptions were checked\n";
    ++failures;
  }
  if (failures == 0) fs::remove_all(root);
  return failures == 0 ? 0 : 1;
}
