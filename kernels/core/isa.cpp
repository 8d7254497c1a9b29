#include "vt/isa.h"

#include <cstdio>
#include <cstdlib>

namespace vt {

std::string_view Name(Isa isa) {
  switch (isa) {
    case Isa::kAuto: return "auto";
    case Isa::kPortable: return "portable";
    case Isa::kAvx2: return "avx2";
    case Isa::kAvx512: return "avx512";
  }
  return "?";
}

std::optional<Isa> ParseIsa(std::string_view name) {
  for (Isa isa : {Isa::kAuto, Isa::kPortable, Isa::kAvx2, Isa::kAvx512}) {
    if (name == Name(isa)) return isa;
  }
  return std::nullopt;
}

bool IsaSupported(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  static const bool kAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  static const bool kAvx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                              __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
  static const bool kAvx2 = false, kAvx512 = false;
#endif
  switch (isa) {
    case Isa::kAvx2: return kAvx2;
    case Isa::kAvx512: return kAvx512;
    default: return true;
  }
}

Isa BestIsa() {
  if (IsaSupported(Isa::kAvx512)) return Isa::kAvx512;
  if (IsaSupported(Isa::kAvx2)) return Isa::kAvx2;
  return Isa::kPortable;
}

Isa DefaultIsa() {
  static const Isa kDefault = [] {
    const char* env = std::getenv("VT_ISA");
    if (env == nullptr || *env == '\0') return BestIsa();
    const std::optional<Isa> isa = ParseIsa(env);
    if (!isa || !IsaSupported(*isa)) {
      std::fprintf(stderr, "vt: VT_ISA=%s is not a tier this CPU runs (portable, avx2, avx512); using %s\n", env,
                   Name(BestIsa()).data());
      return BestIsa();
    }
    return *isa == Isa::kAuto ? BestIsa() : *isa;
  }();
  return kDefault;
}

}  // namespace vt
