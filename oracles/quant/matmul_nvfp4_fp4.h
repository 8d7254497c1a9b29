// matmul_nvfp4_fp4 oracle (vLLM's NVFP4 emulation: dequantize both operands,
// then a plain matmul, times alpha): out[m,n] = alpha * sum_k A[m,k] B[n,k],
// A = e2m1(a nibble) * e4m3(a_scale[m, k/16]), B likewise; element 2j is the
// LOW nibble of byte j. Decoding uses the oracle-side codecs (bits.h). Each
// decoded value has at most 6 significant bits, so it and every product of
// two are exact in f32: the inputs to the sum are given values.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/bits.h"
#include "oracles/scalar.h"

namespace vt::oracle {

// Packed [rows, k/2] bytes and linear [rows, k/16] scale bytes -> [rows, k].
inline std::vector<double> DequantizeNvfp4(const std::vector<double>& packed, const std::vector<double>& scale,
                                           int64_t rows, int64_t k) {
  std::vector<double> out(static_cast<size_t>(rows * k));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < k; ++c) {
      const auto byte = static_cast<uint32_t>(packed[static_cast<size_t>((r * k + c) / 2)]);
      const uint32_t nibble = c % 2 == 0 ? (byte & 0xFu) : (byte >> 4);
      const double sf = scale[static_cast<size_t>(r * (k / 16) + c / 16)];  // decoded e4m3
      out[static_cast<size_t>(r * k + c)] = DecodeBits(Fmt::kFp4E2M1, nibble) * sf;
    }
  }
  return out;
}

template <class S>
std::vector<S> MatmulNvfp4Fp4(const std::vector<double>& a, const std::vector<double>& b, int64_t m, int64_t n,
                              int64_t k, double alpha) {
  std::vector<S> out;
  out.reserve(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      S acc = In<S>(0.0);
      for (int64_t kk = 0; kk < k; ++kk) {
        acc = acc + In<S>(a[static_cast<size_t>(i * k + kk)]) * In<S>(b[static_cast<size_t>(j * k + kk)]);
      }
      out.push_back(In<S>(alpha) * acc);
    }
  }
  return out;
}

}  // namespace vt::oracle
