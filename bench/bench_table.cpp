#include "bench/bench_table.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "vt/isa.h"

namespace vt::bench {

std::vector<float> Normal(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = d(rng);
  return v;
}
namespace {

struct Entry {
  std::string problem, impl;
  int threads;
};
std::vector<Entry>& Entries() {
  static std::vector<Entry> e;
  return e;
}

std::string Name(const std::string& problem, const std::string& impl, int threads) {
  return problem + "/" + impl + "/t" + std::to_string(threads);
}

// Keeps the console output and records each benchmark's median real time
// (ms) and median CPU time of the timing thread (ms; at 1 thread the whole
// work, and less disturbed than real time when other jobs share the cores).
class MedianReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> median_ms, cpu_median_ms;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median" && !r.error_occurred) {
        // GetAdjusted*Time is in r.time_unit; the multiplier turns seconds into that unit.
        const double to_ms = 1e3 / benchmark::GetTimeUnitMultiplier(r.time_unit);
        median_ms[r.run_name.function_name] = r.GetAdjustedRealTime() * to_ms;
        cpu_median_ms[r.run_name.function_name] = r.GetAdjustedCPUTime() * to_ms;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown";
}

std::string NowUtc() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

void Register(const std::string& problem, const std::string& impl, int threads, std::function<void()> fn,
              std::function<void(int)> setup) {
  Entries().push_back({problem, impl, threads});
  benchmark::RegisterBenchmark(Name(problem, impl, threads).c_str(),
                               [fn, setup, threads](benchmark::State& st) {
                                 if (setup) setup(threads);
                                 fn();  // warm: first-touch pages, worker threads, packed buffers
                                 for (auto _ : st) fn();
                               })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

int Main(int argc, char** argv, const std::string& tool, const std::vector<Comparison>& comparisons,
         const std::string& note) {
  bool quick = false;
  std::string json_path = "bench.json";
  std::vector<char*> args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--json") == 0) {
      if (i + 1 >= argc) {
        std::cerr << tool << ": --json needs a file name\n";
        return 2;
      }
      json_path = argv[++i];
    } else {
      args.push_back(argv[i]);
    }
  }
  // Medians over repetitions, the aggregates only; --quick: fewer and shorter.
  static std::string reps = quick ? "--benchmark_repetitions=3" : "--benchmark_repetitions=7";
  static std::string min_time = quick ? "--benchmark_min_time=0.05" : "--benchmark_min_time=0.3";
  static std::string aggregates = "--benchmark_report_aggregates_only=true";
  // Repetitions of all benchmarks in a random interleaved order: vt and its
  // baseline sample the same stretches of a shared machine's load, instead
  // of one running in a quiet minute and the other in a busy one.
  static std::string interleave = "--benchmark_enable_random_interleaving=true";
  args.insert(args.begin() + 1, {reps.data(), min_time.data(), aggregates.data(), interleave.data()});
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 2;
  MedianReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);

  std::set<int> thread_counts;
  for (const Entry& e : Entries()) thread_counts.insert(e.threads);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  std::ostringstream table;
  int missed = 0;
  table << "\n" << tool << ": medians of the same run (" << (quick ? "quick: 3" : "7")
        << " repetitions); speed = baseline time / vt time, time = vt time / baseline time\n";
  table << "problem                           threads  vt impl           baseline             vt ms   base ms"
           "   speed   time  target\n";
  for (const Comparison& c : comparisons) {
    for (int t : thread_counts) {
      const auto ours = rep.median_ms.find(Name(c.problem, c.ours, t));
      const auto base = rep.median_ms.find(Name(c.problem, c.baseline, t));
      if (ours == rep.median_ms.end() || base == rep.median_ms.end()) continue;
      const double speed = base->second / ours->second, time = ours->second / base->second;
      std::string target = "-";
      bool met = true, any = false;
      for (const Target& tg : c.targets) {
        if (tg.threads != 0 && tg.threads != t) continue;
        any = true;
        const bool ok = tg.kind == Target::Kind::kSpeedAtLeast ? speed >= tg.bound : time <= tg.bound;
        met = met && ok;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s %.2f %s", tg.kind == Target::Kind::kSpeedAtLeast ? "speed >=" : "time <=",
                      tg.bound, ok ? "met" : "MISSED");
        target = buf;
      }
      char line[256];
      std::snprintf(line, sizeof line, "%-33s %7d  %-17s %-17s %8.3f %8.3f %7.2f %6.2f  %s\n", c.problem.c_str(), t,
                    c.ours.c_str(), c.baseline.c_str(), ours->second, base->second, speed, time, target.c_str());
      table << line;
      nlohmann::ordered_json row = {{"problem", c.problem}, {"threads", t},       {"vt", c.ours},
                                    {"baseline", c.baseline}, {"vt_ms", ours->second}, {"baseline_ms", base->second},
                                    {"speed_ratio", speed},   {"time_ratio", time}};
      if (c.flops > 0) {
        row["vt_gflops"] = c.flops / ours->second * 1e-6;
        row["baseline_gflops"] = c.flops / base->second * 1e-6;
      }
      if (any) {
        row["target"] = target;
        row["target_met"] = met;
        missed += met ? 0 : 1;
      }
      rows.push_back(row);
    }
  }
  // At 1 thread the timing thread's CPU time is all the work: the same
  // ratios by CPU time, for runs beside other jobs (real time then counts
  // the time slices the others took).
  std::ostringstream cpu_table;
  for (const Comparison& c : comparisons) {
    const auto ours = rep.cpu_median_ms.find(Name(c.problem, c.ours, 1));
    const auto base = rep.cpu_median_ms.find(Name(c.problem, c.baseline, 1));
    if (ours == rep.cpu_median_ms.end() || base == rep.cpu_median_ms.end()) continue;
    char line[256];
    std::snprintf(line, sizeof line, "%-33s %7d  %-17s %-17s %8.3f %8.3f %7.2f %6.2f\n", c.problem.c_str(), 1,
                  c.ours.c_str(), c.baseline.c_str(), ours->second, base->second, base->second / ours->second,
                  ours->second / base->second);
    cpu_table << line;
  }
  if (!cpu_table.str().empty()) {
    table << "by CPU time of the timing thread (1 thread: the whole work), medians:\n" << cpu_table.str();
  }
  if (!note.empty()) table << note << "\n";
  if (missed > 0) table << missed << " target(s) MISSED; the measured cause of each: " << kShortfallCauses << "\n";
  std::cout << table.str() << std::flush;
  nlohmann::ordered_json doc = {{"tool", tool},
                                {"date", NowUtc()},
                                {"cpu", CpuModel()},
                                {"cores_online", sysconf(_SC_NPROCESSORS_ONLN)},
                                {"isa_best", std::string(vt::Name(vt::BestIsa()))},
                                {"quick", quick},
                                {"note", note},
                                {"medians_ms", rep.median_ms},
                                {"cpu_medians_ms", rep.cpu_median_ms},
                                {"comparisons", rows}};
  std::ofstream out(json_path);
  out << doc.dump(1) << "\n";
  if (!out) {
    std::cerr << tool << ": cannot write " << json_path << "\n";
    return 2;
  }
  std::cout << tool << ": wrote " << json_path << "\n";
  return 0;
}

}  // namespace vt::bench
