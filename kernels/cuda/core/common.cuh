// What every CUDA kernel file includes. The same .cu source builds twice:
//   nvcc (sm_80, sm_90)      -> namespace vt::cuda_dev, Backend::kCUDA
//   g++ with cuda/emu/emu.h  -> namespace vt::cuda_emu, Backend::kCudaEmu
// so one kernel text is checked on the host (cuda-emu) and on the device.
//   VT_LAUNCH(kernel, grid, block, smem)(args...)   a launch (parenthesise a
//                                                   template kernel's name)
//   VT_DYNAMIC_SHARED(type, name)                   extern __shared__ type name[]
//   CheckLaunch("kernel")                           after each launch: a launch
//                                                   error becomes a thrown vt::Error
#pragma once

#include <cstdint>

#include "api/kernel_types.h"
#include "vt/device.h"
#include "vt/dtype.h"
#include "vt/error.h"
#include "vt/registry.h"
#include "vt/tensor.h"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define VT_CUDA_NS cuda_dev
#define VT_CUDA_BACKEND ::vt::Backend::kCUDA
#define VT_LAUNCH(kernel, grid, block, smem) kernel<<<(grid), (block), (smem)>>>
#define VT_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#else
#include "cuda/emu/emu.h"
#define VT_CUDA_NS cuda_emu
#define VT_CUDA_BACKEND ::vt::Backend::kCudaEmu
#define VT_LAUNCH(kernel, grid, block, smem) VT_EMU_LAUNCH(kernel, grid, block, smem)
#define VT_DYNAMIC_SHARED(type, name) VT_EMU_DYNAMIC_SHARED(type, name)
#endif

namespace vt::VT_CUDA_NS {

// Throws vt::Error(op, ...) when the last launch failed (device build); the
// emulation throws from the launch itself, so there is nothing left to check.
inline void CheckLaunch(const char* op) {
#if defined(__CUDACC__)
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t run = launch == cudaSuccess ? cudaDeviceSynchronize() : launch;
  if (run != cudaSuccess) throw Error(op, std::string("CUDA kernel failed: ") + cudaGetErrorString(run));
#else
  (void)op;
#endif
}

// Launch shapes, capped by vt::GetCudaLaunchCaps() (defaults: 4096 row
// blocks, 1024 flat blocks, 256 threads). Every kernel loops with a grid or
// block stride, so any cap is correct; the cuda mode lowers them so those
// loops turn more than once on small cases.
// Blocks for a row-per-block kernel: rows, capped.
inline unsigned RowGrid(int64_t rows) {
  const int64_t cap = GetCudaLaunchCaps().row_blocks;
  return static_cast<unsigned>(rows < cap ? rows : cap);
}
// Threads for a row of `n` elements: whole warps, 32..cap.
inline unsigned RowThreads(int64_t n) {
  const int64_t cap = GetCudaLaunchCaps().threads;
  const int64_t w = (n + 31) / 32 * 32;
  return static_cast<unsigned>(w < 32 ? 32 : (w > cap ? cap : w));
}
// Threads per block of a flat kernel.
inline unsigned FlatThreads() { return static_cast<unsigned>(GetCudaLaunchCaps().threads); }
// Blocks for a flat kernel of n elements at FlatThreads() threads, capped.
inline unsigned FlatGrid(int64_t n) {
  const int64_t t = FlatThreads(), cap = GetCudaLaunchCaps().flat_blocks;
  const int64_t b = (n + t - 1) / t;
  return static_cast<unsigned>(b < cap ? b : cap);
}

}  // namespace vt::VT_CUDA_NS
