// The vector tiers of mamba2_state_update against the portable tier, byte for
// byte (row_tiers_util.h's comparison: portable at 1 thread the reference,
// each tier OpTiers lists at 1, 2 and 3 threads; outputs: out and the whole
// state, every slot). Shapes are drawn around the vector widths on purpose:
// P (the lanes: p-rows side by side) and N (the chain, walked kLanes columns
// at a time) below 8, between 8 and 16, at and past 16 and not multiples of
// them; several heads per group; every x / B / C / z / dt dtype, both state
// and out dtypes; D, z, dt_bias and softplus on and off; state_indices with
// NULL rows and spare slots, or none. Inputs are random from one printed seed
// (VT_TEST_SEED overrides it); a quarter of the cases sprinkle specials (NaN,
// +-inf, subnormals, past the f16 / bf16 range) into x, B, C, z and the
// state, and dt up to 60 (with A down to -4: dA from 1 to 0, and +inf times
// 0 in the padding lanes when dt is +inf). A CPU without AVX2 has no tier to
// compare: skipped with its reason.
#define VT_TIER_TEST_BINARY "vt_mamba_tiers_test"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "row_tiers_util.h"
#include "vt/ops.h"

namespace {

using vt::DType;
using vt::Tensor;
using vt::tiertest::Bytes;
using vt::tiertest::CompareTiers;
using vt::tiertest::Outs;
using vt::tiertest::RandomBytes;

const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};
const DType kOut[] = {DType::kF32, DType::kBF16};

struct Case {
  int64_t Nb, H, G, P, N;
  DType xd, dtd, sd, od;
  bool D, z, bias, softplus, indexed, specials;
};

// n f32 values uniform in [lo, hi) as bytes.
Bytes Uniform(std::mt19937_64& rng, int64_t n, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  Bytes b(static_cast<std::size_t>(n) * 4);
  for (int64_t i = 0; i < n; ++i) {
    const float v = u(rng);
    std::memcpy(b.data() + i * 4, &v, 4);
  }
  return b;
}

void RunCase(std::mt19937_64& rng, const Case& c) {
  const int64_t S = c.indexed ? 2 * c.Nb + 1 : c.Nb;
  const Bytes x = RandomBytes(rng, c.xd, c.Nb * c.H * c.P, c.specials);
  const Bytes B = RandomBytes(rng, c.xd, c.Nb * c.G * c.N, c.specials);
  const Bytes C = RandomBytes(rng, c.xd, c.Nb * c.G * c.N, c.specials);
  const Bytes z = RandomBytes(rng, c.xd, c.Nb * c.H * c.P, c.specials);
  Bytes dt = RandomBytes(rng, c.dtd, c.Nb * c.H, false);
  if (c.specials && c.dtd == DType::kF32) {  // a large and an infinite dt: dA 0, and 0 * inf in the padding
    const float big[] = {60.0f, INFINITY};
    for (int k = 0; k < 2 && k < c.Nb * c.H; ++k) std::memcpy(dt.data() + k * 4, &big[k], 4);
  }
  const Bytes A = Uniform(rng, c.H, -4.0f, -0.01f);
  const Bytes D = RandomBytes(rng, DType::kF32, c.H, false);
  const Bytes bias = RandomBytes(rng, DType::kF32, c.H, false);
  const Bytes state = RandomBytes(rng, c.sd, S * c.H * c.P * c.N, c.specials);
  std::vector<int32_t> slots(static_cast<std::size_t>(c.Nb));
  for (int64_t b = 0; b < c.Nb; ++b) slots[static_cast<std::size_t>(b)] = static_cast<int32_t>((2 * b + 1) % S);
  for (int64_t b = 1; b < c.Nb; b += 3) slots[static_cast<std::size_t>(b)] = -1;  // NULL rows
  std::string id = "mamba2_state_update Nb=" + std::to_string(c.Nb) + " H=" + std::to_string(c.H) +
                   " G=" + std::to_string(c.G) + " P=" + std::to_string(c.P) + " N=" + std::to_string(c.N) +
                   " x=" + std::string(vt::Name(c.xd)) + " dt=" + std::string(vt::Name(c.dtd)) +
                   " state=" + std::string(vt::Name(c.sd)) + " out=" + std::string(vt::Name(c.od)) +
                   (c.D ? " D" : "") + (c.z ? " z" : "") + (c.bias ? " dt_bias" : "") +
                   (c.softplus ? " softplus" : "") + (c.indexed ? " indexed" : "") + (c.specials ? " specials" : "");
  CompareTiers("mamba2_state_update", id, [&](const vt::ExecContext& ctx) {
    Bytes xc = x, Bc = B, Cc = C, zc = z, dtc = dt, Ac = A, Dc = D, biasc = bias, sc = state;
    std::vector<int32_t> slotc = slots;
    Bytes out(static_cast<std::size_t>(c.Nb * c.H * c.P) * vt::SizeOf(c.od), 0xEE);
    const Tensor ot = Tensor::Contiguous(out.data(), c.od, {c.Nb, c.H, c.P});
    const Tensor st = Tensor::Contiguous(sc.data(), c.sd, {S, c.H, c.P, c.N});
    const Tensor xt = Tensor::Contiguous(xc.data(), c.xd, {c.Nb, c.H, c.P});
    const Tensor zt = Tensor::Contiguous(zc.data(), c.xd, {c.Nb, c.H, c.P});
    const Tensor dtt = Tensor::Contiguous(dtc.data(), c.dtd, {c.Nb, c.H});
    const Tensor At = Tensor::Contiguous(Ac.data(), DType::kF32, {c.H});
    const Tensor Bt = Tensor::Contiguous(Bc.data(), c.xd, {c.Nb, c.G, c.N});
    const Tensor Ct = Tensor::Contiguous(Cc.data(), c.xd, {c.Nb, c.G, c.N});
    const Tensor Dt = Tensor::Contiguous(Dc.data(), DType::kF32, {c.H});
    const Tensor bt = Tensor::Contiguous(biasc.data(), DType::kF32, {c.H});
    const Tensor it = Tensor::Contiguous(slotc.data(), DType::kI32, {c.Nb});
    vt::Mamba2Args args;
    args.dt_softplus = c.softplus;
    vt::Mamba2StateUpdate(ctx, ot, st, xt, dtt, At, Bt, Ct, c.D ? &Dt : nullptr, c.z ? &zt : nullptr,
                          c.bias ? &bt : nullptr, c.indexed ? &it : nullptr, args);
    return Outs{{c.od, out}, {c.sd, sc}};
  });
}

TEST(MambaTiers, StateUpdateEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 31);
  int cases = 0;
  for (int64_t P : {1, 2, 7, 8, 9, 15, 16, 17, 33, 64}) {
    for (int64_t N : {1, 3, 7, 8, 9, 15, 16, 17, 31, 128}) {
      for (DType sd : kOut) {
        const int k = cases;
        const int64_t H = 1 + k % 4, G = H % 2 == 0 ? H / 2 : 1;
        Case c{1 + k % 5, H, G, P, N, kIn[k % 3], kIn[(k / 3) % 3], sd, kOut[(k / 2) % 2],
               k % 3 != 1, k % 4 != 2, k % 5 < 3, k % 2 == 0, k % 3 != 0, k % 4 == 3};
        RunCase(rng, c);
        if (HasFatalFailure()) return;
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 0);
}

}  // namespace
