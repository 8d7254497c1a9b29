// cuda-emu: a small SIMT emulation that runs CUDA kernel source on the host.
// A .cu file is compiled as C++ with this header in place of the CUDA
// runtime (kernels/cuda/core/common.cuh picks one or the other):
//   - blocks of a grid run one after another on the calling thread;
//   - the threads of a block run as fibers (boost.context fcontext switches),
//     in an order shuffled per block and per scheduling pass from a seed, so
//     a missing barrier has a chance to show as a wrong result;
//   - __syncthreads is a generation barrier (threads that returned count as
//     arrived, as on sm_70+); threads waiting at different barrier sites, or
//     a state where no thread can move, is reported as a deadlock naming the
//     kernel (LaunchError), never a hang;
//   - warp shuffles / ballot / any / all / __syncwarp are mask-aware
//     collectives: the lanes named in the mask meet, a lane reading a lane
//     outside the mask gets a poison value (all bits set: a NaN for floats);
//   - __shared__ is a per-host-thread static (blocks run in turn, so one copy
//     serves the block that is running); dynamic shared memory comes from
//     VT_DYNAMIC_SHARED over a per-launch buffer;
//   - device math maps to the host's libm; dim3 / uint3 / __half /
//     __nv_bfloat16 come from the toolkit's own headers.
// What it does not model (memory-model races, timing, warp lockstep): docs/cuda.md.
#pragma once

#if defined(__CUDACC__)
#error "emu.h is the host build of CUDA sources; nvcc compiles against the real runtime"
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>

// Our definitions first: the toolkit headers keep a macro that is already
// defined when __CUDACC__ is absent.
#define __global__
#define __device__
#define __host__
#define __shared__ static thread_local
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)

#include <vector_types.h>  // dim3, uint3, float4 (host-side structs)
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace vt::emu {

// A launch the emulation refuses (bad configuration) or a kernel that cannot
// finish (deadlock, divergent barrier, bad warp mask). Thrown from the launch.
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kWarpSize = 32;
inline constexpr int kMaxThreadsPerBlock = 1024;
inline constexpr std::size_t kMaxDynamicShared = 48 * 1024;  // the default opt-in limit

struct LaunchConfig {
  const char* kernel = "?";
  dim3 grid, block;
  std::size_t dynamic_shared = 0;
};

// Runs body() once per thread of every block. Throws LaunchError.
void Launch(const LaunchConfig& cfg, const std::function<void()>& body);

// Seed of the thread order of the next launches on this host thread (each
// launch and block derives its own stream from it). Returns the old seed.
uint64_t SetScheduleSeed(uint64_t seed);

// Indices of the running thread, its block, and the launch shape.
const uint3& ThreadIdx();
const uint3& BlockIdx();
const dim3& BlockDim();
const dim3& GridDim();
void* DynamicShared();

void SyncThreads(const char* file, int line);

enum class WarpOp : uint8_t { kShfl, kShflXor, kShflUp, kShflDown, kBallot, kAny, kAll, kSyncWarp };
// One lane's part in a warp collective: value bits in, result bits out.
uint64_t WarpCollective(WarpOp op, unsigned mask, uint64_t value, int param, int width);

template <typename T>
T WarpShuffle(WarpOp op, unsigned mask, T v, int param, int width) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "shuffles move up to 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  const uint64_t r = WarpCollective(op, mask, bits, param, width);
  T out;
  std::memcpy(&out, &r, sizeof(T));
  return out;
}

// The launch macro's host side: VT_LAUNCH(k, grid, block, smem)(args...).
template <typename... P>
class Launcher {
 public:
  Launcher(const char* name, void (*kernel)(P...), dim3 grid, dim3 block, std::size_t smem)
      : cfg_{name, grid, block, smem}, kernel_(kernel) {}
  template <typename... A>
  void operator()(A&&... args) const {
    auto* k = kernel_;
    Launch(cfg_, [&] { k(args...); });
  }

 private:
  LaunchConfig cfg_;
  void (*kernel_)(P...);
};

}  // namespace vt::emu

#define threadIdx (::vt::emu::ThreadIdx())
#define blockIdx (::vt::emu::BlockIdx())
#define blockDim (::vt::emu::BlockDim())
#define gridDim (::vt::emu::GridDim())
#define warpSize 32

#define __syncthreads() ::vt::emu::SyncThreads(__FILE__, __LINE__)

template <typename T>
inline T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  return ::vt::emu::WarpShuffle(::vt::emu::WarpOp::kShfl, mask, v, src, width);
}
template <typename T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) {
  return ::vt::emu::WarpShuffle(::vt::emu::WarpOp::kShflXor, mask, v, lane_mask, width);
}
template <typename T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return ::vt::emu::WarpShuffle(::vt::emu::WarpOp::kShflUp, mask, v, static_cast<int>(delta), width);
}
template <typename T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return ::vt::emu::WarpShuffle(::vt::emu::WarpOp::kShflDown, mask, v, static_cast<int>(delta), width);
}
inline unsigned __ballot_sync(unsigned mask, int pred) {
  return static_cast<unsigned>(::vt::emu::WarpCollective(::vt::emu::WarpOp::kBallot, mask, pred != 0, 0, 32));
}
inline int __any_sync(unsigned mask, int pred) {
  return static_cast<int>(::vt::emu::WarpCollective(::vt::emu::WarpOp::kAny, mask, pred != 0, 0, 32));
}
inline int __all_sync(unsigned mask, int pred) {
  return static_cast<int>(::vt::emu::WarpCollective(::vt::emu::WarpOp::kAll, mask, pred != 0, 0, 32));
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  (void)::vt::emu::WarpCollective(::vt::emu::WarpOp::kSyncWarp, mask, 0, 0, 32);
}

// Device math on the host: libm, and the fast intrinsics as their exact
// counterparts (the device's own error budgets are documented per op).
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }

#define VT_EMU_LAUNCH(kernel, grid, block, smem) ::vt::emu::Launcher(#kernel, kernel, dim3(grid), dim3(block), (smem))
#define VT_EMU_DYNAMIC_SHARED(type, name) type* name = static_cast<type*>(::vt::emu::DynamicShared())
