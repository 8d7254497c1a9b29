// The claim that one op's outputs are bit for bit another op's (or its own on
// a derived case). It sits above the catalog because it looks the other op up
// by name there when it runs; claims.h, below the catalog, holds the claims
// that need no lookup.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "harness/catalog/op_spec.h"

namespace vt::conform {

// This op's outputs equal, bit for bit, the outputs of `other_op` run on a
// case derived from this one. `pairs` maps this op's tensor to the other's.
Claim SameAs(std::string name, std::string statement, std::function<bool(const Params&)> applies,
             std::string other_op, std::function<Case(const Case&)> derive,
             std::vector<std::pair<std::string, std::string>> pairs);

}  // namespace vt::conform
