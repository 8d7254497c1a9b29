// The fuzzing vocabulary (issue 13): the values every generator - a catalog
// entry's and vt-fuzz's - draws from when it wants the edges rather than the
// typical case. One place, so an entry that uses it and the fuzzer that biases
// toward it agree on what an "edge" is:
//   extents   0 (where legal), 1, primes, tile - 1, tile, tile + 1
//   dtypes    every dtype an operand's contract accepts
//   strides   a padded outer stride on exactly the operands whose contract
//             layout accepts one (the generic "fuzz_stride" knob, applied by
//             BuildCase, so a repro line carries it)
//   values    the "values" knob choices (normal / special / edges) the op
//             declares (harness/catalog/values.h says where specials are defined)
//   indices   index vectors with NULL (-1) slots, for ops that define them
//   errors    one error case of the op (derived from its contract, or
//             hand-written), breaking exactly one precondition
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/catalog/op_spec.h"

namespace vt::conform::vocab {

// An extent drawn toward the edges of a loop tiled by `tile`: 0 (zero_ok),
// 1, the small primes, tile - 1, tile, tile + 1, 2 * tile + 1, and `max`
// (when given, > 0). Shrinks toward the first listed (0 or 1).
rc::Gen<int64_t> Extent(int64_t tile, bool zero_ok = false, int64_t max = 0);
// The list behind Extent (sorted, unique), for tables and tests.
std::vector<int64_t> ExtentValues(int64_t tile, bool zero_ok = false, int64_t max = 0);

// Every dtype name an operand's contract accepts, in the contract's order.
std::vector<std::string> DTypeNames(const OperandRule& operand);
rc::Gen<std::string> DTypeOf(const OperandRule& operand);

// The knob that pads the outer stride of every strided-capable operand of a
// case (value: padding in elements; 0 or absent: nothing).
inline constexpr const char* kStrideKnob = "fuzz_stride";
// Operands whose contract layout accepts a padded outer stride
// (row-strided, batch-strided, inner-unit); contiguous and any-shape ones never.
std::vector<std::string> StridedOperands(const Contract& contract);
// Applied by BuildCase: pads the outermost stride of each strided-capable
// operand of rank >= 2 that is still contiguous (an entry's own padding wins).
void ApplyStrideKnob(const Contract& contract, Case& c);

// The "values" knob settings the op defines: "normal", plus "special" when
// it declares carriers, plus "edges" when it declares branch edges.
std::vector<std::string> ValueKnobs(const ValueDecl& values);

// m indices into [0, n) with about null_fraction of the slots NULL (-1);
// distinct: no index repeats (m <= n required, else the excess is NULL).
// A pure function of (seed, tensor name): the same bytes in every mode.
std::vector<int64_t> SlotIndices(uint64_t seed, const std::string& tensor, int64_t m, int64_t n,
                                 double null_fraction, bool distinct);

// The op's error cases (op.errors: contract-derived and hand-written), each
// breaking one precondition of a valid case; pick % size selects one.
const ErrorCase* PickErrorCase(const OpSpec& op, uint64_t pick);

}  // namespace vt::conform::vocab
