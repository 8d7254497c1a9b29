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
namespace {

// The avx512 tiers whose activation is silu_and_mul's vector expf
// (cpu/act/silu_tiers.h): silu_and_mul, the silu/sigmoid-gated norms
// (cpu/norm/gated_tiers.h) and silu_and_mul_fp4_quant.
bool UsesVectorExpf(std::string_view op) {
  return op == "silu_and_mul" || op == "rms_norm_gated" || op == "rms_norm_gated_quant_fp8" ||
         op == "rms_norm_gated_group" || op == "silu_and_mul_fp4_quant";
}

}  // namespace

std::string LibmFallback(std::string_view op, Isa tier) {
  if (tier == Isa::kAvx512 && UsesVectorExpf(op) && IsaSupported(tier) && cpu::VectorExpfTable() == nullptr) {
    return "the avx512 tier's vector expf disagrees with this process's expf on its self-check inputs: every "
           "element takes the scalar expf";
  }
  if (op == "gelu_and_mul" && (tier == Isa::kAvx2 || tier == Isa::kAvx512) && IsaSupported(tier) &&
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
