#include "vt/context.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace vt {

std::string_view Name(Backend b) {
  switch (b) {
    case Backend::kCPU: return "cpu";
    case Backend::kCUDA: return "cuda";
    case Backend::kCudaEmu: return "cuda-emu";
  }
  return "?";
}

int DefaultThreads() {
  static const int kDefault = [] {
    int n = 0;
    if (const char* env = std::getenv("VT_NUM_THREADS")) n = std::atoi(env);
    if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
    return std::clamp(n, 1, kMaxThreads);
  }();
  return kDefault;
}

Isa ExecContext::ResolvedIsa() const {
  if (isa == Isa::kAuto) return DefaultIsa();
  if (IsaSupported(isa)) return isa;
  return BestIsa();
}

int ExecContext::ResolvedThreads() const {
  return threads > 0 ? std::min(threads, kMaxThreads) : DefaultThreads();
}

}  // namespace vt
