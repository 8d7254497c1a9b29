// Tensor view helpers (kernels/include/vt/tensor.h): factories, the strict
// contiguity rule, the row-strided rule, storage size and overflow refusal.
// Expected values are written out by hand from the header's definitions.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "vt/error.h"
#include "vt/tensor.h"

namespace {

using vt::DType;
using vt::Tensor;

// Runs fn, expects a vt::Error from component "tensor".
template <typename Fn>
void ExpectTensorError(Fn fn, const char* what) {
  try {
    fn();
    ADD_FAILURE() << what << ": no vt::Error thrown";
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.op(), "tensor") << what;
    EXPECT_FALSE(e.condition().empty()) << what;
  }
}

TEST(Tensor, ContiguousRowMajorStrides) {
  float buf[1];
  const Tensor t = Tensor::Contiguous(buf, DType::kBF16, {2, 3, 5, 7});
  EXPECT_EQ(t.rank, 4);
  EXPECT_EQ(t.data, buf);
  EXPECT_EQ(t.dtype, DType::kBF16);
  const int64_t want_shape[4] = {2, 3, 5, 7};
  const int64_t want_stride[4] = {105, 35, 7, 1};
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(t.shape[d], want_shape[d]) << "dim " << d;
    EXPECT_EQ(t.stride[d], want_stride[d]) << "dim " << d;
  }
  EXPECT_EQ(t.Numel(), 210);
  EXPECT_EQ(t.StorageElems(), 210);
  EXPECT_TRUE(t.IsContiguous());
  EXPECT_TRUE(t.IsRowStrided());
  const int64_t idx[4] = {1, 2, 3, 4};
  EXPECT_EQ(t.Offset(idx), 105 + 70 + 21 + 4);

  const Tensor v = Tensor::Contiguous(buf, DType::kF32, std::vector<int64_t>{9});
  EXPECT_EQ(v.rank, 1);
  EXPECT_EQ(v.stride[0], 1);
  EXPECT_EQ(v.Numel(), 9);
}

TEST(Tensor, EmptyViews) {
  const Tensor t = Tensor::Contiguous(nullptr, DType::kF32, {4, 0, 3});
  EXPECT_EQ(t.Numel(), 0);
  EXPECT_EQ(t.StorageElems(), 0);
  EXPECT_TRUE(t.IsContiguous());
  EXPECT_TRUE(t.IsRowStrided());
  // An empty view whose extents are individually huge: the element count (0)
  // and every stride fit in int64, so it is a legal view.
  const Tensor big = Tensor::Contiguous(nullptr, DType::kF32, {int64_t{1} << 62, 4, 0});
  EXPECT_EQ(big.Numel(), 0);
  EXPECT_EQ(big.stride[0], 4);
  EXPECT_EQ(big.stride[1], 1);
}

TEST(Tensor, StrictContiguity) {
  // A size-1 dim with a "free" stride is NOT contiguous (unlike torch).
  EXPECT_FALSE(Tensor::Strided(nullptr, DType::kF32, {2, 1, 4}, {4, 7, 1}).IsContiguous());
  EXPECT_TRUE(Tensor::Strided(nullptr, DType::kF32, {2, 1, 4}, {4, 4, 1}).IsContiguous());
  // Padded rows.
  const Tensor padded = Tensor::Strided(nullptr, DType::kF16, {3, 5}, {8, 1});
  EXPECT_FALSE(padded.IsContiguous());
  EXPECT_TRUE(padded.IsRowStrided());
  EXPECT_EQ(padded.StorageElems(), 2 * 8 + 5);  // last row ends at 21
  // Transposed.
  const Tensor tr = Tensor::Strided(nullptr, DType::kF32, {4, 3}, {1, 4});
  EXPECT_FALSE(tr.IsContiguous());
  EXPECT_FALSE(tr.IsRowStrided());
  EXPECT_EQ(tr.StorageElems(), (4 - 1) * 1 + (3 - 1) * 4 + 1);
}

TEST(Tensor, RowStridedRule) {
  // Innermost stride must be 1.
  EXPECT_FALSE(Tensor::Strided(nullptr, DType::kF32, {3, 5}, {10, 2}).IsRowStrided());
  // Row stride below the row width overlaps rows.
  EXPECT_FALSE(Tensor::Strided(nullptr, DType::kF32, {3, 5}, {4, 1}).IsRowStrided());
  EXPECT_TRUE(Tensor::Strided(nullptr, DType::kF32, {3, 5}, {5, 1}).IsRowStrided());
  // Rank 3: the batch stride must clear a whole padded [M, ld] block.
  EXPECT_TRUE(Tensor::Strided(nullptr, DType::kF32, {2, 3, 4}, {18, 6, 1}).IsRowStrided());
  EXPECT_FALSE(Tensor::Strided(nullptr, DType::kF32, {2, 3, 4}, {10, 6, 1}).IsRowStrided());
  // Broadcast (stride 0) outer dim overlaps.
  EXPECT_FALSE(Tensor::Strided(nullptr, DType::kF32, {3, 5}, {0, 1}).IsRowStrided());
  EXPECT_EQ(Tensor::Strided(nullptr, DType::kF32, {3, 5}, {0, 1}).StorageElems(), 5);
}

TEST(Tensor, RefusesBadDescriptions) {
  float buf[1];
  ExpectTensorError([&] { Tensor::Contiguous(buf, DType::kF32, std::vector<int64_t>{}); }, "rank 0");
  ExpectTensorError([&] { Tensor::Contiguous(buf, DType::kF32, {1, 2, 3, 4, 5}); }, "rank 5");
  ExpectTensorError([&] { Tensor::Contiguous(buf, DType::kF32, {3, -1}); }, "negative extent");
  ExpectTensorError([&] { Tensor::Strided(buf, DType::kF32, {3, 2}, {2, -1}); }, "negative stride");
  ExpectTensorError([&] { Tensor::Strided(buf, DType::kF32, {3, 2}, {1}); }, "rank mismatch");
}

TEST(Tensor, NumelOverflowThrows) {
  const int64_t big = int64_t{1} << 32;
  ExpectTensorError([&] { Tensor::Contiguous(nullptr, DType::kF32, {big, big}); }, "2^64 elements");
  ExpectTensorError([&] { Tensor::Strided(nullptr, DType::kF32, {big, big}, {0, 0}); },
                    "2^64 elements, strided");
  ExpectTensorError([&] { Tensor::Contiguous(nullptr, DType::kF32, {3, int64_t{1} << 62}); },
                    "3 * 2^62 elements");
  // The largest count that fits is accepted.
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(Tensor::Strided(nullptr, DType::kF32, {max}, {1}).Numel(), max);
  // A hand-built view (no factory) still refuses in Numel().
  Tensor t;
  t.rank = 2;
  t.shape[0] = big;
  t.shape[1] = big;
  ExpectTensorError([&] { (void)t.Numel(); }, "hand-built 2^64 elements");
  Tensor scalar;  // rank 0: one element
  EXPECT_EQ(scalar.Numel(), 1);
}

TEST(Tensor, Describe) {
  EXPECT_EQ(Tensor::Contiguous(nullptr, DType::kBF16, {7, 4096}).Describe(), "bf16[7,4096]");
  EXPECT_EQ(Tensor::Strided(nullptr, DType::kF32, {8, 32}, {64, 1}).Describe(), "f32[8,32]/s[64,1]");
}

}  // namespace
