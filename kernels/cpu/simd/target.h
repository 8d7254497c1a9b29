// Vector tiers (vt/isa.h) on x86: which tiers this build compiles, and the
// target regions their code lives in. A tier's code is compiled for its
// instruction set inside VT_TARGET_*_BEGIN ... VT_TARGET_END only, so the rest
// of the library stays portable and a CPU without the tier never executes one
// of its instructions (dispatch reads ExecContext::ResolvedIsa, which never
// names an unsupported tier). Code inside a region uses raw pointers and
// intrinsics only: an inline std:: function instantiated there could be
// merged by the linker with the portable copy and leak the wider target.
//
// No tier code uses FMA: every product and sum stays a separate IEEE
// operation, as in the portable tier (the bytes of every tier must be the
// portable ones). AVX-512F implies the FMA instructions, so the global
// -ffp-contract=off is what keeps the compiler from fusing a multiply and add.
#pragma once

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define VT_X86_TIERS 1
#else
#define VT_X86_TIERS 0
#endif

#if VT_X86_TIERS
#if defined(__clang__)
#define VT_TARGET_AVX512_BEGIN                                                                          \
  _Pragma("clang attribute push(__attribute__((target(\"avx512f,avx512bw,avx512dq,avx512vl,f16c\"))), " \
          "apply_to = function)")
#define VT_TARGET_AVX2_BEGIN \
  _Pragma("clang attribute push(__attribute__((target(\"avx2,f16c\"))), apply_to = function)")
#define VT_TARGET_END _Pragma("clang attribute pop")
#else
// why the diagnostic push: GCC 12's AVX-512 unpack intrinsics pass
// _mm512_undefined_ps() (a self-initialised local) as the unused merge source,
// and -Wuninitialized reports it in every caller (a known false positive).
#define VT_TARGET_AVX512_BEGIN                                                                  \
  _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f,avx512bw,avx512dq,avx512vl,f16c\")") \
      _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wuninitialized\"") \
          _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define VT_TARGET_AVX2_BEGIN \
  _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,f16c\")") _Pragma("GCC diagnostic push")
#define VT_TARGET_END _Pragma("GCC diagnostic pop") _Pragma("GCC pop_options")
#endif
#endif

namespace vt::cpu::simd {

// Storage tags the tier templates are typed on (resolved once per call).
struct StNone {};  // no such operand
struct StF32 {};   // f32 storage
struct StF16 {};   // f16 storage (inputs only)
struct StBF16 {};  // bf16 storage

template <class St>
constexpr int kStBytes = 4;  // (StNone is never addressed)
template <>
constexpr int kStBytes<StF16> = 2;
template <>
constexpr int kStBytes<StBF16> = 2;

}  // namespace vt::cpu::simd

namespace vt::cpu {

// Tier outputs at least this large are written with non-temporal stores:
// they would only evict the inputs from cache (a memcpy this large streams
// too). A choice of speed only: the bytes are the same either way.
inline constexpr long long kStreamOutBytes = 8ll << 20;

}  // namespace vt::cpu
