// GEMM family unit checks that the catalog's generated cases do not state one
// by one: the elem_kn_repacked flag is refused by every operand except
// matmul_bt's weight, batched_matmul's out-overlap rule on hand-built views,
// and a hand-computed product through the three ops (whole numbers: the sums
// are exact, so the expected values are written out by hand).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vt/error.h"
#include "vt/ops.h"

namespace {

using vt::DType;
using vt::Tensor;

const vt::ExecContext kCtx{vt::Backend::kCPU, 2, false};

// a [2,3] = [[1,2,3],[4,5,6]], b [3,2] = [[1,0],[0,1],[2,-1]]: out = [[7,-1],[16,-1]].
std::vector<float> A() { return {1, 2, 3, 4, 5, 6}; }
std::vector<float> B() { return {1, 0, 0, 1, 2, -1}; }
const std::vector<float> kOut = {7, -1, 16, -1};

std::string SiteOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const vt::Error& e) {
    return e.site();
  }
  return "";
}

TEST(Gemm, HandComputedProducts) {
  auto a = A(), b = B();
  std::vector<float> out(4, -99.0f);
  vt::Matmul(kCtx, Tensor::Contiguous(out.data(), DType::kF32, {2, 2}), Tensor::Contiguous(a.data(), DType::kF32, {2, 3}),
             Tensor::Contiguous(b.data(), DType::kF32, {3, 2}));
  EXPECT_EQ(out, kOut);

  std::vector<float> w = {1, 0, 2, 0, 1, -1};  // b^T: [2,3]
  out.assign(4, -99.0f);
  vt::MatmulBT(kCtx, Tensor::Contiguous(out.data(), DType::kF32, {2, 2}), Tensor::Contiguous(a.data(), DType::kF32, {2, 3}),
               Tensor::Contiguous(w.data(), DType::kF32, {2, 3}));
  EXPECT_EQ(out, kOut);

  // The loader's repack: shape [N,K] = [2,3], bytes [K,N] = b's.
  Tensor repacked = Tensor::Contiguous(b.data(), DType::kF32, {2, 3});
  repacked.elem_kn_repacked = true;
  out.assign(4, -99.0f);
  vt::MatmulBT(kCtx, Tensor::Contiguous(out.data(), DType::kF32, {2, 2}), Tensor::Contiguous(a.data(), DType::kF32, {2, 3}),
               repacked);
  EXPECT_EQ(out, kOut);

  // One batch, a given as the transposed view of a [3,2] buffer is not a
  // legal row layout (inner stride 2): use a [2,1,3] buffer seen as [1,2,3].
  out.assign(4, -99.0f);
  vt::BatchedMatmul(kCtx, Tensor::Strided(out.data(), DType::kF32, {1, 2, 2}, {0, 2, 1}),
                    Tensor::Strided(a.data(), DType::kF32, {1, 2, 3}, {3, 3, 1}),
                    Tensor::Strided(b.data(), DType::kF32, {1, 3, 2}, {0, 2, 1}));
  EXPECT_EQ(out, kOut);
}

TEST(Gemm, KZeroWritesZeros) {
  std::vector<float> out(4, -99.0f);
  float none = 0.0f;
  vt::Matmul(kCtx, Tensor::Contiguous(out.data(), DType::kF32, {2, 2}), Tensor::Contiguous(&none, DType::kF32, {2, 0}),
             Tensor::Contiguous(&none, DType::kF32, {0, 2}));
  EXPECT_EQ(out, std::vector<float>(4, 0.0f));
}

TEST(Gemm, KnRepackedRefusedExceptOnMatmulBtWeight) {
  auto a = A(), b = B();
  std::vector<float> out(4);
  Tensor ta = Tensor::Contiguous(a.data(), DType::kF32, {2, 3});
  Tensor tb = Tensor::Contiguous(b.data(), DType::kF32, {3, 2});
  Tensor to = Tensor::Contiguous(out.data(), DType::kF32, {2, 2});
  Tensor flagged_b = tb;
  flagged_b.elem_kn_repacked = true;
  EXPECT_EQ(SiteOf([&] { vt::Matmul(kCtx, to, ta, flagged_b); }), "operand.kn_repacked(b)");
  Tensor flagged_a = ta;
  flagged_a.elem_kn_repacked = true;
  EXPECT_EQ(SiteOf([&] { vt::MatmulBT(kCtx, to, flagged_a, Tensor::Contiguous(b.data(), DType::kF32, {2, 3})); }),
            "operand.kn_repacked(a)");
  std::vector<float> x(4);
  Tensor flagged_x = Tensor::Contiguous(x.data(), DType::kF32, {2, 2});
  flagged_x.elem_kn_repacked = true;
  EXPECT_EQ(SiteOf([&] { vt::MulScalar(kCtx, to, flagged_x, 2.0); }), "operand.kn_repacked(x)");
  EXPECT_EQ(out, std::vector<float>(4, 0.0f));  // nothing written by a refused call
}

TEST(Gemm, BatchedOutMustNotOverlapItself) {
  std::vector<float> a(2 * 2 * 3, 1.0f), b(2 * 3 * 2, 1.0f), out(2 * 2 * 2, -1.0f);
  const Tensor ta = Tensor::Contiguous(a.data(), DType::kF32, {2, 2, 3});
  const Tensor tb = Tensor::Contiguous(b.data(), DType::kF32, {2, 3, 2});
  // Batch stride 0: both batches write the same elements.
  EXPECT_EQ(SiteOf([&] { vt::BatchedMatmul(kCtx, Tensor::Strided(out.data(), DType::kF32, {2, 2, 2}, {0, 2, 1}), ta, tb); }),
            "out.elements_disjoint");
  // Batch stride 1 with rows of 2: batch 1's row 0 is batch 0's row 0 shifted by one.
  EXPECT_EQ(SiteOf([&] { vt::BatchedMatmul(kCtx, Tensor::Strided(out.data(), DType::kF32, {2, 2, 2}, {1, 4, 1}), ta, tb); }),
            "out.elements_disjoint");
  EXPECT_EQ(out, std::vector<float>(8, -1.0f));
  // The transposed view of a [2 rows, 2 batches, 2] buffer is legal.
  vt::BatchedMatmul(kCtx, Tensor::Strided(out.data(), DType::kF32, {2, 2, 2}, {2, 4, 1}), ta, tb);
  EXPECT_EQ(out, std::vector<float>(8, 3.0f));
}

}  // namespace
