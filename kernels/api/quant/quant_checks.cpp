#include "api/quant/quant_checks.h"

#include <string>

namespace vt::api {

void CheckFp4Input(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                   std::initializer_list<DType> dtypes) {
  c.Operand(ctx, t, name);
  c.Rank(t, name, 2);
  c.DType(t, name, dtypes);
  c.Contiguous(t, name);
}

void CheckFp4InputLike(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                       std::initializer_list<DType> dtypes, const Tensor& first, const char* first_name,
                       bool same_dtype) {
  c.Operand(ctx, t, name);
  c.DType(t, name, dtypes);
  c.Shape(t, name, {first.shape[0], first.shape[1]});
  if (same_dtype) c.SameDType(t, name, first, first_name);
  c.Contiguous(t, name);
}

void CheckFp4Outputs(const Checker& c, const ExecContext& ctx, const Tensor& out_packed,
                     const Tensor& out_scale, int64_t rows, int64_t k, float gsi,
                     Fp4ScaleLayout layout, std::initializer_list<Fp4Operand> inputs) {
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
  for (const auto& [in, name] : inputs) {
    c.NoOverlap(out_packed, "out_packed", in, name);
    c.NoOverlap(out_scale, "out_scale", in, name);
  }
}

}  // namespace vt::api
