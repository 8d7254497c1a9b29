// The ratio table every vt benchmark binary prints (docs/performance.md).
// Benchmarks are registered under names "<problem>/<impl>/t<threads>"; each
// runs as Google Benchmark repetitions in one process, and the table sets
// the MEDIAN real time of vt's implementation against a baseline's, both
// measured in the same run at the same thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vt::bench {

// What a comparison must reach: speed (baseline time / vt time >= bound,
// "at least 0.7x OpenBLAS's speed") or time (vt time / baseline time <=
// bound, "at most 1.5x memcpy's time").
struct Target {
  enum class Kind { kSpeedAtLeast, kTimeAtMost } kind = Kind::kSpeedAtLeast;
  double bound = 0.0;
  int threads = 0;  // the thread count the target is stated for; 0: every count
};

struct Comparison {
  std::string problem;   // e.g. "matmul f32 1024^3"
  std::string ours;      // impl name of vt's run, e.g. "vt-avx512"
  std::string baseline;  // e.g. "openblas-sgemm"
  std::vector<Target> targets;
  double flops = 0.0;    // per call, for the GFLOP/s columns (0: none)
};

// Where each missed target's measured cause is written down; the tables
// print it under themselves when a target is missed (issue 25: "every target
// met, or the shortfall and its measured cause").
inline constexpr const char* kShortfallCauses =
    "docs/performance.md, \"Issue 25's targets at its close: met, or the measured cause\"";

// n normal(0, 1) values from mt19937(seed): benchmark operands, the same in
// every run.
std::vector<float> Normal(int64_t n, uint32_t seed);

// Registers fn (one call of the timed operation per iteration) as
// "<problem>/<impl>/t<threads>"; `setup(threads)` runs before the timing.
void Register(const std::string& problem, const std::string& impl, int threads, std::function<void()> fn,
              std::function<void(int)> setup = {});

// The whole program after registration: parses --quick (fewer, shorter
// repetitions) and --json FILE (default bench.json) and the Google Benchmark
// flags, runs every benchmark, prints the ratio table of `comparisons` at
// each thread count measured, writes the JSON. Exit 0 (a missed target is
// reported in the table, not an error); 2 on a bad flag.
int Main(int argc, char** argv, const std::string& tool, const std::vector<Comparison>& comparisons,
         const std::string& note);

}  // namespace vt::bench
