// vt_tanhf_exhaustive: every tier's vector tanhf (cpu/act/tanhf_vec.inc)
// against this process's libm tanhf on all 2^32 f32 inputs, NaN as NaN.
// Opt-in (CTest label slow: about a minute per tier on one core). Prints the
// count of differing inputs per tier and the first few; exit 1 on any.
// Usage: vt_tanhf_exhaustive [avx2|avx512 ...] (default: every tier the CPU runs).
#include <chrono>
#include <cinttypes>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/act/gelu_tiers.h"
#include "vt/isa.h"

namespace {

// The differing inputs of one tier over all patterns, in chunks of 2^20.
uint64_t CheckTier(vt::Isa tier) {
  constexpr uint32_t kChunk = 1u << 20;
  std::vector<float> x(kChunk), y(kChunk);
  uint64_t bad = 0;
  for (uint64_t base = 0; base < (uint64_t{1} << 32); base += kChunk) {
    for (uint32_t k = 0; k < kChunk; ++k) {
      x[k] = std::bit_cast<float>(static_cast<uint32_t>(base + k));
    }
    vt::cpu::TanhfSpanOn(tier, x.data(), y.data(), kChunk);
    for (uint32_t k = 0; k < kChunk; ++k) {
      const float want = std::tanh(x[k]);
      if (std::isnan(want) && std::isnan(y[k])) continue;
      if (std::bit_cast<uint32_t>(y[k]) == std::bit_cast<uint32_t>(want)) continue;
      if (++bad <= 10) {
        std::printf("  %s: x=0x%08" PRIx32 " (%a) vector 0x%08" PRIx32 " libm 0x%08" PRIx32 "\n",
                    std::string(vt::Name(tier)).c_str(), std::bit_cast<uint32_t>(x[k]), static_cast<double>(x[k]), std::bit_cast<uint32_t>(y[k]),
                    std::bit_cast<uint32_t>(want));
      }
    }
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<vt::Isa> tiers;
  for (int i = 1; i < argc; ++i) tiers.push_back(std::strcmp(argv[i], "avx2") == 0 ? vt::Isa::kAvx2 : vt::Isa::kAvx512);
  if (tiers.empty()) tiers = {vt::Isa::kAvx2, vt::Isa::kAvx512};
  int rc = 0, ran = 0;
  for (vt::Isa tier : tiers) {
    if (!vt::IsaSupported(tier)) {
      std::printf("%s: not supported by this CPU, skipped\n", std::string(vt::Name(tier)).c_str());
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t bad = CheckTier(tier);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %" PRIu64 " of 4294967296 inputs differ from libm tanhf (%.1f s)\n",
                std::string(vt::Name(tier)).c_str(), bad, s);
    rc |= bad != 0 ? 1 : 0;
    ++ran;
  }
  if (ran == 0) return 77;  // nothing to check on this CPU (CTest: skipped)
  return rc;
}
