// The vector tiers of rope_from_cache and rope_neox against the portable
// tier, byte for byte (row_tiers_util.h: portable at 1 thread is the
// reference; every tier the CPU has runs at 1, 2 and 3 threads and must count
// its own run). Shapes are drawn around the vector widths on purpose: pairs
// per row (rot/2) below, at and past 8 and 16 and not a multiple of them, rot
// < D (the pass-through dims must keep their bytes), padded token / head
// strides (the gaps must keep theirs: the whole storage is compared), NeoX and
// GPT-J pairs, f32 and bf16, [T] and [3,T] mrope positions. A quarter of the
// cases sprinkle specials (NaN, +-inf, subnormals, values past bf16's range)
// into q, k and the cache. Inputs are random from one printed seed
// (VT_TEST_SEED overrides it).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define VT_TIER_TEST_BINARY "vt_rope_tiers_test"
#include "row_tiers_util.h"
#include "vt/ops_rope.h"

namespace {

using vt::DType;
using vt::Tensor;
using vt::tiertest::Bytes;
using vt::tiertest::CompareTiers;
using vt::tiertest::Outs;
using vt::tiertest::RandomBytes;

// rot/2 of 1..49: below 8, at 8 and 16, one past, and ragged above 16.
const std::vector<int> kRot = {2, 6, 14, 16, 18, 30, 32, 34, 62, 98};
const DType kDt[] = {DType::kF32, DType::kBF16};

// Positions as i32 or i64 bytes, each in [0, limit).
Bytes Positions(std::mt19937_64& rng, int64_t n, bool i64, int64_t limit) {
  Bytes b(static_cast<size_t>(n) * (i64 ? 8 : 4));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t p = static_cast<int64_t>(rng() % static_cast<uint64_t>(limit));
    if (i64) {
      std::memcpy(b.data() + i * 8, &p, 8);
    } else {
      const int32_t v = static_cast<int32_t>(p);
      std::memcpy(b.data() + i * 4, &v, 4);
    }
  }
  return b;
}

TEST(RopeTiers, RopeFromCacheEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 10);
  int cases = 0;
  for (int rot : kRot) {
    for (DType dt : kDt) {
      for (int layout = 0; layout < 4; ++layout) {  // neox, gptj, neox + mrope, gptj + mrope
        const bool neox = (layout & 1) == 0, mrope = layout >= 2;
        const int64_t t = 1 + static_cast<int64_t>(rng() % 9);  // 1..9 tokens: 1..3 per thread and ragged
        const int64_t hq = 1 + static_cast<int64_t>(rng() % 3), hk = static_cast<int64_t>(rng() % 3);  // hk 0: no k
        const int64_t d = rot + static_cast<int64_t>(rng() % 3) * 3;  // rot == D, or 3 / 6 pass-through dims
        const int64_t pad = static_cast<int64_t>(cases % 3);          // head-stride gap (elements)
        const int64_t hs = d + pad;
        const int64_t p = 1 + static_cast<int64_t>(rng() % 7);
        const bool specials = (cases % 4) == 3, i64 = (cases % 2) == 1;
        const int64_t ts_q = hq * hs + 2, ts_k = hk * hs + 1;  // token strides: a second gap after each token
        const Bytes q0 = RandomBytes(rng, dt, t * ts_q, specials);
        const Bytes k0 = RandomBytes(rng, dt, t * ts_k, specials);
        const Bytes cache = RandomBytes(rng, dt, p * rot, specials);
        const Bytes pos = Positions(rng, mrope ? 3 * t : t, i64, p);
        vt::RopeArgs args;
        args.rotary_dim = rot;
        args.is_neox_style = neox;
        if (mrope) {  // sections summing to rot/2; interleaved on every other case
          const int half = rot / 2;
          args.mrope_section[0] = half / 2;
          args.mrope_section[1] = (half - half / 2) / 2;
          args.mrope_section[2] = half - args.mrope_section[0] - args.mrope_section[1];
          args.mrope_interleaved = (cases % 2) == 0;
        }
        const std::string id = "rope_from_cache rot=" + std::to_string(rot) + " D=" + std::to_string(d) +
                               " T=" + std::to_string(t) + " Hq=" + std::to_string(hq) + " Hk=" +
                               std::to_string(hk) + " " + std::string(vt::Name(dt)) + (neox ? " neox" : " gptj") +
                               (mrope ? " mrope" : "") + (specials ? " specials" : "");
        CompareTiers("rope_from_cache", id, [&](const vt::ExecContext& ctx) {
          Bytes q = q0, k = k0, c = cache, ps = pos;
          const Tensor tq = Tensor::Strided(q.data(), dt, {t, hq, d}, {ts_q, hs, 1});
          const Tensor tk = Tensor::Strided(k.data(), dt, {t, hk, d}, {ts_k, hs, 1});
          const Tensor tc = Tensor::Contiguous(c.data(), dt, {p, rot});
          const DType pd = i64 ? DType::kI64 : DType::kI32;
          const Tensor tp = mrope ? Tensor::Contiguous(ps.data(), pd, {3, t}) : Tensor::Contiguous(ps.data(), pd, {t});
          vt::RopeFromCache(ctx, tq, hk > 0 ? &tk : nullptr, tp, tc, args);
          return Outs{{dt, q}, {dt, k}, {dt, c}};
        });
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, static_cast<int>(kRot.size()) * 2 * 4);
}

TEST(RopeTiers, RopeNeoxEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 11);
  int cases = 0;
  for (int rot : kRot) {
    for (DType dt : kDt) {
      for (int llama3 = 0; llama3 < 2; ++llama3) {
        const int64_t t = 1 + static_cast<int64_t>(rng() % 9);
        const int64_t hq = 1 + static_cast<int64_t>(rng() % 3), hk = 1 + static_cast<int64_t>(rng() % 2);
        const int64_t d = rot + static_cast<int64_t>(rng() % 3) * 3;
        const bool specials = (cases % 4) == 3, i64 = (cases % 2) == 1;
        const Bytes q0 = RandomBytes(rng, dt, t * hq * d, specials);
        const Bytes k0 = RandomBytes(rng, dt, t * hk * d, specials);
        const Bytes pos = Positions(rng, t, i64, 200000);  // large angles: libm's reduction at work
        vt::RopeArgs args;
        args.rotary_dim = rot;
        args.base = cases % 3 == 0 ? 500000.0f : 10000.0f;
        if (llama3 != 0) args.llama3_scaling_factor = 8.0f;
        const std::string id = "rope_neox rot=" + std::to_string(rot) + " D=" + std::to_string(d) + " T=" +
                               std::to_string(t) + " Hq=" + std::to_string(hq) + " Hk=" + std::to_string(hk) + " " +
                               std::string(vt::Name(dt)) + (llama3 ? " llama3" : "") + (specials ? " specials" : "");
        CompareTiers("rope_neox", id, [&](const vt::ExecContext& ctx) {
          Bytes q = q0, k = k0, ps = pos;
          const DType pd = i64 ? DType::kI64 : DType::kI32;
          vt::RopeNeox(ctx, Tensor::Contiguous(q.data(), dt, {t, hq, d}), Tensor::Contiguous(k.data(), dt, {t, hk, d}),
                       Tensor::Contiguous(ps.data(), pd, {t}), args);
          return Outs{{dt, q}, {dt, k}};
        });
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, static_cast<int>(kRot.size()) * 2 * 2);
}

}  // namespace
