#include "vt/device.h"

#include <mutex>

#include "vt/registry.h"

namespace vt {
namespace {

struct Apis {
  std::mutex mu;
  DeviceApi api[kNumBackends] = {};
  bool present[kNumBackends] = {};
};

Apis& GetApis() {
  static Apis a;
  return a;
}

}  // namespace

void RegisterDeviceApi(Backend backend, const DeviceApi& api) {
  Apis& a = GetApis();
  std::lock_guard<std::mutex> lk(a.mu);
  a.api[static_cast<int>(backend)] = api;
  a.present[static_cast<int>(backend)] = true;
}

const DeviceApi* FindDeviceApi(Backend backend) {
  (void)FindKernel("", Backend::kCPU);  // the built-in registrations run once, on first use
  Apis& a = GetApis();
  std::lock_guard<std::mutex> lk(a.mu);
  const int i = static_cast<int>(backend);
  return a.present[i] ? &a.api[i] : nullptr;
}

std::string BackendUnavailable(Backend backend) {
  if (backend == Backend::kCPU) return "";
  const DeviceApi* api = FindDeviceApi(backend);
  if (api == nullptr) {
    return "this build has no " + std::string(Name(backend)) + " backend (" +
           (backend == Backend::kCUDA ? "nvcc was not found at configure time"
                                      : "boost.context or the CUDA toolkit headers were not found") +
           ")";
  }
  return api->unavailable();
}

}  // namespace vt

namespace vt {
namespace {
thread_local CudaLaunchCaps g_launch_caps;
}  // namespace

const CudaLaunchCaps& GetCudaLaunchCaps() { return g_launch_caps; }

void SetCudaLaunchCaps(const CudaLaunchCaps& caps) {
  if (caps.row_blocks < 1 || caps.flat_blocks < 1) throw Error("cuda", "launch caps: block counts must be >= 1");
  if (caps.threads < 32 || caps.threads > 1024 || caps.threads % 32 != 0) {
    throw Error("cuda", "launch caps: threads must be a multiple of 32 in [32, 1024]");
  }
  g_launch_caps = caps;
}

}  // namespace vt

#if !defined(VT_HAVE_CUDA_EMU)
namespace vt {
void SetEmuScheduleSeed(uint64_t) {}
}  // namespace vt
#endif
