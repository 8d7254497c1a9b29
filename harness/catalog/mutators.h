// Error-case builders: each returns an ErrorCase that breaks exactly one
// precondition of a valid case. The negative mode checks the op refuses it
// with vt::Error naming the op, before writing any byte of any operand.
#pragma once

#include <string>

#include "harness/catalog/op_spec.h"
#include "harness/core/params.h"

namespace vt::conform::mut {

ErrorCase DType(const std::string& tensor, vt::DType dt);
ErrorCase Dim(const std::string& tensor, int dim, int64_t delta);  // extent += delta
ErrorCase AddDim(const std::string& tensor);   // rank + 1 (a leading 1)
ErrorCase DropDim(const std::string& tensor);  // rank - 1 (merge the two leading dims)
ErrorCase Strided(const std::string& tensor);  // pad the outer stride (view not contiguous)
ErrorCase InnerStride(const std::string& tensor);  // innermost stride 2
ErrorCase OverlappingRows(const std::string& tensor);  // outer stride < inner span
// The second-innermost stride one less than the row width (outer strides
// row-major): rows overlap while a batch stride stays legal.
ErrorCase OverlappingInnerRows(const std::string& tensor);
// The bound view carries elem_kn_repacked (op-contracts 1.1) on an operand
// that does not honour it.
ErrorCase KnRepacked(const std::string& tensor);
ErrorCase NullData(const std::string& tensor);
// The storage one byte past its natural alignment (TensorData::misalign_bytes):
// applies to non-empty operands whose element size is > 1.
ErrorCase Misaligned(const std::string& tensor);
ErrorCase OtherDevice(const std::string& tensor);
ErrorCase Alias(const std::string& out, const std::string& in);  // out's view on in's storage
ErrorCase Arg(const std::string& key, Json value);
// The last extent 0 where a reduction needs > 0 - and every other tensor
// whose last extent equals it with it, so that the reduction check alone is
// broken (not also a shape relation that would refuse it anyway).
ErrorCase EmptyInner(const std::string& tensor);
// A rank-3 view whose middle stride is padded by one element: its rows are
// still packed inside, but its middle (head) stride is no longer the inner
// extent.
ErrorCase PaddedMiddle(const std::string& tensor);

// One element of an index operand moved by +2^32 (`below` = false) or -2^32
// from the valid value j it holds: j + 2^32 and j - 2^32 share j's low 32
// bits, so a range check that reads the index through int32 passes them and
// the kernel then addresses 2^32 rows away. An i32 operand is widened to i64
// first (values kept): apply it only to operands that accept both. `expect`:
// the range check's condition text.
ErrorCase IndexPast32Bits(const std::string& tensor, bool below, const std::string& expect);

// Bound-view corruptions (ErrorCase::bind): states a caller can hand the API
// that no TensorData describes.
ErrorCase ViewRank0(const std::string& tensor);
ErrorCase ViewUnknownDType(const std::string& tensor);
ErrorCase ViewNegativeExtent(const std::string& tensor);
ErrorCase ViewNegativeStride(const std::string& tensor);
ErrorCase ViewHugeExtent(const std::string& tensor);  // element count / span overflow int64

// `second` starts inside the last element(s) of `first` in one packed
// allocation, at second's own alignment: a partial overlap of at most one
// element of second, the smallest the alignment contract allows (an overlap
// check that measures elements instead of bytes misses it).
ErrorCase PackedOverlap(const std::string& first, const std::string& second);

}  // namespace vt::conform::mut
