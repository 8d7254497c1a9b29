// The catalog: one OpSpec per op of vt/ops.def, in that order.
#pragma once

#include <string_view>
#include <vector>

#include "harness/catalog/op_spec.h"

namespace vt::conform {

const std::vector<OpSpec>& Catalog();
const OpSpec* FindOp(std::string_view name);

// Source files each listed op must have (relative to the repository root), for
// the catalog lint: kernel, API, oracle and catalog entry.
struct OpFiles {
  std::string family, name;
  std::vector<std::string> paths;
};
std::vector<OpFiles> ExpectedFiles();

}  // namespace vt::conform
