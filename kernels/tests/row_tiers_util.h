// Helpers of row_tiers_test: seeded random operand bytes and the tier
// comparison (portable at 1 thread is the reference; each vector tier the CPU
// has runs at 1, 2 and 3 threads and must give the same bytes).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "vt/codec.h"
#include "vt/context.h"
#include "vt/dtype.h"
#include "vt/isa.h"
#include "vt/tensor.h"

// The binary a failure's repro line names (a test file including this header
// for another binary defines it first).
#ifndef VT_TIER_TEST_BINARY
#define VT_TIER_TEST_BINARY "vt_row_tiers_test"
#endif

namespace vt::tiertest {

using Bytes = std::vector<unsigned char>;

inline uint64_t Seed() {
  static const uint64_t seed = [] {
    const char* env = std::getenv("VT_TEST_SEED");
    const uint64_t s = env != nullptr ? std::strtoull(env, nullptr, 10) : 20261202ull;
    std::printf("row_tiers: seed %llu (VT_TEST_SEED=%llu reruns it)\n", static_cast<unsigned long long>(s),
                static_cast<unsigned long long>(s));
    return s;
  }();
  return seed;
}

// n elements of dt: normal(0, 1) scaled by a random power of two per case;
// with specials, 3% of the elements are NaN (two payloads), +-inf,
// subnormal, or past the f16 / bf16 range.
inline Bytes RandomBytes(std::mt19937_64& rng, DType dt, int64_t n, bool specials) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> pick(0, 99);
  const float scale = std::ldexp(1.0f, static_cast<int>(rng() % 16) - 8);
  const float kSpecial[] = {std::nanf(""), -std::nanf("1"), INFINITY, -INFINITY, 1e-40f, -3e-39f, 7e4f, 3.3e38f};
  Bytes b(static_cast<std::size_t>(n) * SizeOf(dt));
  for (int64_t i = 0; i < n; ++i) {
    float v = normal(rng) * scale;
    if (specials && pick(rng) < 3) v = kSpecial[rng() % 8];
    if (dt == DType::kF32) {
      std::memcpy(b.data() + i * 4, &v, 4);
    } else {
      const uint16_t h = dt == DType::kF16 ? F32ToF16(v) : F32ToBF16(v);
      std::memcpy(b.data() + i * 2, &h, 2);
    }
  }
  return b;
}

// A value from one of expf's edge bands (docs/special-values.md, ExpBands):
// overflow and underflow of expf(-g), where 1 + expf(-g) reaches 1, and
// around 0 - where the tiers' vector expf leaves its main path or rounds
// closest to a tie.
inline float ExpEdgeValue(std::mt19937_64& rng) {
  std::uniform_real_distribution<float> band(0.0f, 1.0f);
  const float lo[] = {-104.0f, -31.0f, 16.0f, -17.5f, 86.0f, -0.001f};
  const float hi[] = {-86.0f, -29.0f, 17.5f, -16.0f, 104.0f, 0.001f};
  const int b = static_cast<int>(rng() % 6);
  return lo[b] + (hi[b] - lo[b]) * band(rng);
}

// One output tensor's bytes and storage dtype (f32/f16/bf16).
struct Out {
  DType dt;
  Bytes bytes;
};
using Outs = std::vector<Out>;

inline bool IsNaNAt(const Out& o, std::size_t elem) {
  if (o.dt != DType::kF32 && o.dt != DType::kF16 && o.dt != DType::kBF16) return false;  // u8 codes: bytes only
  if (o.dt == DType::kF32) {
    uint32_t u;
    std::memcpy(&u, o.bytes.data() + elem * 4, 4);
    return (u & 0x7FFFFFFFu) > 0x7F800000u;
  }
  uint16_t h;
  std::memcpy(&h, o.bytes.data() + elem * 2, 2);
  return o.dt == DType::kF16 ? (h & 0x7FFFu) > 0x7C00u : (h & 0x7FFFu) > 0x7F80u;
}

inline std::string Hex(const Out& o, std::size_t elem) {
  const std::size_t w = SizeOf(o.dt);
  std::string s = "0x";
  char buf[4];
  for (std::size_t i = w; i-- > 0;) {  // little-endian bytes, printed most significant first
    std::snprintf(buf, sizeof buf, "%02x", o.bytes[elem * w + i]);
    s += buf;
  }
  return s;
}

// The first element where the tier differs from portable, or -1. Equal means
// equal bytes, except that two NaNs match whatever their sign and payload:
// with both operands of an operation NaN, which one comes out depends on the
// operand order the compiler picks for a commutative a * b (the portable
// tier's scalar code may commute it), so the project compares NaN as NaN
// everywhere bytes are compared across builds (docs/special-values.md).
inline int64_t FirstDifference(const Out& ref, const Out& got) {
  const std::size_t n = ref.bytes.size() / SizeOf(ref.dt), w = SizeOf(ref.dt);
  for (std::size_t k = 0; k < n; ++k) {
    if (std::memcmp(ref.bytes.data() + k * w, got.bytes.data() + k * w, w) == 0) continue;
    if (IsNaNAt(ref, k) && IsNaNAt(got, k)) continue;
    return static_cast<int64_t>(k);
  }
  return -1;
}

// Every tier OpTiers lists for op is compared; run(ctx) performs one call on fresh copies of the inputs and returns every
// output tensor. Fails the test (with the case id, tier, threads, first bad
// element and the repro) on any difference, and when a tier did not count
// its run (a dispatch that ignored the request would compare portable with
// itself).
inline void CompareTiers(std::string_view op, const std::string& id,
                         const std::function<Outs(const ExecContext&)>& run) {
  ASSERT_FALSE(OpTiers(op).empty()) << op << " lists no vector tier in OpTiers: nothing would be compared";
  ExecContext ref_ctx;
  ref_ctx.threads = 1;
  ref_ctx.isa = Isa::kPortable;
  const uint64_t portable_before = TierRunCount(Isa::kPortable);
  const Outs ref = run(ref_ctx);
  ASSERT_GT(TierRunCount(Isa::kPortable), portable_before) << id << ": the portable tier did not run";
  for (Isa tier : OpTiers(op)) {  // the tiers the table says op has
    if (!IsaSupported(tier)) continue;  // an AVX2-only CPU: its avx512 tier is not one it runs
    for (int threads : {1, 2, 3}) {
      ExecContext ctx;
      ctx.threads = threads;
      ctx.isa = tier;
      const uint64_t before = TierRunCount(tier);
      const Outs got = run(ctx);
      ASSERT_GT(TierRunCount(tier), before) << id << ": tier " << Name(tier) << " did not run";
      ASSERT_EQ(got.size(), ref.size()) << id;
      for (std::size_t t = 0; t < ref.size(); ++t) {
        ASSERT_EQ(got[t].bytes.size(), ref[t].bytes.size()) << id;
        const int64_t at = FirstDifference(ref[t], got[t]);
        if (at >= 0) {
          FAIL() << id << " tier=" << Name(tier) << " threads=" << threads << ": output " << t << " element " << at
                 << " portable " << Hex(ref[t], at) << " got " << Hex(got[t], at) << "\n  repro: VT_TEST_SEED="
                 << Seed() << " " VT_TIER_TEST_BINARY " --gtest_filter="
                 << ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() << "."
                 << ::testing::UnitTest::GetInstance()->current_test_info()->name();
        }
      }
    }
  }
}

// A GLU op (x [t, 2d] -> out [t, d]: silu_and_mul, gelu_and_mul) on every
// tier against portable, x's bytes given; `note` ends the case id.
using GluFn = void (*)(const ExecContext&, const Tensor&, const Tensor&);
inline void CompareGluTiers(std::string_view op, GluFn fn, int64_t t, int64_t d, DType xd, DType od, const Bytes& x,
                            const std::string& note = "") {
  const std::string id = std::string(op) + " T=" + std::to_string(t) + " D=" + std::to_string(d) + " x=" +
                         std::string(Name(xd)) + " out=" + std::string(Name(od)) + note;
  CompareTiers(op, id, [&](const ExecContext& ctx) {
    Bytes xc = x, out(static_cast<std::size_t>(t * d) * SizeOf(od), 0xEE);
    fn(ctx, Tensor::Contiguous(out.data(), od, {t, d}), Tensor::Contiguous(xc.data(), xd, {t, 2 * d}));
    return Outs{{od, out}};
  });
}

// Skips the calling test when the CPU has no vector tier (nothing to compare).
#define VT_REQUIRE_A_VECTOR_TIER()                                                                   \
  do {                                                                                               \
    if (!::vt::IsaSupported(::vt::Isa::kAvx2)) GTEST_SKIP() << "this CPU runs no vector tier (AVX2)"; \
  } while (0)

}  // namespace vt::tiertest
