// vt-bench-rows: the row / elementwise ops on every CPU tier against memcpy of
// the same traffic, measured in the same run (Google Benchmark, medians of
// --benchmark_repetitions runs, real time), at 1 and 2 threads; then a ratio
// table with the issue-25 targets. The baseline for an op that reads R bytes
// and writes W bytes is a memcpy of (R + W) / 2 bytes (the same total
// traffic; for rms_norm f32 that is exactly "copy x into out"); at 2 threads
// the copy is split in two halves on the same pool the kernels use.
// Decode (T = 1) is compared with the add-chain bound: H dependent f32 adds,
// the sequential sum the bytes contract requires, and nothing else.
//
// Usage: vt-bench-rows [--quick] [--json FILE] [--benchmark_repetitions=N]
//        [--benchmark_filter=REGEX] [other Google Benchmark flags]
// --quick: 3 repetitions of at least 0.05 s each (the CTest `bench` run);
// --json FILE: the ratio table as JSON (scripts/bench writes
// build/bench/vt-bench-rows.json).
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "api/kernel_types.h"
#include "bench/bench_table.h"
#include "vt/codec.h"
#include "vt/ops.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace {

using vt::DType;
using vt::Isa;
using vt::Tensor;

struct Buf {
  std::vector<unsigned char> bytes;
  Buf(std::size_t n, DType dt, float fill_scale) : bytes(n * vt::SizeOf(dt)) {
    for (std::size_t i = 0; i < n; ++i) {  // a deterministic, non-constant pattern
      const float v = fill_scale * static_cast<float>(static_cast<int>((i * 2654435761u) % 2001) - 1000) / 1000.0f;
      if (dt == DType::kF32) {
        std::memcpy(bytes.data() + i * 4, &v, 4);
      } else {
        const uint16_t h = dt == DType::kF16 ? vt::F32ToF16(v) : vt::F32ToBF16(v);
        std::memcpy(bytes.data() + i * 2, &h, 2);
      }
    }
  }
  void* data() { return bytes.data(); }
};

vt::ExecContext Ctx(int threads, Isa isa) {
  vt::ExecContext c;
  c.threads = threads;
  c.isa = isa;
  return c;
}

// One op at one shape: its call, and the bytes its memcpy baseline copies.
struct OpCase {
  std::string name;  // table row, e.g. "rms_norm f32 [2048,4096]"
  std::size_t copy_bytes;
  std::function<void(const vt::ExecContext&)> call;
  double target_1t, target_2t;  // ratio targets (time / memcpy time); 0: none stated
  int copies = 1;                // the baseline copies copy_bytes this many times
};

void CopyHalves(int threads, void* dst, const void* src, std::size_t n) {
  if (threads == 1) {
    std::memcpy(dst, src, n);
    return;
  }
  vt::ThreadPool::Global().Run(threads, [&](int ith, int nth) {
    const std::size_t a = n * ith / nth, b = n * (ith + 1) / nth;
    std::memcpy(static_cast<char*>(dst) + a, static_cast<const char*>(src) + a, b - a);
  });
}

// The GDN benchmark layer: Hk 16 key heads, Hv 32 value heads, Dk = Dv =
// 128, up to 64 tokens / requests. q and k rows are L2-normalised (as the op
// expects; with |k| = 1 and beta in [0, 1] the delta rule keeps the state
// bounded over repeated calls in place), g = -0.05 (decay 0.95), beta 0.5.
constexpr int64_t kGdnHk = 16, kGdnHv = 32, kGdnD = 128, kGdnTokens = 64;
constexpr std::size_t kGdnState = kGdnHv * kGdnD * kGdnD * 4;  // one request's f32 state

struct GdnLayer {
  std::vector<float> q, k, v, g, beta, state, out;
  GdnLayer()
      : q(kGdnTokens * kGdnHk * kGdnD), k(q.size()), v(kGdnTokens * kGdnHv * kGdnD), g(kGdnTokens * kGdnHv, -0.05f),
        beta(g.size(), 0.5f), state(8 * kGdnState / 4), out(v.size()) {
    for (std::size_t i = 0; i < q.size(); ++i) {
      q[i] = static_cast<float>(static_cast<int>((i * 2654435761u) % 2001) - 1000);
      k[i] = static_cast<float>(static_cast<int>((i * 40503u + 7) % 2001) - 1000);
    }
    for (std::vector<float>* x : {&q, &k}) {
      for (std::size_t r = 0; r < x->size(); r += kGdnD) {
        double ss = 0.0;
        for (int64_t j = 0; j < kGdnD; ++j) ss += static_cast<double>((*x)[r + j]) * (*x)[r + j];
        for (int64_t j = 0; j < kGdnD; ++j) (*x)[r + j] = static_cast<float>((*x)[r + j] / std::sqrt(ss));
      }
    }
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i % 201) - 100) / 100.0f;
    for (std::size_t i = 0; i < state.size(); ++i) state[i] = static_cast<float>(static_cast<int>(i % 101) - 50) / 500.0f;
  }
  Tensor T3(std::vector<float>& b, int64_t t, int64_t h) { return Tensor::Contiguous(b.data(), DType::kF32, {t, h, kGdnD}); }
  Tensor T2(std::vector<float>& b, int64_t t) { return Tensor::Contiguous(b.data(), DType::kF32, {t, kGdnHv}); }
};

GdnLayer& Gdn() {
  static GdnLayer layer;
  return layer;
}

void GdnDecodeCall(const vt::ExecContext& c, int64_t b) {
  GdnLayer& l = Gdn();
  vt::GdnDecode(c, l.T3(l.out, b, kGdnHv), l.T3(l.q, b, kGdnHk), l.T3(l.k, b, kGdnHk), l.T3(l.v, b, kGdnHv), l.T2(l.g, b),
                l.T2(l.beta, b), Tensor::Contiguous(l.state.data(), DType::kF32, {b, kGdnHv, kGdnD, kGdnD}), nullptr,
                {0.08838835f});
}

void GdnPrefillCall(const vt::ExecContext& c, int64_t t) {
  GdnLayer& l = Gdn();
  static int32_t qsl[2] = {0, static_cast<int32_t>(t)};
  vt::GdnPrefill(c, l.T3(l.out, t, kGdnHv), l.T3(l.q, t, kGdnHk), l.T3(l.k, t, kGdnHk), l.T3(l.v, t, kGdnHv),
                 l.T2(l.g, t), l.T2(l.beta, t),
                 Tensor::Contiguous(l.state.data(), DType::kF32, {1, kGdnHv, kGdnD, kGdnD}),
                 Tensor::Contiguous(qsl, DType::kI32, {2}), {0.08838835f});
}

void KdaCall(const vt::ExecContext& c, int64_t t) {
  GdnLayer& l = Gdn();
  static std::vector<float> g(static_cast<std::size_t>(kGdnTokens * kGdnHv * kGdnD), -0.05f);
  static int32_t qsl[2] = {0, static_cast<int32_t>(t)};
  vt::KdaGatedDeltaRule(c, l.T3(l.out, t, kGdnHv), l.T3(l.q, t, kGdnHk), l.T3(l.k, t, kGdnHk), l.T3(l.v, t, kGdnHv),
                        Tensor::Contiguous(g.data(), DType::kF32, {t, kGdnHv, kGdnD}), l.T2(l.beta, t),
                        Tensor::Contiguous(l.state.data(), DType::kF32, {1, kGdnHv, kGdnD, kGdnD}),
                        Tensor::Contiguous(qsl, DType::kI32, {2}), {0.08838835f});
}

// The fused RoPE ops' operands at one dtype (Cases: the shapes and why).
constexpr int64_t kRT = 512, kRHq = 32, kRHk = 8, kRD = 128, kROff = 512, kRRot = 64;
struct RopeLayer {
  DType dt;
  Buf qg, kf, q, k, g, x, lat, pe, w;
  explicit RopeLayer(DType d)
      : dt(d), qg(kRT * kRHq * 2 * kRD, d, 1.0f), kf(kRT * kRHk * kRD, d, 1.0f), q(kRT * kRHq * kRD, d, 0.0f),
        k(kRT * kRHk * kRD, d, 0.0f), g(kRT * kRHq * kRD, d, 0.0f), x(kRT * (kROff + kRRot), d, 1.0f),
        lat(kRT * kROff, d, 0.0f), pe(kRT * kRRot, d, 0.0f), w(kROff, d, 1.0f) {}
  Tensor T(Buf& b, std::initializer_list<int64_t> s) const { return Tensor::Contiguous(b.data(), dt, s); }
};

std::vector<OpCase> Cases() {
  constexpr int64_t T = 2048, H = 4096;
  static Buf x32(T * H, DType::kF32, 1.0f), out32(T * H, DType::kF32, 0.0f), w32(H, DType::kF32, 1.0f);
  static Buf xbf(T * H, DType::kBF16, 1.0f), outbf(T * H, DType::kBF16, 0.0f);
  static Buf gate_up(T * 2 * H, DType::kF32, 4.0f), col(H, DType::kF32, 1.0f);
  static Buf x1(H, DType::kF32, 1.0f), out1(H, DType::kF32, 0.0f);
  // mul_col_vec_f32 runs in place on out32 once per iteration: factors of +-1
  // keep its values from decaying into subnormals (a different speed).
  for (int64_t j = 0; j < H; ++j) static_cast<float*>(col.data())[j] = (j % 3 == 0) ? -1.0f : 1.0f;
  const auto f32 = [](Buf& b, std::initializer_list<int64_t> s) { return Tensor::Contiguous(b.data(), DType::kF32, s); };
  const auto bf = [](Buf& b, std::initializer_list<int64_t> s) { return Tensor::Contiguous(b.data(), DType::kBF16, s); };
  const std::size_t f32_bytes = T * H * 4;
  // RoPE (branch simd-c): q [2048, 32 heads, 128] in place from a [4096, 128]
  // cos/sin cache at positions t * 7 % 4096 - the same bytes as x32 / xbf,
  // viewed as heads. The cache holds true cos/sin pairs (c^2 + s^2 ~ 1), so
  // repeating the rotation in place keeps the values' magnitudes (no drift to
  // inf or subnormals between iterations). Baseline: a copy of q (read and
  // written once).
  static Buf cache32(4096 * 128, DType::kF32, 1.0f), cachebf(4096 * 128, DType::kBF16, 1.0f);
  static const bool cache_filled = [] {
    for (int64_t p = 0; p < 4096; ++p) {
      for (int64_t i = 0; i < 64; ++i) {
        const double angle = static_cast<double>(p) * std::pow(10000.0, -static_cast<double>(i) / 64.0);
        const float cs[2] = {static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle))};
        for (int h = 0; h < 2; ++h) {
          const int64_t at = p * 128 + h * 64 + i;
          std::memcpy(static_cast<unsigned char*>(cache32.data()) + at * 4, &cs[h], 4);
          const uint16_t b = vt::F32ToBF16(cs[h]);
          std::memcpy(static_cast<unsigned char*>(cachebf.data()) + at * 2, &b, 2);
        }
      }
    }
    return true;
  }();
  (void)cache_filled;
  static std::vector<int32_t> pos = [] {
    std::vector<int32_t> p(T);
    for (int64_t t = 0; t < T; ++t) p[static_cast<size_t>(t)] = static_cast<int32_t>((t * 7) % 4096);
    return p;
  }();
  const Tensor positions = Tensor::Contiguous(pos.data(), DType::kI32, {T});
  // The fused RoPE ops (branch simd-r) at T = 512. attn_qk_norm_rope_gate: a
  // Qwen3-like layer, 32 q heads (q | gate rows) + 8 kv heads of 128, full
  // rotary, reading qgate and kf and writing q, k and the gate - as many
  // bytes written as read, so the baseline copies the bytes read.
  // fused_norm_rope: DeepSeek's kv_a row (512 latent + 64 rope dims), its
  // [P, 64] cache the first rows of cache32 / cachebf viewed as 64 wide.
  // Outputs are separate from inputs: repeated calls see the same values.
  static RopeLayer r32(DType::kF32), rbf(DType::kBF16);
  static Buf rcs(kRT * kRD, DType::kF32, 1.0f), rnw(kRD, DType::kF32, 1.0f);
  const std::size_t attn_bytes = kRT * (kRHq * 2 + kRHk) * kRD * 4, mla_bytes = kRT * (kROff + kRRot) * 4;
  const Tensor rpos = Tensor::Contiguous(pos.data(), DType::kI32, {kRT});
  vt::RopeArgs r128, mla;
  r128.rotary_dim = kRD;
  mla.rotary_dim = kRRot;
  const auto attn = [=](const vt::ExecContext& c, RopeLayer& l) {
    vt::AttnQkNormRopeGate(c, l.T(l.q, {kRT, kRHq, kRD}), l.T(l.k, {kRT, kRHk, kRD}), l.T(l.g, {kRT, kRHq, kRD}),
                           l.T(l.qg, {kRT, kRHq * 2 * kRD}), l.T(l.kf, {kRT, kRHk * kRD}), f32(rnw, {kRD}),
                           f32(rnw, {kRD}), f32(rcs, {kRT, kRD}), {}, r128);
  };
  const auto mla_call = [=](const vt::ExecContext& c, RopeLayer& l) {
    vt::FusedNormRope(c, l.T(l.lat, {kRT, kROff}), l.T(l.pe, {kRT, kRRot}), l.T(l.x, {kRT, kROff + kRRot}),
                      l.T(l.w, {kROff}), rpos, l.T(l.dt == DType::kF32 ? cache32 : cachebf, {4096, kRRot}), {}, mla);
  };
  vt::RopeArgs neox, gptj;
  neox.rotary_dim = gptj.rotary_dim = 128;
  gptj.is_neox_style = false;
  // scaled_fp4_quant bf16 [2048,4096]: reads 16 MiB, writes 4 MiB of codes and
  // 0.5 MiB of scales; the baseline copies half that traffic.
  static std::vector<unsigned char> packed(T * H / 2), scales(T * H / 16);
  static std::vector<unsigned char> codes(T * H);  // e4m3 codes of the fp8 norms
  // mamba2_state_update (branch simd-m) at a Mamba2-2.7B-like decode shape:
  // Nb = 4 rows, H = 80 heads of P = 64, N = 128, one group; D, z, dt_bias
  // and softplus, as the model calls it. The state [4,80,64,128] (10 MiB f32)
  // is read and written in place once per call, which dominates the traffic
  // (x, z, B, C, out: under 0.3 MiB). A in [-1, -0.5): with d = softplus(dt)
  // the decay stays in (0, 1), so repeating the step keeps the state bounded
  // (no drift to inf or subnormals between iterations).
  constexpr int64_t kNb = 4, kMH = 80, kMP = 64, kMN = 128;
  static Buf mx32(kNb * kMH * kMP, DType::kF32, 1.0f), mz32(kNb * kMH * kMP, DType::kF32, 1.0f);
  static Buf mxbf(kNb * kMH * kMP, DType::kBF16, 1.0f), mzbf(kNb * kMH * kMP, DType::kBF16, 1.0f);
  static Buf mdt(kNb * kMH, DType::kF32, 1.0f), mA(kMH, DType::kF32, 0.5f), mD(kMH, DType::kF32, 1.0f);
  static Buf mbias(kMH, DType::kF32, 0.5f), mB32(kNb * kMN, DType::kF32, 1.0f), mC32(kNb * kMN, DType::kF32, 1.0f);
  static Buf mBbf(kNb * kMN, DType::kBF16, 1.0f), mCbf(kNb * kMN, DType::kBF16, 1.0f);
  static Buf ms32(kNb * kMH * kMP * kMN, DType::kF32, 1.0f), msbf(kNb * kMH * kMP * kMN, DType::kBF16, 1.0f);
  static Buf mo32(kNb * kMH * kMP, DType::kF32, 0.0f), mobf(kNb * kMH * kMP, DType::kBF16, 0.0f);
  for (int64_t h = 0; h < kMH; ++h) static_cast<float*>(mA.data())[h] = -0.5f - static_cast<float>(h % 8) / 16.0f;
  const std::size_t state_f32 = kNb * kMH * kMP * kMN * 4, small_f32 = (3 * kNb * kMH * kMP + 2 * kNb * kMN) * 4;
  // mamba2_chunk_scan (branch simd-m) at a prefill shape: one sequence of
  // T = 256 tokens in two chunks of 128, H = 24 heads of P = 64, N = 128, one
  // group; D, z, dt_bias, softplus; f32. Not a streaming op: stage 5 costs
  // about T * H * P * (N + L / 2) multiply-adds, so its memcpy baseline (the
  // operands read and written once) is a floor far below it, kept for the
  // table's uniformity.
  constexpr int64_t kST = 256, kSH = 24;
  static Buf sx(kST * kSH * kMP, DType::kF32, 1.0f), sz(kST * kSH * kMP, DType::kF32, 1.0f);
  static Buf sdt(kST * kSH, DType::kF32, 1.0f), sB(kST * kMN, DType::kF32, 1.0f), sC(kST * kMN, DType::kF32, 1.0f);
  static Buf sout(kST * kSH * kMP, DType::kF32, 0.0f), sfin(kSH * kMP * kMN, DType::kF32, 0.0f);
  static std::vector<int32_t> s_cu = {0, kST}, s_chunks = {0, 128, kST}, s_last = {1}, s_idx = {0, 0};
  const std::size_t scan_bytes = ((3 * kST * kSH * kMP + kST * kSH + 2 * kST * kMN) + kSH * kMP * kMN) * 4 / 2;
  const auto mamba_step = [=](const vt::ExecContext& c, Buf& out, Buf& state, Buf& x, Buf& z, Buf& B, Buf& C,
                              DType io, DType st) {
    const Tensor D = f32(mD, {kMH}), zt = Tensor::Contiguous(z.data(), io, {kNb, kMH, kMP}), bias = f32(mbias, {kMH});
    vt::Mamba2Args args;
    args.dt_softplus = true;
    vt::Mamba2StateUpdate(c, Tensor::Contiguous(out.data(), io, {kNb, kMH, kMP}),
                          Tensor::Contiguous(state.data(), st, {kNb, kMH, kMP, kMN}),
                          Tensor::Contiguous(x.data(), io, {kNb, kMH, kMP}), f32(mdt, {kNb, kMH}), f32(mA, {kMH}),
                          Tensor::Contiguous(B.data(), io, {kNb, 1, kMN}), Tensor::Contiguous(C.data(), io, {kNb, 1, kMN}),
                          &D, &zt, &bias, nullptr, args);
  };
  return {
      {"rms_norm f32 [2048,4096]", f32_bytes,
       [=](const vt::ExecContext& c) { vt::RmsNorm(c, f32(out32, {T, H}), f32(x32, {T, H}), f32(w32, {H}), {}); },
       1.5, 1.1},
      {"rms_norm bf16 [2048,4096]", f32_bytes / 2,
       [=](const vt::ExecContext& c) { vt::RmsNorm(c, bf(outbf, {T, H}), bf(xbf, {T, H}), f32(w32, {H}), {}); },
       1.5, 1.1},
      {"l2_norm f32 [2048,4096]", f32_bytes,
       [=](const vt::ExecContext& c) { vt::L2Norm(c, f32(out32, {T, H}), f32(x32, {T, H}), {}); }, 1.5, 1.1},
      {"mul_scalar f32 [2048,4096]", f32_bytes,
       [=](const vt::ExecContext& c) { vt::MulScalar(c, f32(out32, {T, H}), f32(x32, {T, H}), 0.5); }, 1.5, 1.1},
      {"mul_col_vec_f32 f32 [2048,4096]", f32_bytes,
       [=](const vt::ExecContext& c) { vt::MulColVecF32(c, f32(out32, {T, H}), f32(col, {H})); }, 1.5, 1.1},
      {"silu_and_mul f32 [2048,8192]->[2048,4096]", f32_bytes * 3 / 2,
       [=](const vt::ExecContext& c) { vt::SiluAndMul(c, f32(out32, {T, H}), f32(gate_up, {T, 2 * H})); }, 2.5, 2.5},
      {"gelu_and_mul f32 [2048,8192]->[2048,4096]", f32_bytes * 3 / 2,
       [=](const vt::ExecContext& c) { vt::GeluAndMul(c, f32(out32, {T, H}), f32(gate_up, {T, 2 * H})); }, 2.5, 2.5},
      // rms_norm_gated reads x and the gate (the first half of each gate_up
      // row: a token stride of 2H, as a gate sliced from a projection) and
      // writes out: the copy of (2 + 1) / 2 times x's bytes.
      {"rms_norm_gated silu f32 [2048,4096]", f32_bytes * 3 / 2,
       [=](const vt::ExecContext& c) {
         vt::RmsNormGated(c, f32(out32, {T, H}), f32(x32, {T, H}),
                          Tensor::Strided(gate_up.data(), DType::kF32, {T, H}, {2 * H, 1}), f32(w32, {H}), {});
       },
       2.5, 2.5},
      // The fp8 variant writes one byte per element: (2 * 4 + 1) / 2 bytes
      // of copy per element.
      {"rms_norm_gated_quant_fp8 silu f32 [2048,4096]", f32_bytes * 9 / 8,
       [=](const vt::ExecContext& c) {
         vt::RmsNormGatedQuantFp8(c, Tensor::Contiguous(codes.data(), DType::kU8, {T, H}), f32(x32, {T, H}),
                                  Tensor::Strided(gate_up.data(), DType::kF32, {T, H}, {2 * H, 1}), f32(w32, {H}), {},
                                  0.5f);
       },
       2.5, 2.5},
      // rms_norm_quant_fp8 without out_bf16: reads x, writes the codes
      // ((4 + 1) / 2 bytes of copy per element).
      {"rms_norm_quant_fp8 f32 [2048,4096]", f32_bytes * 5 / 8,
       [=](const vt::ExecContext& c) {
         vt::RmsNormQuantFp8(c, Tensor::Contiguous(codes.data(), DType::kU8, {T, H}), nullptr, f32(x32, {T, H}),
                             f32(w32, {H}), {}, nullptr, 0.5f);
       },
       1.5, 1.1},
      // rms_norm_gated_group (Mamba2, 8 groups): reads x and a contiguous
      // gate (the first T * H values of gate_up), writes out.
      {"rms_norm_gated_group f32 [2048,4096] 8 groups", f32_bytes * 3 / 2,
       [=](const vt::ExecContext& c) {
         const Tensor w = f32(w32, {H});
         vt::RmsNormGatedGroup(c, f32(out32, {T, H}), f32(x32, {T, H}), f32(gate_up, {T, H}), &w, {1e-6f, 8, 1});
       },
       2.5, 2.5},
      {"rope_from_cache neox f32 [2048,32,128]", f32_bytes,
       [=](const vt::ExecContext& c) {
         vt::RopeFromCache(c, f32(x32, {T, 32, 128}), nullptr, positions, f32(cache32, {4096, 128}), neox);
       },
       0, 0},
      {"rope_from_cache gptj f32 [2048,32,128]", f32_bytes,
       [=](const vt::ExecContext& c) {
         vt::RopeFromCache(c, f32(x32, {T, 32, 128}), nullptr, positions, f32(cache32, {4096, 128}), gptj);
       },
       0, 0},
      {"rope_from_cache neox bf16 [2048,32,128]", f32_bytes / 2,
       [=](const vt::ExecContext& c) {
         vt::RopeFromCache(c, bf(xbf, {T, 32, 128}), nullptr, positions, bf(cachebf, {4096, 128}), neox);
       },
       0, 0},
      {"attn_qk_norm_rope_gate f32 T=512 32+8x128", attn_bytes,
       [=](const vt::ExecContext& c) { attn(c, r32); }, 0, 0},
      {"attn_qk_norm_rope_gate bf16 T=512 32+8x128", attn_bytes / 2,
       [=](const vt::ExecContext& c) { attn(c, rbf); }, 0, 0},
      {"fused_norm_rope f32 [512,512+64]", mla_bytes, [=](const vt::ExecContext& c) { mla_call(c, r32); }, 0, 0},
      {"fused_norm_rope bf16 [512,512+64]", mla_bytes / 2,
       [=](const vt::ExecContext& c) { mla_call(c, rbf); }, 0, 0},
      {"scaled_fp4_quant bf16 [2048,4096]", (f32_bytes / 2 + f32_bytes / 8 + f32_bytes / 64) / 2,
       [=](const vt::ExecContext& c) {
         vt::ScaledFp4Quant(c, Tensor::Contiguous(packed.data(), DType::kU8, {T, H / 2}),
                            Tensor::Contiguous(scales.data(), DType::kU8, {T, H / 16}), bf(xbf, {T, H}), 1.0f);
       },
       0, 0},
      // Baseline: the state read and written once, plus half the small
      // operands' traffic (x, z, out; B, C).
      {"mamba2_state_update f32 decode [4,80,64,128]", state_f32 + small_f32 / 2,
       [=](const vt::ExecContext& c) { mamba_step(c, mo32, ms32, mx32, mz32, mB32, mC32, DType::kF32, DType::kF32); },
       0, 0},
      {"mamba2_state_update bf16 decode [4,80,64,128]", (state_f32 + small_f32 / 2) / 2,
       [=](const vt::ExecContext& c) { mamba_step(c, mobf, msbf, mxbf, mzbf, mBbf, mCbf, DType::kBF16, DType::kBF16); },
       0, 0},
      {"mamba2_chunk_scan f32 prefill T=256 [24,64,128] cs=128", scan_bytes,
       [=](const vt::ExecContext& c) {
         const Tensor D = f32(mD, {kSH}), zt = f32(sz, {kST, kSH, kMP}), bias = f32(mbias, {kSH});
         vt::Mamba2Args args;
         args.chunk_size = 128;
         args.dt_softplus = true;
         vt::Mamba2ChunkScan(c, f32(sout, {kST, kSH, kMP}), f32(sfin, {1, kSH, kMP, kMN}), f32(sx, {kST, kSH, kMP}),
                             f32(sdt, {kST, kSH}), f32(mA, {kSH}), f32(sB, {kST, 1, kMN}), f32(sC, {kST, 1, kMN}), &D,
                             &zt, &bias, nullptr, Tensor::Contiguous(s_cu.data(), DType::kI32, {2}),
                             Tensor::Contiguous(s_chunks.data(), DType::kI32, {3}),
                             Tensor::Contiguous(s_last.data(), DType::kI32, {1}),
                             Tensor::Contiguous(s_idx.data(), DType::kI32, {2}), args);
       },
       0, 0},
      // GDN recurrences (branch simd-d), a Qwen3-Next-like layer: Hk 16, Hv 32,
      // Dk = Dv = 128, f32 state [.,32,128,128] (2 MiB per request). The
      // state is read and written once per token, so the baseline is a
      // memcpy of the state (decode: 8 requests, 16 MiB; prefill: one
      // sequence of 64 tokens, the 2 MiB state copied once per token).
      {"gdn_decode f32 B=8 Hv=32 Dk=Dv=128", 8 * kGdnState,
       [](const vt::ExecContext& c) { GdnDecodeCall(c, 8); }, 0, 0},
      {"gdn_prefill f32 T=64 Hv=32 Dk=Dv=128", kGdnState,
       [](const vt::ExecContext& c) { GdnPrefillCall(c, 64); }, 0, 0, 64},
      // KDA (kda_gated_delta_rule) on the same layer: g per key channel
      // [64,32,128] (-0.05 everywhere), the same state traffic as prefill.
      {"kda_gated_delta_rule f32 T=64 Hv=32 Dk=Dv=128", kGdnState,
       [](const vt::ExecContext& c) { KdaCall(c, 64); }, 0, 0, 64},
      {"rms_norm f32 decode [1,4096]", 0,
       [=](const vt::ExecContext& c) { vt::RmsNorm(c, f32(out1, {1, H}), f32(x1, {1, H}), f32(w32, {H}), {}); },
       1.2, 0},
      // The same call without the API layer (validation, then the registry
      // lookup): the kernel the tiers are, against the same bound.
      {"rms_norm f32 decode [1,4096] kernel only", 0,
       [=](const vt::ExecContext& c) {
         static auto* const kernel = vt::GetKernel<vt::kernel::RmsNormFn>("rms_norm", vt::Backend::kCPU);
         kernel(c, f32(out1, {1, H}), f32(x1, {1, H}), f32(w32, {H}), {}, nullptr);
       },
       1.2, 0},
  };
}

// The add-chain bound of the decode row: H dependent f32 adds.
void AddChain(benchmark::State& state) {
  static Buf sq(4096, DType::kF32, 1.0f);
  const auto* v = static_cast<const float*>(sq.data());
  for (auto _ : state) {
    float sum = 0.0f;
    for (int k = 0; k < 4096; ++k) sum += v[k];  // one chain: no reassociation (no -ffast-math)
    benchmark::DoNotOptimize(sum);
  }
}

std::map<std::string, double> g_median_ns;      // benchmark name -> median real time (ns)
std::map<std::string, double> g_median_cpu_ns;  // benchmark name -> median CPU time of the calling thread (ns)

class MedianReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.aggregate_name == "median") {
        g_median_ns[r.run_name.function_name] = r.GetAdjustedRealTime();
        g_median_cpu_ns[r.run_name.function_name] = r.GetAdjustedCPUTime();
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

std::string Key(const std::string& what, int threads) { return what + " threads=" + std::to_string(threads); }

nlohmann::json g_rows = nlohmann::json::array();  // the table, for --json

void PrintTable(const std::vector<OpCase>& cases) {
  // "cpu ratio": the same ratio in the calling thread's CPU time, shown at 1
  // thread only (at 2 the helper thread's time is not in it). On a shared,
  // loaded machine it is the steadier of the two; the target is judged on
  // the real-time ratio.
  std::printf("\n%-42s %3s %-9s %12s %12s %7s %9s %7s %s\n", "op", "thr", "tier", "op (us)", "baseline(us)", "ratio",
              "cpu ratio", "target", "met");
  int missed = 0;
  for (const OpCase& oc : cases) {
    for (int threads : {1, 2}) {
      const double target = threads == 1 ? oc.target_1t : oc.target_2t;
      const std::string base_key = oc.copy_bytes ? Key("memcpy " + oc.name, threads) : "add_chain H=4096";
      if (!oc.copy_bytes && threads == 2) continue;  // one row is one thread's chain
      for (Isa isa : {Isa::kPortable, Isa::kAvx2, Isa::kAvx512}) {
        const auto op = g_median_ns.find(Key(oc.name, threads) + " isa=" + std::string(vt::Name(isa)));
        const auto base = g_median_ns.find(base_key);
        if (op == g_median_ns.end() || base == g_median_ns.end()) continue;
        const double ratio = op->second / base->second;
        char cpu[16] = "-";
        if (threads == 1) std::snprintf(cpu, sizeof cpu, "%.2f", g_median_cpu_ns[op->first] / g_median_cpu_ns[base->first]);
        g_rows.push_back({{"op", oc.name}, {"threads", threads}, {"tier", std::string(vt::Name(isa))},
                          {"op_ns", op->second}, {"baseline", oc.copy_bytes ? "memcpy" : "add_chain"},
                          {"baseline_ns", base->second}, {"ratio", ratio}, {"target", target},
                          {"met", target == 0 ? nlohmann::json(nullptr) : nlohmann::json(ratio <= target)}});
        std::printf("%-42s %3d %-9s %12.1f %12.1f %7.2f %9s %7.2f %s\n", oc.name.c_str(), threads,
                    std::string(vt::Name(isa)).c_str(), op->second / 1e3, base->second / 1e3, ratio, cpu, target,
                    target == 0 ? "-" : (ratio <= target ? "yes" : "NO"));
        // Targets are stated for the best tier (the one a call runs).
        if (target != 0 && ratio > target && isa == vt::BestIsa()) ++missed;
      }
    }
  }
  if (missed > 0) {
    std::printf("%d target(s) MISSED by the best tier; the measured cause of each: %s\n", missed,
                vt::bench::kShortfallCauses);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<OpCase> cases = Cases();
  static Buf src(16u << 20, DType::kF32, 1.0f), dst(16u << 20, DType::kF32, 0.0f);  // 64 MiB: the largest copy is 48
  for (const OpCase& oc : cases) {
    for (int threads : {1, 2}) {
      if (oc.copy_bytes != 0) {
        benchmark::RegisterBenchmark(Key("memcpy " + oc.name, threads).c_str(), [&oc, threads](benchmark::State& s) {
          for (auto _ : s) {
            for (int i = 0; i < oc.copies; ++i) CopyHalves(threads, dst.data(), src.data(), oc.copy_bytes);
          }
        })->UseRealTime();
      } else if (threads == 2) {
        continue;
      }
      for (Isa isa : {Isa::kPortable, Isa::kAvx2, Isa::kAvx512}) {
        if (!vt::IsaSupported(isa)) continue;  // the table shows only tiers this CPU runs
        const std::string name = Key(oc.name, threads) + " isa=" + std::string(vt::Name(isa));
        benchmark::RegisterBenchmark(name.c_str(), [&oc, threads, isa](benchmark::State& s) {
          const vt::ExecContext ctx = Ctx(threads, isa);
          for (auto _ : s) oc.call(ctx);
        })->UseRealTime();
      }
    }
  }
  benchmark::RegisterBenchmark("add_chain H=4096", AddChain);
  // Medians need repetitions; 5 unless the command line says otherwise
  // (--quick: 3 short ones). --quick and --json FILE are ours; the rest goes
  // to Google Benchmark.
  std::vector<char*> args = {argv[0]};
  std::string json_path, reps = "--benchmark_repetitions=5", min_time = "--benchmark_min_time=0.05";
  bool has_reps = false, quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      has_reps = has_reps || std::strncmp(argv[i], "--benchmark_repetitions", 23) == 0;
      args.push_back(argv[i]);
    }
  }
  if (quick) reps = "--benchmark_repetitions=3";
  if (!has_reps) args.push_back(reps.data());
  if (quick) args.push_back(min_time.data());
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  MedianReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  PrintTable(cases);
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    f << nlohmann::json({{"tool", "vt-bench-rows"}, {"rows", g_rows}}).dump(2) << "\n";
    if (!f) {
      std::fprintf(stderr, "vt-bench-rows: cannot write %s\n", json_path.c_str());
      return 1;
    }
  }
  benchmark::Shutdown();
  return 0;
}
