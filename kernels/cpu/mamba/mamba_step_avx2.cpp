// The avx2 tier of mamba2_state_update and mamba2_chunk_scan: mamba_step.inc
// over the V256 traits, compiled for avx2 inside its target region
// (cpu/simd/target.h).
#include "cpu/mamba/mamba_tiers.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"
#include "cpu/norm/norm_panel.inc"
#include "cpu/mamba/mamba_step.inc"

namespace vt::cpu::avx2 {

void Mamba2Tier(const Mamba2HeadJob& job) { simd::StateHead<simd::V256>(job); }
void Mamba2Tier(const ChunkStateJob& job) { simd::ChunkStateT<simd::V256>(job); }
void Mamba2Tier(const ChunkOutJob& job) { simd::ChunkOutT<simd::V256>(job); }
void Mamba2Tier(const ChunkCbJob& job) { simd::ChunkCbT<simd::V256>(job); }

}  // namespace vt::cpu::avx2
VT_TARGET_END
#endif
