#include "api/quant/quant_checks.h"

#include <string>

namespace vt::api {

void CheckFp4Outputs(const Checker& c, const ExecContext& ctx, const Tensor& out_packed,
                     const Tensor& out_scale, int64_t rows, int64_t k, float gsi,
                     Fp4ScaleLayout layout) {
  const bool swizzled = layout == Fp4ScaleLayout::kCutlassSwizzled;
  c.Require("scale_layout.valid", layout == Fp4ScaleLayout::kLinear || swizzled,
            "invalid scale_layout " + std::to_string(static_cast<int>(layout)) +
                " (linear = 0, cutlass_swizzled = 1)");
  c.Finite(gsi, "gsi");
  // NaN is refused above; a negative global scale has no meaning (it would
  // flip every code's sign through the block scale).
  c.Require("gsi.non_negative", !(gsi < 0.0f), "gsi must be >= 0, got " + std::to_string(gsi));
  c.Operand(ctx, out_packed, "out_packed");
  c.DType(out_packed, "out_packed", {DType::kU8});
  c.Shape(out_packed, "out_packed", {rows, k / 2});
  c.Contiguous(out_packed, "out_packed");
  c.Operand(ctx, out_scale, "out_scale");
  c.DType(out_scale, "out_scale", {DType::kU8});
  if (swizzled) {
    c.Shape(out_scale, "out_scale", {RoundUp(rows, 128), RoundUp(k / 16, 4)});
  } else {
    c.Shape(out_scale, "out_scale", {rows, k / 16});
  }
  c.Contiguous(out_scale, "out_scale");
  c.NoOverlap(out_packed, "out_packed", out_scale, "out_scale");
}

void CheckFp4Disjoint(const Checker& c, const Tensor& out_packed, const Tensor& out_scale,
                      const Tensor& in, const char* name) {
  c.NoOverlap(out_packed, "out_packed", in, name);
  c.NoOverlap(out_scale, "out_scale", in, name);
}

}  // namespace vt::api
