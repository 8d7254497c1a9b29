// Workspace: the tensors of one case copied into guarded buffers and bound as
// vt::Tensor views, ready for one run. Every buffer has kGuardBytes of a known
// pattern before and after its storage; after the run CheckGuards() and
// CheckGaps() report any write outside the view (FAILED_ERROR).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/case.h"
#include "vt/tensor.h"

namespace vt::conform {

class Workspace {
 public:
  static constexpr std::size_t kGuardBytes = 64;
  static constexpr uint8_t kGuardByte = 0xA5;

  explicit Workspace(const Case& c);
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const Params& params() const { return params_; }
  // The bound view of a tensor; throws std::out_of_range when the case has none.
  const vt::Tensor& operator[](const std::string& name) const;
  // nullptr when the case has no such tensor (an optional operand left out).
  const vt::Tensor* Find(const std::string& name) const;

  // "" when intact, else which tensor's guard was overwritten and where.
  std::string CheckGuards() const;
  // "" when every byte of a strided view's gaps is unchanged.
  std::string CheckGaps() const;
  // The case with every tensor's storage replaced by its bytes now.
  Case Snapshot() const;

 private:
  struct Slot {
    TensorData spec;
    std::vector<uint8_t> raw;  // guard | storage | guard
    vt::Tensor view;
    uint8_t* storage() { return raw.data() + kGuardBytes; }
    const uint8_t* storage() const { return raw.data() + kGuardBytes; }
  };
  const Slot* FindSlot(const std::string& name) const;

  Params params_;
  std::vector<Slot> slots_;
};

}  // namespace vt::conform
