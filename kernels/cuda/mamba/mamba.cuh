// Pieces the two Mamba2 CUDA kernels share: dt's transform (bias, softplus
// with upstream's guard) and the clamps, written as the CPU kernels evaluate
// them (cpu/mamba/mamba_math.h, std::min / std::max), and device scratch for
// the chunk scan's intermediate stages.
#pragma once

#include <cstddef>
#include <vector>

#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace mamba {

// std::min(a, b) and std::max(a, b) for floats, operand order included: a
// NaN or a signed zero comes out of the same side as on the CPU (nvcc's
// device std::min needs relaxed constexpr; fminf treats NaN differently).
__device__ __forceinline__ float MinF(float a, float b) { return b < a ? b : a; }
__device__ __forceinline__ float MaxF(float a, float b) { return a < b ? b : a; }

// softplus, identity above 20 (upstream's guard; mamba::SoftplusGuarded).
__device__ __forceinline__ float SoftplusGuarded(float v) { return v <= 20.0f ? Log1pF(ExpF(v)) : v; }

// dt of one (row, head) before any clamp: + dt_bias, then softplus.
__device__ __forceinline__ float HeadDt(DevPtr dt, int64_t i, const float* bias, int64_t h, bool softplus) {
  float d = Load(dt, i);
  if (bias != nullptr) d += bias[h];
  if (softplus) d = SoftplusGuarded(d);
  return d;
}

// The backend's device memory API (throws when the build has none).
inline const DeviceApi& Memory() {
  const DeviceApi* api = FindDeviceApi(VT_CUDA_BACKEND);
  if (api == nullptr) throw Error("mamba2_chunk_scan", "no device memory for this backend");
  return *api;
}

// A host copy of a contiguous i32 device operand (launch sizing only: the
// kernels read the operand itself).
inline std::vector<int32_t> HostI32(const Tensor& t) {
  std::vector<int32_t> v(static_cast<std::size_t>(t.Numel()));
  if (!v.empty()) Memory().to_host(v.data(), t.data, v.size() * sizeof(int32_t));
  return v;
}

// f32 scratch in the backend's device memory for the length of a launch
// sequence (released on every path, a thrown launch error included).
class Scratch {
 public:
  explicit Scratch(std::size_t floats) : api_(&Memory()) {
    p_ = static_cast<float*>(api_->alloc((floats == 0 ? 1 : floats) * sizeof(float)));
  }
  ~Scratch() { api_->release(p_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  float* get() const { return p_; }

 private:
  const DeviceApi* api_;
  float* p_ = nullptr;
};

}  // namespace mamba
}  // namespace vt::VT_CUDA_NS
