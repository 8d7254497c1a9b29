// vt-bench-attn: the attention family's tiers (AttendRow, every op of the
// family runs it) at a decode-like and a prefill-like shape, on every CPU
// tier this machine runs, against libtorch's softmax attention when libtorch
// is found - all in one run, at 1 and 2 threads; prints the ratio table and
// writes bench.json (docs/performance.md).
//   decode:  attention_cross, 1 query over S = 2048 keys, Hq 32 / Hkv 8, D 128
//            (the K/V of one layer's cache: 16 MiB f32 read once per call)
//   prefill: attention causal, T = 256, Hq 16 / Hkv 4, D 128
// Both f32 (libtorch's baseline is f32 only), plus decode with bf16 K/V
// against vt's own portable tier. Scale 1/sqrt(D): the one libtorch 1.13's
// private SDPA applies (torch_baseline.h).
//
// Usage: vt-bench-attn [--quick] [--json FILE] [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench_table.h"
#include "vt/codec.h"
#include "vt/isa.h"
#include "vt/ops_attn.h"
#ifdef VT_BENCH_TORCH
#include "bench/torch_baseline.h"
#endif

namespace {

using vt::DType;
using vt::Tensor;
using vt::bench::Normal;

struct Problem {
  std::string name;
  int64_t tq, tk, hq, hkv, d;
  bool causal;  // attention (causal, tq == tk); else attention_cross
  DType dt;
};

struct Data {
  std::vector<float> q, k, v;           // f32 values
  std::vector<uint16_t> q16, k16, v16;  // their bf16 storage when dt is bf16
  std::vector<unsigned char> out;
};

Data MakeData(const Problem& p) {
  Data d;
  d.q = Normal(p.tq * p.hq * p.d, 1);
  d.k = Normal(p.tk * p.hkv * p.d, 2);
  d.v = Normal(p.tk * p.hkv * p.d, 3);
  d.out.assign(static_cast<std::size_t>(p.tq * p.hq * p.d) * 4, 0);
  if (p.dt == DType::kBF16) {
    const auto narrow = [](const std::vector<float>& f, std::vector<uint16_t>& h) {
      h.resize(f.size());
      for (std::size_t i = 0; i < f.size(); ++i) h[i] = vt::F32ToBF16(f[i]);
    };
    narrow(d.q, d.q16);
    narrow(d.k, d.k16);
    narrow(d.v, d.v16);
  }
  return d;
}

void RegisterProblem(const Problem& p, Data& d, int threads) {
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(p.d)));
  for (vt::Isa isa : {vt::Isa::kPortable, vt::Isa::kAvx2, vt::Isa::kAvx512}) {
    if (!vt::IsaSupported(isa)) continue;
    const vt::ExecContext ctx{vt::Backend::kCPU, threads, false, isa};
    vt::bench::Register(p.name, "vt-" + std::string(vt::Name(isa)), threads, [&d, p, ctx, scale] {
      const bool b = p.dt == DType::kBF16;
      void* q = b ? static_cast<void*>(d.q16.data()) : d.q.data();
      void* k = b ? static_cast<void*>(d.k16.data()) : d.k.data();
      void* v = b ? static_cast<void*>(d.v16.data()) : d.v.data();
      const Tensor out = Tensor::Contiguous(d.out.data(), DType::kF32, {p.tq, p.hq, p.d});
      const Tensor tq = Tensor::Contiguous(q, p.dt, {p.tq, p.hq, p.d});
      const Tensor tk = Tensor::Contiguous(k, p.dt, {p.tk, p.hkv, p.d});
      const Tensor tv = Tensor::Contiguous(v, p.dt, {p.tk, p.hkv, p.d});
      if (p.causal) {
        vt::Attention(ctx, out, tq, tk, tv, {scale, true});
      } else {
        vt::AttentionCross(ctx, out, tq, tk, tv, nullptr, {scale});
      }
    });
  }
#ifdef VT_BENCH_TORCH
  if (p.dt == DType::kF32) {
    vt::bench::Register(p.name, "torch-sdpa", threads,
                        vt::bench::TorchSdpa(p.tq, p.tk, p.hq, p.hkv, p.d, d.q.data(), d.k.data(), d.v.data(),
                                             p.causal),
                        vt::bench::TorchSetThreads);
  }
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Problem> problems = {
      {"attention_cross decode f32 S=2048 Hq32/8 D128", 1, 2048, 32, 8, 128, false, DType::kF32},
      {"attention_cross decode bf16 S=2048 Hq32/8 D128", 1, 2048, 32, 8, 128, false, DType::kBF16},
      {"attention prefill f32 causal T=256 Hq16/4 D128", 256, 256, 16, 4, 128, true, DType::kF32},
  };
  std::vector<Data> data;
  data.reserve(problems.size());
  for (const Problem& p : problems) data.push_back(MakeData(p));
  for (int threads : {1, 2}) {
    for (std::size_t i = 0; i < problems.size(); ++i) RegisterProblem(problems[i], data[i], threads);
  }
  // Each tier against the portable tier (the speed-up the tier brings), and
  // the best tier against libtorch (no target: the issue names libtorch as
  // the baseline of softmax attention, not a ratio to reach).
  std::vector<vt::bench::Comparison> cmps;
  for (const Problem& p : problems) {
    const double flops = 4.0 * static_cast<double>(p.hq * p.d) *
                         (p.causal ? static_cast<double>(p.tq * (p.tq + 1) / 2) : static_cast<double>(p.tq * p.tk));
    for (vt::Isa isa : {vt::Isa::kAvx2, vt::Isa::kAvx512}) {
      if (vt::IsaSupported(isa)) cmps.push_back({p.name, "vt-" + std::string(vt::Name(isa)), "vt-portable", {}, flops});
    }
#ifdef VT_BENCH_TORCH
    if (p.dt == DType::kF32) {
      cmps.push_back({p.name, "vt-" + std::string(vt::Name(vt::BestIsa())), "torch-sdpa", {}, flops});
      cmps.push_back({p.name, "vt-portable", "torch-sdpa", {}, flops});
    }
#endif
  }
  return vt::bench::Main(argc, argv, "vt-bench-attn", cmps,
                         "baselines: vt's portable tier"
#ifdef VT_BENCH_TORCH
                         "; libtorch 1.13 at::_scaled_dot_product_attention (f32, K/V pre-expanded to Hq heads)"
#endif
                         );
}
