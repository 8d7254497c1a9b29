// The harness's restatement of vLLM's compute_varlen_chunk_metadata: worked
// examples from its definition, and its invariants over many batches.
#include "harness/catalog/mamba/chunk_metadata.h"

#include <gtest/gtest.h>

#include <random>

namespace vt::conform::mamba {
namespace {

using V = std::vector<int64_t>;

TEST(ChunkMetadata, CutsAtSequenceAndPhysicalChunkBoundaries) {
  // Sequences [0,5) and [5,13), chunk_size 4: the second sequence starts one
  // token into the physical chunk [4,8), so its first chunk is [5,8).
  const ChunkMetadata m = VarlenChunkMetadata({0, 5, 13}, 4);
  EXPECT_EQ(m.cu_chunk_seqlens, (V{0, 4, 5, 8, 12, 13}));
  EXPECT_EQ(m.last_chunk_indices, (V{1, 4}));
  EXPECT_EQ(m.seq_idx, (V{0, 0, 1, 1, 1}));
}

TEST(ChunkMetadata, EmptySequenceGetsNoChunkAndMinusOne) {
  const ChunkMetadata m = VarlenChunkMetadata({0, 3, 3, 4}, 2);
  EXPECT_EQ(m.cu_chunk_seqlens, (V{0, 2, 3, 4}));
  EXPECT_EQ(m.last_chunk_indices, (V{1, -1, 2}));
  EXPECT_EQ(m.seq_idx, (V{0, 0, 2}));
}

TEST(ChunkMetadata, PerSequenceChunkingStartsAtEachSequence) {
  const ChunkMetadata m = PerSequenceChunkMetadata({0, 5, 13}, 4);
  EXPECT_EQ(m.cu_chunk_seqlens, (V{0, 4, 5, 9, 13}));
  EXPECT_EQ(m.last_chunk_indices, (V{1, 3}));
  EXPECT_EQ(m.seq_idx, (V{0, 0, 1, 1}));
}

TEST(ChunkMetadata, InvariantsOverRandomBatches) {
  std::mt19937_64 rng(0x6d616d6261);
  for (int round = 0; round < 500; ++round) {
    const int64_t cs = int64_t{1} << (rng() % 7);
    V cu = {0};
    const int64_t S = 1 + static_cast<int64_t>(rng() % 5);
    for (int64_t b = 0; b < S; ++b) cu.push_back(cu.back() + static_cast<int64_t>(rng() % (3 * cs + 2)));
    for (const bool physical : {true, false}) {
      const ChunkMetadata m = physical ? VarlenChunkMetadata(cu, cs) : PerSequenceChunkMetadata(cu, cs);
      ASSERT_EQ(m.cu_chunk_seqlens.front(), 0);
      ASSERT_EQ(m.cu_chunk_seqlens.back(), cu.back());
      ASSERT_EQ(m.seq_idx.size() + 1, m.cu_chunk_seqlens.size());
      for (std::size_t c = 0; c < m.seq_idx.size(); ++c) {
        const int64_t lo = m.cu_chunk_seqlens[c], hi = m.cu_chunk_seqlens[c + 1];
        const int64_t s = m.seq_idx[c];
        ASSERT_GT(hi, lo);
        ASSERT_LE(hi - lo, cs);
        ASSERT_GE(lo, cu[static_cast<std::size_t>(s)]);  // inside its sequence
        ASSERT_LE(hi, cu[static_cast<std::size_t>(s + 1)]);
        const int64_t origin = physical ? 0 : cu[static_cast<std::size_t>(s)];
        // never crosses a chunk boundary: [lo, hi) within one cs-aligned block
        ASSERT_EQ((lo - origin) / cs, (hi - 1 - origin) / cs);
      }
      for (int64_t b = 0; b < S; ++b) {
        const int64_t last = m.last_chunk_indices[static_cast<std::size_t>(b)];
        if (cu[static_cast<std::size_t>(b)] == cu[static_cast<std::size_t>(b + 1)]) {
          ASSERT_EQ(last, -1);
        } else {
          ASSERT_EQ(m.seq_idx[static_cast<std::size_t>(last)], b);
          ASSERT_EQ(m.cu_chunk_seqlens[static_cast<std::size_t>(last + 1)], cu[static_cast<std::size_t>(b + 1)]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace vt::conform::mamba
