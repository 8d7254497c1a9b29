// gelu_and_mul tier support (portable code): each tier's once-per-process
// self-check of its vector tanhf against the loaded tanhf, the scalar path,
// and the dispatch to a tier's span.
#include "cpu/act/gelu_tiers.h"

#include <bit>
#include <cmath>
#include <vector>

#include "cpu/simd/target.h"

namespace vt::cpu {
namespace {

// The self-check inputs, both signs of each: 64 floats either side of every
// regime edge of tanhf and of the expm1f under it (2^-55, 1, 22; |x| = 2^-26,
// ln2/4 and 0.75 ln2, where expm1f's 2|x| leaves its identity, k = 0 and
// k = -1 ranges; every (n + 0.5) ln2 / 2, where k steps to n or -n - 1 -
// k = 22/23 and 56/57 among them), every power of two with its neighbours
// (subnormals included), a 2^-10 grid of [-23, 23], zeros, infinities, NaNs
// with payloads and a hashed spread over all bit patterns.
std::vector<float> CheckInputs() {
  std::vector<float> edges = {0x1p-55f, 1.0f, 22.0f, 0x1p-26f, 0x1.62e43p-3f, 0x1.0a2b24p-1f};
  for (int n = 1; n <= 64; ++n) edges.push_back(static_cast<float>((n + 0.5) * 0.6931471805599453 / 2));
  std::vector<float> v;
  for (float edge : edges) {
    float lo = edge, hi = edge;
    for (int k = 0; k < 64; ++k) {
      lo = std::nextafter(lo, 0.0f);
      hi = std::nextafter(hi, 1e9f);
      v.insert(v.end(), {lo, hi, -lo, -hi});
    }
    v.insert(v.end(), {edge, -edge});
  }
  for (int e = -149; e <= 127; ++e) {
    const float p = std::ldexp(1.0f, e);
    for (float f : {p, std::nextafter(p, 0.0f), std::nextafter(p, INFINITY)}) v.insert(v.end(), {f, -f});
  }
  for (int k = -23 * 1024; k <= 23 * 1024; ++k) v.push_back(static_cast<float>(k) / 1024.0f);
  for (uint32_t bits : {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,
                        0xffbfffffu}) {
    v.push_back(std::bit_cast<float>(bits));
  }
  for (uint32_t k = 0; k < 32768; ++k) v.push_back(std::bit_cast<float>(k * 2654435761u));
  return v;
}

bool Agrees(Isa tier) {
  if (!IsaSupported(tier)) return false;
  const std::vector<float> x = CheckInputs();
  std::vector<float> y(x.size());
  TanhfSpanOn(tier, x.data(), y.data(), static_cast<int64_t>(x.size()));
  for (std::size_t k = 0; k < x.size(); ++k) {
    const float want = std::tanh(x[k]);
    if (std::isnan(want) && std::isnan(y[k])) continue;  // NaN as NaN (docs/special-values.md)
    if (std::bit_cast<uint32_t>(y[k]) != std::bit_cast<uint32_t>(want)) return false;
  }
  return true;
}

}  // namespace

bool VectorTanhfAgrees(Isa tier) {
  static const bool kAvx2 = Agrees(Isa::kAvx2);
  static const bool kAvx512 = Agrees(Isa::kAvx512);
  if (tier == Isa::kAvx2) return kAvx2;
  return tier == Isa::kAvx512 && kAvx512;
}

void GeluMulScalar(const float* g, const float* u, float* o, int n) {
  for (int k = 0; k < n; ++k) o[k] = GeluMulF32(g[k], u[k]);
}

void GeluMulSpanOn(Isa tier, const GeluJob& job, const void* gate, const void* up, void* out, int64_t n) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) return avx512::GeluMulSpan(job, gate, up, out, n);
  if (tier == Isa::kAvx2) return avx2::GeluMulSpan(job, gate, up, out, n);
#endif
  (void)tier, (void)job, (void)gate, (void)up, (void)out, (void)n;
}

void TanhfSpanOn(Isa tier, const float* x, float* y, int64_t n) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) return avx512::TanhfSpan(x, y, n);
  if (tier == Isa::kAvx2) return avx2::TanhfSpan(x, y, n);
#endif
  for (int64_t k = 0; k < n; ++k) y[k] = std::tanh(x[k]);
}

}  // namespace vt::cpu
