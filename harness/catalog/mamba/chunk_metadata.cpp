#include "harness/catalog/mamba/chunk_metadata.h"

#include <algorithm>

namespace vt::conform::mamba {
namespace local_chunk_metadata {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// `physical`: cut at multiples of chunk_size of the global token index;
// otherwise at multiples of chunk_size from each sequence's start.
ChunkMetadata Build(const std::vector<int64_t>& cu, int64_t cs, bool physical) {
  ChunkMetadata m;
  m.cu_chunk_seqlens.push_back(0);
  const int64_t S = static_cast<int64_t>(cu.size()) - 1;
  m.last_chunk_indices.assign(static_cast<std::size_t>(std::max<int64_t>(S, 0)), -1);
  for (int64_t b = 0; b < S; ++b) {
    const int64_t start = cu[static_cast<std::size_t>(b)], end = cu[static_cast<std::size_t>(b + 1)];
    for (int64_t pos = start; pos < end;) {
      const int64_t room = cs - ((physical ? pos : pos - start) % cs);
      pos += std::min(room, end - pos);
      m.cu_chunk_seqlens.push_back(pos);
      m.seq_idx.push_back(b);
      m.last_chunk_indices[static_cast<std::size_t>(b)] = static_cast<int64_t>(m.seq_idx.size()) - 1;
    }
  }
  return m;
}

}  // namespace
}  // namespace local_chunk_metadata

ChunkMetadata VarlenChunkMetadata(const std::vector<int64_t>& cu_seqlens, int64_t chunk_size) {
  using namespace local_chunk_metadata;
  return Build(cu_seqlens, chunk_size, true);
}

ChunkMetadata PerSequenceChunkMetadata(const std::vector<int64_t>& cu_seqlens, int64_t chunk_size) {
  using namespace local_chunk_metadata;
  return Build(cu_seqlens, chunk_size, false);
}

}  // namespace vt::conform::mamba
