// cuda-emu scheduler: blocks in turn, the threads of a block as fibers on
// boost.context's fcontext (about 10 ns a switch; ucontext's signal-mask
// syscall makes it ~30x slower). See emu.h for the model.
#include "cuda/emu/emu.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

namespace vt::emu {
namespace {

namespace bc = boost::context::detail;

// 16 KiB per fiber: the kernels keep a few scalars and call libm; a fiber that
// needs more would crash, so the size is a documented limit (docs/cuda.md).
// Sanitizer builds get 256 KiB: ASan's frames carry redzones, and a sanitizer
// prints its report on the stack of the fiber that faulted - unwinding,
// symbolising and demangling need far more than 16 KiB, and an overflowing
// report runs into the neighbouring fiber's stack (a heap block) and ends as
// a heap-buffer-overflow inside the demangler instead of naming the bug.
// Measured (GCC 12, an ASan report on a fiber, kernels/tests/cuda_emu_test):
// 16 KiB dies of a nested fault, 32 KiB suffices; 256 KiB leaves 8x for
// deeper kernels and UBSan's stack traces. The stacks are allocated
// uninitialised, so untouched pages cost nothing.
#if defined(VT_SANITIZER_BUILD) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr std::size_t kStackBytes = 256 * 1024;
#else
constexpr std::size_t kStackBytes = 16 * 1024;
#endif

uint64_t SplitMix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

enum class State : uint8_t { kReady, kBarrier, kWarp, kDone };

struct Fiber {
  bc::fcontext_t ctx = nullptr;
  uint3 tid{};
  int linear = 0;
  State state = State::kReady;
  bool started = false;
};

struct Collective {
  WarpOp op;
  unsigned mask = 0;
  unsigned arrived = 0, taken = 0;
  bool complete = false;
  uint64_t value[kWarpSize] = {};
  int param[kWarpSize] = {};
  int width[kWarpSize] = {};
  uint64_t result[kWarpSize] = {};
};

const char* OpName(WarpOp op) {
  switch (op) {
    case WarpOp::kShfl: return "__shfl_sync";
    case WarpOp::kShflXor: return "__shfl_xor_sync";
    case WarpOp::kShflUp: return "__shfl_up_sync";
    case WarpOp::kShflDown: return "__shfl_down_sync";
    case WarpOp::kBallot: return "__ballot_sync";
    case WarpOp::kAny: return "__any_sync";
    case WarpOp::kAll: return "__all_sync";
    case WarpOp::kSyncWarp: return "__syncwarp";
  }
  return "?";
}

struct Block {
  const LaunchConfig* cfg = nullptr;
  const std::function<void()>* body = nullptr;
  uint3 block_idx{};
  int nthreads = 0;
  std::vector<Fiber> fibers;
  int done = 0, arrived = 0;
  const char* barrier_file = nullptr;
  int barrier_line = 0;
  std::vector<std::vector<std::unique_ptr<Collective>>> warps;
  std::string error;  // set by a fiber; the scheduler stops and throws
  bc::fcontext_t sched = nullptr;
  unsigned char* dynamic_shared = nullptr;
};

struct Worker {
  std::vector<std::unique_ptr<unsigned char[]>> stacks;
  std::vector<unsigned char> dynamic_shared;
  uint64_t seed = 0x5eed;
  uint64_t launches = 0;
};

thread_local Worker tl_worker;
thread_local Block* tl_block = nullptr;
thread_local Fiber* tl_fiber = nullptr;

std::string Where(const Fiber& f) {
  return "thread (" + std::to_string(f.tid.x) + "," + std::to_string(f.tid.y) + "," + std::to_string(f.tid.z) + ")";
}

// Back to the scheduler; returns when the scheduler resumes this fiber.
void Yield() {
  Block& b = *tl_block;
  const bc::transfer_t t = bc::jump_fcontext(b.sched, nullptr);
  tl_block->sched = t.fctx;
}

// A fiber-side error: record it and never run again (the scheduler throws).
[[noreturn]] void Fail(const std::string& what) {
  Block& b = *tl_block;
  if (b.error.empty()) b.error = what;
  tl_fiber->state = State::kDone;
  for (;;) Yield();  // the scheduler does not resume a kDone fiber
}

void MaybeReleaseBarrier(Block& b) {
  if (b.arrived == 0 || b.arrived + b.done < b.nthreads) return;
  b.arrived = 0;
  for (Fiber& f : b.fibers) {
    if (f.state == State::kBarrier) f.state = State::kReady;
  }
}

void FiberEntry(bc::transfer_t t) {
  tl_block->sched = t.fctx;
  (*tl_block->body)();
  Block& b = *tl_block;
  tl_fiber->state = State::kDone;
  ++b.done;
  MaybeReleaseBarrier(b);  // returning counts as arriving
  bc::jump_fcontext(b.sched, nullptr);
}

void Complete(Collective& c) {
  const uint64_t poison = ~uint64_t{0};
  unsigned bits = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    if ((c.mask >> l) & 1u) bits |= (c.value[l] != 0 ? 1u : 0u) << l;
  }
  for (int l = 0; l < kWarpSize; ++l) {
    if (!((c.mask >> l) & 1u)) continue;
    const int w = c.width[l];
    const int seg = l & ~(w - 1);
    int src = -1;  // -1: the lane keeps its own value
    switch (c.op) {
      case WarpOp::kShfl: src = seg + (c.param[l] & (w - 1)); break;
      case WarpOp::kShflXor: src = l ^ c.param[l]; if (src >= seg + w) src = -1; break;
      case WarpOp::kShflDown: src = (l & (w - 1)) + c.param[l] >= w ? -1 : l + c.param[l]; break;
      case WarpOp::kShflUp: src = (l & (w - 1)) < c.param[l] ? -1 : l - c.param[l]; break;
      case WarpOp::kBallot: c.result[l] = bits; continue;
      case WarpOp::kAny: c.result[l] = (bits & c.mask) != 0; continue;
      case WarpOp::kAll: c.result[l] = (bits & c.mask) == c.mask; continue;
      case WarpOp::kSyncWarp: c.result[l] = 0; continue;
    }
    if (src < 0) {
      c.result[l] = c.value[l];
    } else {
      c.result[l] = (src < kWarpSize && ((c.mask >> src) & 1u)) ? c.value[src] : poison;
    }
  }
  c.complete = true;
}

void Resume(Fiber& f) {
  tl_fiber = &f;
  const bc::transfer_t t = bc::jump_fcontext(f.ctx, nullptr);
  f.ctx = t.fctx;
  tl_fiber = nullptr;
}

std::string DescribeStuck(const Block& b) {
  std::string s;
  int shown = 0;
  for (const Fiber& f : b.fibers) {
    if (f.state == State::kDone || shown >= 4) continue;
    s += (shown++ ? "; " : "") + Where(f) +
         (f.state == State::kBarrier ? " waits at __syncthreads (" + std::string(b.barrier_file) + ":" +
                                           std::to_string(b.barrier_line) + ")"
                                     : " waits in a warp collective");
  }
  return s;
}

void RunBlock(Block& b, uint64_t block_seed) {
  Worker& w = tl_worker;
  while (static_cast<int>(w.stacks.size()) < b.nthreads) {
    w.stacks.push_back(std::unique_ptr<unsigned char[]>(new unsigned char[kStackBytes]));
  }
  const dim3 bd = b.cfg->block;
  b.fibers.assign(static_cast<std::size_t>(b.nthreads), Fiber{});
  for (int i = 0; i < b.nthreads; ++i) {
    Fiber& f = b.fibers[static_cast<std::size_t>(i)];
    f.linear = i;
    f.tid = uint3{static_cast<unsigned>(i) % bd.x, (static_cast<unsigned>(i) / bd.x) % bd.y,
                  static_cast<unsigned>(i) / (bd.x * bd.y)};
    f.ctx = bc::make_fcontext(w.stacks[static_cast<std::size_t>(i)].get() + kStackBytes, kStackBytes, &FiberEntry);
  }
  b.warps.clear();
  b.warps.resize(static_cast<std::size_t>((b.nthreads + kWarpSize - 1) / kWarpSize));
  std::vector<int> order(static_cast<std::size_t>(b.nthreads));
  std::iota(order.begin(), order.end(), 0);
  uint64_t rng = block_seed;
  while (b.done < b.nthreads) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[SplitMix(rng) % i]);
    bool moved = false;
    for (int i : order) {
      Fiber& f = b.fibers[static_cast<std::size_t>(i)];
      if (f.state != State::kReady) continue;
      Resume(f);
      moved = true;
      if (!b.error.empty()) break;
    }
    if (!b.error.empty()) break;
    if (!moved) {
      b.error = "deadlock: no thread can move (" + DescribeStuck(b) + ")";
      break;
    }
  }
}

}  // namespace

uint64_t SetScheduleSeed(uint64_t seed) {
  const uint64_t old = tl_worker.seed;
  tl_worker.seed = seed;
  tl_worker.launches = 0;
  return old;
}

const uint3& ThreadIdx() { return tl_fiber->tid; }
const uint3& BlockIdx() { return tl_block->block_idx; }
const dim3& BlockDim() { return tl_block->cfg->block; }
const dim3& GridDim() { return tl_block->cfg->grid; }
void* DynamicShared() { return tl_block->dynamic_shared; }

void SyncThreads(const char* file, int line) {
  Block& b = *tl_block;
  Fiber& f = *tl_fiber;
  if (b.arrived == 0) {
    b.barrier_file = file;
    b.barrier_line = line;
  } else if (b.barrier_line != line || std::strcmp(b.barrier_file, file) != 0) {
    Fail("divergent barrier: " + Where(f) + " reached __syncthreads at " + file + ":" + std::to_string(line) +
         " while other threads wait at " + b.barrier_file + ":" + std::to_string(b.barrier_line));
  }
  f.state = State::kBarrier;
  ++b.arrived;
  MaybeReleaseBarrier(b);
  do {
    Yield();
  } while (f.state == State::kBarrier);
}

uint64_t WarpCollective(WarpOp op, unsigned mask, uint64_t value, int param, int width) {
  Block& b = *tl_block;
  Fiber& f = *tl_fiber;
  const int warp = f.linear / kWarpSize, lane = f.linear % kWarpSize;
  const unsigned bit = 1u << lane;
  const int lanes = std::min(kWarpSize, b.nthreads - warp * kWarpSize);
  const unsigned existing = lanes == kWarpSize ? 0xffffffffu : ((1u << lanes) - 1u);
  const std::string at = std::string(OpName(op)) + " by " + Where(f);
  if ((mask & bit) == 0) Fail(at + ": the calling lane " + std::to_string(lane) + " is not in its mask");
  if ((mask & ~existing) != 0) Fail(at + ": the mask names lanes past the end of the block");
  if (width < 1 || width > kWarpSize || (width & (width - 1)) != 0) Fail(at + ": width must be a power of 2 <= 32");
  auto& pending = b.warps[static_cast<std::size_t>(warp)];
  Collective* c = nullptr;
  for (auto& p : pending) {
    if (!p->complete && p->mask == mask && (p->arrived & bit) == 0) {
      c = p.get();
      break;
    }
  }
  if (c == nullptr) {
    pending.push_back(std::make_unique<Collective>());
    c = pending.back().get();
    c->op = op;
    c->mask = mask;
  } else if (c->op != op) {
    Fail(at + ": other lanes of the same mask are in " + OpName(c->op));
  }
  c->value[lane] = value;
  c->param[lane] = param;
  c->width[lane] = width;
  c->arrived |= bit;
  if (c->arrived == mask) Complete(*c);
  f.state = State::kWarp;
  if (c->complete) {
    for (Fiber& o : b.fibers) {
      const int ow = o.linear / kWarpSize;
      if (ow == warp && ((mask >> (o.linear % kWarpSize)) & 1u) && o.state == State::kWarp && &o != &f) {
        // Lanes that wait on this collective become ready (a lane waiting on
        // another collective re-checks and keeps waiting).
        o.state = State::kReady;
      }
    }
    f.state = State::kReady;
  }
  do {
    Yield();
    if (!c->complete) f.state = State::kWarp;
  } while (!c->complete);
  const uint64_t r = c->result[lane];
  c->taken |= bit;
  if (c->taken == c->mask) {
    pending.erase(std::find_if(pending.begin(), pending.end(), [&](const auto& p) { return p.get() == c; }));
  }
  return r;
}

void Launch(const LaunchConfig& cfg, const std::function<void()>& body) {
  const std::string name = std::string("cuda-emu: launch of ") + cfg.kernel;
  const uint64_t threads = uint64_t{cfg.block.x} * cfg.block.y * cfg.block.z;
  if (cfg.block.x == 0 || cfg.block.y == 0 || cfg.block.z == 0 || cfg.grid.x == 0 || cfg.grid.y == 0 ||
      cfg.grid.z == 0) {
    throw LaunchError(name + " refused: a grid or block extent is 0 (cudaErrorInvalidConfiguration)");
  }
  if (threads > kMaxThreadsPerBlock || cfg.block.x > 1024 || cfg.block.y > 1024 || cfg.block.z > 64) {
    throw LaunchError(name + " refused: block " + std::to_string(cfg.block.x) + "x" + std::to_string(cfg.block.y) +
                      "x" + std::to_string(cfg.block.z) + " exceeds 1024 threads (x,y <= 1024, z <= 64)");
  }
  if (cfg.grid.y > 65535 || cfg.grid.z > 65535) {
    throw LaunchError(name + " refused: grid y/z above 65535");
  }
  if (cfg.dynamic_shared > kMaxDynamicShared) {
    throw LaunchError(name + " refused: " + std::to_string(cfg.dynamic_shared) +
                      " bytes of dynamic shared memory, more than the configured " +
                      std::to_string(kMaxDynamicShared));
  }
  if (tl_block != nullptr) throw LaunchError(name + " refused: launched from inside a kernel");
  Worker& w = tl_worker;
  if (w.dynamic_shared.size() < cfg.dynamic_shared) w.dynamic_shared.resize(cfg.dynamic_shared);
  uint64_t launch_rng = w.seed ^ (0xC0DA0000ull + w.launches++);
  const uint64_t launch_seed = SplitMix(launch_rng);
  for (unsigned z = 0; z < cfg.grid.z; ++z) {
    for (unsigned y = 0; y < cfg.grid.y; ++y) {
      for (unsigned x = 0; x < cfg.grid.x; ++x) {
        Block b;
        b.cfg = &cfg;
        b.body = &body;
        b.block_idx = uint3{x, y, z};
        b.nthreads = static_cast<int>(threads);
        b.dynamic_shared = w.dynamic_shared.data();
        // Fresh dynamic shared memory holds garbage on a device; NaN bytes
        // here make a read before any write visible.
        std::fill(w.dynamic_shared.begin(), w.dynamic_shared.begin() + static_cast<std::ptrdiff_t>(cfg.dynamic_shared),
                  uint8_t{0xFF});
        uint64_t block_rng = launch_seed ^ ((uint64_t{z} << 42) | (uint64_t{y} << 21) | x);
        tl_block = &b;
        RunBlock(b, SplitMix(block_rng));
        tl_block = nullptr;
        if (!b.error.empty()) {
          throw LaunchError("cuda-emu: kernel " + std::string(cfg.kernel) + " block (" + std::to_string(x) + "," +
                            std::to_string(y) + "," + std::to_string(z) + "): " + b.error);
        }
      }
    }
  }
}

}  // namespace vt::emu
