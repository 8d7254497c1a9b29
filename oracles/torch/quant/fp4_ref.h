// NVFP4 quantization after vLLM's ref_nvfp4_quant (nvfp4_emulation_utils.py)
// and swizzle_blockscale (nvfp4_utils.py), with the op contract's choices
// where the two differ (docs/ops/quant.md): a NaN is skipped by the group's
// amax (torch.max would propagate it) and codes as +6, and zero codes as +0.
// Per row and group of 16: amax = max|x|; s = gsi * (amax * f32(1/6)),
// clamped to 448 (the scale output's value before its e4m3 store); then in
// f32 as the reference does: block = e4m3(s) * (1/gsi), code =
// e2m1(clamp(x * (1/block), +-6)), a reciprocal of 0 taken as 0.
#pragma once

#include "oracles/torch/torch_ops.h"

namespace vt::torchref::fp4 {

// Codes 0..15 of e2m1 values (already on the grid): sign in bit 3, +0 for
// zero, +6 (code 7) for NaN.
inline at::Tensor Codes(const at::Tensor& v) {
  static const at::Tensor kIndex = at::tensor(std::vector<int64_t>{0, 1, 2, 3, 4, 0, 5, 0, 6, 0, 0, 0, 7}, at::kLong);
  const at::Tensor mag = at::where(v.isnan(), at::full_like(v, 6.0), v.abs());
  const at::Tensor idx = kIndex.index_select(0, (mag * 2.0).to(at::kLong).flatten()).view(v.sizes());
  return idx + at::where(v.lt(0) & mag.ne(0), 8, 0);
}

// The two outputs of a quantizer fed the [M, K] values x (float64).
inline Result Quantize(const Input& in, const at::Tensor& x) {
  const int64_t m = x.size(0), k = x.size(1), g = k / 16;
  const double gsi = in.F32("gsi");
  const at::Tensor x3 = x.reshape({m, g, 16});
  const at::Tensor amax = at::where(x3.isnan(), at::zeros_like(x3), x3.abs()).amax(-1);
  const at::Tensor s = (gsi * (amax * static_cast<double>(1.0f / 6.0f))).clamp_max(448.0);
  const at::Tensor scale = RoundE4M3(s);
  const double inv_gsi = gsi == 0.0 ? 0.0 : static_cast<double>(1.0f / static_cast<float>(gsi));
  const at::Tensor block = RoundF32(scale * inv_gsi);
  const at::Tensor inv_block = at::where(block.eq(0), at::zeros_like(block), RoundF32(1.0 / block));
  const at::Tensor xs = RoundF32(x3 * inv_block.unsqueeze(-1)).clamp(-6.0, 6.0);
  const at::Tensor codes = Codes(RoundE2M1(xs)).reshape({m, k / 2, 2});
  const at::Tensor packed = codes.select(-1, 0) + codes.select(-1, 1) * 16;
  at::Tensor scale_out = s;
  if (in.Str("scale_layout") == "swizzled") {
    // swizzle_blockscale: pad to [128-row, 4-group] tiles, view the tiles as
    // [Mt, 4, 32, Gt, 4] and store them as (Mt, Gt, 32, 4, 4).
    const int64_t mp = (m + 127) / 128 * 128, gp = (g + 3) / 4 * 4;
    at::Tensor padded = at::zeros({mp, gp}, s.options());
    padded.narrow(0, 0, m).narrow(1, 0, g).copy_(s);
    scale_out = padded.view({mp / 128, 4, 32, gp / 4, 4}).permute({0, 3, 2, 1, 4}).reshape({mp, gp});
  }
  return {{"out_packed", Out(packed)}, {"out_scale", Out(scale_out)}};
}

}  // namespace vt::torchref::fp4
