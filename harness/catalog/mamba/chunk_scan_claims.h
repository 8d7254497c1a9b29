// The executable equivalence claims of mamba2_chunk_scan (docs/ops/mamba.md):
//   iterated_state_update  == mamba2_state_update applied token by token
//                             (different algorithms: within the baseline rule)
//   chunk_size_free        another chunk size gives the same result within the
//                             baseline rule (f32 state: no handover rounding)
//   varlen_equals_alone    each sequence run alone: the same bytes
//   zero_initial_state     initial_states of zeros == none: the same bytes
#pragma once

#include <vector>

#include "harness/catalog/op_spec.h"

namespace vt::conform::mamba {

std::vector<Claim> ChunkScanClaims(void (*build)(Case&));

}  // namespace vt::conform::mamba
