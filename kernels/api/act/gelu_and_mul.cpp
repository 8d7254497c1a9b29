#include "api/act/act_checks.h"
#include "vt/ops_act.h"

namespace vt {

void GeluAndMul(const ExecContext& ctx, const Tensor& out, const Tensor& x) { api::RunGlu("gelu_and_mul", ctx, out, x); }

}  // namespace vt
