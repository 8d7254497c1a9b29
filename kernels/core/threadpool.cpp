#include "vt/threadpool.h"

#include <algorithm>
#include <atomic>

#include "vt/error.h"

namespace vt {
namespace {

thread_local bool t_in_region = false;

struct RegionMark {
  RegionMark() { t_in_region = true; }
  ~RegionMark() { t_in_region = false; }
};

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

bool InParallelRegion() { return t_in_region; }

ThreadPool& ThreadPool::Global() {
  static ThreadPool pool;
  return pool;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& w : workers_) w.join();
}

int ThreadPool::WorkersStarted() const {
  std::lock_guard<std::mutex> lk(mu_);
  return static_cast<int>(workers_.size());
}

void ThreadPool::EnsureWorkers(int count) {
  // Called with submit_mu_ held: epoch_ cannot change underneath, so a new
  // worker starts having "seen" every job dispatched before it existed.
  std::lock_guard<std::mutex> lk(mu_);
  while (static_cast<int>(workers_.size()) < count) {
    const int id = static_cast<int>(workers_.size()) + 1;
    workers_.emplace_back([this, id, e = epoch_] { WorkerLoop(id, e); });
  }
}

void ThreadPool::WorkerLoop(int id, uint64_t seen_epoch) {
  for (;;) {
    const std::function<void(int, int)>* job = nullptr;
    int nth = 0;
    {
      std::unique_lock<std::mutex> lk(mu_);
      work_cv_.wait(lk, [&] { return stop_ || (epoch_ != seen_epoch && id < job_nth_); });
      if (stop_) return;
      seen_epoch = epoch_;
      job = job_;
      nth = job_nth_;
    }
    std::exception_ptr err;
    try {
      RegionMark mark;
      (*job)(id, nth);
    } catch (...) {
      err = std::current_exception();
    }
    std::lock_guard<std::mutex> lk(mu_);
    if (err && !error_) error_ = err;
    if (--pending_ == 0) done_cv_.notify_one();
  }
}

void ThreadPool::Run(int nth, const std::function<void(int, int)>& fn) {
  if (t_in_region) {
    throw Error("threadpool", "nested parallel dispatch from inside a parallel region is refused");
  }
  nth = std::clamp(nth, 1, kMaxThreads);
  std::lock_guard<std::mutex> submit(submit_mu_);
  if (nth == 1) {
    RegionMark mark;
    fn(0, 1);
    return;
  }
  EnsureWorkers(nth - 1);
  {
    std::lock_guard<std::mutex> lk(mu_);
    job_ = &fn;
    job_nth_ = nth;
    pending_ = nth - 1;
    error_ = nullptr;
    ++epoch_;
  }
  work_cv_.notify_all();
  std::exception_ptr own;
  try {
    RegionMark mark;
    fn(0, nth);
  } catch (...) {
    own = std::current_exception();
  }
  std::unique_lock<std::mutex> lk(mu_);
  done_cv_.wait(lk, [&] { return pending_ == 0; });
  job_ = nullptr;
  std::exception_ptr err = own ? own : error_;
  error_ = nullptr;
  if (err) std::rethrow_exception(err);
}

RowPlan PlanRows(int64_t nr, int nth) {
  RowPlan p;
  if (nr <= 0) return p;
  const int64_t chunk = CeilDiv(nr, 4 * static_cast<int64_t>(nth));
  p.nchunk = std::max<int64_t>(CeilDiv(nr, chunk), nth);
  p.dr = CeilDiv(nr, p.nchunk);
  return p;
}

void ParallelForRows(const ExecContext& ctx, int64_t nr,
                     const std::function<void(int64_t, int64_t)>& body) {
  if (nr <= 0) return;
  const int nth = ctx.ResolvedThreads();
  if (nr == 1 || nth == 1) {
    if (t_in_region) throw Error("threadpool", "nested parallel dispatch from inside a parallel region is refused");
    RegionMark mark;
    body(0, nr);
    return;
  }
  const RowPlan plan = PlanRows(nr, nth);
  std::atomic<int64_t> cursor{nth};
  ThreadPool::Global().Run(nth, [&](int ith, int) {
    for (int64_t c = ith; c < plan.nchunk; c = cursor.fetch_add(1, std::memory_order_relaxed)) {
      const int64_t r0 = c * plan.dr;
      const int64_t r1 = std::min(r0 + plan.dr, nr);
      if (r0 < r1) body(r0, r1);
    }
  });
}

GridPlan PlanGrid(int64_t nr0, int64_t nr1, int nth, bool steal) {
  GridPlan p;
  if (nr0 <= 0 || nr1 <= 0) return p;
  p.chunk_size = (nr0 == 1 || nr1 == 1) ? 64 : 16;
  p.nchunk0 = CeilDiv(nr0, p.chunk_size);
  p.nchunk1 = CeilDiv(nr1, p.chunk_size);
  if (!steal && p.nchunk0 * p.nchunk1 < 4 * static_cast<int64_t>(nth)) {
    // Too few chunks to balance: one chunk per thread along the larger extent.
    p.nchunk0 = nr0 > nr1 ? nth : 1;
    p.nchunk1 = nr0 > nr1 ? 1 : nth;
  }
  p.dr0 = CeilDiv(nr0, p.nchunk0);
  p.dr1 = CeilDiv(nr1, p.nchunk1);
  p.one_chunk_per_thread = nth >= p.nchunk0 * p.nchunk1;
  return p;
}

void ParallelForGrid(const ExecContext& ctx, int64_t nr0, int64_t nr1,
                     const std::function<void(const GridChunk&)>& body) {
  if (nr0 <= 0 || nr1 <= 0) return;
  const int nth = ctx.ResolvedThreads();
  const GridPlan plan = PlanGrid(nr0, nr1, nth, ctx.gemm_steal);
  const int64_t total = plan.nchunk0 * plan.nchunk1;
  std::atomic<int64_t> cursor{nth};
  ThreadPool::Global().Run(nth, [&](int ith, int) {
    int64_t c = ith;
    while (c < total) {
      GridChunk ch;
      ch.c0 = (c % plan.nchunk0) * plan.dr0;
      ch.c1 = std::min(ch.c0 + plan.dr0, nr0);
      ch.r0 = (c / plan.nchunk0) * plan.dr1;
      ch.r1 = std::min(ch.r0 + plan.dr1, nr1);
      if (ch.c0 < ch.c1 && ch.r0 < ch.r1) body(ch);
      if (plan.one_chunk_per_thread) break;
      c = cursor.fetch_add(1, std::memory_order_relaxed);
    }
  });
}

}  // namespace vt
