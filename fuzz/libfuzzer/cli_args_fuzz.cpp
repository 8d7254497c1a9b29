// libFuzzer target: the command-line parsing of vt-conform, vt-golden and
// vt-fuzz (harness/cli/options.h). The input is split on NUL bytes into argv
// words (argv[0] is the tool's name) and handed to each of the three parse
// functions. A UsageError is the expected answer to a bad command line; any
// other exception, a crash, a leak or a sanitizer report is a finding.
// Built and run by hand (docs/fuzzing-cli.md has the command and the runs).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/cli/options.h"

namespace {

using namespace vt::conform::cli;

// The real names, so the fuzzer can reach the paths behind a known op or mode.
const Vocabulary& Names() {
  static const Vocabulary v = [] {
    Vocabulary w;
#define VT_OP(family, name) w.ops.push_back(#name);
#include "vt/ops.def"
#undef VT_OP
    w.modes = {"oracle", "threads", "equivalence", "negative", "golden"};
    w.default_report_dir = "/nonexistent/reports";
    w.default_save_dir = "/nonexistent/fuzz-failures";
    return w;
  }();
  return v;
}

template <typename Parse>
void Try(const char* tool, const std::vector<std::string>& words, Parse parse) {
  std::vector<const char*> argv{tool};
  for (const std::string& w : words) argv.push_back(w.c_str());
  argv.push_back(nullptr);  // as the kernel hands it to main
  try {
    parse(static_cast<int>(argv.size() - 1), argv.data(), Names());
  } catch (const UsageError&) {
    // The parser's one legitimate way to say no.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::vector<std::string> words;
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      words.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(static_cast<char>(data[i]));
    }
  }
  if (size > 0) words.push_back(cur);  // the last word need not end in NUL
  Try("vt-conform", words, ParseConformOptions);
  Try("vt-golden", words, ParseGoldenOptions);
  Try("vt-fuzz", words, ParseFuzzOptions);
  return 0;
}
