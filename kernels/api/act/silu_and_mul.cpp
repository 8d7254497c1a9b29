#include "api/act/act_checks.h"
#include "vt/ops_act.h"

namespace vt {

void SiluAndMul(const ExecContext& ctx, const Tensor& out, const Tensor& x) { api::RunGlu("silu_and_mul", ctx, out, x); }

}  // namespace vt
