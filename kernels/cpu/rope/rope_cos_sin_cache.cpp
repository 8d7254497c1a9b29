// rope_cos_sin_cache CPU kernel. Contract (validated by vt::RopeCosSinCache):
// cos_sin [T,rot] f32 contiguous; positions [T] i32/i64; rot even > 0; base
// and the Llama-3 fields positive and finite. Row t = [cos_i | sin_i] of
// positions[t], i < rot/2, from rope::PairCosSin - the expression rope_neox
// rotates with, so a rotation from this cache is bit-identical to it.
// Split: rows.
#include "api/kernel_types.h"
#include "cpu/rope/rope_common.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void RopeCosSinCacheCpu(const ExecContext& ctx, const Tensor& cos_sin, const Tensor& positions,
                        const RopeArgs& args) {
  const int64_t rot = args.rotary_dim, half = rot / 2;
  ParallelForRows(ctx, cos_sin.shape[0], [&](int64_t r0, int64_t r1) {
    for (int64_t t = r0; t < r1; ++t) {
      const int64_t pos = rope::PositionAt(positions, t);
      for (int64_t i = 0; i < half; ++i) {
        const rope::CosSin cs = rope::PairCosSin(pos, i, args.rotary_dim, args);
        F32Elem::Store(cos_sin.data, t * rot + i, cs.c);
        F32Elem::Store(cos_sin.data, t * rot + half + i, cs.s);
      }
    }
  });
}

}  // namespace

void Register_rope_cos_sin_cache() {
  RegisterTyped<kernel::RopeCosSinCacheFn>("rope_cos_sin_cache", Backend::kCPU, &RopeCosSinCacheCpu);
}

}  // namespace vt::cpu
