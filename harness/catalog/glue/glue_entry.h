// Helpers the embedding / glue catalog entries share. The glue ops move
// values without arithmetic, so their oracles are moves generic over the
// element (oracles/glue): instantiated on values (double) for the exact-value
// rule, and on bit patterns for the byte rule (OpSpec::oracle_bytes), where a
// float move applies the spec's load/store rule to each pattern
// (oracles/glue/moves.h) and a raw move (index_select / index_copy) none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"

namespace vt::conform::glue {

// The raw pattern of every logical element of t, row-major (gaps dropped).
std::vector<uint64_t> Bits(const TensorData& t);

// A contiguous tensor holding the given patterns (the expected bytes of a
// written operand; role output).
TensorData FromBits(const std::string& name, vt::DType dtype, std::vector<int64_t> shape,
                    const std::vector<uint64_t>& bits);

// The patterns after the seed's float move from `from` to `to` (widen to f32,
// store to `to`); both float dtypes.
std::vector<uint64_t> ThroughF32(vt::DType from, vt::DType to, const std::vector<uint64_t>& bits);

// The "fill" knob of every glue input: "normal" (N(0, scale^2), the
// "values" knob's specials on top) or "bits" (raw patterns: NaN payloads,
// signalling NaNs, subnormals, infinities - what a byte-exact move must carry).
rc::Gen<std::string> FillKnob();
Fill InputFill(const Params& p);

// Exact expected values (a move: no error to bound).
Expected ExactValues(const std::vector<double>& v);

// Head dims: 1, odd sizes around the powers of two, the common 64/128/256.
rc::Gen<int64_t> HeadDim(Tier t);

// Index values: m values in [0, n) derived from (seed, name). "random" draws
// with repeats and puts the edges n-1 and 0 first (where m allows), so the
// last row is always addressed; "distinct" is a seed-shuffled selection of m
// distinct values (m <= n), n-1 and 0 included where m allows.
std::vector<int64_t> DrawIndices(uint64_t seed, const std::string& name, int64_t m, int64_t n,
                                 const std::string& kind);
// An index tensor holding exactly `values` (through the fill's overrides, so
// every re-materialisation keeps them).
void SetIndices(TensorData& t, const std::vector<int64_t>& values);
// The index values a case's tensor holds.
std::vector<int64_t> Indices(const TensorData& t);
// Error case: the index at a seed-derived position of `tensor` becomes
// `value(n)`, where n is the extent it indexes (dim 0 of `target`).
ErrorCase IndexOutOfRange(const std::string& tensor, const std::string& target, const std::string& tag,
                          std::function<int64_t(int64_t)> value);

// An index tensor with inner stride 2 (mut::InnerStride) that must be
// refused as non-contiguous: a validator that reads it flat would otherwise
// refuse it by accident (the gap bytes decode as out-of-range indices) and
// a dropped contiguity check would go unseen. Same name as the derived case,
// so it replaces it.
ErrorCase StridedIndex(const std::string& tensor);

// The three outputs of a row split (qkv_split, gdn_conv_split), and the
// pieces of their entries: exact values, the expected bytes after the float
// move from the input's dtype, the exact rule per part, and the error case
// "part's element count no longer a multiple of T" (one more element, flat:
// the width count / T implies is unchanged, so only divisibility breaks;
// needs T >= 2, T = dim 0 of `input`).
inline constexpr const char* kSplitParts[] = {"q_out", "k_out", "v_out"};
OracleResult ExactParts(const std::vector<std::vector<double>>& parts);
std::vector<TensorData> PartBytes(const Case& c, vt::DType in_dtype, const std::vector<std::vector<uint64_t>>& parts);
std::vector<OutputSpec> ExactPartOutputs();
ErrorCase PartCountNotMultiple(const std::string& input, const std::string& part);
// The split's contract: `input` [T, width] contiguous f32/bf16, the three
// parts written in any shape; and the error case T = 0 (the widths, counts
// / T, are undefined).
Contract SplitContract(const std::string& input);
ErrorCase SplitNoRows(const std::string& input);

// The reason every float move carries.
inline constexpr const char* kMoveReason =
    "a move: each element widened to f32 (exact) and stored to the output dtype (round to nearest "
    "even when it narrows), defined exactly; NaN payloads by the spec's rule (byte check)";

}  // namespace vt::conform::glue
