// vt::LibmFallback (vt/isa.h): which tiers run the scalar libm call because
// their vector transcription disagreed with this process's libm at its
// self-check. Portable code: it only asks the tiers' own checks.
#include <string>
#include <string_view>

#include "cpu/act/gelu_tiers.h"
#include "cpu/act/silu_tiers.h"
#include "vt/isa.h"

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

namespace vt {

std::string LibmFallback(std::string_view op, Isa tier) {
  // Which op uses which transcription, on which tiers: the tier table
  // (kernels/core/op_tiers.cpp); the expf is avx512 only (attention's avx2
  // tier and the others' keep the scalar expf).
  const VectorLibm libm = OpVectorLibm(op);
  if (libm == VectorLibm::kExpf && tier == Isa::kAvx512 && IsaSupported(tier) && cpu::VectorExpfTable() == nullptr) {
    return "the avx512 tier's vector expf disagrees with this process's expf on its self-check inputs: every "
           "element takes the scalar expf";
  }
  if (libm == VectorLibm::kTanhf && (tier == Isa::kAvx2 || tier == Isa::kAvx512) && IsaSupported(tier) &&
      !cpu::VectorTanhfAgrees(tier)) {
    return "the " + std::string(Name(tier)) +
           " tier's vector tanhf disagrees with this process's tanhf on its self-check inputs: every element "
           "takes the scalar tanhf";
  }
  return "";
}

std::string_view LibmTranscribedFrom() { return "2.36"; }

std::string LibmLoaded() {
#if defined(__GLIBC__)
  return gnu_get_libc_version();
#else
  return "";
#endif
}

}  // namespace vt
