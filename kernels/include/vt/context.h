// ExecContext: how one op call runs. Threads and backend are parameters of a
// call, not process state, so one process can run the same op at 1..16 threads
// (the threads check mode does exactly that).
#pragma once

#include <cstdint>
#include <string_view>

#include "vt/isa.h"

namespace vt {

// kCUDA: the CUDA kernels on a device (nvcc build). kCudaEmu: the same CUDA
// kernel source compiled for the host and run by the SIMT emulation
// (kernels/cuda/emu); its operands are host memory marked DeviceType::kCUDA.
enum class Backend : uint8_t { kCPU, kCUDA, kCudaEmu };
inline constexpr int kNumBackends = 3;
std::string_view Name(Backend b);

// Most CPU threads one call may use.
inline constexpr int kMaxThreads = 64;

// The process default: VT_NUM_THREADS when set to a positive integer, else the
// hardware concurrency; clamped to [1, kMaxThreads]. Read once per process.
int DefaultThreads();

struct ExecContext {
  Backend backend = Backend::kCPU;
  int threads = 0;          // <= 0: DefaultThreads()
  bool gemm_steal = false;  // GEMM grid: keep stealing instead of re-chunking per thread
  Isa isa = Isa::kAuto;     // CPU tier; kAuto: DefaultIsa() (vt/isa.h)

  int ResolvedThreads() const;
  // The tier this call runs: isa, or DefaultIsa() for kAuto; a tier the CPU
  // does not run falls back to the best one it does (never an illegal
  // instruction). Kernels dispatch on it once per call.
  Isa ResolvedIsa() const;
};

}  // namespace vt
