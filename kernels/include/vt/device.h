// Device memory of a backend: how the harness (and any caller) puts operands
// where a backend's kernels can read them. The CPU backend has none (host
// memory is its memory). kCUDA registers cudaMalloc / cudaMemcpy when the
// build has nvcc; kCudaEmu registers host allocations that the emulated
// kernels read, marked DeviceType::kCUDA like real device memory, so the
// copy-in / run / copy-out path and the wrong-device refusals are the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vt/context.h"

namespace vt {

struct DeviceApi {
  void* (*alloc)(std::size_t bytes);  // throws vt::Error when it cannot
  void (*release)(void* p);
  void (*to_device)(void* dst, const void* src, std::size_t bytes);
  void (*to_host)(void* dst, const void* src, std::size_t bytes);
  // "" when the backend can run on this machine, else why not ("no CUDA
  // device: ...").
  std::string (*unavailable)();
};

void RegisterDeviceApi(Backend backend, const DeviceApi& api);
// nullptr when the build has no such backend (or for kCPU).
const DeviceApi* FindDeviceApi(Backend backend);
// "" when `backend` can run here; else the reason (not built, no device).
std::string BackendUnavailable(Backend backend);

// cuda-emu only: the seed of the thread order of the launches that follow on
// this host thread (a missing barrier shows as a seed-dependent result).
// No-op in a build without the emulation.
void SetEmuScheduleSeed(uint64_t seed);

// Caps on the launch shapes of the CUDA kernels (both backends), for the
// launches that follow on this host thread. The defaults are the shipped
// shapes; the cuda mode also runs each case under small caps so that every
// grid-stride and block-stride loop turns more than once on small cases
// (a block owning a second row, a thread a second element: docs/cuda.md).
struct CudaLaunchCaps {
  int64_t row_blocks = 4096;   // blocks of a row-per-block kernel
  int64_t flat_blocks = 1024;  // blocks of a flat (grid-stride) kernel
  int64_t threads = 256;       // threads per block: whole warps, 32..1024
};
const CudaLaunchCaps& GetCudaLaunchCaps();
// Throws vt::Error("cuda", ...) unless row_blocks, flat_blocks >= 1 and
// threads is a multiple of 32 in [32, 1024].
void SetCudaLaunchCaps(const CudaLaunchCaps& caps);

}  // namespace vt
