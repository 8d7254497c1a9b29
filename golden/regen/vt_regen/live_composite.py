"""The composite runner keys for the upstream worker (vt-fuzz --upstream): dense_attention, moe_block.

Each function has live.py's signature (args, specs, arrays, outputs) and runs
the chain `vt-golden regen` uses for the key (ops_composite.py) on the inputs
the catalog's inverse adapter wrote (harness/catalog/composite/*.cpp). Those
inverses choose inputs the chain passes to the mapped op's step unchanged, so
the catalog case IS what the step received; the tolerance is derived against
that case: upstream's own error measured (its result against the exact value
in double) plus an a-priori bound on the kernel's, per element, then fitted
to an atol/rtol pair (trust.fit_tolerance) as the GDN keys do.
"""
import math

import numpy as np
import torch

from . import replay
from .live import BF16_ULP_REL, U32, Result, _finite_or_skip, _man, _prov, _stored


def _gamma(n):
    return n * U32 / (1 - n * U32)


def _fit(need, got, out_dtype, floor):
    """(atol, rtol) covering need (+ one bf16 ulp of the value for a bf16 out: both
    sides round to it, the kernel its f32 result, the golden upstream's)."""
    from .caseio import as_float
    from .trust import fit_tolerance
    w = as_float(out_dtype, got).ravel()
    store = BF16_ULP_REL if out_dtype == "bf16" else 0.0
    ladder = [store] + [2.0 ** -j for j in range(23, 2, -1) if 2.0 ** -j > store]
    return fit_tolerance(need.ravel() + store * np.abs(w), w, ladder, floor=floor)


# --- dense_attention -------------------------------------------------------------

def _attention_bound(q, k, v, scale, causal, exact_dots=False):
    """(reference [T, Hq, D], kernel bound [T, Hq, D]) in double.

    The kernel (kernels/cpu/attn/attend_row.h): per query row, s_j = (q.k_j)
    scale in f32 (a D-term dot in order, then the product: within
    gamma_(D+1) scale sum|q k_j| of exact), m = max s_j, e_j = exp(s_j - m)
    (the subtraction u|s_j - m|, expf within one ulp: 2u), denom = sum e_j,
    p_j = e_j (1/denom), out = sum p_j v_j. m cancels in p, so each p_j is
    within exp(H) of exact, H = 2 max_j (gamma_(D+1) scale sum|q k_j| + u|s_j
    - m| (1 + u) + 2u) + gamma_(n+1) (the n-term sum, the reciprocal, the
    product), and the output sum (a product and n - 1 adds per term) adds
    gamma_n: |out - exact| <= (exp(H)(1 + gamma_n) - 1) sum_j p_j |v_j|, plus
    2^-149 |v_j| per weight that underflows. exact_dots: every product and
    partial sum of q.k_j is exact in f32 (whole numbers times one power of two,
    sum|q k_j| < 2^24 of its square): only the product by scale rounds, u |s_j|."""
    t, hq, d = q.shape
    rep = hq // k.shape[1]
    kk = k.repeat_interleave(rep, dim=1)                   # [T, Hq, D]
    vv = v.repeat_interleave(rep, dim=1)
    s = torch.einsum("thd,shd->hts", q, kk) * scale        # [Hq, Tq, Tk]
    dots = torch.einsum("thd,shd->hts", q.abs(), kk.abs()) * scale
    mask = torch.ones(t, t, dtype=torch.bool)
    if causal:
        mask = torch.tril(mask)
    s = s.masked_fill(~mask, -math.inf)
    p = torch.softmax(s, dim=-1)
    ref = torch.einsum("hts,shd->thd", p, vv)
    n = mask.sum(dim=-1).double()                          # visible keys per query row [Tq]
    m = s.max(dim=-1, keepdim=True).values
    spread = torch.where(mask, (s - m).abs(), torch.zeros_like(s))
    dot_err = U32 * s.abs().nan_to_num(0.0, 0.0, 0.0) if exact_dots else _gamma(d + 1) * dots
    per_key = dot_err + U32 * (1 + U32) * spread + 2 * U32
    per_key = torch.where(mask, per_key, torch.zeros_like(per_key))
    gam_n = n * U32 / (1 - n * U32)
    h = 2 * per_key.max(dim=-1).values + (n + 1) * U32 / (1 - (n + 1) * U32)   # [Hq, Tq]
    factor = torch.exp(h) * (1 + gam_n) - 1
    weighted = torch.einsum("hts,shd->thd", p, vv.abs())   # sum_j p_j |v_j|
    under = n[:, None, None] * 2.0 ** -149 * vv.abs().amax(dim=0, keepdim=True)
    bound = factor.transpose(0, 1)[..., None] * weighted + under
    return ref, bound


def dense_attention(args, specs, arrays, outputs):
    from . import ops_composite
    man = _man(args, specs)
    t = {n: replay._t(man, arrays, n) for n in arrays}
    if man["tensors"]["q"]["dtype"] != "f32":
        raise ValueError("dense_attention: f32 only is mapped (as the regenerated goldens)")
    q, k, v = t["q"], t["k"], t["v"]
    gate = t.get("gate", torch.zeros_like(q))
    scale, causal = float(args["scale"]), bool(args.get("causal", True))
    attn, _, pieces = ops_composite._attention_chain(q, gate, k, v, t["positions"], t["q_norm_weight"],
                                                     t["k_norm_weight"], float(args["eps"]), float(args["base"]),
                                                     int(args["rotary_dim"]), scale, causal)
    got = {"attn": attn}
    _finite_or_skip(got, arrays, "f32 softmax")
    # What the attention step received (the inverse's inputs: rms exactly 1,
    # so the norm is the product by 1 + w, and position 0 rotates nothing).
    qd = q.double() * (1 + t["q_norm_weight"].double())
    kd = k.double() * (1 + t["k_norm_weight"].double())
    # the inverse sends whole numbers (the rows over their power-of-two scale)
    qn, kn = q.double(), k.double()
    whole = bool((qn == qn.round()).all() and (kn == kn.round()).all())
    sums = torch.einsum("thd,shd->hts", qn.abs(), kn.abs().repeat_interleave(q.shape[1] // k.shape[1], dim=1))
    exact_dots = whole and (float(sums.max()) if sums.numel() else 0.0) < 2.0 ** 24
    ref, bound = _attention_bound(qd, kd, v.double(), scale, causal, exact_dots)
    out_dtype = outputs.get("attn", "f32")
    stored = _stored(got, outputs)
    measured = (attn.detach().double() - ref).abs()
    need = (measured + bound).numpy()
    floor = max(float(v.double().abs().max()) * q.shape[0] * 2.0 ** -149, 2.0 ** -149)
    atol, rtol = _fit(need, stored["attn"][1], out_dtype, floor)
    why = ("q.k exact in f32 (whole numbers times a power of two, sums < 2^24): " if exact_dots else "")
    why += (f"per element: upstream's own error measured (SDPA's f32 result, after vLLM's norm and rotary, "
           f"against exact softmax attention in double of the query/key the step received; max "
           f"{float(measured.max()):.3g}) plus the kernel's bound (three f32 passes: D-term dots and the scale, "
           f"exp(s - m), the normalisation and the weighted sum: (exp(H)(1 + gamma_n) - 1) sum p|v|; "
           f"live_composite._attention_bound; max {float(bound.max()):.3g})")
    if out_dtype == "bf16":
        why += "; out rounded to bf16 by both sides: one bf16 ulp (2^-7 |value|) more"
    why += "; fitted to atol/rtol (trust.fit_tolerance)"
    how = ("GemmaRMSNorm.forward_native per q/k head, get_rope(rope_dim=rotary_dim, neox).forward_native at the "
           "positions, torch SDPA (is_causal, enable_gqa, scale) for the attention backend (ops_composite."
           "_attention_chain); attn compared")
    return Result(stored, {"atol": atol, "rtol": rtol}, why,
                  oracle=_prov("dense_attention", pieces[0].forward_native, how,
                               ["no gate: the attention case has none (the chain's sigmoid gate is not asked for)"]))


# --- moe_block -------------------------------------------------------------------------

def _moe_reference(t, k, rs, has_shared):
    """(reference out [T, H], the kernel's bound [T, H]) in double, for the inverse's block.

    The inverse (harness/catalog/composite/moe_block.cpp) makes x row r the unit
    vector e_r, so the router logits are gate_w[:, r] (exact on both sides),
    expert e's output for token r is w2[e][:, r] and the shared term
    w_shared_down[:, r] (silu(32)/32 = 1, sigmoid(32) = 1 in f32): those are the
    moe_combine case's expert_out rows and shared. Exact: the softmax top-k with
    renormalization in double, out = rs sum_j w_j v_j (+ shared).
    The kernel: its weights are the router's f32 evaluation (moe_router_topk's
    definition): each weight is exp(l_i - m) times factors common to the row
    (they cancel in the renormalization) with its own roundings - the
    subtraction u |l_i - m|, exp within one ulp (2u), the division (u) - and the
    renormalizing K-term sum and division: relative rho = exp(2 max_i (u (1 + u)
    |l_i - m| + 3u) + gamma_K) - 1. The combine (moe_combine: K products and an
    ordered sum from 0, the product by rs, the shared add) adds gamma_(K+2) of
    the sum of magnitudes: |out - exact| <= |rs| sum_j w_j |v_j| (rho +
    gamma_(K+2) (1 + rho)) + gamma_(K+2) |shared| + (K + 2) 2^-149."""
    x, gate_w, w2 = (t[n].double() for n in ("x", "gate_w", "w2"))
    logits = x @ gate_w.T                                   # [T, E]
    vals, ids = torch.topk(logits, k, dim=-1)
    w = torch.softmax(vals, dim=-1)                         # [T, K]
    rows = torch.arange(x.shape[0])
    v = torch.stack([w2[ids[:, j], :, rows] for j in range(k)], dim=1)  # [T, K, H]
    ref = rs * (w[..., None] * v).sum(dim=1)
    shared = t["w_shared_down"].double().T[: x.shape[0]] if has_shared else torch.zeros_like(ref)
    ref = ref + shared
    spread = (logits - logits.max(dim=-1, keepdim=True).values).abs()
    rho = torch.exp(2 * (U32 * (1 + U32) * spread + 3 * U32).max(dim=-1).values + _gamma(k)) - 1   # [T]
    g = _gamma(k + 2)
    mags = (w[..., None] * v.abs()).sum(dim=1)              # sum_j w_j |v_j|
    bound = abs(rs) * mags * (rho + g * (1 + rho))[:, None] + g * shared.abs() + (k + 2) * 2.0 ** -149
    return ref, bound


def moe_block(args, specs, arrays, outputs):
    from . import ops_composite
    man = _man(args, specs)
    t = {n: replay._t(man, arrays, n) for n in arrays}
    if args.get("scoring_func", "softmax") != "softmax" or args.get("activation", "silu") != "silu":
        raise ValueError("moe_block: only the softmax router with SiluAndMul experts is mapped (the chain's)")
    x = t["x"]
    h, k = x.shape[1], int(args["top_k"])
    has_shared = "w_shared_gate_up" in t
    # a block without a shared expert: the chain runs on zero shared weights, its shared term left out
    wsgu = t.get("w_shared_gate_up", torch.zeros(2, h, dtype=x.dtype))
    wsd = t.get("w_shared_down", torch.zeros(h, 1, dtype=x.dtype))
    wsg = t.get("w_shared_gate", torch.zeros(1, h, dtype=x.dtype))
    _, _, _, routed, shared, out, pieces = ops_composite._moe_chain(x, t["gate_w"], t["w13"], t["w2"], wsgu, wsd,
                                                                    wsg, k, bool(args.get("renormalize", True)))
    rs = float(args.get("routed_scaling_factor", 1.0)) if args.get("apply_routed_scale_to_output") else 1.0
    if rs != 1.0 or not has_shared:
        # vLLM's apply_routed_scale_to_output arm: the routed sum scaled (f32) before the shared add
        out = routed * rs + (shared if has_shared else 0.0)
    got = {"out": out}
    _finite_or_skip(got, arrays, "f32 combine")
    ref, bound = _moe_reference(t, k, rs, has_shared)
    measured = (out.double() - ref).abs()
    out_dtype = outputs.get("out", "f32")
    stored = _stored(got, outputs)
    atol, rtol = _fit((measured + bound).numpy(), stored["out"][1], out_dtype, 2.0 ** -149)
    why = (f"per element: upstream's own error measured (the block's f32 out against the exact combine in double "
           f"of what its steps hand on - softmax top-k weights of the exact logits, the expert rows, the shared "
           f"term; max {float(measured.max()):.3g}) plus the kernel's bound (router weights within rho relative, "
           f"K = {k} products and the ordered sum, rs = {rs:g}, the shared add: live_composite._moe_reference; max "
           f"{float(bound.max()):.3g})")
    if out_dtype == "bf16":
        why += "; out rounded to bf16 by both sides: one bf16 ulp (2^-7 |value|) more"
    why += "; fitted to atol/rtol (trust.fit_tolerance)"
    adjustments = []
    if not has_shared:
        adjustments.append("no shared expert: the block's routed sum alone (the chain's shared term left out)")
    if rs != 1.0:
        adjustments.append("apply_routed_scale_to_output: the routed sum times routed_scaling_factor in f32 before "
                           "the shared add (vLLM's moe_runner arm), restated in torch")
    how = ("F.linear router, fused_moe.router.cpu_router._softmax_topk, per expert F.linear -> SiluAndMul.forward_"
           "native -> F.linear weighted in f32 (vLLM's test helper torch_experts, restated), shared expert * "
           "sigmoid(F.linear gate), routed + shared (ops_composite._moe_chain)")
    return Result(stored, {"atol": atol, "rtol": rtol}, why,
                  oracle=_prov(("moe_block", has_shared, rs != 1.0), pieces[1], how, adjustments))


LIVE = {"dense_attention": dense_attention, "moe_block": moe_block}
