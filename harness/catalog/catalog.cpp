#include "harness/catalog/catalog.h"

#include "harness/catalog/claims.h"

#include <set>
#include <stdexcept>

#include "harness/catalog/gen.h"

namespace vt::conform {
namespace {

// What every entry gets from the harness rather than writing it itself: the
// f32_definition claim, the error cases its contract implies (hand-written
// ones of the same name win), and the placement knobs on its generator.
void Complete(OpSpec& op) {
  if (op.oracle_f32) op.claims.push_back(F32Definition());
  std::set<std::string> names;
  for (const ErrorCase& e : op.errors) names.insert(e.name);
  for (ErrorCase& e : DerivedErrorCases(op.contract)) {
    if (names.insert(e.name).second) op.errors.push_back(std::move(e));
  }
  const bool reshape = !op.contract.AnyShape().empty();
  const bool specials = !op.values.specials.empty(), edges = op.values.edges != nullptr;
  auto base = op.gen;
  op.gen = [base, reshape, specials, edges](Tier t) {
    return gen::WithPlacement(base(t), reshape, specials, edges);
  };
}

}  // namespace

#define VT_OP(family, name) OpSpec Spec_##name();
#include "vt/ops.def"
#undef VT_OP

const std::vector<OpSpec>& Catalog() {
  static const std::vector<OpSpec> kCatalog = [] {
    std::vector<OpSpec> v;
#define VT_OP(fam, op)                                                              \
  v.push_back(Spec_##op());                                                         \
  Complete(v.back());                                                               \
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
