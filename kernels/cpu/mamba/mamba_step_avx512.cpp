// The avx512 tier of mamba2_state_update and mamba2_chunk_scan: mamba_step.inc
// over the V512 traits, compiled for avx512 inside its target region
// (cpu/simd/target.h).
#include "cpu/mamba/mamba_tiers.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"
#include "cpu/norm/norm_panel.inc"
#include "cpu/mamba/mamba_step.inc"

namespace vt::cpu::avx512 {

void Mamba2Tier(const Mamba2HeadJob& job) { simd::StateHead<simd::V512>(job); }
void Mamba2Tier(const ChunkStateJob& job) { simd::ChunkStateT<simd::V512>(job); }
void Mamba2Tier(const ChunkOutJob& job) { simd::ChunkOutT<simd::V512>(job); }
void Mamba2Tier(const ChunkCbJob& job) { simd::ChunkCbT<simd::V512>(job); }

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
