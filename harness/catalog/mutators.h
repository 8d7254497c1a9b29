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
ErrorCase NullData(const std::string& tensor);
ErrorCase OtherDevice(const std::string& tensor);
ErrorCase Alias(const std::string& out, const std::string& in);  // out's view on in's storage
ErrorCase Arg(const std::string& key, Json value);
ErrorCase EmptyInner(const std::string& tensor);  // last extent 0 where a reduction needs > 0

}  // namespace vt::conform::mut
