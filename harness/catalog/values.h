// Special values and branch edges (issue 7): what an op declares about the
// values its inputs may hold beyond the normal fills, and the generic "values"
// knob that puts them there. Declared once per op (OpSpec::values), applied by
// MakeCase after Materialize, so every mode, the fuzzer and a repro see the
// same bytes: they derive only from (case seed, tensor name, element index).
//   values=normal   the op's own fills, untouched
//   values=special  a sparse, seed-chosen subset of the declared carriers'
//                   elements holds vocabulary values (NaN of both signs, +-inf,
//                   +-0, subnormals and the largest finite values of f32, f16
//                   and bf16, rounding ties of f16 and bf16) or, in f32 / f16
//                   / bf16 carriers, raw NaN patterns (RawNaNs)
//   values=edges    a fraction of the declared tensors' elements is drawn
//                   uniformly inside the op's branch-edge bands
// Values are encoded through the oracle-side codecs (EncodeElement), never a
// kernel's, and round to the operand's dtype like any fill; raw NaN patterns
// are written as they are (TensorData::bit_overrides).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/core/case.h"

namespace vt::conform {

// A tensor that may carry specials where the spec defines what happens to
// them. `row`: one special reaches a whole row of the output (a norm's sum),
// so only every fourth row (3, 7, ...) gets one - the rest of the output stays
// finite and the reference stays trustworthy. Otherwise elements are hit
// independently (about one in 32, at most 1/16 of the tensor).
struct SpecialCarrier {
  std::string tensor;
  bool row = false;
};

// Inputs of `tensor` drawn uniformly from [lo, hi] (lo == hi: that point).
struct ValueBand {
  std::string tensor;
  double lo = 0.0, hi = 0.0;
};

struct ValueDecl {
  std::vector<SpecialCarrier> specials;
  // The op's branch edges for a case's params (e.g. soft_cap's saturation
  // threshold scales with cap). Empty: the op has none.
  std::function<std::vector<ValueBand>(const Params&)> edges;
};

// The vocabulary, as doubles (rounded to the operand's dtype on encoding).
const std::vector<double>& SpecialVocabulary();

// NaNs a double cannot put into an operand: EncodeElement rounds through f32
// (an f32 signalling NaN comes out quiet) and keeps only a NaN's top payload
// bits (bf16 / f16). One kind, as the bit pattern of each float dtype. They
// catch a store or codec that rounds a NaN like a number (f32 0x7F800001 ->
// bf16 +inf; 0x7FFFFFFF -> -0), drops the quiet bit, or loses the sign.
struct RawNaN {
  const char* what;
  uint32_t f32;
  uint16_t f16, bf16;
};
const std::vector<RawNaN>& RawNaNs();
// The pattern of `r` in dt (f32, f16 or bf16; anything else throws).
uint64_t RawNaNBits(const RawNaN& r, vt::DType dt);

// Apply the case's "values" knob (no knob or "normal": nothing).
void ApplyValues(const ValueDecl& d, Case& c);

// Symmetric bands [lo, hi] and [-hi, -lo] of one tensor.
std::vector<ValueBand> Symmetric(const std::string& tensor, double lo, double hi);

// The branch edges of the f32 sigmoid / silu a kernel evaluates as
// 1 / (1 + expf(-z)) or z / (1 + expf(-z)), for an input z held in `tensor`:
//   [-104, -86]   expf(-z) overflows past z = -88.72 (silu -> -0, sigmoid -> 0),
//                 results go subnormal below about -87.3 (guards near -88 live here)
//   [-31, -29]    sigmoid(z) ~ 1e-13: nowhere near 0 in f32/bf16 (shortcuts at -30)
//   +-[16, 17.5]  1 + expf(-z) reaches 1.0f near 17.3 (saturation shortcuts at 16)
//   [86, 104]     expf(-z) underflows to 0 (silu(z) = z exactly)
std::vector<ValueBand> ExpBands(const std::string& tensor);

}  // namespace vt::conform
