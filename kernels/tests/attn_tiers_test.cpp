// The vector tiers of the attention family (AttendRow, cpu/attn/attend_tiers.h)
// against the portable tier, byte for byte (row_tiers_util.h: portable at 1
// thread is the reference; every tier the CPU has runs at 1, 2 and 3 threads
// and must count its own run). Drawn around the vector widths on purpose:
// head dims below 8, between 8 and 16, at them, one past, ragged above 16
// (pass 1's transposed blocks and pass 3's accumulators both key on D), and
// visible-key counts below / at / past 8, 16 and 32 (pass 1's key panels and
// pass 2's vector expf blocks key on them). Every input dtype, both output
// dtypes; causal and not; GQA groups of 1 to 6 q-heads (a vector tier runs
// a group's queries 4, 2 or 1 at a time over shared key loads). A quarter of the cases sprinkle
// specials (NaN, +-inf, subnormals, values past bf16 / f16 range); a fifth
// use a signed-zero query (every score +-0: the max's zero-sign rule); input
// magnitudes up to 2^7 put many s - m below -88, off the vector expf's main
// path. Inputs are random from one printed seed (VT_TEST_SEED overrides it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define VT_TIER_TEST_BINARY "vt_attn_tiers_test"
#include "row_tiers_util.h"
#include "vt/ops_attn.h"

namespace {

using vt::DType;
using vt::Tensor;
using vt::tiertest::Bytes;
using vt::tiertest::CompareTiers;
using vt::tiertest::Outs;
using vt::tiertest::RandomBytes;

const std::vector<int64_t> kHeadDims = {1, 2, 7, 8, 9, 12, 15, 16, 17, 24, 33, 40, 63, 64, 65, 128};
const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};
const DType kOut[] = {DType::kF32, DType::kBF16};

// Query bytes: random (with specials when asked), or every element +0 or -0.
Bytes Query(std::mt19937_64& rng, DType dt, int64_t n, bool specials, bool zeros) {
  if (!zeros) return RandomBytes(rng, dt, n, specials);
  const size_t w = vt::SizeOf(dt);
  Bytes b(static_cast<size_t>(n) * w, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (rng() % 2 != 0) b[(i + 1) * w - 1] = 0x80;  // the sign bit (little-endian top byte)
  }
  return b;
}

std::string Id(const char* op, int64_t d, int64_t keys, int64_t hq, int64_t hk, DType in, DType out, bool specials,
               bool zeros) {
  return std::string(op) + " D=" + std::to_string(d) + " keys=" + std::to_string(keys) + " Hq=" +
         std::to_string(hq) + " Hkv=" + std::to_string(hk) + " " + std::string(vt::Name(in)) + "->" +
         std::string(vt::Name(out)) + (specials ? " specials" : "") + (zeros ? " zero-query" : "");
}

TEST(AttnTiers, AttentionEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 20);
  const std::vector<int64_t> kT = {1, 5, 8, 16, 17, 33, 40};
  int cases = 0;
  for (int64_t d : kHeadDims) {
    for (DType in : kIn) {
      const DType out = kOut[cases % 2];
      const int64_t t = kT[rng() % kT.size()];
      const int64_t hk = 1 + static_cast<int64_t>(rng() % 2), hq = hk * (1 + static_cast<int64_t>(rng() % 6));
      const bool specials = cases % 4 == 3, zeros = cases % 5 == 4, causal = cases % 3 != 0;
      const Bytes q0 = Query(rng, in, t * hq * d, specials, zeros);
      const Bytes k0 = RandomBytes(rng, in, t * hk * d, specials);
      const Bytes v0 = RandomBytes(rng, in, t * hk * d, specials);
      vt::AttentionArgs args;
      args.scale = cases % 2 == 0 ? 0.125f : 1.0f;
      args.causal = causal;
      const std::string id = Id(causal ? "attention causal" : "attention", d, t, hq, hk, in, out, specials, zeros);
      CompareTiers("attention", id, [&](const vt::ExecContext& ctx) {
        Bytes q = q0, k = k0, v = v0, o(static_cast<size_t>(t * hq * d) * vt::SizeOf(out), 0xA5);
        vt::Attention(ctx, Tensor::Contiguous(o.data(), out, {t, hq, d}), Tensor::Contiguous(q.data(), in, {t, hq, d}),
                      Tensor::Contiguous(k.data(), in, {t, hk, d}), Tensor::Contiguous(v.data(), in, {t, hk, d}), args);
        return Outs{{out, o}};
      });
      ++cases;
    }
  }
  EXPECT_EQ(cases, static_cast<int>(kHeadDims.size()) * 3);
}

TEST(AttnTiers, AttentionCrossWithBiasEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 21);
  const std::vector<int64_t> kS = {1, 7, 8, 15, 16, 17, 32, 47, 100};
  int cases = 0;
  for (int64_t d : kHeadDims) {
    for (DType in : kIn) {
      const DType out = kOut[(cases / 3) % 2];
      const int64_t s = kS[rng() % kS.size()], tq = 1 + static_cast<int64_t>(rng() % 3);
      const int64_t hk = 1 + static_cast<int64_t>(rng() % 2), hq = hk * (1 + static_cast<int64_t>(rng() % 5));
      const bool specials = cases % 4 == 1, zeros = cases % 5 == 2;
      const int bias_kind = cases % 3;  // none, one broadcast row, one row per query
      const int64_t bias_rows = bias_kind == 1 ? 1 : tq;
      const Bytes q0 = Query(rng, in, tq * hq * d, specials, zeros);
      const Bytes k0 = RandomBytes(rng, in, s * hk * d, specials);
      const Bytes v0 = RandomBytes(rng, in, s * hk * d, specials);
      const Bytes b0 = RandomBytes(rng, DType::kF32, bias_rows * s, specials);
      vt::AttentionCrossArgs args;
      args.scale = 1.0f / 8.0f;
      const std::string id = Id("attention_cross", d, s, hq, hk, in, out, specials, zeros) + " bias=" +
                             std::to_string(bias_kind) + " Tq=" + std::to_string(tq);
      CompareTiers("attention_cross", id, [&](const vt::ExecContext& ctx) {
        Bytes q = q0, k = k0, v = v0, b = b0, o(static_cast<size_t>(tq * hq * d) * vt::SizeOf(out), 0x5A);
        const Tensor tb = Tensor::Contiguous(b.data(), DType::kF32, {bias_rows, s});
        vt::AttentionCross(ctx, Tensor::Contiguous(o.data(), out, {tq, hq, d}),
                           Tensor::Contiguous(q.data(), in, {tq, hq, d}), Tensor::Contiguous(k.data(), in, {s, hk, d}),
                           Tensor::Contiguous(v.data(), in, {s, hk, d}), bias_kind == 0 ? nullptr : &tb, args);
        return Outs{{out, o}};
      });
      ++cases;
    }
  }
  EXPECT_EQ(cases, static_cast<int>(kHeadDims.size()) * 3);
}

// Blocks of 1..40 rows (causal with and without a sliding window, or
// bidirectional): key ranges that start past 0 and cross vector widths.
TEST(AttnTiers, DFlashBlockAttentionEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 22);
  int cases = 0;
  for (int64_t d : kHeadDims) {
    const DType in = kIn[cases % 3], out = kOut[cases % 2];
    std::vector<int32_t> cu = {0};
    const int reqs = 1 + static_cast<int>(rng() % 3);
    for (int r = 0; r < reqs; ++r) cu.push_back(cu.back() + static_cast<int32_t>(rng() % 41));
    const int64_t t = cu.back();
    if (t == 0) cu.back() = 1;
    const int64_t tt = cu.back(), hk = 1 + static_cast<int64_t>(rng() % 2), hq = hk * (1 + static_cast<int64_t>(rng() % 5));
    const bool specials = cases % 4 == 3;
    const Bytes q0 = RandomBytes(rng, in, tt * hq * d, specials);
    const Bytes k0 = RandomBytes(rng, in, tt * hk * d, specials);
    const Bytes v0 = RandomBytes(rng, in, tt * hk * d, specials);
    vt::DFlashBlockAttentionArgs args;
    args.scale = 0.25f;
    args.causal = cases % 3 != 0;
    args.sliding_window = cases % 3 == 2 ? 1 + static_cast<int64_t>(rng() % 20) : 0;
    args.cu_seqlens = cu.data();
    args.num_reqs = reqs;
    const std::string id = Id("dflash_block_attention", d, tt, hq, hk, in, out, specials, false) + " reqs=" +
                           std::to_string(reqs) + " window=" + std::to_string(args.sliding_window);
    CompareTiers("dflash_block_attention", id, [&](const vt::ExecContext& ctx) {
      Bytes q = q0, k = k0, v = v0, o(static_cast<size_t>(tt * hq * d) * vt::SizeOf(out), 0x11);
      vt::DFlashBlockAttention(ctx, Tensor::Contiguous(o.data(), out, {tt, hq, d}),
                               Tensor::Contiguous(q.data(), in, {tt, hq, d}),
                               Tensor::Contiguous(k.data(), in, {tt, hk, d}),
                               Tensor::Contiguous(v.data(), in, {tt, hk, d}), args);
      return Outs{{out, o}};
    });
    ++cases;
  }
  EXPECT_EQ(cases, static_cast<int>(kHeadDims.size()));
}

// Context rows through a shuffled page table (non-contiguous key rows: the
// tiers read every key row through its own address), then the block's rows.
TEST(AttnTiers, DFlashPagedBlockAttentionEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 23);
  int cases = 0;
  for (int64_t d : kHeadDims) {
    const DType in = kIn[(cases + 1) % 3], out = kOut[(cases + 1) % 2];
    const int reqs = 1 + static_cast<int>(rng() % 2);
    const int64_t bs = 1 + static_cast<int64_t>(rng() % 8), max_pages = 6, pages = reqs * max_pages;
    std::vector<int32_t> cu = {0}, lens, table(static_cast<size_t>(reqs * max_pages));
    for (int r = 0; r < reqs; ++r) {
      cu.push_back(cu.back() + 1 + static_cast<int32_t>(rng() % 20));
      lens.push_back(static_cast<int32_t>(rng() % (max_pages * bs + 1)));
    }
    for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<int32_t>(i);
    std::shuffle(table.begin(), table.end(), rng);
    const int64_t n = cu.back(), hk = 1 + static_cast<int64_t>(rng() % 2), hq = hk * (1 + static_cast<int64_t>(rng() % 4));
    const bool specials = cases % 4 == 2;
    const Bytes q0 = RandomBytes(rng, in, n * hq * d, specials);
    const Bytes bk0 = RandomBytes(rng, in, n * hk * d, specials), bv0 = RandomBytes(rng, in, n * hk * d, specials);
    const Bytes ck0 = RandomBytes(rng, in, pages * bs * hk * d, specials);
    const Bytes cv0 = RandomBytes(rng, in, pages * bs * hk * d, specials);
    vt::DFlashPagedBlockAttentionArgs args;
    args.scale = 0.5f;
    args.causal = cases % 2 == 0;
    args.sliding_window = cases % 4 == 0 ? 1 + static_cast<int64_t>(rng() % 30) : 0;
    args.num_reqs = reqs;
    args.block_size = bs;
    const std::string id = Id("dflash_paged_block_attention", d, n, hq, hk, in, out, specials, false) +
                           " bs=" + std::to_string(bs) + " ctx=" + std::to_string(lens[0]);
    CompareTiers("dflash_paged_block_attention", id, [&](const vt::ExecContext& ctx) {
      Bytes q = q0, bk = bk0, bv = bv0, ck = ck0, cv = cv0, o(static_cast<size_t>(n * hq * d) * vt::SizeOf(out), 0x77);
      std::vector<int32_t> c = cu, l = lens, tb = table;
      vt::DFlashPagedBlockAttention(
          ctx, Tensor::Contiguous(o.data(), out, {n, hq, d}), Tensor::Contiguous(q.data(), in, {n, hq, d}),
          Tensor::Contiguous(bk.data(), in, {n, hk, d}), Tensor::Contiguous(bv.data(), in, {n, hk, d}),
          Tensor::Contiguous(ck.data(), in, {pages, bs, hk, d}), Tensor::Contiguous(cv.data(), in, {pages, bs, hk, d}),
          Tensor::Contiguous(c.data(), DType::kI32, {reqs + 1}), Tensor::Contiguous(l.data(), DType::kI32, {reqs}),
          Tensor::Contiguous(tb.data(), DType::kI32, {reqs, max_pages}), args);
      return Outs{{out, o}};
    });
    ++cases;
  }
  EXPECT_EQ(cases, static_cast<int>(kHeadDims.size()));
}

}  // namespace
