// Tensor: a non-owning view of a buffer (data pointer, dtype, device, rank,
// shape, strides in ELEMENTS, torch convention). Validation of what an op
// accepts lives with the op (kernels/api); this file only describes views.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "vt/dtype.h"

namespace vt {

enum class DeviceType : uint8_t { kCPU, kCUDA };

struct Device {
  DeviceType type = DeviceType::kCPU;
  int index = 0;
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

inline constexpr int kMaxRank = 4;

struct Tensor {
  void* data = nullptr;
  DType dtype = DType::kF32;
  Device device{};
  int rank = 0;
  int64_t shape[kMaxRank] = {0, 0, 0, 0};
  int64_t stride[kMaxRank] = {0, 0, 0, 0};
  // A float [N,K] weight whose BYTES are [K,N] (a loader repack; op-contracts
  // 1.1): the shape still reads [N,K]. Only an op that declares it honours
  // the flag for that operand (matmul_bt's b) accepts it; every other operand
  // check refuses it (api::Checker::Operand).
  bool elem_kn_repacked = false;

  // Row-major view over `data`. Rank 1..4; extents >= 0. Throws vt::Error on a
  // bad rank, a negative extent or an element count that overflows int64.
  static Tensor Contiguous(void* data, DType dtype, std::initializer_list<int64_t> shape,
                           Device device = {});
  static Tensor Contiguous(void* data, DType dtype, const std::vector<int64_t>& shape,
                           Device device = {});
  // Explicit strides (elements). Same checks as Contiguous plus strides >= 0.
  static Tensor Strided(void* data, DType dtype, const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& strides, Device device = {});

  // Product of the extents (1 for rank 0). Throws on int64 overflow.
  int64_t Numel() const;
  // Strict row-major: every stride equals the product of the inner extents,
  // size-1 dims included (unlike torch). Views with a zero extent pass.
  bool IsContiguous() const;
  // Innermost stride 1 and every outer stride >= the span of the dims inside it:
  // the padded-row views some operands accept. Contiguous views pass.
  bool IsRowStrided() const;
  // Number of elements from element 0 to one past the last addressed element
  // (0 for an empty view): how much storage the view needs.
  int64_t StorageElems() const;
  // Element offset of a multi-index (no bounds check: callers index in range).
  int64_t Offset(const int64_t* index) const;

  std::size_t ElementSize() const { return SizeOf(dtype); }
  template <typename T>
  T* Ptr() const { return static_cast<T*>(data); }

  // "bf16[7,4096]" or "f32[8,32]/s[64,1]" when strided; used in messages.
  std::string Describe() const;
};

}  // namespace vt
