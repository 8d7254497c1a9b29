// Tensor helpers of the sequence families' torch references (attn, conv,
// state, gdn/kda, mamba): the case's operands as float64 torch tensors,
// integer metadata as host vectors, a result as row-major values, and the
// pieces several of these references restate the same way upstream does
// (softplus with torch's threshold, the GQA head expansion, masked softmax
// attention). Nothing here comes from kernels/ or oracles/*.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "oracles/torch/reference.h"

namespace vt::torchref::seq {

// The torch dtype of a stored float / integer dtype.
at::ScalarType TorchType(vt::DType dt);

// The operand's logical values as a new contiguous float64 tensor.
at::Tensor F64(const Input& in, const std::string& name);
// The operand's values as integers (i8 / i32 / i64 metadata).
std::vector<int64_t> Ints(const Input& in, const std::string& name);
// Row-major values of a float64 tensor.
std::vector<double> Flat(const at::Tensor& t);
// x rounded to the stored dtype `dt` and read back (a rounding point the op
// defines: upstream's `.to(dtype)`), as float64.
at::Tensor Through(const at::Tensor& x, vt::DType dt);

// torch.nn.functional.softplus(x, beta=1, threshold=20): x where x > 20.
at::Tensor Softplus20(const at::Tensor& x);

// [t, hk, d] -> [t, hk * group, d]: each kv head repeated group times in
// place (torch repeat_interleave on the head dim; q-head h reads kv-head
// h / group).
at::Tensor ExpandHeads(const at::Tensor& x, int64_t group);

// softmax(q k^T * scale + bias, masked) v for q [tq, hq, d], k/v [tk, hk, d]
// (hq a multiple of hk), visible [tq, tk] bool (true: key admitted), bias
// [tq or 1, tk] or undefined. Returns [tq, hq, d]. Every query row must admit
// a key (the callers' masks always admit the query's own position).
at::Tensor MaskedAttention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double scale,
                           const at::Tensor& visible, const at::Tensor& bias = at::Tensor());

// F.conv1d(stream, weight.unsqueeze(1), bias, padding=0, groups=C) for one
// sequence (causal-conv1d's causal_conv1d_ref): stream [C, L], weight
// [C, K], bias [C] or undefined -> [C, L - K + 1]; L >= K.
at::Tensor DepthwiseConv(const at::Tensor& stream, const at::Tensor& weight, const at::Tensor& bias);

// One token of the gated delta rule (fla naive_recurrent_gated_delta_rule /
// naive_recurrent_kda, vLLM's [Hv, Dv, Dk] state layout), in place on
// state [Hv, Dv, Dk]: state *= exp(log_decay) (log_decay broadcast: [Hv, 1, 1]
// per head for GDN, [Hv, 1, Dk] per key channel for KDA); u = (v - state k)
// * beta; state += u k^T; returns state q [Hv, Dv]. q (already scaled) and k
// are [Hv, Dk] (key heads expanded), v [Hv, Dv], beta [Hv].
at::Tensor DeltaRuleToken(at::Tensor& state, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                          const at::Tensor& log_decay, const at::Tensor& beta);

// One output from a float64 tensor (no in-dtype variant).
inline Output Out(const at::Tensor& t) { return Output{Flat(t), {}}; }

}  // namespace vt::torchref::seq
