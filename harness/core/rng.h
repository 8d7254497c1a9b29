// Counter-based random values: element k of stream s is a pure function of
// (seed, s, k), so tensor contents never depend on threads or draw order.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

namespace vt::conform {

inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline uint64_t HashName(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

inline uint64_t StreamValue(uint64_t seed, uint64_t stream, uint64_t k) {
  return SplitMix64(SplitMix64(seed ^ stream) + k * 0xD1B54A32D192ED03ull);
}

// Uniform in [0, 1) with 53 random bits.
inline double Unit(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1p-53; }

// Standard normal from two counter draws (Box-Muller).
inline double Gaussian(uint64_t seed, uint64_t stream, uint64_t k) {
  const double u1 = Unit(StreamValue(seed, stream, 2 * k)) + 0x1p-54;
  const double u2 = Unit(StreamValue(seed, stream, 2 * k + 1));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace vt::conform
