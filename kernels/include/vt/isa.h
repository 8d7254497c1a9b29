// Instruction-set tiers of the CPU kernels. A kernel may have a portable
// tier (the reference: plain C++) and vector tiers; every tier must produce
// the portable tier's bytes (the harness checks it on every case). Which tier
// a call runs is a parameter of the call (ExecContext::isa), like its thread
// count, so one process can run a case on every tier the machine has.
#pragma once

#include <optional>
#include <string_view>

namespace vt {

// kAuto: the process default (DefaultIsa). The others name a tier; a kernel
// without that tier runs its best tier below it.
enum class Isa : unsigned char { kAuto, kPortable, kAvx2, kAvx512 };

std::string_view Name(Isa isa);
// "auto", "portable", "avx2", "avx512"; nullopt otherwise.
std::optional<Isa> ParseIsa(std::string_view name);

// Whether this CPU runs the tier (cpuid, read once): avx2 needs AVX2 and F16C;
// avx512 needs AVX-512 F, BW, DQ and VL. kPortable and kAuto: always.
bool IsaSupported(Isa isa);
// The highest supported tier.
Isa BestIsa();
// VT_ISA when set to a tier name this CPU supports (read once per process),
// else BestIsa(). An unknown or unsupported VT_ISA is reported on stderr once
// and ignored.
Isa DefaultIsa();

}  // namespace vt
