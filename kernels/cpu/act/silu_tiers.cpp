// silu_and_mul tier support (portable code): the vector expf's table and its
// once-per-process self-check against the loaded expf, and the scalar path.
#include "cpu/act/silu_tiers.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "cpu/access.h"
#include "cpu/simd/target.h"
#include "vt/isa.h"

namespace vt::cpu {
namespace {

uint64_t BitsOf(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
uint32_t BitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The self-check inputs: the edges of the main path (the last floats below
// 88 in magnitude; around -87.34, where expf's result turns subnormal), the
// region around 0 down to subnormal inputs, integers, every 2^-10 step of
// [-88, 88], and a hashed spread of bit patterns over the main path.
std::vector<float> CheckInputs() {
  std::vector<float> v;
  for (float edge : {88.0f, -88.0f, -87.3365f, 87.3365f, 1.0f, -1.0f}) {
    float lo = edge, hi = edge;
    for (int k = 0; k < 256; ++k) {
      lo = std::nextafter(lo, 0.0f);
      hi = std::nextafter(hi, edge > 0 ? 1e9f : -1e9f);
      v.push_back(lo);
      if (std::fabs(hi) < 88.0f) v.push_back(hi);
    }
  }
  // The two inputs on which an unfused reduction (glibc's expf without FMA)
  // differs from the fused one: a libm built the other way fails the check.
  v.push_back(0x1.04845ep+5f);
  v.push_back(-0x1.f8cbb2p+5f);
  for (int e = -149; e <= 0; ++e) {
    v.push_back(std::ldexp(1.0f, e));
    v.push_back(-std::ldexp(1.0f, e));
  }
  for (int k = -88 * 1024 + 1; k < 88 * 1024; k += 7) v.push_back(static_cast<float>(k) / 1024.0f);
  for (uint32_t k = 0; k < 8192; ++k) {
    const uint32_t bits = (k * 2654435761u) & 0xC2AFFFFFu;  // |x| < 2^6 * 1.375 = 88 (mantissa bits masked)
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::fabs(f) < 88.0f) v.push_back(f);
  }
  return v;
}

const uint64_t* BuildAndCheck() {
#if VT_X86_TIERS
  if (!IsaSupported(Isa::kAvx512)) return nullptr;
  static uint64_t tab[32];
  // 2^(i/32) rounded to double (through long double: 11 spare bits, so no
  // double rounding unless a value sat within 2^-64 of a tie), less i << 47 so
  // that adding k << 47 for k = i + 32 m scales it by 2^m.
  for (int i = 0; i < 32; ++i) {
    tab[i] = BitsOf(static_cast<double>(std::exp2(static_cast<long double>(i) / 32))) - (uint64_t(i) << 47);
  }
  const std::vector<float> x = CheckInputs();
  std::vector<float> y(x.size());
  avx512::ExpfSpan(tab, x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (BitsOf(y[k]) != BitsOf(std::exp(x[k]))) return nullptr;
  }
  return tab;
#else
  return nullptr;
#endif
}

}  // namespace

const uint64_t* VectorExpfTable() {
  static const uint64_t* const kTable = BuildAndCheck();
  return kTable;
}

void SiluMulScalar(const float* g, const float* u, float* o, int n) {
  for (int k = 0; k < n; ++k) o[k] = SiluF32(g[k]) * u[k];
}

void GateActScalar(const float* z, float* act, int n, bool sigmoid) {
  for (int k = 0; k < n; ++k) act[k] = sigmoid ? SigmoidF32(z[k]) : SiluF32(z[k]);
}

}  // namespace vt::cpu
