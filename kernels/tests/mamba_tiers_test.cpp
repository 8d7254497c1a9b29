// The vector tiers of mamba2_state_update and mamba2_chunk_scan against the
// portable tier, byte for byte (row_tiers_util.h's comparison: portable at 1 thread the reference,
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
// 0 in the padding lanes when dt is +inf). The chunk scan: 1 to 3 sequences
// of ragged lengths, chunk sizes 4 to 64 with chunks cut at multiples of the
// chunk size and at sequence ends (a sequence can open mid-chunk, as vLLM's
// varlen metadata), initial states or none, D [H] / [H,P] / none, dt clamps;
// outputs out and final_states. A CPU without AVX2 has no tier to compare:
// skipped with its reason.
#define VT_TIER_TEST_BINARY "vt_mamba_tiers_test"

#include <gtest/gtest.h>

#include <algorithm>
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

// Chunk metadata as vLLM's varlen scheme: chunks end at multiples of cs in
// the packed token order and at every sequence end.
struct Chunks {
  std::vector<int32_t> cu_seqlens, cu_chunks, last_chunk, seq_idx;
};

Chunks MakeChunks(const std::vector<int64_t>& lens, int64_t cs) {
  Chunks m;
  m.cu_seqlens.push_back(0);
  m.cu_chunks.push_back(0);
  int64_t t = 0;
  for (std::size_t s = 0; s < lens.size(); ++s) {
    const int64_t end = t + lens[s];
    while (t < end) {
      const int64_t next = std::min(end, (t / cs + 1) * cs);
      m.cu_chunks.push_back(static_cast<int32_t>(next));
      m.seq_idx.push_back(static_cast<int32_t>(s));
      t = next;
    }
    m.cu_seqlens.push_back(static_cast<int32_t>(end));
    m.last_chunk.push_back(static_cast<int32_t>(m.seq_idx.size() - 1));
  }
  return m;
}

struct ScanCase {
  std::vector<int64_t> lens;
  int64_t cs, H, G, P, N;
  DType xd, sd, od;
  int D;  // 0 none, 1 [H], 2 [H,P]
  bool z, bias, softplus, init, clamp, specials;
};

void RunScan(std::mt19937_64& rng, const ScanCase& c) {
  int64_t T = 0;
  for (int64_t l : c.lens) T += l;
  const int64_t S = static_cast<int64_t>(c.lens.size());
  const Chunks m = MakeChunks(c.lens, c.cs);
  const int64_t nchunks = static_cast<int64_t>(m.seq_idx.size());
  const Bytes x = RandomBytes(rng, c.xd, T * c.H * c.P, c.specials);
  const Bytes B = RandomBytes(rng, c.xd, T * c.G * c.N, c.specials);
  const Bytes C = RandomBytes(rng, c.xd, T * c.G * c.N, c.specials);
  const Bytes z = RandomBytes(rng, c.xd, T * c.H * c.P, c.specials);
  const Bytes dt = RandomBytes(rng, c.xd, T * c.H, false);
  const Bytes A = Uniform(rng, c.H, -4.0f, -0.01f);
  const Bytes D = RandomBytes(rng, DType::kF32, c.D == 2 ? c.H * c.P : c.H, false);
  const Bytes bias = RandomBytes(rng, DType::kF32, c.H, false);
  const Bytes init = RandomBytes(rng, c.sd, S * c.H * c.P * c.N, c.specials);
  std::string id = "mamba2_chunk_scan lens=";
  for (std::size_t k = 0; k < c.lens.size(); ++k) id += (k ? "," : "") + std::to_string(c.lens[k]);
  id += " cs=" + std::to_string(c.cs) + " H=" + std::to_string(c.H) + " G=" + std::to_string(c.G) +
        " P=" + std::to_string(c.P) + " N=" + std::to_string(c.N) + " x=" + std::string(vt::Name(c.xd)) +
        " state=" + std::string(vt::Name(c.sd)) + " out=" + std::string(vt::Name(c.od)) + " D=" + std::to_string(c.D) +
        (c.z ? " z" : "") + (c.bias ? " dt_bias" : "") + (c.softplus ? " softplus" : "") + (c.init ? " init" : "") +
        (c.clamp ? " clamp" : "") + (c.specials ? " specials" : "");
  CompareTiers("mamba2_chunk_scan", id, [&](const vt::ExecContext& ctx) {
    Bytes xc = x, Bc = B, Cc = C, zc = z, dtc = dt, Ac = A, Dc = D, biasc = bias, ic = init;
    Chunks mc = m;
    Bytes out(static_cast<std::size_t>(T * c.H * c.P) * vt::SizeOf(c.od), 0xEE);
    Bytes fin(static_cast<std::size_t>(S * c.H * c.P * c.N) * vt::SizeOf(c.sd), 0xEE);
    const Tensor Dt = c.D == 2 ? Tensor::Contiguous(Dc.data(), DType::kF32, {c.H, c.P})
                               : Tensor::Contiguous(Dc.data(), DType::kF32, {c.H});
    const Tensor zt = Tensor::Contiguous(zc.data(), c.xd, {T, c.H, c.P});
    const Tensor bt = Tensor::Contiguous(biasc.data(), DType::kF32, {c.H});
    const Tensor it = Tensor::Contiguous(ic.data(), c.sd, {S, c.H, c.P, c.N});
    vt::Mamba2Args args;
    args.chunk_size = c.cs;
    args.dt_softplus = c.softplus;
    if (c.clamp) args.dt_min = 0.01f, args.dt_max = 2.0f;
    vt::Mamba2ChunkScan(ctx, Tensor::Contiguous(out.data(), c.od, {T, c.H, c.P}),
                        Tensor::Contiguous(fin.data(), c.sd, {S, c.H, c.P, c.N}),
                        Tensor::Contiguous(xc.data(), c.xd, {T, c.H, c.P}), Tensor::Contiguous(dtc.data(), c.xd, {T, c.H}),
                        Tensor::Contiguous(Ac.data(), DType::kF32, {c.H}), Tensor::Contiguous(Bc.data(), c.xd, {T, c.G, c.N}),
                        Tensor::Contiguous(Cc.data(), c.xd, {T, c.G, c.N}), c.D ? &Dt : nullptr, c.z ? &zt : nullptr,
                        c.bias ? &bt : nullptr, c.init ? &it : nullptr,
                        Tensor::Contiguous(mc.cu_seqlens.data(), DType::kI32, {S + 1}),
                        Tensor::Contiguous(mc.cu_chunks.data(), DType::kI32, {nchunks + 1}),
                        Tensor::Contiguous(mc.last_chunk.data(), DType::kI32, {S}),
                        Tensor::Contiguous(mc.seq_idx.data(), DType::kI32, {nchunks}), args);
    return Outs{{c.od, out}, {c.sd, fin}};
  });
}

TEST(MambaTiers, ChunkScanEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 37);
  const std::vector<std::vector<int64_t>> kLens = {{1}, {5}, {17}, {3, 9}, {13, 1, 30}, {64}};
  int cases = 0;
  for (int64_t P : {1, 3, 8, 12, 16, 17, 40}) {
    for (int64_t N : {1, 5, 8, 12, 16, 17, 33}) {
      for (DType sd : kOut) {
        const int k = cases;
        const int64_t H = 1 + k % 3, G = H == 2 ? 1 + k % 2 : 1;
        const int64_t kCs[] = {4, 8, 16, 64};
        const int64_t cs = kCs[k % 4];
        ScanCase c{kLens[static_cast<std::size_t>(k % 6)], cs, H, G, P, N, kIn[k % 3], sd, kOut[(k / 2) % 2],
                   k % 3, k % 4 != 2, k % 5 < 3, k % 2 == 0, k % 3 != 0, k % 7 == 3, k % 4 == 3};
        RunScan(rng, c);
        if (HasFatalFailure()) return;
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 0);
}

}  // namespace
