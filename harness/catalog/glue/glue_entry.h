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
#include "harness/catalog/seq_entry.h"

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

// The reason every float move carries.
inline constexpr const char* kMoveReason =
    "a move: each element widened to f32 (exact) and stored to the output dtype (round to nearest "
    "even when it narrows), defined exactly; NaN payloads by the spec's rule (byte check)";

// --- the move builder --------------------------------------------------------

// A glue op's definition is one move, generic over the element: each written
// operand's elements from the elements `read` gives of the case's inputs.
// The builder runs it on values (E = double: the exact-value rule) and on
// bit patterns (E = uint64_t: the byte rule).
template <class E>
using Read = std::function<std::vector<E>(const TensorData&)>;
template <class E>
using Move = entry::Outs<E> (*)(const Case& c, const Read<E>& read);

// What a glue entry says; MoveSpec builds the OpSpec from it.
struct Mover {
  std::string name;
  std::string family = "glue";
  std::string dtypes;  // for reports and --list
  seq::Draw draw;      // the op's own knobs; "scale" and "fill" are drawn after them
  std::function<void(Case&)> build;
  seq::Run run;
  Move<double> values = nullptr;    // Move<double> of the entry
  Move<uint64_t> bits = nullptr;    // Move<uint64_t> of the entry
  std::vector<std::string> written = {};  // the written operands, in the op's order
  // The input a float move widens from (each written operand stores to its
  // own dtype); empty: a raw byte move, no conversion (index_select/copy).
  std::string from = {};
  std::string reason = kMoveReason;  // every written operand's exact rule
};
// name, family, dtypes, gen (the entry's draws, then "scale" and "fill"),
// build, run, oracle, oracle_bytes and outputs.
OpSpec MoveSpec(const Mover& m);

// --- row splits (qkv_split, gdn_conv_split) ----------------------------------

// The three outputs of a row split, and the move's result named after them.
inline constexpr const char* kSplitParts[] = {"q_out", "k_out", "v_out"};
template <class E>
entry::Outs<E> Parts(std::vector<std::vector<E>> parts) {
  entry::Outs<E> o;
  for (std::size_t i = 0; i < 3; ++i) o[kSplitParts[i]] = std::move(parts[i]);
  return o;
}
// A part's width as its element count gives it (an any-shape output may be
// drawn flat or reversed: its count is what defines the split).
int64_t PartWidth(const Case& c, const std::string& input, const std::string& part);
// The error case "part's element count no longer a multiple of T" (one more
// element, flat: the width count / T implies is unchanged, so only
// divisibility breaks; needs T >= 2, T = dim 0 of `input`).
ErrorCase PartCountNotMultiple(const std::string& input, const std::string& part);
// A split of `input` [T, width] (contiguous f32/bf16, T > 0) into the three
// parts, written in any shape: the move's spec with the split's contract,
// input specials, the width and T = 0 error cases (then the op's own,
// `errors`) and the row-slice claim.
OpSpec SplitSpec(Mover m, const std::string& input, std::vector<ErrorCase> errors);

}  // namespace vt::conform::glue
