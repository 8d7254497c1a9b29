// The sequence families' shared torch pieces (seq_ops.h).
#include "oracles/torch/seq/seq_ops.h"

#include <limits>

namespace vt::torchref::seq {

std::vector<int64_t> Ints(const Input& in, const std::string& name) {
  const at::Tensor t = View(in.Get(name)).to(at::kLong).contiguous();
  const int64_t* p = t.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + t.numel());
}

at::Tensor Index(const std::vector<int64_t>& v) {
  return at::tensor(at::ArrayRef<int64_t>(v), at::TensorOptions().dtype(at::kLong));
}

at::Tensor Softplus20(const at::Tensor& x) { return at::softplus(x, /*beta=*/1, /*threshold=*/20); }

at::Tensor ExpandHeads(const at::Tensor& x, int64_t group) {
  return group == 1 ? x : at::repeat_interleave(x, group, /*dim=*/1);
}

at::Tensor MaskedAttention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double scale,
                           const at::Tensor& visible, const at::Tensor& bias) {
  const int64_t group = q.size(1) / k.size(1);
  const at::Tensor kk = ExpandHeads(k, group).permute({1, 0, 2});  // [hq, tk, d]
  const at::Tensor vv = ExpandHeads(v, group).permute({1, 0, 2});
  at::Tensor s = at::matmul(q.permute({1, 0, 2}), kk.transpose(1, 2)) * scale;  // [hq, tq, tk]
  if (bias.defined()) s = s + bias.unsqueeze(0);
  s = s.masked_fill(visible.logical_not().unsqueeze(0), -std::numeric_limits<double>::infinity());
  return at::matmul(at::softmax(s, -1), vv).permute({1, 0, 2}).contiguous();  // [tq, hq, d]
}

at::Tensor DepthwiseConv(const at::Tensor& stream, const at::Tensor& weight, const at::Tensor& bias) {
  const int64_t one[] = {1}, zero[] = {0};
  return at::conv1d(stream.unsqueeze(0), weight.unsqueeze(1), bias, one, zero, one, weight.size(0))[0];
}

at::Tensor DeltaRuleToken(at::Tensor& state, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                          const at::Tensor& log_decay, const at::Tensor& beta) {
  state.mul_(at::exp(log_decay));
  const at::Tensor recalled = at::matmul(state, k.unsqueeze(-1)).squeeze(-1);  // [Hv, Dv]
  const at::Tensor u = (v - recalled) * beta.unsqueeze(-1);
  state.add_(u.unsqueeze(-1) * k.unsqueeze(1));
  return at::matmul(state, q.unsqueeze(-1)).squeeze(-1);
}

}  // namespace vt::torchref::seq
