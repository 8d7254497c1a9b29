// cast_bf16 CPU kernel (f32 -> bf16, round to nearest even): see cpu/glue/cast.h.
#include "api/kernel_types.h"
#include "cpu/glue/cast.h"
#include "vt/registry.h"

namespace vt::cpu {

void Register_cast_bf16() { RegisterTyped<kernel::UnaryFn>("cast_bf16", Backend::kCPU, &CastCpu); }

}  // namespace vt::cpu
