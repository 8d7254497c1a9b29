// Thread pool (kernels/include/vt/threadpool.h, docs/threadpool.md): Run,
// ParallelForRows and its plan, exceptions, nested dispatch, back-to-back and
// concurrent submission, determinism. The grid dispatcher is in
// threadpool_grid_test.cpp. Worker threads never call gtest assertions: they
// record into atomics that the test thread checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "vt/context.h"
#include "vt/error.h"
#include "vt/threadpool.h"

namespace {

using vt::ExecContext;

constexpr int64_t kSizes[] = {0, 1, 2, 3, 5, 7, 16, 17, 63, 64, 65, 1000, 4099};
constexpr int kMaxTestThreads = 16;

ExecContext Threads(int t) { return ExecContext{.threads = t}; }

// Runs ParallelForRows over n rows and returns "" when every row was visited
// exactly once by non-empty in-bounds ranges, else a description of the fault.
std::string RowCoverageFault(int threads, int64_t n) {
  std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
  std::atomic<int64_t> calls{0}, bad_range{0};
  vt::ParallelForRows(Threads(threads), n, [&](int64_t r0, int64_t r1) {
    calls.fetch_add(1);
    if (r0 < 0 || r1 > n || r0 >= r1) {
      bad_range.fetch_add(1);
      return;
    }
    for (int64_t r = r0; r < r1; ++r) hits[static_cast<size_t>(r)].fetch_add(1);
  });
  std::string where = "threads=" + std::to_string(threads) + " n=" + std::to_string(n) + ": ";
  if (bad_range.load() != 0) return where + std::to_string(bad_range.load()) + " empty/out-of-range bodies";
  if (n == 0 && calls.load() != 0) return where + "body called for an empty range";
  for (int64_t r = 0; r < n; ++r) {
    const int h = hits[static_cast<size_t>(r)].load();
    if (h != 1) return where + "row " + std::to_string(r) + " visited " + std::to_string(h) + " times";
  }
  return "";
}

// --------------------------------------------------------------- Run itself

TEST(ThreadPoolRun, EveryIthOnceCallerIsZeroWorkersPersist) {
  vt::ThreadPool pool;  // a private pool, so the worker count starts at 0
  EXPECT_EQ(pool.WorkersStarted(), 0);
  std::set<std::thread::id> first_workers;
  for (int round = 0; round < 2; ++round) {
    for (int nth = 1; nth <= kMaxTestThreads; ++nth) {
      std::vector<std::atomic<int>> seen(static_cast<size_t>(nth));
      std::vector<std::thread::id> ids(static_cast<size_t>(nth));
      std::atomic<int> bad{0};
      pool.Run(nth, [&](int ith, int n) {
        if (n != nth || ith < 0 || ith >= nth || !vt::InParallelRegion()) {
          bad.fetch_add(1);
          return;
        }
        seen[static_cast<size_t>(ith)].fetch_add(1);
        ids[static_cast<size_t>(ith)] = std::this_thread::get_id();  // one writer per slot
      });
      EXPECT_EQ(bad.load(), 0) << "nth=" << nth;
      for (int i = 0; i < nth; ++i) EXPECT_EQ(seen[static_cast<size_t>(i)].load(), 1) << "nth=" << nth << " ith=" << i;
      EXPECT_EQ(ids[0], std::this_thread::get_id()) << "ith 0 must run on the caller";
      const std::set<std::thread::id> distinct(ids.begin(), ids.end());
      EXPECT_EQ(distinct.size(), static_cast<size_t>(nth)) << "each ith on its own thread, nth=" << nth;
      EXPECT_FALSE(vt::InParallelRegion());
      if (nth == kMaxTestThreads) {
        std::set<std::thread::id> workers(ids.begin() + 1, ids.end());
        if (round == 0) {
          first_workers = workers;
        } else {
          EXPECT_EQ(workers, first_workers) << "workers must persist between calls";
        }
      }
    }
    EXPECT_EQ(pool.WorkersStarted(), kMaxTestThreads - 1);
  }
}

TEST(ThreadPoolRun, ThreadCountIsClamped) {
  vt::ThreadPool pool;
  for (int asked : {0, -3, 100}) {
    const int want = asked < 1 ? 1 : vt::kMaxThreads;
    std::atomic<int> calls{0}, bad{0};
    pool.Run(asked, [&](int, int n) {
      calls.fetch_add(1);
      if (n != want) bad.fetch_add(1);
    });
    EXPECT_EQ(calls.load(), want) << "asked " << asked;
    EXPECT_EQ(bad.load(), 0) << "asked " << asked;
  }
  EXPECT_EQ(ExecContext{.threads = 100}.ResolvedThreads(), vt::kMaxThreads);
  EXPECT_EQ(ExecContext{.threads = 5}.ResolvedThreads(), 5);
  EXPECT_EQ(ExecContext{.threads = 0}.ResolvedThreads(), vt::DefaultThreads());
  EXPECT_EQ(ExecContext{.threads = -2}.ResolvedThreads(), vt::DefaultThreads());
  EXPECT_GE(vt::DefaultThreads(), 1);
  EXPECT_LE(vt::DefaultThreads(), vt::kMaxThreads);
}

// ------------------------------------------------------------- row policy

// Hand-computed from threadpool.h: chunk = ceil(nr/(4*nth)),
// nchunk = max(ceil(nr/chunk), nth), dr = ceil(nr/nchunk).
TEST(ParallelForRows, PlanMatchesPolicyTable) {
  struct Case {
    int64_t nr;
    int nth;
    int64_t nchunk, dr;
  };
  const Case cases[] = {
      {0, 4, 0, 0},         // nothing to do
      {1, 1, 1, 1},         // chunk ceil(1/4)=1
      {3, 16, 16, 1},       // chunk 1, 3 chunks < nth -> nth chunks, 13 of them empty
      {17, 3, 9, 2},        // chunk ceil(17/12)=2, 9 chunks
      {64, 16, 64, 1},      // chunk 1
      {65, 16, 33, 2},      // chunk ceil(65/64)=2, ceil(65/2)=33
      {100, 7, 25, 4},      // chunk ceil(100/28)=4
      {1000, 4, 16, 63},    // chunk ceil(1000/16)=63, ceil(1000/63)=16, dr ceil(1000/16)=63
      {4099, 16, 64, 65},   // chunk 65, ceil(4099/65)=64, dr ceil(4099/64)=65
      {4096, 3, 12, 342},   // chunk ceil(4096/12)=342, ceil(4096/342)=12, dr ceil(4096/12)=342
      {5, 16, 16, 1},
  };
  for (const Case& c : cases) {
    const vt::RowPlan p = vt::PlanRows(c.nr, c.nth);
    EXPECT_EQ(p.nchunk, c.nchunk) << "nr=" << c.nr << " nth=" << c.nth;
    EXPECT_EQ(p.dr, c.dr) << "nr=" << c.nr << " nth=" << c.nth;
  }
}

TEST(ParallelForRows, EveryRowExactlyOnce) {
  int dispatches = 0;
  for (int64_t n : kSizes) {
    for (int t = 1; t <= kMaxTestThreads; ++t) {
      EXPECT_EQ(RowCoverageFault(t, n), "");
      ++dispatches;
    }
  }
  std::printf("[ counts   ] ParallelForRows coverage: %d dispatches\n", dispatches);
}

// Ranges follow the documented plan: [c*dr, min((c+1)*dr, nr)); one inline
// body(0, nr) call for one thread or one row.
TEST(ParallelForRows, RangesFollowThePlan) {
  for (int64_t n : kSizes) {
    for (int t = 1; t <= kMaxTestThreads; ++t) {
      const vt::RowPlan plan = vt::PlanRows(n, t);
      std::atomic<int64_t> calls{0}, misplaced{0};
      vt::ParallelForRows(Threads(t), n, [&](int64_t r0, int64_t r1) {
        calls.fetch_add(1);
        const bool inline_call = (t == 1 || n == 1);
        const bool ok = inline_call ? (r0 == 0 && r1 == n)
                                    : (r0 % plan.dr == 0 && r1 == std::min(r0 + plan.dr, n));
        if (!ok) misplaced.fetch_add(1);
      });
      EXPECT_EQ(misplaced.load(), 0) << "n=" << n << " t=" << t;
      if (n > 0 && (t == 1 || n == 1)) {
        EXPECT_EQ(calls.load(), 1) << "n=" << n << " t=" << t;
      }
      if (n > 1 && t > 1) {  // non-empty chunks: ceil(n / dr) of them
        EXPECT_EQ(calls.load(), (n + plan.dr - 1) / plan.dr) << "n=" << n << " t=" << t;
      }
    }
  }
}

// ------------------------------------------------------------- exceptions

struct TestFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TEST(ThreadPoolExceptions, RowBodyExceptionReachesCallerAndPoolSurvives) {
  for (int t : {1, 2, 7, 16}) {
    for (int64_t bad_row : {int64_t{0}, int64_t{517}, int64_t{999}}) {
      const std::string msg = "row " + std::to_string(bad_row) + " failed";
      bool caught = false;
      try {
        vt::ParallelForRows(Threads(t), 1000, [&](int64_t r0, int64_t r1) {
          if (r0 <= bad_row && bad_row < r1) throw TestFailure(msg);
        });
      } catch (const TestFailure& e) {
        caught = true;
        EXPECT_EQ(std::string(e.what()), msg) << "t=" << t;
      } catch (...) {
        ADD_FAILURE() << "t=" << t << ": exception type changed on the way";
        caught = true;
      }
      EXPECT_TRUE(caught) << "t=" << t << " row " << bad_row << ": no exception reached the caller";
      EXPECT_EQ(RowCoverageFault(t, 4099), "") << "pool unusable after an exception";
    }
    // vt::Error keeps its type and fields too.
    try {
      vt::ParallelForRows(Threads(t), 64, [](int64_t r0, int64_t) {
        if (r0 > 0) throw vt::Error("someop", "row > 0");
      });
      if (t > 1) ADD_FAILURE() << "t=" << t << ": no exception";
    } catch (const vt::Error& e) {
      EXPECT_EQ(e.op(), "someop");
      EXPECT_EQ(e.condition(), "row > 0");
    }
  }
}

TEST(ThreadPoolExceptions, AnyParticipantMayThrowAllFinishFirst) {
  for (int t : {1, 2, 7, 16}) {
    for (int thrower : {0, t / 2, t - 1, -1 /* everyone */}) {
      std::atomic<int> finished{0};
      std::string what;
      try {
        vt::ThreadPool::Global().Run(t, [&](int ith, int) {
          if (thrower < 0 || ith == thrower) throw TestFailure("thrown by ith " + std::to_string(ith));
          // The non-throwers are slow: Run must still wait for them.
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          finished.fetch_add(1);
        });
      } catch (const TestFailure& e) {
        what = e.what();
      }
      const int throwers = thrower < 0 ? t : 1;
      EXPECT_EQ(finished.load(), t - throwers) << "t=" << t << ": Run returned before every participant finished";
      if (thrower >= 0) {
        EXPECT_EQ(what, "thrown by ith " + std::to_string(thrower)) << "t=" << t;
      } else {
        EXPECT_EQ(what.rfind("thrown by ith ", 0), 0u) << "t=" << t << " got '" << what << "'";
      }
      EXPECT_EQ(RowCoverageFault(t, 1000), "");
    }
  }
}

// ------------------------------------------------------------- nested use

bool IsThreadpoolRefusal(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const vt::Error& err) {
    return err.op() == "threadpool";
  } catch (...) {
    return false;
  }
}

TEST(ThreadPoolNested, NestedDispatchIsRefusedNotDeadlocked) {
  for (int outer : {1, 4}) {
    for (int inner : {1, 4}) {
      std::atomic<int> bodies{0}, refused{0}, accepted{0};
      auto attempt = [&](auto&& nested) {
        try {
          nested();
          accepted.fetch_add(1);
        } catch (...) {
          if (IsThreadpoolRefusal(std::current_exception())) refused.fetch_add(1);
        }
      };
      vt::ParallelForRows(Threads(outer), 64, [&](int64_t, int64_t) {
        bodies.fetch_add(1);
        attempt([&] { vt::ParallelForRows(Threads(inner), 64, [](int64_t, int64_t) {}); });
        attempt([&] { vt::ParallelForRows(Threads(inner), 1, [](int64_t, int64_t) {}); });
        attempt([&] { vt::ParallelForGrid(Threads(inner), 32, 32, [](const vt::GridChunk&) {}); });
        attempt([&] { vt::ThreadPool::Global().Run(inner, [](int, int) {}); });
      });
      EXPECT_GT(bodies.load(), 0);
      EXPECT_EQ(refused.load(), 4 * bodies.load()) << "outer=" << outer << " inner=" << inner;
      EXPECT_EQ(accepted.load(), 0) << "outer=" << outer << " inner=" << inner;

      // Uncaught, the refusal reaches the outer caller as vt::Error("threadpool").
      std::exception_ptr err;
      try {
        vt::ParallelForRows(Threads(outer), 64, [&](int64_t, int64_t) {
          vt::ParallelForRows(Threads(inner), 64, [](int64_t, int64_t) {});
        });
      } catch (...) {
        err = std::current_exception();
      }
      EXPECT_TRUE(err && IsThreadpoolRefusal(err)) << "outer=" << outer << " inner=" << inner;
      EXPECT_FALSE(vt::InParallelRegion());
      EXPECT_EQ(RowCoverageFault(inner, 1000), "") << "pool unusable after a nested refusal";
    }
  }
}

// ------------------------------------------------------------ stress

TEST(ThreadPoolStress, TenThousandBackToBackDispatches) {
  constexpr int kDispatches = 10'000;
  int failures = 0;
  std::string first;
  for (int i = 0; i < kDispatches; ++i) {
    const int t = 1 + (i * 7) % kMaxTestThreads;
    const int64_t n = 1 + (int64_t{i} * 37) % 300;
    // Row count, sum and sum of squares of (r+1): a missing or repeated row
    // changes at least one of them.
    std::atomic<int64_t> count{0}, sum{0}, sum2{0};
    vt::ParallelForRows(Threads(t), n, [&](int64_t r0, int64_t r1) {
      int64_t s = 0, s2 = 0;
      for (int64_t r = r0; r < r1; ++r) {
        s += r + 1;
        s2 += (r + 1) * (r + 1);
      }
      count.fetch_add(r1 - r0);
      sum.fetch_add(s);
      sum2.fetch_add(s2);
    });
    if (count.load() != n || sum.load() != n * (n + 1) / 2 || sum2.load() != n * (n + 1) * (2 * n + 1) / 6) {
      if (failures++ == 0) first = "dispatch " + std::to_string(i) + " t=" + std::to_string(t) + " n=" + std::to_string(n);
    }
  }
  EXPECT_EQ(failures, 0) << "first bad: " << first;
  std::printf("[ counts   ] %d back-to-back dispatches\n", kDispatches);
}

TEST(ThreadPoolConcurrency, FourSubmittersTwoHundredDispatchesEach) {
  constexpr int kSubmitters = 4, kEach = 200;
  std::atomic<int> failures{0}, done{0};
  std::vector<std::string> first(kSubmitters);
  std::vector<std::thread> submitters;
  for (int s = 0; s < kSubmitters; ++s) {
    submitters.emplace_back([&, s] {
      for (int i = 0; i < kEach; ++i) {
        const int t = 1 + (s * 5 + i * 3) % kMaxTestThreads;
        const int64_t n = 1 + (s * 131 + i * 17) % 2000;
        const std::string fault = RowCoverageFault(t, n);
        if (!fault.empty() && failures.fetch_add(1) == 0) first[static_cast<size_t>(s)] = fault;
        done.fetch_add(1);
      }
    });
  }
  for (auto& th : submitters) th.join();
  EXPECT_EQ(done.load(), kSubmitters * kEach);
  EXPECT_EQ(failures.load(), 0) << first[0] << first[1] << first[2] << first[3];
}

// --------------------------------------------------------- determinism

TEST(ThreadPoolDeterminism, RowReductionByteIdenticalAtAnyThreadCount) {
  constexpr int64_t kRows = 1003, kCols = 517;
  std::mt19937_64 rng(0xD373);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(static_cast<size_t>(kRows * kCols)), w(static_cast<size_t>(kCols));
  for (float& v : x) v = u(rng) * std::ldexp(1.0f, static_cast<int>(rng() % 16) - 8);
  for (float& v : w) v = u(rng);
  // One sequential f32 accumulator per output row: rounding depends on order.
  auto row_dot = [&](int64_t r) {
    float acc = 0.0f;
    for (int64_t c = 0; c < kCols; ++c) acc += x[static_cast<size_t>(r * kCols + c)] * w[static_cast<size_t>(c)];
    return acc;
  };
  std::vector<float> want(static_cast<size_t>(kRows));
  for (int64_t r = 0; r < kRows; ++r) want[static_cast<size_t>(r)] = row_dot(r);  // no pool

  // Non-vacuity: summing in another order changes some row's bits, so a
  // partition that split a reduction would be seen.
  int order_sensitive = 0;
  for (int64_t r = 0; r < kRows; ++r) {
    float acc = 0.0f;
    for (int64_t c = kCols; c-- > 0;) acc += x[static_cast<size_t>(r * kCols + c)] * w[static_cast<size_t>(c)];
    order_sensitive += std::memcmp(&acc, &want[static_cast<size_t>(r)], sizeof acc) != 0 ? 1 : 0;
  }
  EXPECT_GT(order_sensitive, 0);

  for (int t = 1; t <= kMaxTestThreads; ++t) {
    std::vector<float> got(static_cast<size_t>(kRows), std::nanf(""));
    vt::ParallelForRows(Threads(t), kRows, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) got[static_cast<size_t>(r)] = row_dot(r);
    });
    if (std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) != 0) {
      for (size_t r = 0; r < got.size(); ++r) {
        if (std::memcmp(&got[r], &want[r], sizeof(float)) != 0) {
          ADD_FAILURE() << "threads=" << t << " row " << r << " expected " << want[r] << " got " << got[r];
          break;
        }
      }
    }
  }
}

// ----------------------------------------------- process default (env)

// Registered by CMake once per VT_NUM_THREADS value, each in its own process
// (the default is read once per process); excluded from plain discovery.
TEST(ContextEnv, DefaultThreadsFollowsVtNumThreads) {
  const char* env = std::getenv("VT_NUM_THREADS");
  if (env == nullptr) GTEST_SKIP() << "needs VT_NUM_THREADS (CTest sets it)";
  const std::string value = env;
  const int hw = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, vt::kMaxThreads);
  const int want = value == "3" ? 3 : value == "999" ? vt::kMaxThreads : hw;  // "0", "junk": hardware
  EXPECT_EQ(vt::DefaultThreads(), want) << "VT_NUM_THREADS=" << value;
  EXPECT_EQ(ExecContext{}.ResolvedThreads(), want);
  std::atomic<int> calls{0};
  vt::ThreadPool::Global().Run(ExecContext{}.ResolvedThreads(), [&](int, int) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), want);
  EXPECT_EQ(RowCoverageFault(0, 1000), "");  // threads 0: the default
}

}  // namespace
