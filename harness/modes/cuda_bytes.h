// How each op's CUDA kernel relates to its CPU kernel, byte for byte. The
// cuda mode holds every output of a CUDA kernel to the CPU kernel's bytes
// (NaN payloads aside) unless the op is listed here with the reason its
// bytes may differ; exact outputs are held to them in every case. A new
// kernel is therefore checked at the strongest level by default: listing an
// op here is a claim about its algorithm, written with its reason.
#pragma once

#include <string>

#include "vt/context.h"

namespace vt::conform {

struct CudaBytes {
  enum class Kind {
    kSameAsCpu,       // the CPU's order and rounding points: the same bytes on every backend
    kSameAsCpuOnEmu,  // the same order, but exp/tanh/sin/cos/pow on the device are the double
                      // functions rounded once (cuda/core/access.cuh), not the host's libm: the
                      // same bytes on cuda-emu (host libm), within tolerance on a device
    kReordered,       // another order of operations (a block reduction tree): within tolerance
  };
  Kind kind = Kind::kSameAsCpu;
  std::string reason;  // why the bytes may differ (empty for kSameAsCpu)

  // Whether every output must equal the CPU kernel's bytes on `backend`.
  bool BytesEqualOn(vt::Backend backend) const {
    return kind == Kind::kSameAsCpu || (kind == Kind::kSameAsCpuOnEmu && backend == vt::Backend::kCudaEmu);
  }
  // Whether the outputs under an exact rule must equal the CPU's bytes on
  // `backend`. Not for a kSameAsCpuOnEmu op on a device: an exact output
  // computed from exp & co (fp4 codes, top-k ids) may legitimately differ
  // from the CPU's where the device's rounding of exp crosses a threshold;
  // the exact rule against the oracle (tie- and threshold-aware) judges it.
  bool ExactBytesEqualOn(vt::Backend backend) const {
    return kind != Kind::kSameAsCpuOnEmu || backend == vt::Backend::kCudaEmu;
  }
};

// The relation of `op`'s CUDA kernel (kSameAsCpu when the op is not listed).
CudaBytes CudaBytesOf(const std::string& op);

}  // namespace vt::conform
