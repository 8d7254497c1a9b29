// vt-bench-gemm: vt's GEMM (matmul, f32 and bf16 weights, 1024^3) and decode
// GEMV (1 x 4096 @ 4096 x 4096) against OpenBLAS sgemm / sgemv at the same
// thread count (openblas_set_num_threads), and libtorch's matmul when found,
// at 1 and 2 threads, in one run; prints the ratio table and writes
// bench.json (docs/performance.md). vt runs its best tier (vt-<tier>) and,
// for reference, its portable tier. Both weight orientations: [K,N]
// (matmul) and a torch Linear weight [N,K] (matmul_bt; sgemm/sgemv with the
// weight transposed, as BLAS reads it in place).
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <immintrin.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
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
using vt::bench::Normal;

struct Problem {
  std::string name;
  int64_t m, n, k;
  bool bf16_weight;
  bool nk = false;  // the weight as a torch Linear stores it, [N,K] (vt::MatmulBT)
};

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
      const DType bdt = p.bf16_weight ? DType::kBF16 : DType::kF32;
      void* bdata = p.bf16_weight ? static_cast<void*>(d.b_bf16.data()) : static_cast<void*>(d.b.data());
      const Tensor out = Tensor::Contiguous(d.out.data(), DType::kF32, {p.m, p.n});
      const Tensor a = Tensor::Contiguous(d.a.data(), DType::kF32, {p.m, p.k});
      if (p.nk) {
        vt::MatmulBT(ctx, out, a, Tensor::Contiguous(bdata, bdt, {p.n, p.k}));
      } else {
        vt::Matmul(ctx, out, a, Tensor::Contiguous(bdata, bdt, {p.k, p.n}));
      }
    });
  }
  const auto blas_threads = [](int t) { openblas_set_num_threads(t); };
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
  if (p.m == 1) {
    // y[j] = sum_k x[k] w(k, j): [K,N] row-major read transposed, [N,K] as is.
    vt::bench::Register(p.name, "openblas-sgemv", threads, [&d, p, n, k] {
      if (p.nk) {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, n, k, 1.0f, d.b.data(), k, d.a.data(), 1, 0.0f, d.out.data(), 1);
      } else {
        cblas_sgemv(CblasRowMajor, CblasTrans, k, n, 1.0f, d.b.data(), n, d.a.data(), 1, 0.0f, d.out.data(), 1);
      }
    }, blas_threads);
  } else {
    vt::bench::Register(p.name, "openblas-sgemm", threads, [&d, p, m, n, k] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, p.nk ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, d.a.data(), k,
                  d.b.data(), p.nk ? k : n, 0.0f, d.out.data(), n);
    }, blas_threads);
  }
#ifdef VT_BENCH_TORCH
  if (!p.nk) {
    vt::bench::Register(p.name, "torch-matmul", threads,
                        vt::bench::TorchMatmul(p.m, p.n, p.k, d.a.data(), d.b.data(), p.bf16_weight),
                        vt::bench::TorchSetThreads);
  }
#endif
}

// The contract's ceiling on this CPU: 12 independent accumulator chains in
// registers, each step a multiply then an add (the seed's rounding: two
// vector instructions) or one FMA (what OpenBLAS issues); no memory. speed
// = FMA time / mul+add time = the largest fraction of an FMA GEMM's
// arithmetic peak the contract allows here: about 1 where multiplies and
// adds have pipes of their own (Zen 4), about 0.5 where 512-bit multiply,
// add and FMA share the same two ports (Intel server cores). The weights
// differ per chain so no product is shared, and the asm barrier keeps the
// loop from being folded.
template <bool kFused>
__attribute__((target("avx512f"), noinline)) float PeakChains512(long steps) {
  __m512 c[12], w[12];
  __m512 x = _mm512_set1_ps(1.0000001f);
#pragma GCC unroll 12
  for (int i = 0; i < 12; ++i) {
    c[i] = _mm512_setzero_ps();
    w[i] = _mm512_set1_ps(1e-8f * static_cast<float>(i + 1));
  }
  for (long s = 0; s < steps; ++s) {
#pragma GCC unroll 12
    for (int i = 0; i < 12; ++i) {
      c[i] = kFused ? _mm512_fmadd_ps(x, w[i], c[i]) : _mm512_add_ps(c[i], _mm512_mul_ps(x, w[i]));
    }
    __asm__ volatile("" : "+v"(x));
  }
#pragma GCC unroll 12
  for (int i = 1; i < 12; ++i) c[0] = _mm512_add_ps(c[0], c[i]);
  float out[16];
  _mm512_storeu_ps(out, c[0]);
  return out[0];
}
template <bool kFused>
__attribute__((target("avx2,fma"), noinline)) float PeakChains256(long steps) {
  __m256 c[12], w[12];
  __m256 x = _mm256_set1_ps(1.0000001f);
#pragma GCC unroll 12
  for (int i = 0; i < 12; ++i) {
    c[i] = _mm256_setzero_ps();
    w[i] = _mm256_set1_ps(1e-8f * static_cast<float>(i + 1));
  }
  for (long s = 0; s < steps; ++s) {
#pragma GCC unroll 12
    for (int i = 0; i < 12; ++i) {
      c[i] = kFused ? _mm256_fmadd_ps(x, w[i], c[i]) : _mm256_add_ps(c[i], _mm256_mul_ps(x, w[i]));
    }
    __asm__ volatile("" : "+v"(x));
  }
  float out[8];
#pragma GCC unroll 12
  for (int i = 1; i < 12; ++i) c[0] = _mm256_add_ps(c[0], c[i]);
  _mm256_storeu_ps(out, c[0]);
  return out[0];
}

// Registers the two forms at the widest width the CPU runs; the problem's name.
std::string RegisterPeak() {
  const bool w512 = __builtin_cpu_supports("avx512f");
  if (!w512 && !__builtin_cpu_supports("avx2")) return "";
  const std::string name = w512 ? "FP peak: 12 chains, 512-bit" : "FP peak: 12 chains, 256-bit";
  constexpr long kSteps = 1L << 21;
  vt::bench::Register(name, "mul-then-add", 1, [w512] {
    benchmark::DoNotOptimize(w512 ? PeakChains512<false>(kSteps) : PeakChains256<false>(kSteps));
  });
  vt::bench::Register(name, "fma", 1, [w512] {
    benchmark::DoNotOptimize(w512 ? PeakChains512<true>(kSteps) : PeakChains256<true>(kSteps));
  });
  return name;
}

// OpenBLAS (DYNAMIC_ARCH) picks its kernels from the CPU model when it
// loads; 0.3.21 does not know CPUs newer than itself (an Emerald Rapids,
// model 0xCF, with AVX-512) and falls back to its SSE3 "Prescott" kernels:
// measured here at 88 ms for the 1024^3 sgemm against 16 ms with its
// SkylakeX kernels - a baseline far below the machine, which would "meet"
// any target. Such a run restarts itself once with OPENBLAS_CORETYPE naming
// the kernels the CPU does run (the variable is read only at load); the
// note under the table says so. Returns the note's words on the core.
std::string BlasCore(char** argv) {
  const std::string core = openblas_get_corename();
  const char* fell_back = std::getenv("VT_BENCH_BLAS_FALLBACK");
  if (fell_back != nullptr) return core + " (set by vt-bench-gemm: OpenBLAS chose " + fell_back + " for this CPU)";
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return core + " (OPENBLAS_CORETYPE)";
  const char* fix = __builtin_cpu_supports("avx512f") ? "SkylakeX" : __builtin_cpu_supports("avx2") ? "Haswell" : "";
  if (core == "Prescott" && *fix != '\0') {
    setenv("OPENBLAS_CORETYPE", fix, 1);
    setenv("VT_BENCH_BLAS_FALLBACK", core.c_str(), 1);
    execv("/proc/self/exe", argv);
    std::cerr << "vt-bench-gemm: could not restart with OPENBLAS_CORETYPE=" << fix << "; the baseline runs "
              << core << " kernels\n";
  }
  return core;
}

// OPENBLAS_VERSION is " OpenBLAS 0.3.21 " (its own name, padded).
std::string Trimmed(std::string v) {
  v.erase(0, v.find_first_not_of(' '));
  v.erase(v.find_last_not_of(' ') + 1);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string blas_core = BlasCore(argv);
  static const std::vector<Problem> problems = {
      {"matmul f32 1024^3", 1024, 1024, 1024, false},
      {"matmul bf16-weight 1024^3", 1024, 1024, 1024, true},
      {"matmul_bt f32 [N,K] 1024^3", 1024, 1024, 1024, false, true},
      {"decode GEMV 1x4096 @ 4096x4096", 1, 4096, 4096, false},
      {"decode GEMV bf16-weight 1x4096", 1, 4096, 4096, true},
      {"decode GEMV [N,K] 1x4096 @ 4096^2", 1, 4096, 4096, false, true},
  };
  static std::vector<Data> data;
  data.reserve(problems.size());
  for (const Problem& p : problems) data.push_back(MakeData(p));
  for (int threads : {1, 2}) {
    for (std::size_t i = 0; i < problems.size(); ++i) RegisterProblem(problems[i], data[i], threads);
  }
  const std::string peak = RegisterPeak();
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
    if (!p.nk) cmps.push_back({p.name, ours, "torch-matmul", {}, flops});
#endif
  }
  // The ceiling row: speed = the fraction of FMA arithmetic the contract can reach.
  if (!peak.empty()) cmps.push_back({peak, "mul-then-add", "fma", {}, 0.0});
  return vt::bench::Main(argc, argv, "vt-bench-gemm", cmps,
                         "baselines: " + Trimmed(OPENBLAS_VERSION) + ", core " + blas_core +
                             " (FMA; vt multiplies then adds, the seed's rounding)"
#ifdef VT_BENCH_TORCH
                             "; libtorch matmul"
#endif
                         );
}
