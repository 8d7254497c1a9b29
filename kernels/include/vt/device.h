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

}  // namespace vt
