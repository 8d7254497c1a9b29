#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {
namespace {

// Innermost stride 1 (token / head strides free); an innermost extent of 0
// or 1 addresses one element per row at most, so its stride is immaterial.
void RequireInnerUnit(const api::Checker& c, const char* site, const Tensor& t, const char* name) {
  const bool ok = t.Numel() == 0 || t.shape[t.rank - 1] <= 1 || t.stride[t.rank - 1] == 1;
  c.Require(site, ok, std::string(name) + " must have an innermost stride of 1, got " + t.Describe());
}

}  // namespace

void ConcatMlaNopeRope(const ExecContext& ctx, const Tensor& out, const Tensor& nope, const Tensor& rope) {
  const api::Checker c("concat_mla_nope_rope");
  c.Operand(ctx, out, "out");
  c.Rank(out, "out", 3);
  c.FloatIn(out, "out");  // f16 is legal here (a pure copy): op-contracts 3.5
  // Written rows must not overlap (token/head strides otherwise free).
  c.RowStrided(out, "out");
  c.Operand(ctx, nope, "nope");
  c.Rank(nope, "nope", 3);
  c.SameDType(nope, "nope", out, "out");
  RequireInnerUnit(c, "nope.inner_stride", nope, "nope");
  c.Operand(ctx, rope, "rope");
  c.Rank(rope, "rope", 3);
  c.SameDType(rope, "rope", out, "out");
  RequireInnerUnit(c, "rope.inner_stride", rope, "rope");
  const int64_t t = out.shape[0], h = out.shape[1], dn = nope.shape[2], dr = rope.shape[2];
  c.Shape(nope, "nope", {t, h, dn});
  c.Require("nope.width", dn > 0, "nope must have Dn > 0 columns, got " + nope.Describe());
  // One rope head broadcast over every head, or one per head.
  c.Shape(rope, "rope", {t, rope.shape[1] == 1 ? 1 : h, dr});
  c.Require("out.width", out.shape[2] - dn == dr,
            "out must be [T, H, Dn+Dr] = [.., .., " + std::to_string(dn) + "+" + std::to_string(dr) +
                "], got " + out.Describe());
  c.NoOverlap(out, "out", nope, "nope");
  c.NoOverlap(out, "out", rope, "rope");
  GetKernel<kernel::ConcatFn>("concat_mla_nope_rope", ctx.backend)(ctx, out, nope, rope);
}

}  // namespace vt
