// The builder and helpers the GEMM catalog entries share (matmul, matmul_bt,
// batched_matmul): an entry says only what differs - its name, its own knobs,
// its kernel and oracle, its build, contract, errors and claims (Spec below;
// docs/adding-an-op.md, "Quant and GEMM builders").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "vt/tensor.h"

namespace vt::conform::gemm_entry {

// Extents chosen around the kernel's tiles (gemm_tile.h: 16 output columns
// per micro-tile, 4 rows per micro-tile, 16-row activation tiles, 16-wide grid
// chunks): tile-1 / tile / tile+1, primes, 1, and 0 for the no-op. K is never
// 0 in a drawn case: a K = 0 output is all zeros, which the trust rule cannot
// accept as a reference; the "k_zero_writes_zeros" claim runs K = 0 instead.
// Sizes stay small enough for the Bounded oracle (M*N*K <= ~4M per ci case,
// ~70M in the full tier, where K reaches 2047).
// M = 1 (decode) is drawn 5 times in 17 (about 3 in 10): it is the path
// inference runs most, and the vector tiers' own kernel there (gemm_simd.h
// DecodeRow / DecodeRowNk) is reached by no other M. At one draw in 13 the
// ci tier's 62 matmul_bt oracle cases held 2 [N,K] decode cases with a whole
// vector of outputs (and the isa mode one), so a row slip in that kernel was
// caught by 2 cases alone.
inline rc::Gen<int64_t> Rows(Tier t) {
  if (t == Tier::kSmoke) return gen::Pick(std::vector<int64_t>{1, 3, 5});
  if (t == Tier::kFull) return gen::Pick(std::vector<int64_t>{1, 1, 1, 1, 1, 3, 4, 5, 16, 17, 63, 65, 129, 0});
  return gen::Pick(std::vector<int64_t>{1, 1, 1, 1, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 33, 64, 0});
}
inline rc::Gen<int64_t> Cols(Tier t) {
  if (t == Tier::kSmoke) return gen::Pick(std::vector<int64_t>{1, 16, 17});
  if (t == Tier::kFull) return gen::Pick(std::vector<int64_t>{1, 15, 16, 17, 63, 64, 65, 255, 257, 0});
  return gen::Pick(std::vector<int64_t>{1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 64, 65, 129, 0});
}
inline rc::Gen<int64_t> Depth(Tier t) {
  if (t == Tier::kSmoke) return gen::Pick(std::vector<int64_t>{1, 7, 64});
  if (t == Tier::kFull) return gen::Pick(std::vector<int64_t>{1, 3, 17, 100, 1024, 2047});
  return gen::Pick(std::vector<int64_t>{1, 2, 3, 7, 16, 17, 64, 100, 255, 512});
}

// The "fill" knob: normal N(0, scale^2) inputs, or small whole numbers
// (benchdnn's trick). With |a|, |b| <= 8 every product is at most 64 and every
// partial sum at most 64 * K < 2^24 for K < 2^18: exact in f32, so the kernel's
// sum equals the double definition exactly and the output is held EXACTLY
// (zero tolerance): a wrong index cannot hide inside a tolerance there.
inline rc::Gen<std::string> FillKnob() {
  return gen::Pick(std::vector<std::string>{"normal", "normal", "integer"});
}
inline constexpr double kIntMax = 8.0;
inline Fill InputFill(const Params& p) {
  return p.Str("fill") == "integer" ? Fill::Integer(-kIntMax, kIntMax) : entry::Values(p);
}

// The output rule of every GEMM output.
inline Tolerance OutTolerance(const Params& p) {
  // Specials (values=special) put non-integers, subnormals among them, next
  // to the whole numbers: sums stop being exact (503 - 2^-140 in double is 503
  // in f32, a bf16 tie rounded the other way), so those cases take the bound.
  const bool exact_inputs = !p.Has("values") || p.Str("values") == "normal";
  if (p.Str("fill") == "integer" && exact_inputs) {
    return Exact("whole-number inputs |x| <= 8, K < 2^18: every product and partial sum is an "
                 "integer below 2^24, exact in f32, so the f32 sum IS the definition; one "
                 "rounding to out (docs/ops/gemm.md)");
  }
  return Bound("f32 sum over k from +0, one product and one add per step: running error bound "
               "of each step (about gamma_K * sum |a b|), then one rounding to out "
               "(docs/ops/gemm.md)");
}

// The output spec of every GEMM op. Under the exact integer rule a zero is
// an exact product (a zero input; K = 1 with a zero in a's row zeroes the
// whole row), held to the byte like every other value, not a lost signal:
// the zero-fraction trust rules do not apply there (vt-fuzz found G = 2,
// M = K = 1 reading 5 of 6 zeros as MISTRUSTED).
inline OutputSpec OutSpec(const Params& p) {
  OutputSpec o{"out", OutTolerance(p)};
  o.zeros_are_data = o.tol.kind == Tolerance::Kind::kExact;
  return o;
}

// The API entry point every GEMM op has: out = a (x) b.
using GemmKernel = void (*)(const vt::ExecContext& ctx, const vt::Tensor& out, const vt::Tensor& a,
                            const vt::Tensor& b);
// The oracles (oracles/gemm/), over logical values: a 2-D product (b [K,N]
// for matmul, the [N,K] weight for matmul_bt) and a batched one.
template <class S>
using MatrixOracle = std::vector<S> (*)(int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                                        const std::vector<double>& b);
template <class S>
using BatchedOracle = std::vector<S> (*)(int64_t g, int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                                         const std::vector<double>& b);

// An OpSpec with what every GEMM entry shares: family "gemm"; a generator
// that draws the op's own knobs (`knobs`: dtypes, extents and views, in the
// op's key order), then "fill", "scale" and the seed; the run call
// kernel(out, a, b); the oracle on a, b and out's extents at Bounded and
// float; the output rule OutSpec. The entry adds its build, contract, values,
// errors, its own claims (then AddSharedClaims) and goldens.
OpSpec Spec(std::string name, std::string dtypes, void (*knobs)(Params&, Tier), GemmKernel kernel,
            MatrixOracle<entry::Bounded> oracle, MatrixOracle<float> oracle_f32);
OpSpec Spec(std::string name, std::string dtypes, void (*knobs)(Params&, Tier), GemmKernel kernel,
            BatchedOracle<entry::Bounded> oracle, BatchedOracle<float> oracle_f32);

// The knobs of a 2-D GEMM (matmul, matmul_bt): dtypes a, b, out; extents M, K, N.
void DrawMatrices(Params& p, Tier t);

// The claims every GEMM op ends with, after its own: batch invariance over
// `row_tensors` (claims.h RowSlice) and KZeroWritesZeros.
void AddSharedClaims(OpSpec& s, std::vector<std::string> row_tensors);

// A 2-D tensor's transpose as a contiguous input named `name`.
TensorData TransposedCopy(const TensorData& t, const std::string& name);

// The product of a matmul / matmul_bt case as a case of `other` (the other
// of the two): the same knobs (dtypes, M, K, N, fill, scale) and seed, a
// contiguous copy of a, the weight `b` as given (in the other's orientation),
// and out as it is. The caller adds `other`'s own knobs.
Case SameProductAs(const Case& c, const std::string& other, TensorData b);

// b [K,N] given as the loader's repack of a [N,K] weight: the [N,K] view of
// the same bytes (strides {1, N}, kn_repacked), as the case model describes
// a repacked operand (harness/core/case.h).
TensorData RepackedView(const TensorData& b_kn, const std::string& name);

// A contiguous copy that is not repacked (kn_repacked cleared).
TensorData PlainCopy(const TensorData& src, const std::string& name, Role role);

// K = 0: every output element must be +0 (the empty sum). Derives the case
// with K = 0 from the drawn one (same op, same other knobs), runs it, and
// checks every written byte is zero. Not applicable where the output is
// empty anyway.
Claim KZeroWritesZeros();

}  // namespace vt::conform::gemm_entry
