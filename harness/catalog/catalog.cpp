#include "harness/catalog/catalog.h"

#include "harness/catalog/claims.h"

#include <stdexcept>

namespace vt::conform {

#define VT_OP(family, name) OpSpec Spec_##name();
#include "vt/ops.def"
#undef VT_OP

const std::vector<OpSpec>& Catalog() {
  static const std::vector<OpSpec> kCatalog = [] {
    std::vector<OpSpec> v;
#define VT_OP(fam, op)                                                              \
  v.push_back(Spec_##op());                                                         \
  if (v.back().oracle_f32) v.back().claims.push_back(F32Definition());              \
  if (v.back().name != #op || v.back().family != #fam) {                            \
    throw std::logic_error("catalog entry for " #op " declares name/family " +     \
                           v.back().name + "/" + v.back().family);                  \
  }
#include "vt/ops.def"
#undef VT_OP
    return v;
  }();
  return kCatalog;
}

const OpSpec* FindOp(std::string_view name) {
  for (const OpSpec& op : Catalog()) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::vector<OpFiles> ExpectedFiles() {
  std::vector<OpFiles> v;
#define VT_OP(fam, op)                                                       \
  v.push_back({#fam, #op,                                                    \
               {"kernels/cpu/" #fam "/" #op ".cpp", "kernels/api/" #fam "/" #op ".cpp", \
                "oracles/" #fam "/" #op ".h", "harness/catalog/" #fam "/" #op ".cpp"}});
#include "vt/ops.def"
#undef VT_OP
  return v;
}

}  // namespace vt::conform
