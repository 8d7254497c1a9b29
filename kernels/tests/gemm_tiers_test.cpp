// The GEMM vector tiers (avx2, avx512: kernels/cpu/gemm/gemm_simd.h) give the
// portable tier's bytes, byte for byte, on shapes around every vector width
// and tile edge - N, K and M below, at and past 8 / 16 / 32 columns, 6-row
// tiles and 96-row blocks - with every weight dtype the ops take, padded row
// strides, special values (NaN payloads, infinities, signed zeros,
// subnormals; where two NaNs meet, NaN-ness is held, not the payload: see
// FirstDiff), and at 1 and 3 threads; each call must also count itself
// under the tier it asked for (vt/isa.h TierRunCount). A tier this CPU does
// not run is skipped with the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "vt/codec.h"
#include "vt/isa.h"
#include "vt/ops.h"

namespace {

using vt::DType;
using vt::Isa;
using vt::Tensor;

struct Dtypes {
  DType a, b, out;
};
// Every weight dtype, mixed where the ops allow it (batched_matmul takes one
// input dtype: the mixed lines are skipped there).
const Dtypes kDtypes[] = {{DType::kF32, DType::kF32, DType::kF32},   {DType::kF32, DType::kBF16, DType::kF32},
                          {DType::kF32, DType::kF16, DType::kBF16},  {DType::kBF16, DType::kBF16, DType::kBF16},
                          {DType::kF16, DType::kF16, DType::kF32},   {DType::kBF16, DType::kF32, DType::kF32}};

// Bytes of n elements of dtype dt, normal values or (specials) a mix with
// NaNs of several payloads, infinities, signed zeros and subnormals.
std::vector<uint8_t> Fill(DType dt, int64_t n, uint32_t seed, bool specials) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const std::size_t es = vt::SizeOf(dt);
  std::vector<uint8_t> bytes(static_cast<std::size_t>(n) * es + 1);  // never empty
  for (int64_t i = 0; i < n; ++i) {
    float f = normal(rng);
    uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    if (specials) {
      switch (rng() % 12) {
        case 0: bits = 0x7FC00000u | (rng() & 0x3FFFFFu); break;  // quiet NaN, payload
        case 1: bits = 0xFF800001u | (rng() & 0x1FFFu); break;    // signalling NaN
        case 2: bits = rng() & 1 ? 0x7F800000u : 0xFF800000u; break;
        case 3: bits = 0x80000000u; break;
        case 4: bits = rng() & 0x007FFFFFu; break;  // subnormal
        default: break;
      }
      std::memcpy(&f, &bits, 4);
    }
    uint8_t* dst = bytes.data() + static_cast<std::size_t>(i) * es;
    if (dt == DType::kF32) {
      std::memcpy(dst, &f, 4);
    } else {
      const uint16_t h = dt == DType::kBF16 ? static_cast<uint16_t>(bits >> 16) : vt::F32ToF16(f);
      std::memcpy(dst, &h, 2);
    }
  }
  return bytes;
}

enum class Op { kMatmul, kMatmulBt, kMatmulBtRepacked, kBatched };
const char* OpName(Op op) {
  switch (op) {
    case Op::kMatmul: return "matmul";
    case Op::kMatmulBt: return "matmul_bt";
    case Op::kMatmulBtRepacked: return "matmul_bt(repacked)";
    case Op::kBatched: return "batched_matmul";
  }
  return "?";
}

struct Shape {
  int64_t m, n, k;
};

constexpr int64_t kGuard = 64;  // bytes past out that no tier may write
constexpr uint8_t kPoison = 0xA5;

// One call of `op` on `isa` at `threads`; returns out's bytes with the guard.
std::vector<uint8_t> Run(Op op, Shape s, Dtypes d, Isa isa, int threads, const std::vector<uint8_t>& a,
                         const std::vector<uint8_t>& b, int64_t a_pad) {
  const int64_t g = op == Op::kBatched ? 3 : 1;
  const vt::ExecContext ctx{vt::Backend::kCPU, threads, false, isa};
  std::vector<uint8_t> out(static_cast<std::size_t>(g * s.m * s.n) * vt::SizeOf(d.out) + kGuard, kPoison);
  void* ap = const_cast<uint8_t*>(a.data());
  void* bp = const_cast<uint8_t*>(b.data());
  const int64_t lda = s.k + a_pad;
  switch (op) {
    case Op::kMatmul:
      vt::Matmul(ctx, Tensor::Contiguous(out.data(), d.out, {s.m, s.n}), Tensor::Contiguous(ap, d.a, {s.m, s.k}),
                 Tensor::Contiguous(bp, d.b, {s.k, s.n}));
      break;
    case Op::kMatmulBt:
    case Op::kMatmulBtRepacked: {
      Tensor w = Tensor::Contiguous(bp, d.b, {s.n, s.k});
      w.elem_kn_repacked = op == Op::kMatmulBtRepacked;  // its bytes are then [K,N]
      vt::MatmulBT(ctx, Tensor::Contiguous(out.data(), d.out, {s.m, s.n}),
                   Tensor::Strided(ap, d.a, {s.m, s.k}, {lda, 1}), w);
      break;
    }
    case Op::kBatched:
      vt::BatchedMatmul(ctx, Tensor::Contiguous(out.data(), d.out, {g, s.m, s.n}),
                        Tensor::Strided(ap, d.a, {g, s.m, s.k}, {s.m * lda, lda, 1}),
                        Tensor::Contiguous(bp, d.b, {g, s.k, s.n}));
      break;
  }
  return out;
}

bool IsNan(DType dt, const uint8_t* p) {
  if (dt == DType::kF32) {
    uint32_t u;
    std::memcpy(&u, p, 4);
    return (u & 0x7FFFFFFFu) > 0x7F800000u;
  }
  uint16_t h;
  std::memcpy(&h, p, 2);
  return dt == DType::kBF16 ? (h & 0x7FFFu) > 0x7F80u : (h & 0x7FFFu) > 0x7C00u;
}

// "[flat i]: got vs want" for the first differing output element. Where both
// are NaN the payload may differ (`nan_pairs` counts it): which NaN an add or
// a multiply of two NaNs returns is its operand order, a choice the compiler
// makes for the portable tier (docs/isa.md); NaN-ness must match.
std::string FirstDiff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, DType dt, int& nan_pairs) {
  const std::size_t es = vt::SizeOf(dt);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (i >= got.size() - kGuard) return "guard byte " + std::to_string(i - (got.size() - kGuard)) + " written";
    const std::size_t e = i / es;
    if (IsNan(dt, got.data() + e * es) && IsNan(dt, want.data() + e * es)) {
      ++nan_pairs;
      i = (e + 1) * es - 1;
      continue;
    }
    uint32_t gb = 0, wb = 0;
    std::memcpy(&gb, got.data() + e * es, es);
    std::memcpy(&wb, want.data() + e * es, es);
    char buf[96];
    std::snprintf(buf, sizeof buf, "[flat %zu]: 0x%08x vs portable 0x%08x", e, gb, wb);
    return buf;
  }
  return "";
}

void CheckTier(Isa tier, bool specials) {
  if (!vt::IsaSupported(tier)) GTEST_SKIP() << "this CPU does not run the " << vt::Name(tier) << " tier";
  const std::vector<int64_t> ms = {1, 2, 5, 6, 7, 13, 97};
  const std::vector<int64_t> ns = {1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 129, 300};
  const std::vector<int64_t> ks = {1, 3, 16, 17, 64};
  int checked = 0, nan_pairs = 0;
  uint32_t seed = specials ? 7u : 1u;
  for (Op op : {Op::kMatmul, Op::kMatmulBt, Op::kMatmulBtRepacked, Op::kBatched}) {
    for (const Dtypes& d : kDtypes) {
      if (op == Op::kBatched && d.a != d.b) continue;
      for (int64_t m : ms) {
        for (int64_t n : ns) {
          for (int64_t k : ks) {
            // Trim the product to what covers each edge at least once per op and dtype.
            if (m > 13 && n > 33 && k > 17) continue;
            const Shape s{m, n, k};
            const int64_t g = op == Op::kBatched ? 3 : 1;
            const int64_t a_pad = op == Op::kMatmul ? 0 : (k % 3);  // padded rows where the op takes them
            const auto a = Fill(d.a, g * m * (k + a_pad), ++seed, specials);
            const auto b = Fill(d.b, g * k * n, ++seed, specials);
            const auto want = Run(op, s, d, Isa::kPortable, 1, a, b, a_pad);
            for (int threads : {1, 3}) {
              const uint64_t before = vt::TierRunCount(tier), before_portable = vt::TierRunCount(Isa::kPortable);
              const auto got = Run(op, s, d, tier, threads, a, b, a_pad);
              ASSERT_GT(vt::TierRunCount(tier), before) << "the " << vt::Name(tier) << " tier never ran";
              ASSERT_EQ(vt::TierRunCount(Isa::kPortable), before_portable) << "the portable tier ran instead";
              const std::string diff = FirstDiff(got, want, d.out, nan_pairs);
              ASSERT_TRUE(diff.empty()) << OpName(op) << " M=" << m << " N=" << n << " K=" << k << " a="
                                        << vt::Name(d.a) << " b=" << vt::Name(d.b) << " out=" << vt::Name(d.out)
                                        << " tier=" << vt::Name(tier) << " threads=" << threads << ": " << diff;
              ++checked;
            }
          }
        }
      }
    }
  }
  testing::Test::RecordProperty("calls_checked", checked);
  testing::Test::RecordProperty("nan_payload_differences", nan_pairs);
  std::printf("%d calls checked; %d NaN outputs with another payload than the portable tier's\n", checked, nan_pairs);
  if (!specials) EXPECT_EQ(nan_pairs, 0) << "normal inputs make no NaN";
  EXPECT_GT(checked, 1000);
}

// The vector tiers' blocking (gemm_simd.h): K runs in passes of 256 with the
// f32 accumulators stored and reloaded between passes, columns in
// sub-blocks of 512, rows in sub-blocks of up to 384 (the partition shares
// rows out in 6-row multiples). Shapes just past each edge - a second and a
// ragged third K pass, one column past a sub-block, row counts that leave a
// short last group - must still give the portable tier's bytes (one pass over
// the whole K). Normal values: a dropped or reordered carry moves every sum.
void CheckBlockEdges(Isa tier) {
  if (!vt::IsaSupported(tier)) GTEST_SKIP() << "this CPU does not run the " << vt::Name(tier) << " tier";
  const Shape shapes[] = {{1, 40, 257}, {7, 40, 257}, {13, 33, 600}, {6, 513, 256}, {97, 17, 513},
                          {391, 70, 300}, {2, 530, 290}};
  int checked = 0, nan_pairs = 0;
  uint32_t seed = 100;
  for (Op op : {Op::kMatmul, Op::kMatmulBt, Op::kMatmulBtRepacked, Op::kBatched}) {
    for (const Dtypes& d : {kDtypes[0], kDtypes[1], kDtypes[3]}) {
      if (op == Op::kBatched && d.a != d.b) continue;
      for (const Shape& s : shapes) {
        const int64_t g = op == Op::kBatched ? 3 : 1;
        const int64_t a_pad = op == Op::kMatmul ? 0 : 5;
        const auto a = Fill(d.a, g * s.m * (s.k + a_pad), ++seed, false);
        const auto b = Fill(d.b, g * s.k * s.n, ++seed, false);
        const auto want = Run(op, s, d, Isa::kPortable, 1, a, b, a_pad);
        for (int threads : {1, 2}) {
          const uint64_t before = vt::TierRunCount(tier);
          const auto got = Run(op, s, d, tier, threads, a, b, a_pad);
          ASSERT_GT(vt::TierRunCount(tier), before) << "the " << vt::Name(tier) << " tier never ran";
          const std::string diff = FirstDiff(got, want, d.out, nan_pairs);
          ASSERT_TRUE(diff.empty()) << OpName(op) << " M=" << s.m << " N=" << s.n << " K=" << s.k
                                    << " a=" << vt::Name(d.a) << " b=" << vt::Name(d.b) << " out=" << vt::Name(d.out)
                                    << " tier=" << vt::Name(tier) << " threads=" << threads << ": " << diff;
          ++checked;
        }
      }
    }
  }
  std::printf("%d block-edge calls checked\n", checked);
  EXPECT_EQ(nan_pairs, 0) << "normal inputs make no NaN";
}

TEST(GemmTiers, Avx2BlockEdgesBytesEqualPortable) { CheckBlockEdges(Isa::kAvx2); }
TEST(GemmTiers, Avx512BlockEdgesBytesEqualPortable) { CheckBlockEdges(Isa::kAvx512); }

TEST(GemmTiers, Avx2BytesEqualPortable) { CheckTier(Isa::kAvx2, false); }
TEST(GemmTiers, Avx512BytesEqualPortable) { CheckTier(Isa::kAvx512, false); }
TEST(GemmTiers, Avx2SpecialValuesBytesEqualPortable) { CheckTier(Isa::kAvx2, true); }
TEST(GemmTiers, Avx512SpecialValuesBytesEqualPortable) { CheckTier(Isa::kAvx512, true); }

// A tier asked for on a CPU without it falls back (ResolvedIsa), never runs
// an illegal instruction; asked for portable, no vector tier counts.
TEST(GemmTiers, PortableRequestRunsPortable) {
  std::vector<float> a(4 * 5, 1.0f), b(5 * 17, 2.0f), out(4 * 17);
  const uint64_t v2 = vt::TierRunCount(Isa::kAvx2), v512 = vt::TierRunCount(Isa::kAvx512);
  const uint64_t p = vt::TierRunCount(Isa::kPortable);
  vt::Matmul(vt::ExecContext{vt::Backend::kCPU, 2, false, Isa::kPortable},
             Tensor::Contiguous(out.data(), DType::kF32, {4, 17}), Tensor::Contiguous(a.data(), DType::kF32, {4, 5}),
             Tensor::Contiguous(b.data(), DType::kF32, {5, 17}));
  EXPECT_EQ(vt::TierRunCount(Isa::kAvx2), v2);
  EXPECT_EQ(vt::TierRunCount(Isa::kAvx512), v512);
  EXPECT_GT(vt::TierRunCount(Isa::kPortable), p);
  EXPECT_EQ(out, std::vector<float>(4 * 17, 10.0f));
}

}  // namespace
