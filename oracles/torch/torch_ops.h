// What the torch references share: reading a case's operands into float64
// tensors, the rounding points an op defines (torch's own casts for
// bf16/f16/f32; fp8 e4m3 and fp4 e2m1 by the decoders and rounders of this
// library - nothing here comes from oracles/format or kernels/core), and
// turning a tensor into a reference Output. Included by every reference (and
// precompiled: pch.h), so it stays small.
#pragma once

#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "oracles/torch/reference.h"

namespace vt::torchref {

// torch's dtype for a storage dtype (u8 -> kByte: fp8 / fp4 codes are bytes).
at::ScalarType TorchType(vt::DType dt);

// The operand viewed in its own torch dtype over the case's bytes (from_blob
// with the case's strides; no copy: valid while the case lives).
at::Tensor View(const Operand& o);
// The operand's logical values as a contiguous float64 tensor of its shape:
// floats and integers by torch's own conversion, fp8 e4m3 codes decoded.
at::Tensor Load(const Operand& o);
inline at::Tensor Load(const Input& in, const std::string& name) { return Load(in.Get(name)); }
// The operand in its own dtype, copied contiguous (the in-dtype variants).
inline at::Tensor LoadNative(const Input& in, const std::string& name) { return View(in.Get(name)).contiguous(); }

// A rounding point the op defines: float64 values stored to `dt` and read
// back (f32/f16/bf16: torch's casts, round to nearest even; float64 -> bf16
// goes through f32 as every f32 kernel's store does).
at::Tensor RoundTo(const at::Tensor& t, vt::DType dt);
inline at::Tensor RoundF32(const at::Tensor& t) { return t.to(at::kFloat).to(at::kDouble); }

// fp8 e4m3fn (bias 7, no infinities, 0x7f / 0xff NaN, largest 448) and fp4
// e2m1 (bias 1, largest 6): codes to values, and values rounded to the
// nearest code value (ties to even mantissa; saturating at the largest
// magnitude, as the quantizers clamp before they convert).
at::Tensor DecodeE4M3(const at::Tensor& codes);  // any integer dtype -> float64
at::Tensor DecodeE2M1(const at::Tensor& nibbles);
at::Tensor RoundE4M3(const at::Tensor& x);       // float64 -> float64
at::Tensor RoundE2M1(const at::Tensor& x);

// A float64 tensor's values in row-major order.
std::vector<double> Values(const at::Tensor& t);
// A reference output: the float64 result, and optionally the in-dtype run.
Output Out(const at::Tensor& f64, const at::Tensor& in_dtype = at::Tensor());

// The dtype named by a knob ("bf16", "f32", ...).
vt::DType DTypeArg(const Input& in, const std::string& key);

}  // namespace vt::torchref

namespace vt::torchref {

// vLLM's static per-tensor fp8 quant (QuantFP8 forward_native, IR
// static_quant_fp8): x.float() * scale.reciprocal() in f32, clamped to
// +-448; the value before the e4m3 store (the harness rounds it as the
// output's format). `b` holds f32 (or narrower) values.
inline at::Tensor StaticFp8Value(const at::Tensor& b, double input_scale) {
  const double inv = static_cast<double>(1.0f / static_cast<float>(input_scale));
  return RoundF32(b * inv).clamp(-448.0, 448.0);
}

// Over the last dim, kept: mean(t^2) and sum(t^2). (An explicit IntArrayRef:
// a bare int converted inside OptionalIntArrayRef would dangle.)
inline at::Tensor MeanSquare(const at::Tensor& t) { return t.pow(2).mean(at::IntArrayRef{-1}, true); }
inline at::Tensor SumSquare(const at::Tensor& t) { return t.pow(2).sum(at::IntArrayRef{-1}, true); }

// silu(z) = z * sigmoid(z) and sigmoid, as torch computes them (float64).
inline at::Tensor Silu(const at::Tensor& z) { return z * at::sigmoid(z); }

}  // namespace vt::torchref

namespace vt::torchref {

// The operand's values flattened to one dimension in row-major order (the
// elementwise ops' operands may take any shape of the same element count).
inline at::Tensor Flat(const Input& in, const std::string& name) { return Load(in, name).reshape({-1}); }

// The operand in its own dtype for an in-dtype variant, or an undefined
// tensor for f16: libtorch 1.13's CPU kernels lack several Half ops, and the
// variant is informative only.
inline at::Tensor NativeOrNone(const Input& in, const std::string& name) {
  if (in.Get(name).dtype == vt::DType::kF16) return at::Tensor();
  return LoadNative(in, name);
}
inline at::Tensor AsF64(const at::Tensor& t) { return t.defined() ? t.to(at::kDouble) : t; }

}  // namespace vt::torchref
