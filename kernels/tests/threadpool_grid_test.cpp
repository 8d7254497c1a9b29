// GEMM grid dispatcher (vt::ParallelForGrid / vt::PlanGrid): exact-once
// coverage of every output cell for all size pairs x threads 1..16 x steal
// on/off, the policy table, and byte identity of a chunked GEMM across thread
// counts and the steal switch. Worker threads only record; the test thread checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "vt/context.h"
#include "vt/threadpool.h"

namespace {

using vt::ExecContext;
using vt::GridChunk;

constexpr int64_t kSizes[] = {0, 1, 2, 3, 5, 7, 16, 17, 63, 64, 65, 1000, 4099};
constexpr int kMaxTestThreads = 16;

ExecContext Ctx(int threads, bool steal) { return ExecContext{.threads = threads, .gemm_steal = steal}; }

// Checks that `chunks` tile [0,nr0) x [0,nr1) exactly once. Coordinate
// compression keeps it cheap for 4099 x 4099: every chunk edge becomes a cut,
// each compressed cell is either fully inside a chunk or fully outside, so
// "every compressed cell hit once and the cuts span [0, nr]" is equivalent to
// "every original cell hit once". Returns "" or a description of the fault.
std::string TilingFault(const std::vector<GridChunk>& chunks, int64_t nr0, int64_t nr1) {
  if (nr0 == 0 || nr1 == 0) return chunks.empty() ? "" : "chunks for an empty grid";
  std::vector<int64_t> xs{0, nr0}, ys{0, nr1};
  for (const GridChunk& c : chunks) {
    if (c.c0 < 0 || c.c1 > nr0 || c.c0 >= c.c1 || c.r0 < 0 || c.r1 > nr1 || c.r0 >= c.r1) {
      return "empty or out-of-range chunk cols [" + std::to_string(c.c0) + "," + std::to_string(c.c1) +
             ") rows [" + std::to_string(c.r0) + "," + std::to_string(c.r1) + ")";
    }
    xs.push_back(c.c0);
    xs.push_back(c.c1);
    ys.push_back(c.r0);
    ys.push_back(c.r1);
  }
  for (auto* v : {&xs, &ys}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  const size_t nx = xs.size() - 1, ny = ys.size() - 1;
  std::vector<int> hits(nx * ny, 0);
  auto index = [](const std::vector<int64_t>& cuts, int64_t v) {
    return static_cast<size_t>(std::lower_bound(cuts.begin(), cuts.end(), v) - cuts.begin());
  };
  for (const GridChunk& c : chunks) {
    for (size_t iy = index(ys, c.r0); iy < index(ys, c.r1); ++iy) {
      for (size_t ix = index(xs, c.c0); ix < index(xs, c.c1); ++ix) ++hits[iy * nx + ix];
    }
  }
  for (size_t iy = 0; iy < ny; ++iy) {
    for (size_t ix = 0; ix < nx; ++ix) {
      const int h = hits[iy * nx + ix];
      if (h != 1) {
        return "cell col " + std::to_string(xs[ix]) + " row " + std::to_string(ys[iy]) + " covered " +
               std::to_string(h) + " times";
      }
    }
  }
  return "";
}

std::vector<GridChunk> RunGrid(const ExecContext& ctx, int64_t nr0, int64_t nr1) {
  std::mutex mu;
  std::vector<GridChunk> chunks;
  vt::ParallelForGrid(ctx, nr0, nr1, [&](const GridChunk& c) {
    std::lock_guard<std::mutex> lk(mu);
    chunks.push_back(c);
  });
  return chunks;
}

// Hand-computed from threadpool.h: chunk 16 (64 if an extent is 1);
// nchunk = ceil(nr / chunk) per dim; fewer than 4*nth chunks and no steal ->
// nth chunks along the larger extent (rows on a tie), one per thread;
// extent per chunk dr = ceil(nr / nchunk) (ggml).
TEST(ParallelForGrid, PlanMatchesPolicyTable) {
  struct Case {
    int64_t nr0, nr1;
    int nth;
    bool steal;
    int64_t chunk, nchunk0, nchunk1, dr0, dr1;
    bool one_per_thread;
  };
  const Case cases[] = {
      {1, 1000, 4, false, 64, 1, 16, 1, 63, false},    // nr0 == 1 -> chunk 64; 16 chunks = 4*nth: kept
      {1000, 1, 8, false, 64, 8, 1, 125, 1, true},     // 16 < 32 -> nth chunks along nr0
      {1000, 1, 8, true, 64, 16, 1, 63, 1, false},     // steal keeps the 64-chunks
      {40, 100, 4, false, 16, 3, 7, 14, 15, false},    // 21 >= 16: kept
      {40, 100, 8, false, 16, 1, 8, 40, 13, true},     // 21 < 32: along nr1 (larger)
      {40, 100, 8, true, 16, 3, 7, 14, 15, false},     // steal keeps 16-chunks
      {17, 17, 16, false, 16, 1, 16, 17, 2, true},     // tie: along nr1
      {17, 17, 16, true, 16, 2, 2, 9, 9, true},        // 4 chunks <= nth: one each
      {65, 7, 2, false, 16, 2, 1, 33, 7, true},        // 5 < 8: along nr0
      {65, 7, 2, true, 16, 5, 1, 13, 7, false},
      {64, 64, 1, false, 16, 4, 4, 16, 16, false},     // 16 >= 4
      {1, 1, 1, false, 64, 1, 1, 1, 1, true},
      {4099, 4099, 16, false, 16, 257, 257, 16, 16, false},
      {0, 5, 4, false, 0, 0, 0, 0, 0, false},          // empty grid
  };
  for (const Case& c : cases) {
    const vt::GridPlan p = vt::PlanGrid(c.nr0, c.nr1, c.nth, c.steal);
    const std::string id = "nr0=" + std::to_string(c.nr0) + " nr1=" + std::to_string(c.nr1) +
                           " nth=" + std::to_string(c.nth) + " steal=" + std::to_string(c.steal);
    EXPECT_EQ(p.chunk_size, c.chunk) << id;
    EXPECT_EQ(p.nchunk0, c.nchunk0) << id;
    EXPECT_EQ(p.nchunk1, c.nchunk1) << id;
    EXPECT_EQ(p.dr0, c.dr0) << id;
    EXPECT_EQ(p.dr1, c.dr1) << id;
    EXPECT_EQ(p.one_chunk_per_thread, c.one_per_thread) << id;
  }
}

// All 13 x 13 size pairs x threads 1..16 x steal off/on.
TEST(ParallelForGrid, EveryCellExactlyOnce) {
  int dispatches = 0;
  int64_t chunks_seen = 0;
  for (bool steal : {false, true}) {
    for (int t = 1; t <= kMaxTestThreads; ++t) {
      for (int64_t nr0 : kSizes) {
        for (int64_t nr1 : kSizes) {
          const std::vector<GridChunk> chunks = RunGrid(Ctx(t, steal), nr0, nr1);
          chunks_seen += static_cast<int64_t>(chunks.size());
          ++dispatches;
          const std::string fault = TilingFault(chunks, nr0, nr1);
          if (!fault.empty()) {
            ADD_FAILURE() << "steal=" << steal << " threads=" << t << " nr0=" << nr0 << " nr1=" << nr1 << ": "
                          << fault;
            return;  // one report is enough; the rest would repeat it
          }
        }
      }
    }
  }
  std::printf("[ counts   ] ParallelForGrid coverage: %d dispatches, %lld chunks\n", dispatches,
              static_cast<long long>(chunks_seen));
}

// Chunks are the plan's tiles: [i*dr0, min((i+1)*dr0, nr0)) x [j*dr1, ...),
// and a re-chunked (one-per-thread) grid gives each thread at most one.
TEST(ParallelForGrid, ChunksFollowThePlan) {
  for (bool steal : {false, true}) {
    for (int t : {1, 2, 3, 7, 16}) {
      for (int64_t nr0 : {1, 5, 17, 65, 1000}) {
        for (int64_t nr1 : {1, 3, 16, 64, 1000}) {
          const vt::GridPlan p = vt::PlanGrid(nr0, nr1, t, steal);
          const std::vector<GridChunk> chunks = RunGrid(Ctx(t, steal), nr0, nr1);
          const std::string id = "steal=" + std::to_string(steal) + " t=" + std::to_string(t) +
                                 " nr0=" + std::to_string(nr0) + " nr1=" + std::to_string(nr1);
          int misplaced = 0;
          for (const GridChunk& c : chunks) {
            misplaced += (c.c0 % p.dr0 != 0 || c.c1 != std::min(c.c0 + p.dr0, nr0) || c.r0 % p.dr1 != 0 ||
                          c.r1 != std::min(c.r0 + p.dr1, nr1))
                             ? 1
                             : 0;
          }
          EXPECT_EQ(misplaced, 0) << id;
          if (p.one_chunk_per_thread) {
            EXPECT_LE(chunks.size(), static_cast<size_t>(t)) << id;
          }
        }
      }
    }
  }
}

// A chunked GEMM (one sequential f32 accumulator per output element) gives the
// same bytes at every thread count with the steal switch off and on.
TEST(ParallelForGrid, GemmBytesIndependentOfThreadsAndSteal) {
  constexpr int64_t M = 67, N = 45, K = 129;  // odd, not multiples of 16
  std::mt19937_64 rng(0x6E77);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N));
  for (float& v : a) v = u(rng);
  for (float& v : b) v = u(rng);
  auto cell = [&](int64_t m, int64_t n) {
    float acc = 0.0f;
    for (int64_t k = 0; k < K; ++k) acc += a[static_cast<size_t>(m * K + k)] * b[static_cast<size_t>(k * N + n)];
    return acc;
  };
  std::vector<float> want(static_cast<size_t>(M * N));
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) want[static_cast<size_t>(m * N + n)] = cell(m, n);  // no pool
  }
  for (bool steal : {false, true}) {
    for (int t = 1; t <= kMaxTestThreads; ++t) {
      std::vector<float> got(want.size(), -1.0f);
      vt::ParallelForGrid(Ctx(t, steal), N, M, [&](const GridChunk& c) {
        for (int64_t m = c.r0; m < c.r1; ++m) {
          for (int64_t n = c.c0; n < c.c1; ++n) got[static_cast<size_t>(m * N + n)] = cell(m, n);
        }
      });
      EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0)
          << "steal=" << steal << " threads=" << t;
    }
  }
}

}  // namespace
