// The torch references module's entry point: the op name -> Ref_<op> table,
// expanded from the same lists as the names in registry.cpp. Built with
// libtorch into libvt_torch_refs.so and loaded by registry.cpp on first use.
#include <cstring>

#include "oracles/torch/reference.h"

namespace vt::torchref {

#define VT_TORCH_REF(family, op, source) Result Ref_##op(const Input&);
#define VT_TORCH_NONE(family, op, why)
#include "oracles/torch/list_core.inc"
#include "oracles/torch/list_seq.inc"
#undef VT_TORCH_REF
#undef VT_TORCH_NONE

}  // namespace vt::torchref

extern "C" __attribute__((visibility("default"))) vt::torchref::Fn vt_torch_ref_lookup(const char* op) {
  struct Entry {
    const char* op;
    vt::torchref::Fn fn;
  };
  static const Entry kTable[] = {
#define VT_TORCH_REF(family, op, source) {#op, &vt::torchref::Ref_##op},
#define VT_TORCH_NONE(family, op, why)
#include "oracles/torch/list_core.inc"
#include "oracles/torch/list_seq.inc"
#undef VT_TORCH_REF
#undef VT_TORCH_NONE
      {nullptr, nullptr},
  };
  for (const Entry& e : kTable) {
    if (e.op != nullptr && std::strcmp(e.op, op) == 0) return e.fn;
  }
  return nullptr;
}
