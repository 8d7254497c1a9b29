// The cuda-emu backend's device memory: host allocations (the emulated
// kernels run on the host), handed out as DeviceType::kCUDA operands.
#include <cstdlib>
#include <cstring>

#include "cuda/emu/emu.h"
#include "vt/device.h"
#include "vt/error.h"

namespace vt {
namespace cuda_emu {
namespace {

void* Alloc(std::size_t bytes) {
  // 256-byte alignment, as cudaMalloc guarantees.
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
  if (p == nullptr) throw Error("cuda-emu", "out of host memory for a " + std::to_string(bytes) + "-byte buffer");
  return p;
}
void Release(void* p) { std::free(p); }
void Copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes != 0) std::memcpy(dst, src, bytes);
}
std::string Available() { return ""; }

}  // namespace

void RegisterDevice() { RegisterDeviceApi(Backend::kCudaEmu, DeviceApi{&Alloc, &Release, &Copy, &Copy, &Available}); }

}  // namespace cuda_emu

void SetEmuScheduleSeed(uint64_t seed) { (void)emu::SetScheduleSeed(seed); }

}  // namespace vt
