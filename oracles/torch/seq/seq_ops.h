// What the sequence families' torch references (attn, conv, state, gdn/kda,
// mamba) share beyond torch_ops.h: integer metadata as host vectors, and the
// pieces several of them restate the same way upstream does - F.softplus
// with its threshold, the GQA head expansion, masked softmax attention, the
// depthwise causal conv, the delta-rule step. Nothing here comes from
// kernels/ or oracles/*.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracles/torch/torch_ops.h"

namespace vt::torchref::seq {

// The operand's values as integers (i8 / i32 / i64 metadata).
std::vector<int64_t> Ints(const Input& in, const std::string& name);
// A host index list as a torch kLong tensor.
at::Tensor Index(const std::vector<int64_t>& v);

// torch.nn.functional.softplus(x, beta=1, threshold=20): x where x > 20.
at::Tensor Softplus20(const at::Tensor& x);

// [t, hk, d] -> [t, hk * group, d]: each kv head repeated group times in
// place (torch repeat_interleave on the head dim: q-head h reads kv-head
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
// naive_recurrent_kda, in vLLM's [Hv, Dv, Dk] state layout), in place on
// state [Hv, Dv, Dk]: state *= exp(log_decay) (log_decay broadcast: [Hv, 1, 1]
// per head for GDN, [Hv, 1, Dk] per key channel for KDA); u = (v - state k)
// * beta; state += u k^T; returns state q [Hv, Dv]. q (already scaled) and k
// are [Hv, Dk] (key heads expanded), v [Hv, Dv], beta [Hv].
at::Tensor DeltaRuleToken(at::Tensor& state, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                          const at::Tensor& log_decay, const at::Tensor& beta);

}  // namespace vt::torchref::seq
