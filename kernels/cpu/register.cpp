// Registers the CPU kernel of every op in ops.def. Each kernel file defines
// vt::cpu::Register_<name>(); a missing kernel file is a link error naming it.
#include "vt/registry.h"

namespace vt {
namespace cpu {
#define VT_OP(family, name) void Register_##name();
#include "vt/ops.def"
#undef VT_OP
}  // namespace cpu

void RegisterBuiltinKernels() {
#define VT_OP(family, name) cpu::Register_##name();
#include "vt/ops.def"
#undef VT_OP
}

}  // namespace vt
