// What the RoPE references share, after vLLM's rotary_embedding package:
// RotaryEmbeddingBase._compute_inv_freq (+ Llama3RotaryEmbedding's rescale),
// the cos/sin cache rows, MRotaryEmbedding's section / interleaved row choice
// and the rotation of forward_static (_apply_rotary_emb_torch).
#pragma once

#include <cmath>

#include "oracles/torch/torch_ops.h"

namespace vt::torchref::rope {

// inv_freq_i = 1 / base^(2i / rot) in `type` (the op's contract: float64;
// vLLM's own module: float32), with Llama-3's band rescale when the case's
// llama3_scaling_factor > 0.
inline at::Tensor InvFreq(const Input& in, at::ScalarType type) {
  const int64_t rot = in.Int("rot");
  const at::TensorOptions o = at::TensorOptions().dtype(type);
  at::Tensor inv = 1.0 / at::pow(in.F32("base"), at::arange(0, rot, 2, o) / static_cast<double>(rot));
  const double factor = in.HasArg("llama3_scaling_factor") ? in.F32("llama3_scaling_factor") : 0.0;
  if (factor > 0.0) {
    const double low = in.F32("llama3_low_freq_factor"), high = in.F32("llama3_high_freq_factor");
    const double orig = in.F32("llama3_orig_max_position");
    const at::Tensor wavelen = 2.0 * M_PI / inv;
    // vLLM divides by (high - low); with equal factors there is no band.
    const at::Tensor smooth = high == low ? at::zeros_like(inv) : (orig / wavelen - low) / (high - low);
    const at::Tensor band = (1.0 - smooth) * inv / factor + smooth * inv;
    inv = at::where(wavelen < orig / high, inv, at::where(wavelen > orig / low, inv / factor, band));
  }
  return inv;
}

// Angles [T, rot/2] of integer positions [T] (exact in float64 up to 2^53).
inline at::Tensor Angles(const at::Tensor& positions, const at::Tensor& inv_freq) {
  return at::outer(positions.to(inv_freq.scalar_type()), inv_freq);
}

// Rotate the first rot dims of x [T, H, D] by cos/sin [T, rot/2] (NeoX halves
// or GPT-J even/odd pairs); dims >= rot pass through. `given`: x, cos and sin
// are given values (inputs, a stored cache), so x*c and y*s are the op's f32
// products (torch_ops.h F32Product).
inline at::Tensor Rotate(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin, int64_t rot, bool neox,
                         bool given = true) {
  const at::Tensor c = cos.unsqueeze(-2), s = sin.unsqueeze(-2);
  const at::Tensor r = x.narrow(-1, 0, rot);
  at::Tensor x1, x2;
  if (neox) {
    x1 = r.narrow(-1, 0, rot / 2);
    x2 = r.narrow(-1, rot / 2, rot / 2);
  } else {
    x1 = r.slice(-1, 0, rot, 2);
    x2 = r.slice(-1, 1, rot, 2);
  }
  auto mul = [given](const at::Tensor& a, const at::Tensor& b) { return given ? F32Product(a, b) : a * b; };
  const at::Tensor o1 = mul(x1, c) - mul(x2, s), o2 = mul(x2, c) + mul(x1, s);
  const at::Tensor rotated = neox ? at::cat({o1, o2}, -1) : at::stack({o1, o2}, -1).flatten(-2);
  return at::cat({rotated, x.narrow(-1, rot, x.size(-1) - rot)}, -1);
}

// cos or sin rows [T, rot/2] for positions [T] or mrope positions [3, T] from
// a [P, rot] cache of [cos | sin] rows (MRotaryEmbedding.forward_native).
inline at::Tensor CacheHalf(const Input& in, const at::Tensor& cache, const at::Tensor& pos, bool sin) {
  const int64_t half = cache.size(1) / 2;
  const at::Tensor rows = cache.index_select(0, pos.flatten()).view({-1, half * 2});
  at::Tensor h = rows.narrow(-1, sin ? half : 0, half);
  if (pos.dim() == 1) return h;
  h = h.reshape({3, pos.size(1), half});
  const int64_t s0 = in.Int("s0"), s1 = in.Int("s1"), s2 = in.Int("s2");
  if (in.Str("mrope") == "interleaved") {
    // apply_interleaved_rope: row 0, then every third pair from 1 (from 2)
    // below 3*s1 (3*s2) taken from row 1 (row 2).
    at::Tensor out = h[0].clone();
    if (s1 > 0) out.slice(-1, 1, 3 * s1, 3).copy_(h[1].slice(-1, 1, 3 * s1, 3));
    if (s2 > 0) out.slice(-1, 2, 3 * s2, 3).copy_(h[2].slice(-1, 2, 3 * s2, 3));
    return out;
  }
  const std::vector<at::Tensor> parts = h.split_with_sizes({s0, s1, s2}, -1);
  return at::cat({parts[0][0], parts[1][1], parts[2][2]}, -1);
}

}  // namespace vt::torchref::rope
