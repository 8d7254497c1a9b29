// The kCUDA backend's device memory (nvcc build only): cudaMalloc and
// synchronous copies; unavailable, with the runtime's reason, when the
// machine has no usable device.
#include <cuda_runtime.h>

#include "vt/device.h"
#include "vt/error.h"

namespace vt::cuda_dev {
namespace {

void Check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error("cuda", std::string(what) + ": " + cudaGetErrorString(e));
}
void* Alloc(std::size_t bytes) {
  void* p = nullptr;
  Check(cudaMalloc(&p, bytes == 0 ? 1 : bytes), "cudaMalloc");
  return p;
}
void Release(void* p) { (void)cudaFree(p); }
void ToDevice(void* dst, const void* src, std::size_t bytes) {
  if (bytes != 0) Check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
}
void ToHost(void* dst, const void* src, std::size_t bytes) {
  if (bytes != 0) Check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}
std::string Available() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) return std::string("no device: ") + cudaGetErrorString(e);
  if (count == 0) return "no device: cudaGetDeviceCount reports 0";
  return "";
}

}  // namespace

void RegisterDevice() { RegisterDeviceApi(Backend::kCUDA, DeviceApi{&Alloc, &Release, &ToDevice, &ToHost, &Available}); }

}  // namespace vt::cuda_dev
