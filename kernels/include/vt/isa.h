// Instruction-set tiers of the CPU kernels. A kernel may have a portable
// tier (the reference: plain C++) and vector tiers; every tier must produce
// the portable tier's bytes (the harness checks it on every case). Which tier
// a call runs is a parameter of the call (ExecContext::isa), like its thread
// count, so one process can run a case on every tier the machine has.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The vector tiers an op's CPU kernel has, lowest first (kAvx2, kAvx512);
// empty: the op has only its portable tier. One table for the whole kernel set
// (kernels/core/op_tiers.cpp), read by the harness's isa mode and --coverage.
std::vector<Isa> OpTiers(std::string_view op);

// The tier an op with vector tiers `has` (lowest first) runs when `resolved`
// is asked for (ExecContext::ResolvedIsa): its highest tier at or below it,
// else kPortable.
Isa PickTier(Isa resolved, const std::vector<Isa>& has);

// The vector transcription of a libm function an op's vector tiers compute
// with (cpu/act/silu_tiers.h's expf: avx512 tiers only; gelu's tanhf: avx2
// and avx512), from the same tier table as OpTiers.
enum class VectorLibm : unsigned char { kNone, kExpf, kTanhf };
VectorLibm OpVectorLibm(std::string_view op);

// Vector transcriptions of libm functions (silu's expf, gelu's tanhf:
// glibc 2.36's algorithms, bit for bit) are self-checked against this
// process's libm once; a tier whose transcription disagrees runs the scalar
// libm call for every element - the same bytes, none of its vector math.
// Empty when `op`'s `tier` uses no transcription, or its transcription is in
// use; else which transcription fell back. The harness's isa mode fails
// such a tier where the loaded libm is the one transcribed (a broken
// transcription), and notes it elsewhere (another glibc: the fallback is
// the design).
std::string LibmFallback(std::string_view op, Isa tier);
// The glibc version the transcriptions reproduce ("2.36"), and the one this
// process runs (gnu_get_libc_version(); "" off glibc).
std::string_view LibmTranscribedFrom();
std::string LibmLoaded();

// Which tier really ran. Every tier of a tiered kernel (its portable tier
// too) counts itself once per block of work it computes, from whichever
// thread computes it; the harness's isa mode reads the counts around a call
// to prove the call ran the tier it asked for (a dispatch that ignores the
// request is a bug the bytes alone cannot show). Relaxed atomics: the count,
// not the order, is read, and only after the call has joined its workers.
void CountTierRun(Isa isa);
uint64_t TierRunCount(Isa isa);

}  // namespace vt
