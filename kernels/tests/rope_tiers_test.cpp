// The vector tiers of rope_from_cache, rope_neox, fused_norm_rope and
// attn_qk_norm_rope_gate against the portable
// tier, byte for byte (row_tiers_util.h: portable at 1 thread is the
// reference; every tier the CPU has runs at 1, 2 and 3 threads and must count
// its own run). Shapes are drawn around the vector widths on purpose: pairs
// per row (rot/2) below, at and past 8 and 16 and not a multiple of them, rot
// < D (the pass-through dims must keep their bytes), padded token / head
// strides (the gaps must keep theirs: the whole storage is compared), NeoX and
// GPT-J pairs, f32 and bf16, [T] and [3,T] mrope positions. A quarter of the
// cases sprinkle specials (NaN, +-inf, subnormals, values past bf16's range)
// into q, k and the cache. Inputs are random from one printed seed
// (VT_TEST_SEED overrides it). The two fused ops also draw the norm's width
// (latent width / Dh) and row counts (tokens / heads) around the norm panel's
// 8 and 16 lanes, every input dtype and both gemma settings.
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

// Norm widths around the vector widths: below, at and past 8 and 16, ragged.
const std::vector<int> kWidth = {1, 5, 8, 9, 16, 17, 31, 40};

TEST(RopeTiers, FusedNormRopeEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 12);
  int cases = 0;
  for (int rot : kRot) {
    for (DType dt : kDt) {
      for (int neox = 0; neox < 2; ++neox) {
        const int64_t off = kWidth[static_cast<size_t>(cases) % kWidth.size()];
        // 1..35 tokens: one partial panel, a full one, and panels split over threads.
        const int64_t t = 1 + static_cast<int64_t>(rng() % 35);
        const int64_t p = 1 + static_cast<int64_t>(rng() % 7);
        const int64_t pad = static_cast<int64_t>(cases % 3);  // row-stride gaps (elements), all three tensors
        const int64_t xs = off + rot + pad, ls = off + 2 * pad, ps = rot + pad;
        const bool specials = (cases % 4) == 3, i64 = (cases % 2) == 1, gemma = (cases % 3) == 1;
        const Bytes x = RandomBytes(rng, dt, t * xs, specials);
        const Bytes w = RandomBytes(rng, dt, off, specials);
        const Bytes cache = RandomBytes(rng, dt, p * rot, specials);
        const Bytes lat0 = RandomBytes(rng, dt, t * ls, false), pe0 = RandomBytes(rng, dt, t * ps, false);
        const Bytes pos = Positions(rng, t, i64, p);
        vt::RopeArgs ra;
        ra.rotary_dim = rot;
        ra.is_neox_style = neox == 1;
        vt::RmsNormArgs na;
        na.eps = 1e-6f;
        na.gemma = gemma;
        const std::string id = "fused_norm_rope rot=" + std::to_string(rot) + " off=" + std::to_string(off) +
                               " T=" + std::to_string(t) + " pad=" + std::to_string(pad) + " " +
                               std::string(vt::Name(dt)) + (neox ? " neox" : " gptj") + (gemma ? " gemma" : "") +
                               (specials ? " specials" : "");
        CompareTiers("fused_norm_rope", id, [&](const vt::ExecContext& ctx) {
          Bytes lat = lat0, pe = pe0, xx = x, ww = w, c = cache, pp = pos;
          const DType pd = i64 ? DType::kI64 : DType::kI32;
          vt::FusedNormRope(ctx, Tensor::Strided(lat.data(), dt, {t, off}, {ls, 1}),
                            Tensor::Strided(pe.data(), dt, {t, rot}, {ps, 1}),
                            Tensor::Strided(xx.data(), dt, {t, off + rot}, {xs, 1}),
                            Tensor::Contiguous(ww.data(), dt, {off}), Tensor::Contiguous(pp.data(), pd, {t}),
                            Tensor::Contiguous(c.data(), dt, {p, rot}), na, ra);
          return Outs{{dt, lat}, {dt, pe}, {dt, xx}};  // x too: it must keep its bytes
        });
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, static_cast<int>(kRot.size()) * 2 * 2);
}

TEST(RopeTiers, AttnQkNormRopeGateEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 13);
  const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};
  int cases = 0;
  for (int rot : kRot) {
    for (DType in : kIn) {
      for (int out_i = 0; out_i < 2; ++out_i) {
        const DType out = out_i == 0 ? DType::kF32 : DType::kBF16;
        const DType gd = (cases % 2) == 0 ? out : DType::kF32;  // gate: q_out's dtype or f32
        const int64_t dh = rot + static_cast<int64_t>(rng() % 3) * 3;  // rot == Dh or 3 / 6 pass-through dims
        const int64_t t = 1 + static_cast<int64_t>(rng() % 5);
        // Heads around the panel widths: 1..18 q heads (a partial panel after a full one), 0..9 kv heads.
        const int64_t hq = 1 + static_cast<int64_t>(rng() % 18), hkv = static_cast<int64_t>(rng() % 10);
        const int64_t pad = static_cast<int64_t>(cases % 3);
        const int64_t qs = hq * 2 * dh + pad, ks = hkv * dh + pad;
        const bool specials = (cases % 4) == 3, gemma = (cases % 3) == 1;
        const Bytes qg = RandomBytes(rng, in, t * qs, specials), kf = RandomBytes(rng, in, t * ks, specials);
        const Bytes qn = RandomBytes(rng, DType::kF32, dh, specials), kn = RandomBytes(rng, DType::kF32, dh, specials);
        const Bytes cs = RandomBytes(rng, DType::kF32, t * rot, specials);
        vt::RopeArgs ra;
        ra.rotary_dim = rot;
        vt::RmsNormArgs na;
        na.eps = 1e-6f;
        na.gemma = gemma;
        const std::string id = "attn_qk_norm_rope_gate rot=" + std::to_string(rot) + " Dh=" + std::to_string(dh) +
                               " T=" + std::to_string(t) + " Hq=" + std::to_string(hq) + " Hkv=" +
                               std::to_string(hkv) + " in=" + std::string(vt::Name(in)) + " out=" +
                               std::string(vt::Name(out)) + " gate=" + std::string(vt::Name(gd)) +
                               (gemma ? " gemma" : "") + (specials ? " specials" : "");
        const Bytes q0 = RandomBytes(rng, out, t * hq * dh, false), k0 = RandomBytes(rng, out, t * hkv * dh, false);
        const Bytes g0 = RandomBytes(rng, gd, t * hq * dh, false);
        CompareTiers("attn_qk_norm_rope_gate", id, [&](const vt::ExecContext& ctx) {
          Bytes q = q0, k = k0, g = g0, a = qg, b = kf, wq = qn, wk = kn, c = cs;
          vt::AttnQkNormRopeGate(ctx, Tensor::Contiguous(q.data(), out, {t, hq, dh}),
                                 Tensor::Contiguous(k.data(), out, {t, hkv, dh}),
                                 Tensor::Contiguous(g.data(), gd, {t, hq, dh}),
                                 Tensor::Strided(a.data(), in, {t, hq * 2 * dh}, {qs, 1}),
                                 Tensor::Strided(b.data(), in, {t, hkv * dh}, {ks, 1}),
                                 Tensor::Contiguous(wq.data(), DType::kF32, {dh}),
                                 Tensor::Contiguous(wk.data(), DType::kF32, {dh}),
                                 Tensor::Contiguous(c.data(), DType::kF32, {t, rot}), na, ra);
          return Outs{{out, q}, {out, k}, {gd, g}};
        });
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, static_cast<int>(kRot.size()) * 3 * 2);
}

}  // namespace
