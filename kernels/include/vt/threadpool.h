// ggml-style CPU thread pool: persistent workers parked on a condition
// variable; the caller is worker 0. Work is split over OUTPUT rows / chunks
// only, so a kernel's bytes never depend on the thread count.
//
// Dispatch policies (ported as behaviour from ggml, see docs/threadpool.md):
//  * rows: chunk = ceil(nr / (4*nth)), nchunk = max(ceil(nr / chunk), nth),
//    rows per chunk dr = ceil(nr / nchunk); thread ith starts with chunk ith,
//    then steals from an atomic cursor seeded at nth.
//  * GEMM grid over nr0 output columns x nr1 output rows: chunk 16 (64 when
//    either extent is 1); when the grid has fewer than 4*nth chunks it is
//    re-chunked into nth chunks along the larger extent (each thread does one
//    and stops) unless the steal switch is on; otherwise threads start at
//    chunk ith and steal from a cursor seeded at nth.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "vt/context.h"

namespace vt {

class ThreadPool {
 public:
  ThreadPool() = default;
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The pool every CPU kernel dispatches through.
  static ThreadPool& Global();

  // Runs fn(ith, nth) for every ith in [0, nth), ith 0 on the calling thread,
  // and returns when all have returned. nth is clamped to [1, kMaxThreads];
  // workers are started on first need and then persist. The first exception
  // thrown by any participant is rethrown here after all have finished; the
  // pool stays usable. Calls from several host threads are serialised. A call
  // from inside fn (nested dispatch) throws vt::Error instead of deadlocking.
  void Run(int nth, const std::function<void(int, int)>& fn);

  int WorkersStarted() const;

 private:
  void EnsureWorkers(int count);
  void WorkerLoop(int id, uint64_t seen_epoch);

  std::mutex submit_mu_;  // one Run at a time
  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::vector<std::thread> workers_;
  const std::function<void(int, int)>* job_ = nullptr;
  int job_nth_ = 1;
  int pending_ = 0;
  uint64_t epoch_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

// True while the calling thread executes inside ThreadPool::Run.
bool InParallelRegion();

struct RowPlan {
  int64_t nchunk = 0;  // chunks
  int64_t dr = 0;      // rows per chunk (the last may be short)
};
RowPlan PlanRows(int64_t nr, int nth);

// body(r0, r1) is called for non-empty [r0, r1) covering [0, nr) exactly once.
void ParallelForRows(const ExecContext& ctx, int64_t nr,
                     const std::function<void(int64_t, int64_t)>& body);

struct GridPlan {
  int64_t chunk_size = 0;
  int64_t nchunk0 = 0, nchunk1 = 0;  // chunks along columns (nr0) and rows (nr1)
  int64_t dr0 = 0, dr1 = 0;          // extent of one chunk along each
  bool one_chunk_per_thread = false; // the grid was re-chunked per thread
};
GridPlan PlanGrid(int64_t nr0, int64_t nr1, int nth, bool steal);

struct GridChunk {
  int64_t c0, c1;  // output columns [c0, c1)
  int64_t r0, r1;  // output rows [r0, r1)
};
// body is called once per non-empty chunk; chunks tile nr0 x nr1 exactly.
void ParallelForGrid(const ExecContext& ctx, int64_t nr0, int64_t nr1,
                     const std::function<void(const GridChunk&)>& body);

}  // namespace vt
