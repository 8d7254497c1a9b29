// The alignment contract (kernels/api/check.h, op-contracts H-10): every
// non-empty operand's data pointer is a multiple of its element size. A
// misaligned operand - read or written - is refused at site operand.aligned,
// naming the op and the operand, before any byte is written; an empty view
// addresses nothing and may point anywhere; a 1-byte operand is aligned at
// every address. The catalog proves the refusal for every operand of every op
// (the derived <operand>_misaligned error cases); these are the hand-made
// edges.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

#include "vt/error.h"
#include "vt/ops.h"

namespace {

using vt::DType;
using vt::Tensor;

const vt::ExecContext kCtx{vt::Backend::kCPU, 1, false};

// 64 bytes at an address aligned for every element size.
struct alignas(16) Bytes {
  unsigned char b[64];
};

vt::Error Refusal(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const vt::Error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return vt::Error("none", "accepted", "");
}

TEST(Alignment, MisalignedInputOrOutputIsRefusedBeforeAnyWrite) {
  Bytes in{}, out;
  std::memset(out.b, 0x5A, sizeof out.b);
  const Bytes before = out;
  const vt::Error e = Refusal([&] {
    vt::MulScalar(kCtx, Tensor::Contiguous(out.b, DType::kF32, {2, 4}), Tensor::Contiguous(in.b + 2, DType::kF32, {2, 4}), 2.0);
  });
  EXPECT_EQ(e.op(), "mul_scalar");
  EXPECT_EQ(e.site(), "operand.aligned");
  EXPECT_NE(e.condition().find("x data must be aligned to its 4-byte element size (f32), got address % 4 == 2"),
            std::string::npos)
      << e.condition();
  const vt::Error o = Refusal([&] {
    vt::MulScalar(kCtx, Tensor::Contiguous(out.b + 1, DType::kBF16, {2, 4}), Tensor::Contiguous(in.b, DType::kF32, {2, 4}), 2.0);
  });
  EXPECT_EQ(o.site(), "operand.aligned");
  EXPECT_NE(o.condition().find("out data must be aligned to its 2-byte element size (bf16)"), std::string::npos)
      << o.condition();
  EXPECT_EQ(std::memcmp(out.b, before.b, sizeof out.b), 0);  // nothing written
}

TEST(Alignment, EmptyViewsMayPointAnywhere) {
  Bytes buf{};
  EXPECT_NO_THROW(vt::MulScalar(kCtx, Tensor::Contiguous(buf.b + 1, DType::kF32, {0, 4}),
                                Tensor::Contiguous(buf.b + 3, DType::kF32, {0, 4}), 2.0));
}

TEST(Alignment, AlignedSubViewsAreAccepted) {
  Bytes in{}, out{};
  // 2-byte elements two bytes into the buffer: aligned to their size.
  EXPECT_NO_THROW(vt::MulScalar(kCtx, Tensor::Contiguous(out.b + 4, DType::kF32, {3}),
                                Tensor::Contiguous(in.b + 2, DType::kBF16, {3}), 2.0));
}

}  // namespace
