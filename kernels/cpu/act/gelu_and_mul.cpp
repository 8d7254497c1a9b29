// gelu_and_mul CPU kernel (Gemma GeGLU, tanh approximation, all f32):
//   inner = sqrt(2/pi) * (g + 0.044715 * g^3);  out = (0.5 * g) * (1 + tanh(inner)) * up
// Contract: x [T,2D], out [T,D], contiguous. Split: rows.
#include <cmath>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kGeluCubic = 0.044715f;

void GeluAndMulCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const int64_t d = out.shape[1];
  ParallelForRows(ctx, out.shape[0], [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      for (int64_t j = 0; j < d; ++j) {
        const float g = LoadF32(x, i * 2 * d + j);
        const float up = LoadF32(x, i * 2 * d + d + j);
        const float inner = kSqrt2OverPi * (g + kGeluCubic * g * g * g);
        const float gelu = 0.5f * g * (1.0f + std::tanh(inner));
        StoreF32(out, i * d + j, gelu * up);
      }
    }
  });
}

}  // namespace

void Register_gelu_and_mul() {
  RegisterTyped<kernel::UnaryFn>("gelu_and_mul", Backend::kCPU, &GeluAndMulCpu);
}

}  // namespace vt::cpu
