// torch reference: mamba2_chunk_scan (vLLM mops/ssd_combined.py
// mamba_chunk_scan_combined_varlen; plain-torch form: mamba-ssm's
// ssd_minimal_discrete - the SSD "segsum" form, chunk by chunk - with vLLM's
// dt handling and its varlen chunk metadata). Per sequence, per chunk
// [c0, c1) of cu_chunk_seqlens, per head h (group g = h / (H/G)):
//   dt'   = clamp(softplus?(dt + dt_bias), dt_min, dt_max)   (threshold 20)
//   cum_i = sum_{j<=i} dt'_j A                                (within the chunk)
//   y_i   = sum_{j<=i} exp(cum_i - cum_j) (C_i . B_j) dt'_j x_j     (diagonal block)
//         + exp(cum_i) C_i . S_prev                                 (carried state)
//         (+ D x_i) (* silu(z_i))
//   S_new = exp(cum_last) S + sum_j exp(cum_last - cum_j) dt'_j x_j B_j^T
// S starts at initial_states[s] (or 0). The state handed to a chunk inside a
// sequence is read at the state dtype (upstream's state passing stores each
// chunk's state at final_states' width, the chunk scan reads it back); the
// chain S itself is not rounded (upstream keeps it in f32 registers), and
// final_states is the chain's last value before its store.
#include <limits>

#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_mamba2_chunk_scan(const Input& in) {
  const at::Tensor x = Load(in, "x");  // [T, H, P]
  const int64_t h = x.size(1), p = x.size(2), groups = in.Get("B").shape[1];
  const int64_t n = in.Get("B").shape[2];
  const vt::DType state_dt = in.Get("final_states").dtype;
  const int64_t seqs = in.Get("final_states").shape[0];
  at::Tensor dt = Load(in, "dt");  // [T, H]
  if (in.Has("dt_bias")) dt = dt + Load(in, "dt_bias");
  if (in.Flag("softplus")) dt = seq::Softplus20(dt);
  // The op's float arguments (dt_max +inf when not given).
  const double lo = in.HasArg("dt_min") ? in.F32("dt_min") : 0.0;
  const double hi = in.HasArg("dt_max") ? in.F32("dt_max") : std::numeric_limits<double>::infinity();
  dt = at::clamp(dt, lo, hi);
  const at::Tensor a = Load(in, "A");
  const at::Tensor b = seq::ExpandHeads(Load(in, "B"), h / groups);  // [T, H, N]
  const at::Tensor c = seq::ExpandHeads(Load(in, "C"), h / groups);
  const std::vector<int64_t> cu = seq::Ints(in, "cu_seqlens"), chunks = seq::Ints(in, "cu_chunk_seqlens");
  at::Tensor out = at::zeros_like(x);
  at::Tensor final_states = at::zeros({seqs, h, p, n}, at::kDouble);
  for (int64_t s = 0; s < seqs; ++s) {
    const int64_t begin = cu[static_cast<size_t>(s)], end = cu[static_cast<size_t>(s) + 1];
    at::Tensor chain = in.Has("initial_states") ? Load(in, "initial_states")[s] : at::zeros({h, p, n}, at::kDouble);
    for (size_t k = 0; k + 1 < chunks.size(); ++k) {
      const int64_t c0 = chunks[k], c1 = chunks[k + 1];
      if (c0 < begin || c0 >= end) continue;
      if (c1 > end) throw Error("a chunk of cu_chunk_seqlens crosses a sequence boundary");
      const int64_t len = c1 - c0;
      const at::Tensor held = c0 == begin ? chain : RoundTo(chain, state_dt);
      const at::Tensor dtc = dt.narrow(0, c0, len);                         // [L, H]
      const at::Tensor cum = at::cumsum(dtc * a, 0);                        // [L, H]
      const at::Tensor seg = cum.t().unsqueeze(2) - cum.t().unsqueeze(1);   // [H, i, j]
      const at::Tensor causal = at::ones({len, len}, at::kBool).tril();
      const at::Tensor decay = at::exp(seg.masked_fill(causal.logical_not(), -std::numeric_limits<double>::infinity()));
      const at::Tensor bc = b.narrow(0, c0, len), cc = c.narrow(0, c0, len), xc = x.narrow(0, c0, len);
      const at::Tensor cb = at::einsum("ihn,jhn->hij", {cc, bc});
      const at::Tensor diag = at::einsum("hij,jh,jhp->ihp", {cb * decay, dtc, xc});
      const at::Tensor carried = at::einsum("ihn,hpn->ihp", {cc, held}) * at::exp(cum).unsqueeze(-1);
      out.narrow(0, c0, len).copy_(diag + carried);
      const at::Tensor last = cum[len - 1];                                  // [H]
      const at::Tensor weight = at::exp(last.unsqueeze(0) - cum) * dtc;      // [L, H]
      chain = at::exp(last).view({-1, 1, 1}) * chain + at::einsum("jh,jhp,jhn->hpn", {weight, xc, bc});
    }
    final_states[s].copy_(chain);
  }
  if (in.Has("D")) {
    const at::Tensor d = Load(in, "D");
    out = out + x * (d.dim() == 1 ? d.unsqueeze(-1) : d);
  }
  if (in.Has("z")) out = out * at::silu(Load(in, "z"));
  return {{"out", Out(out)}, {"final_states", Out(final_states)}};
}

}  // namespace vt::torchref
