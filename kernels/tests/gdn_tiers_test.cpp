// The vector tiers of the GDN recurrences' head step (cpu/gdn/delta_tiers.h:
// gdn_decode, gdn_prefill, gdn_spec_decode, gdn_packed_decode; with a per-key
// decay, kda_gated_delta_rule and kda_chunk_prefill) against the
// portable tier, byte for byte (row_tiers_util.h: portable at 1 thread is the
// reference; every tier the CPU has runs at 1, 2 and 3 threads and must count
// its own run). The lanes are value rows and the transposed blocks Dk
// columns, so Dv and Dk are drawn below, at and past 8 and 16 and ragged;
// every q/k/v dtype, f32 and bf16 out, f32/bf16/f16 packed state; a quarter
// of the cases sprinkle specials (NaN, +-inf, subnormals, huge values) into
// the inputs and the state, and some gates are -inf / +inf / NaN. Inputs are
// random from one printed seed (VT_TEST_SEED overrides it).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define VT_TIER_TEST_BINARY "vt_gdn_tiers_test"
#include "row_tiers_util.h"
#include "vt/ops_gdn.h"
#include "vt/ops_kda.h"

namespace {

using vt::DType;
using vt::Tensor;
using vt::tiertest::Bytes;
using vt::tiertest::CompareTiers;
using vt::tiertest::Outs;
using vt::tiertest::RandomBytes;

const std::vector<int64_t> kDk = {1, 3, 7, 8, 9, 15, 16, 17, 33, 128};
const std::vector<int64_t> kDv = {1, 5, 8, 9, 16, 17, 31, 40};
const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};

// n f32 values: log decays in [-3, 0] (or betas in [0, 1]); with specials,
// one in 8 is -inf, +inf or NaN.
Bytes Gates(std::mt19937_64& rng, int64_t n, bool beta, bool specials) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float kOdd[] = {-INFINITY, INFINITY, std::nanf("")};
  Bytes b(static_cast<size_t>(n) * 4);
  for (int64_t i = 0; i < n; ++i) {
    float x = beta ? u(rng) : -3.0f * u(rng);
    if (specials && rng() % 8 == 0) x = kOdd[rng() % 3];
    std::memcpy(b.data() + i * 4, &x, 4);
  }
  return b;
}

Bytes I32(const std::vector<int32_t>& v) {
  Bytes b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// One head shape and its operand dtypes, drawn per case.
struct Heads {
  int64_t hk, hv, dk, dv;
  DType in, out;
  bool specials;
  std::string Id() const {
    return " Hk=" + std::to_string(hk) + " Hv=" + std::to_string(hv) + " Dk=" + std::to_string(dk) +
           " Dv=" + std::to_string(dv) + " in=" + std::string(vt::Name(in)) + " out=" +
           std::string(vt::Name(out)) + (specials ? " specials" : "");
  }
};

Heads Draw(std::mt19937_64& rng, int64_t dk, int64_t dv, int cases) {
  Heads h;
  h.hk = 1 + static_cast<int64_t>(rng() % 2);
  h.hv = h.hk * (1 + static_cast<int64_t>(rng() % 2));
  h.dk = dk;
  h.dv = dv;
  h.in = kIn[cases % 3];
  h.out = (cases / 3) % 2 == 0 ? DType::kF32 : DType::kBF16;
  h.specials = cases % 4 == 3;
  return h;
}

// The token operands of t tokens, as bytes.
struct Tokens {
  Bytes q, k, v, g, beta;
  Tokens(std::mt19937_64& rng, const Heads& h, int64_t t)
      : q(RandomBytes(rng, h.in, t * h.hk * h.dk, h.specials)),
        k(RandomBytes(rng, h.in, t * h.hk * h.dk, h.specials)),
        v(RandomBytes(rng, h.in, t * h.hv * h.dv, h.specials)),
        g(Gates(rng, t * h.hv, false, h.specials)),
        beta(Gates(rng, t * h.hv, true, h.specials)) {}
};

struct TokenTensors {
  Bytes q, k, v, g, beta;
  Tensor tq, tk, tv, tg, tb;
  TokenTensors(const Tokens& s, const Heads& h, int64_t t)
      : q(s.q), k(s.k), v(s.v), g(s.g), beta(s.beta),
        tq(Tensor::Contiguous(q.data(), h.in, {t, h.hk, h.dk})),
        tk(Tensor::Contiguous(k.data(), h.in, {t, h.hk, h.dk})),
        tv(Tensor::Contiguous(v.data(), h.in, {t, h.hv, h.dv})),
        tg(Tensor::Contiguous(g.data(), DType::kF32, {t, h.hv})),
        tb(Tensor::Contiguous(beta.data(), DType::kF32, {t, h.hv})) {}
};

TEST(GdnTiers, GdnDecodeEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 20);
  int cases = 0;
  for (int64_t dk : kDk) {
    for (int64_t dv : kDv) {
      const Heads h = Draw(rng, dk, dv, cases);
      const int64_t b = 1 + static_cast<int64_t>(rng() % 5);  // 1..5 requests: ragged thread splits
      const bool indexed = cases % 2 == 1;
      const int64_t slots = indexed ? b + 2 : b;
      std::vector<int32_t> idx;
      for (int64_t i = 0; i < b; ++i) idx.push_back(static_cast<int32_t>(slots - 1 - i));
      if (indexed && b > 2) idx[1] = -1;  // a NULL request
      const Tokens tok(rng, h, b);
      const Bytes state0 = RandomBytes(rng, DType::kF32, slots * h.hv * dv * dk, h.specials);
      const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
      const std::string id = "gdn_decode B=" + std::to_string(b) + (indexed ? " indexed" : "") + h.Id();
      CompareTiers("gdn_decode", id, [&](const vt::ExecContext& ctx) {
        TokenTensors in(tok, h, b);
        Bytes state = state0, out(static_cast<size_t>(b * h.hv * dv) * vt::SizeOf(h.out), 0xAB), si = I32(idx);
        const Tensor ts = Tensor::Contiguous(state.data(), DType::kF32, {slots, h.hv, dv, dk});
        const Tensor to = Tensor::Contiguous(out.data(), h.out, {b, h.hv, dv});
        const Tensor ti = Tensor::Contiguous(si.data(), DType::kI32, {b});
        vt::GdnDecode(ctx, to, in.tq, in.tk, in.tv, in.tg, in.tb, ts, indexed ? &ti : nullptr, {scale});
        return Outs{{h.out, out}, {DType::kF32, state}};
      });
      ++cases;
    }
  }
  EXPECT_EQ(cases, static_cast<int>(kDk.size() * kDv.size()));
}

TEST(GdnTiers, GdnPrefillEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 21);
  int cases = 0;
  for (int64_t dk : {1, 7, 16, 17, 33}) {
    for (int64_t dv : {3, 8, 9, 17, 40}) {
      const Heads h = Draw(rng, dk, dv, cases);
      // 1..3 sequences of 0..6 tokens (a zero-length one leaves its slot alone)
      const int64_t n = 1 + static_cast<int64_t>(rng() % 3);
      std::vector<int32_t> qsl = {0};
      for (int64_t s = 0; s < n; ++s) qsl.push_back(qsl.back() + static_cast<int32_t>(rng() % 7));
      const int64_t t = qsl.back();
      const Tokens tok(rng, h, t);
      const Bytes state0 = RandomBytes(rng, DType::kF32, n * h.hv * dv * dk, h.specials);
      const std::string id = "gdn_prefill N=" + std::to_string(n) + " T=" + std::to_string(t) + h.Id();
      CompareTiers("gdn_prefill", id, [&](const vt::ExecContext& ctx) {
        TokenTensors in(tok, h, t);
        Bytes state = state0, out(static_cast<size_t>(t * h.hv * dv) * vt::SizeOf(h.out), 0xAB), q = I32(qsl);
        vt::GdnPrefill(ctx, Tensor::Contiguous(out.data(), h.out, {t, h.hv, dv}), in.tq, in.tk, in.tv, in.tg, in.tb,
                       Tensor::Contiguous(state.data(), DType::kF32, {n, h.hv, dv, dk}),
                       Tensor::Contiguous(q.data(), DType::kI32, {n + 1}), {0.25f});
        return Outs{{h.out, out}, {DType::kF32, state}};
      });
      ++cases;
    }
  }
  EXPECT_EQ(cases, 25);
}

TEST(GdnTiers, GdnSpecDecodeEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 22);
  int cases = 0;
  for (int64_t dk : {3, 16, 20}) {
    for (int64_t dv : {1, 9, 17}) {
      const Heads h = Draw(rng, dk, dv, cases);
      // 2 requests, C = 3 columns: request 0 takes 3 tokens from column 1,
      // request 1 takes 2 from column 0, one NULL snapshot column.
      const int64_t reqs = 2, cols = 3, slots = 7, t = 5;
      const std::vector<int32_t> cu = {0, 3, 5}, table = {0, 1, 2, 3, -1, 4}, accepted = {2, 1};
      const Tokens tok(rng, h, t);
      const Bytes state0 = RandomBytes(rng, DType::kF32, slots * h.hv * dv * dk, h.specials);
      const std::string id = "gdn_spec_decode" + h.Id();
      CompareTiers("gdn_spec_decode", id, [&](const vt::ExecContext& ctx) {
        TokenTensors in(tok, h, t);
        Bytes state = state0, out(static_cast<size_t>(t * h.hv * dv) * vt::SizeOf(h.out), 0xAB);
        Bytes c = I32(cu), ix = I32(table), acc = I32(accepted);
        vt::GdnSpecDecode(ctx, Tensor::Contiguous(out.data(), h.out, {t, h.hv, dv}), in.tq, in.tk, in.tv, in.tg,
                          in.tb, Tensor::Contiguous(state.data(), DType::kF32, {slots, h.hv, dv, dk}),
                          Tensor::Contiguous(c.data(), DType::kI32, {reqs + 1}),
                          Tensor::Contiguous(ix.data(), DType::kI32, {reqs, cols}),
                          Tensor::Contiguous(acc.data(), DType::kI32, {reqs}), {0.5f});
        return Outs{{h.out, out}, {DType::kF32, state}};
      });
      ++cases;
    }
  }
  EXPECT_EQ(cases, 9);
}

TEST(GdnTiers, GdnPackedDecodeEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 23);
  int cases = 0;
  for (int64_t dk : {2, 7, 16, 18}) {
    for (int64_t dv : {1, 8, 9, 24}) {
      for (DType sdt : kIn) {  // the state's stored dtype
        Heads h = Draw(rng, dk, dv, cases);
        h.out = h.in;  // out, a, b share mixed_qkv's dtype
        const int64_t b = 1 + static_cast<int64_t>(rng() % 4), slots = b + 1;
        const int64_t width = 2 * h.hk * dk + h.hv * dv, pad = cases % 2;  // padded rows on every other case
        std::vector<int32_t> idx;
        for (int64_t i = 0; i < b; ++i) idx.push_back(static_cast<int32_t>((i + 1) % slots));
        if (b > 2) idx[2] = -1;
        const Bytes qkv0 = RandomBytes(rng, h.in, b * (width + pad), h.specials);
        const Bytes a0 = RandomBytes(rng, h.in, b * h.hv, h.specials), b0 = RandomBytes(rng, h.in, b * h.hv, false);
        const Bytes alog = RandomBytes(rng, h.in, h.hv, false), bias = RandomBytes(rng, h.in, h.hv, false);
        const Bytes state0 = RandomBytes(rng, sdt, slots * h.hv * dv * dk, h.specials);
        const std::string id = "gdn_packed_decode B=" + std::to_string(b) + " state=" +
                               std::string(vt::Name(sdt)) + (pad ? " padded" : "") + h.Id();
        CompareTiers("gdn_packed_decode", id, [&](const vt::ExecContext& ctx) {
          Bytes qkv = qkv0, a = a0, bb = b0, al = alog, db = bias, state = state0, si = I32(idx);
          Bytes out(static_cast<size_t>(b * h.hv * dv) * vt::SizeOf(h.out), 0xAB);
          vt::GdnPackedDecode(ctx, Tensor::Contiguous(out.data(), h.out, {b, h.hv, dv}),
                              Tensor::Strided(qkv.data(), h.in, {b, width}, {width + pad, 1}),
                              Tensor::Contiguous(a.data(), h.in, {b, h.hv}),
                              Tensor::Contiguous(bb.data(), h.in, {b, h.hv}),
                              Tensor::Contiguous(al.data(), h.in, {h.hv}), Tensor::Contiguous(db.data(), h.in, {h.hv}),
                              Tensor::Contiguous(state.data(), sdt, {slots, h.hv, dv, dk}),
                              Tensor::Contiguous(si.data(), DType::kI32, {b}), {0.125f});
          return Outs{{h.out, out}, {sdt, state}};
        });
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 48);
}

// KDA: g [T,Hv,Dk] per key channel (log decays, specials included), one to
// three sequences; kda_chunk_prefill computes g from g_raw, a_log and dt_bias
// (portable code) and runs the same recurrence on one sequence.
TEST(GdnTiers, KdaEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 24);
  int cases = 0;
  for (int64_t dk : {1, 7, 9, 16, 20, 33}) {
    for (int64_t dv : {1, 8, 9, 17, 40}) {
      const Heads h = Draw(rng, dk, dv, cases);
      const bool chunk = cases % 3 == 2;
      const int64_t n = chunk ? 1 : 1 + static_cast<int64_t>(rng() % 3);
      std::vector<int32_t> qsl = {0};
      for (int64_t s = 0; s < n; ++s) qsl.push_back(qsl.back() + static_cast<int32_t>(chunk ? 1 + rng() % 6 : rng() % 7));
      const int64_t t = qsl.back();
      const Tokens tok(rng, h, t);
      const Bytes g = chunk ? RandomBytes(rng, DType::kF32, t * h.hv * dk, h.specials)
                            : Gates(rng, t * h.hv * dk, false, h.specials);
      const Bytes alog = RandomBytes(rng, DType::kF32, h.hv, false), bias = RandomBytes(rng, DType::kF32, h.hv * dk, false);
      const Bytes state0 = RandomBytes(rng, DType::kF32, n * h.hv * dv * dk, h.specials);
      const std::string op = chunk ? "kda_chunk_prefill" : "kda_gated_delta_rule";
      const std::string id = op + " N=" + std::to_string(n) + " T=" + std::to_string(t) + h.Id();
      CompareTiers(op, id, [&](const vt::ExecContext& ctx) {
        TokenTensors in(tok, h, t);
        Bytes state = state0, out(static_cast<size_t>(t * h.hv * dv) * vt::SizeOf(h.out), 0xAB), q = I32(qsl);
        Bytes gg = g, al = alog, db = bias;
        const Tensor to = Tensor::Contiguous(out.data(), h.out, {t, h.hv, dv});
        const Tensor tg = Tensor::Contiguous(gg.data(), DType::kF32, {t, h.hv, dk});
        const Tensor ts = Tensor::Contiguous(state.data(), DType::kF32, {n, h.hv, dv, dk});
        const Tensor tq = Tensor::Contiguous(q.data(), DType::kI32, {n + 1});
        if (chunk) {
          vt::KdaChunkPrefill(ctx, to, in.tq, in.tk, in.tv, tg, in.tb, Tensor::Contiguous(al.data(), DType::kF32, {h.hv}),
                              Tensor::Contiguous(db.data(), DType::kF32, {cases % 2 == 0 ? h.hv * dk : 0}), ts, tq,
                              {0.25f});
        } else {
          vt::KdaGatedDeltaRule(ctx, to, in.tq, in.tk, in.tv, tg, in.tb, ts, tq, {0.25f});
        }
        return Outs{{h.out, out}, {DType::kF32, state}};
      });
      ++cases;
    }
  }
  EXPECT_EQ(cases, 30);
}

}  // namespace
