// cast_f32 CPU kernel (bf16 -> f32, exact): see cpu/glue/cast.h.
#include "api/kernel_types.h"
#include "cpu/glue/cast.h"
#include "vt/registry.h"

namespace vt::cpu {

void Register_cast_f32() { RegisterTyped<kernel::UnaryFn>("cast_f32", Backend::kCPU, &CastCpu); }

}  // namespace vt::cpu
