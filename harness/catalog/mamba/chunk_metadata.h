// The chunk metadata of a varlen Mamba2 prefill, built the way vLLM's
// compute_varlen_chunk_metadata (v1/attention/backends/mamba2_attn.py) builds
// it: every sequence is cut at its own boundaries and at the physical chunk
// boundaries of the packed token stream (token indices that are multiples of
// chunk_size), so a sequence that starts mid-chunk gets a short first chunk.
//   cu_chunk_seqlens    [nchunks+1] prefix sums of the chunk lengths
//   last_chunk_indices  [S] each sequence's last chunk (-1: empty sequence)
//   seq_idx             [nchunks] each chunk's sequence
#pragma once

#include <cstdint>
#include <vector>

namespace vt::conform::mamba {

struct ChunkMetadata {
  std::vector<int64_t> cu_chunk_seqlens;
  std::vector<int64_t> last_chunk_indices;
  std::vector<int64_t> seq_idx;
};

// cu_seqlens: [S+1], starting at 0, non-decreasing. chunk_size > 0.
ChunkMetadata VarlenChunkMetadata(const std::vector<int64_t>& cu_seqlens, int64_t chunk_size);

// Every sequence chunked from its own first token instead (chunks of
// chunk_size, the last one short): also a valid input of the op, and the
// chunking a sequence gets when it is run alone.
ChunkMetadata PerSequenceChunkMetadata(const std::vector<int64_t>& cu_seqlens, int64_t chunk_size);

}  // namespace vt::conform::mamba
