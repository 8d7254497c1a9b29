// vt-bench-gemm: vt's GEMM (matmul, f32 and bf16 weights, 1024^3) and decode
// GEMV (1 x 4096 @ 4096 x 4096) against OpenBLAS sgemm / sgemv at the same
// thread count (openblas_set_num_threads), and libtorch's matmul when found,
// at 1 and 2 threads, in one run; prints the ratio table and writes
// bench.json (docs/performance.md). vt runs its best tier (vt-<tier>) and,
// for reference, its portable tier.
#include <cblas.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_table.h"
#include "vt/codec.h"
#include "vt/isa.h"
#include "vt/ops.h"
#ifdef VT_BENCH_TORCH
#include "bench/torch_baseline.h"
#endif

namespace {

using vt::DType;
using vt::Tensor;

struct Problem {
  std::string name;
  int64_t m, n, k;
  bool bf16_weight;
};

std::vector<float> Normal(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = d(rng);
  return v;
}

// Operands of one problem, shared by every implementation (same values: the
// bf16 weight's f32 copy is its exact widening, so every baseline multiplies
// the same numbers).
struct Data {
  std::vector<float> a, b, out;
  std::vector<uint16_t> b_bf16;
};

Data MakeData(const Problem& p) {
  Data d;
  d.a = Normal(p.m * p.k, 1);
  d.b = Normal(p.k * p.n, 2);
  d.out.assign(static_cast<std::size_t>(p.m * p.n), 0.0f);
  if (p.bf16_weight) {
    d.b_bf16.resize(d.b.size());
    for (std::size_t i = 0; i < d.b.size(); ++i) {
      d.b_bf16[i] = vt::F32ToBF16(d.b[i]);
      d.b[i] = vt::BF16ToF32(d.b_bf16[i]);
    }
  }
  return d;
}

void RegisterProblem(const Problem& p, Data& d, int threads) {
  // vt's best tier, and its portable tier for reference (the speed-up the tier brings).
  std::vector<vt::Isa> tiers = {vt::BestIsa()};
  if (vt::BestIsa() != vt::Isa::kPortable) tiers.push_back(vt::Isa::kPortable);
  for (vt::Isa isa : tiers) {
    const vt::ExecContext ctx{vt::Backend::kCPU, threads, false, isa};
    vt::bench::Register(p.name, "vt-" + std::string(vt::Name(isa)), threads, [&d, p, ctx] {
      const Tensor b = p.bf16_weight ? Tensor::Contiguous(d.b_bf16.data(), DType::kBF16, {p.k, p.n})
                                     : Tensor::Contiguous(d.b.data(), DType::kF32, {p.k, p.n});
      vt::Matmul(ctx, Tensor::Contiguous(d.out.data(), DType::kF32, {p.m, p.n}),
                 Tensor::Contiguous(d.a.data(), DType::kF32, {p.m, p.k}), b);
    });
  }
  const auto blas_threads = [](int t) { openblas_set_num_threads(t); };
  if (p.m == 1) {
    // y[j] = sum_k x[k] b[k, j]: b is the row-major [K,N] matrix, transposed.
    vt::bench::Register(p.name, "openblas-sgemv", threads, [&d, p] {
      cblas_sgemv(CblasRowMajor, CblasTrans, static_cast<int>(p.k), static_cast<int>(p.n), 1.0f, d.b.data(),
                  static_cast<int>(p.n), d.a.data(), 1, 0.0f, d.out.data(), 1);
    }, blas_threads);
  } else {
    vt::bench::Register(p.name, "openblas-sgemm", threads, [&d, p] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(p.m), static_cast<int>(p.n),
                  static_cast<int>(p.k), 1.0f, d.a.data(), static_cast<int>(p.k), d.b.data(), static_cast<int>(p.n),
                  0.0f, d.out.data(), static_cast<int>(p.n));
    }, blas_threads);
  }
#ifdef VT_BENCH_TORCH
  vt::bench::Register(p.name, "torch-matmul", threads,
                      vt::bench::TorchMatmul(p.m, p.n, p.k, d.a.data(), d.b.data(), p.bf16_weight),
                      vt::bench::TorchSetThreads);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<Problem> problems = {
      {"matmul f32 1024^3", 1024, 1024, 1024, false},
      {"matmul bf16-weight 1024^3", 1024, 1024, 1024, true},
      {"decode GEMV 1x4096 @ 4096x4096", 1, 4096, 4096, false},
      {"decode GEMV bf16-weight 1x4096", 1, 4096, 4096, true},
  };
  static std::vector<Data> data;
  data.reserve(problems.size());
  for (const Problem& p : problems) data.push_back(MakeData(p));
  for (int threads : {1, 2}) {
    for (std::size_t i = 0; i < problems.size(); ++i) RegisterProblem(problems[i], data[i], threads);
  }
  using vt::bench::Target;
  const std::string ours = "vt-" + std::string(vt::Name(vt::BestIsa()));
  std::vector<vt::bench::Comparison> cmps;
  for (const Problem& p : problems) {
    const double flops = 2.0 * static_cast<double>(p.m * p.n * p.k);
    const std::string blas = p.m == 1 ? "openblas-sgemv" : "openblas-sgemm";
    // Issue 25's targets: GEMM >= 0.7x sgemm at 2 threads; GEMV >= 0.8x sgemv.
    const std::vector<Target> targets =
        p.m == 1 ? std::vector<Target>{{Target::Kind::kSpeedAtLeast, 0.8, 0}}
                 : std::vector<Target>{{Target::Kind::kSpeedAtLeast, 0.7, 2}};
    cmps.push_back({p.name, ours, blas, p.bf16_weight && p.m == 1 ? std::vector<Target>{} : targets, flops});
    cmps.push_back({p.name, "vt-portable", blas, {}, flops});
#ifdef VT_BENCH_TORCH
    cmps.push_back({p.name, ours, "torch-matmul", {}, flops});
#endif
  }
  return vt::bench::Main(argc, argv, "vt-bench-gemm", cmps,
                         "baselines: OpenBLAS " + std::string(OPENBLAS_VERSION) +
                             " (FMA; vt multiplies then adds, the seed's rounding)"
#ifdef VT_BENCH_TORCH
                             "; libtorch matmul"
#endif
                         );
}
