// Workspace: the tensors of one case copied into guarded buffers and bound as
// vt::Tensor views, ready for one run. Guard bytes of a known pattern surround
// every allocation; after the run CheckGuards() and CheckGaps() report any
// write outside the views (FAILED_ERROR).
//
// Where the operands live is part of the case (Params "layout"), because a
// validator must accept every placement a caller may legally use:
//   separate  each tensor in its own allocation (the default);
//   packed    all tensors back to back in ONE allocation, in a seed-derived
//             order, each starting where the previous one ends, rounded up
//             to its own element size (the alignment contract; guard bytes
//             fill the rounding), so views touch wherever the sizes permit
//             (touching is not overlapping: an overlap check measuring in
//             elements instead of bytes, or using < for <=, refuses them);
//   offset    each tensor in its own allocation, starting 1..3 elements past
//             a guarded lead (sub-views whose data pointer is not aligned to
//             the allocation); empty views get strides that are not
//             row-major (they address nothing, so any stride is legal).
// Every allocation starts at an address aligned for every element size
// (operator new's fundamental alignment, 16, and kGuardBytes = 64), so in
// every layout each data pointer is a multiple of its element size.
// Error cases may also place a packed tensor over its predecessor's tail
// (TensorData::pack_lead_bytes < 0) to build a partial overlap, or put one
// tensor a byte off its alignment (TensorData::misalign_bytes).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/core/case.h"
#include "vt/device.h"
#include "vt/tensor.h"

namespace vt::conform {

class Workspace {
 public:
  static constexpr std::size_t kGuardBytes = 64;
  static constexpr uint8_t kGuardByte = 0xA5;

  explicit Workspace(const Case& c);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const Params& params() const { return params_; }
  // The bound view of a tensor; throws std::out_of_range when the case has none.
  const vt::Tensor& operator[](const std::string& name) const;
  // nullptr when the case has no such tensor (an optional operand left out).
  const vt::Tensor* Find(const std::string& name) const;
  // Error cases only: corrupt a bound view's fields (rank, dtype, extents,
  // strides) in ways a TensorData cannot describe.
  void MutateView(const std::string& name, const std::function<void(vt::Tensor&)>& f);

  // "" when intact, else which tensor's guard was overwritten and where.
  std::string CheckGuards() const;
  // "" when every byte of a strided view's gaps is unchanged.
  std::string CheckGaps() const;
  // "" when no byte of any allocation changed since construction.
  std::string CheckUnchanged() const;
  // The case with every tensor's storage replaced by its bytes now.
  Case Snapshot() const;

  // Device backends (cuda, cuda-emu): copy every allocation - guard bytes,
  // NaN-filled gaps and leads included - into the backend's memory and bind
  // the views there, on DeviceType::kCUDA (a tensor the case puts on the
  // other device, TensorData::device == kCUDA, goes to kCPU: the
  // wrong-device refusal). ToHost copies every allocation back and releases
  // the device copies, so the guard / gap / snapshot checks read what the
  // kernel left, exactly as for a CPU run.
  void ToDevice(const vt::DeviceApi& api);
  void ToHost();

 private:
  struct Slot {
    TensorData spec;
    std::size_t buffer = 0;  // index into buffers_
    std::size_t offset = 0;  // byte offset of the storage in that buffer
    vt::Tensor view;
  };
  // Bytes [begin, end) of a buffer that must keep kGuardByte.
  struct Guard {
    std::size_t buffer, begin, end;
    std::string what;
  };
  const Slot* FindSlot(const std::string& name) const;
  void PlaceSeparate(const std::string& layout);
  void PlacePacked(uint64_t seed);
  const uint8_t* Storage(const Slot& s) const { return buffers_[s.buffer].data() + s.offset; }

  Params params_;
  std::vector<Slot> slots_;
  std::vector<std::vector<uint8_t>> buffers_;
  std::vector<std::vector<uint8_t>> initial_;
  std::vector<Guard> guards_;
  const vt::DeviceApi* device_ = nullptr;
  std::vector<void*> device_buffers_;
};

}  // namespace vt::conform
