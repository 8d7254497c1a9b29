"""Upstream results for cases vt-fuzz draws (the worker's per-runner-key functions).

Each function takes a request - the runner key's args and input arrays in the
golden layout, as the catalog's inverse adapters write them
(harness/catalog/.../*.cpp, `to_upstream`) - runs the same upstream callable
`vt-golden regen` and its replay use, and returns the outputs in the dtypes
the request names, with the tolerance the case is held to. The tolerances
follow the regenerated goldens' rules for the same runner key (ops_*.py),
extended to the dtype mixes and shapes the fuzzer draws; each says why.
"""
import math
from dataclasses import dataclass, field

import numpy as np
import torch

from . import replay
from .upstream import provenance, to_store

U32 = 2.0 ** -24   # f32 unit roundoff
U_BF16 = 2.0 ** -8  # bf16 unit roundoff (8 significant bits)
U_F16 = 2.0 ** -11  # f16 unit roundoff (11 significant bits)
BF16_ULP_REL = 2.0 ** -7


@dataclass
class Result:
    tensors: dict  # name -> (manifest dtype, numpy array in caseio.NPY[dtype])
    tol: dict
    tol_reason: str
    args: dict = field(default_factory=dict)  # per-output tolerances (atol_<out>, rtol_<out>, atol_reason)
    oracle: dict = field(default_factory=dict)


_PROVENANCE = {}


def _prov(key, fn, how, adjustments=()):
    # provenance hashes the callable's source file: once per run, not per case
    if key not in _PROVENANCE:
        _PROVENANCE[key] = provenance(fn, how, adjustments, kind="cpu-reference (vt-fuzz --upstream)")
    return _PROVENANCE[key]


def _man(args, specs):
    return {"args": args, "tensors": {s["name"]: {"dtype": s["dtype"]} for s in specs}}


def _stored(got, outputs):
    """The upstream tensors in the dtypes the request asks for (rounded to nearest even when narrower)."""
    out = {}
    for name, dtype in outputs.items():
        if name not in got:
            raise KeyError(f"upstream returned no '{name}'")
        out[name] = (dtype, to_store(got[name], dtype))
    return out


# --- rmsnorm -------------------------------------------------------------------

def _rmsnorm_tol(args, dtypes, outputs, h, wmax):
    """A bound derived for any dtype mix and width (vt-fuzz draws all of them).

    Every error here is relative: both sides sum H squares in f32 in different
    orders, each within gamma_H of the exact sum, so the two rsqrt factors
    differ by at most about (H/2 + 4) u each: (H + 8) u32 together (the
    division by H, the eps add, rsqrt vs 1/sqrt and the products inside the
    +8). Where 16-bit dtypes are involved, add one unit roundoff per rounding
    only one side makes: upstream's `x.to(weight.dtype) * weight` rounds the
    normalized row and the product to a 16-bit weight dtype (2);
    `.to(x.dtype)` rounds to a 16-bit x dtype that is not the product's (1);
    the kernel rounds a 16-bit out (1), and so does the golden's store of
    upstream's x-dtype result where out's dtype is another (1; vt-fuzz's first
    rms_norm run: x f32, out bf16, 1 element one bf16 ulp apart, 2^-7 relative,
    against the 2^-8 that had counted only the kernel's rounding); with a
    16-bit residual stream upstream
    normalizes the unrounded f32 sum, the kernel the stored one (2: the element
    and its row's rms). No atol but f16's: a rounding into f16's subnormal
    range is off by up to 2^-25 absolute, times the weight after it. (The regenerated goldens' fixed
    8e-3 atol is wider than the signal where x is small against eps - vt-fuzz
    draws scale 0.001 with eps 0.01: MISTRUSTED.)"""
    gemma = bool(args.get("gemma"))
    x, w = dtypes["x"], dtypes["weight"]
    narrow = [d for d in (x, w, outputs.get("out"), dtypes.get("residual_in")) if d in ("bf16", "f16")]
    f32_part = (h + 8) * U32
    if not narrow:
        return {"atol": 0.0, "rtol": f32_part}, (
            f"f32 throughout: the two sums of H = {h} squares in different orders (and the rsqrt, eps and products) "
            f"differ by up to (H + 8) u32 relative")
    u = U_BF16 if "bf16" in narrow else U_F16
    rounds = []  # the dtype of each rounding only one side makes
    if w in ("bf16", "f16") and not gemma:
        rounds += [w, w]
        if x in ("bf16", "f16") and x != w:
            rounds.append(x)
    elif x in ("bf16", "f16"):
        rounds.append(x)
    if outputs.get("out") in ("bf16", "f16"):
        rounds.append(outputs["out"])
        if x != outputs["out"]:
            rounds.append(outputs["out"])  # the golden stores upstream's x-dtype result in out's dtype
    if dtypes.get("residual_in") in ("bf16", "f16"):
        rounds += [dtypes["residual_in"]] * 2
    k = len(rounds)
    # an f16 rounding in the subnormal range is off by up to 2^-25 absolute,
    # and the one of the normalized row is then multiplied by the weight
    atol = rounds.count("f16") * 2.0 ** -25 * (1.0 + wmax)
    return {"atol": atol, "rtol": k * u + f32_part}, (
        f"16-bit operands: {k} roundings of unit {u:.3g} that only one side makes (upstream's x.to(weight.dtype) "
        f"* weight and .to(x.dtype), the kernel's out store, the residual stream normalized unrounded upstream) "
        f"plus (H + 8) u32 for the two f32 sums of squares; atol: 2^-25 (1 + max|w|) per f16 rounding (f16's "
        f"subnormal spacing, times the weight that multiplies the rounded row)")


def rmsnorm(args, specs, arrays, outputs):
    from vllm.model_executor.layers.layernorm import GemmaRMSNorm, RMSNorm
    got = replay._rmsnorm(_man(args, specs), arrays)
    _finite_or_skip(got, arrays, "it rounds to 16-bit dtypes")
    dtypes = {s["name"]: s["dtype"] for s in specs}
    w = replay._t(_man(args, specs), arrays, "weight").double()
    wmax = float((w + 1.0 if args.get("gemma") else w).abs().max()) if w.numel() else 0.0
    tol, why = _rmsnorm_tol(args, dtypes, outputs, int(arrays["x"].shape[-1]), wmax)
    extra = {}
    if "residual_out" in outputs:
        # the updated stream: f32(x) + f32(residual), rounded to x's dtype (= the
        # residual's, to_upstream requires it) on both sides: defined exactly
        extra = {"atol_residual_out": 0.0, "rtol_residual_out": 0.0,
                 "atol_reason": "residual_out is one f32 add of the stored inputs rounded to x's dtype on both "
                                "sides: exact; out keeps the manifest's tolerance"}
    cls = GemmaRMSNorm if args.get("gemma") else RMSNorm
    return Result(_stored(got, outputs), tol, why, extra,
                  oracle=_prov(("rmsnorm", cls), cls.forward_native, "forward_native (plain torch) on CPU tensors"))


# --- mamba2_chunk_scan -----------------------------------------------------------

def mamba2_chunk_scan(args, specs, arrays, outputs):
    import contextlib

    from . import ops_ssm
    from .upstream import from_store
    ssd, _ = ops_ssm._mamba()
    dtypes = {s["name"]: s["dtype"] for s in specs}

    def t(name):
        return from_store(arrays[name], dtypes[name]) if name in arrays else None

    x, dt, A, B, C, D, z = (t(n) for n in ("x", "dt", "A", "B", "C", "D", "z"))
    dt_bias, init = t("dt_bias"), t("initial_states")
    cu, ccs, lci, sidx = (t(n) for n in ("cu_seqlens", "cu_chunk_seqlens", "last_chunk_indices", "seq_idx"))
    cs = int(args["chunk_size"])
    softplus = bool(args.get("dt_softplus", False))
    dt_min = float(args.get("dt_min", 0.0))
    dt_max = math.inf if args.get("dt_max") is None else float(args["dt_max"])
    T, H, P = x.shape

    def run(x, dt, B, C, z):
        out = torch.empty(T, H, P)
        finals = ssd.mamba_chunk_scan_combined_varlen(
            x, dt, A, B, C, cs, cu, ccs, lci, sidx, out, D=D, z=z, dt_bias=dt_bias, initial_states=init,
            dt_softplus=softplus, dt_limit=(dt_min, dt_max), state_dtype=torch.float32)
        return out, finals

    act = dtypes["x"]
    with ops_ssm._interpreter_bf16_as_compiled() if act == "bf16" else contextlib.nullcontext():
        out, finals = run(x, dt, B, C, z)
    truth = ops_ssm.scan_reference(x, dt, A, B, C, D, z, dt_bias, init, cu, softplus, dt_min, dt_max)
    dev = [(o.double() - r).abs() for o, r in zip((out, finals), truth)]
    out_store = outputs.get("out", act)
    if act == "f32":
        tol, why, extra = ops_ssm._scan_f32_tol([float(d.max()) for d in dev])
        if out_store == "bf16":
            # out rounded once to bf16 on each side from f32 values that agree within atol_out:
            # where a rounding boundary falls between them they differ by one bf16 ulp more
            extra["rtol_out"] = BF16_ULP_REL
            tol["rtol"] = BF16_ULP_REL
            why += "; out stored in bf16 by both sides: plus one bf16 ulp (2^-7 relative)"
    else:
        f32_run = run(*(v.float() if v is not None else None for v in (x, dt, B, C, z)))
        gaps32 = [float((o.double() - r).abs().max()) for o, r in zip(f32_run, truth)]
        stored = out.to(torch.bfloat16) if out_store == "bf16" else out
        tol, why, extra = ops_ssm._scan_bf16_tol(dev, (stored, finals), gaps32, out_bf16=out_store == "bf16")
    adjustments = ops_ssm.TRITON_ADJUSTMENTS + [ops_ssm.AUTOTUNE_ADJUSTMENT, ops_ssm.MAMBA_IMPORT_ADJUSTMENT]
    return Result(_stored({"out": out, "final_states": finals}, outputs), tol, why, extra,
                  _prov("mamba2_chunk_scan", ssd.mamba_chunk_scan_combined_varlen,
                        "the Triton kernels through the interpreter (ops_ssm.mamba2_chunk_scan's call) on the "
                        "case's own metadata; state_dtype f32; out buffer f32, rounded by torch to the out dtype",
                        adjustments + ([ops_ssm.INTERP_BF16_ADJUSTMENT] if act == "bf16" else [])))


# --- mamba2_state_update ---------------------------------------------------------

SSU_ZERO_ADJUSTMENT = ("a case without D or dt_bias is called with zeros in their place (selective_state_update's "
                       "wrapper asserts both shapes): dt + 0 and out + x * 0 are exact, the same values as leaving "
                       "them out")
SSU_NULL_ADJUSTMENT = ("null_block_id -1 (no live row): vt-fuzz's slot draws use every cache line, line 0 included; "
                       "cases with a NULL row are not sent (upstream computes their out from a zero state)")


def _ssu_need(st_in, idx, x, d32, A, B, C, D, z, softplus):
    """Per-element bounds on |ours - upstream| for one decode step (doubles, exact inputs).

    Both sides do the same f32 operations but for: softplus (upstream
    log(exp(v) + 1) has absolute error ~3u + u sp, ours log1p(exp(v)) 4u
    relative: e_d = (3/sp + 5) u relative; without softplus d = dt + bias is
    the same f32 add on both sides, e_d = 0); the decay (upstream
    exp2(LOG2E * (A d)), LOG2E and the product rounded: 2u |A d| in the
    exponent, ours expf(A d); each exp within one ulp (2u): e_a = |A d| (e_d +
    4u) + 4u); the input term's order ((B d) x against (B x) d: 4u + e_d); one
    product and one add rounding per side. So per state element
        err_s = |s dA| (e_a + 4u) + |B x d| (e_d + 6u),
    and for out, y = sum_n s'_n C_n (+ D x) (* silu z): the two N-term sums in
    different orders (tl.sum against a sequential loop, each within N u
    sum|s' C|), the state's err_s through C, D x's product and add (4u of
    sum|s'C| + |Dx| for both), and silu (upstream z * sigmoid(z): exp, +1,
    /, two products; ours one fewer: 10u of |y silu|):
        err_y = |silu| (2N u sum|s'C| + sum_n |C_n| err_s + 4u S1) + 10u |silu| S1.
    Subnormal roundings (exp(A d) below 2^-126 in overflow draws) are absolute,
    2^-149 each: a floor of (N + 16) 2^-149 (1 + max|C|) per output."""
    u = U32
    Nb, H, P = x.shape
    G, N = B.shape[1], B.shape[2]
    rep = H // G
    d = d32.double()
    if softplus:
        v = d
        d = torch.where(v <= 20.0, torch.log1p(torch.exp(v)), v)
        e_d = (3.0 / d + 5.0) * u
    else:
        e_d = torch.zeros_like(d)
    ad = (A.double()[None, :] * d).abs()                                  # [Nb, H]
    e_a = ad * (e_d + 4 * u) + 4 * u
    dA = torch.exp(A.double()[None, :] * d)
    rows = idx.long() if idx is not None else torch.arange(Nb)
    s = st_in.double()[rows]                                              # [Nb, H, P, N]
    Bh = B.double().repeat_interleave(rep, dim=1)                         # [Nb, H, N]
    Ch = C.double().repeat_interleave(rep, dim=1)
    t1 = (s * dA[:, :, None, None]).abs()
    t2 = (Bh[:, :, None, :] * x.double()[..., None] * d[:, :, None, None]).abs()
    err_s = t1 * (e_a[:, :, None, None] + 4 * u) + t2 * (e_d[:, :, None, None] + 6 * u)
    snew = s * dA[:, :, None, None] + Bh[:, :, None, :] * x.double()[..., None] * d[:, :, None, None]
    sc = (snew * Ch[:, :, None, :]).abs().sum(-1)                         # sum|s'C| [Nb, H, P]
    dx = (D.double()[None, :, None] * x.double()).abs() if D is not None else torch.zeros_like(sc)
    s1 = sc + dx
    carried = (err_s * Ch[:, :, None, :].abs()).sum(-1)
    err_y = 2 * N * u * sc + carried + 4 * u * s1
    if z is not None:
        zz = z.double()
        silu = (zz * torch.sigmoid(zz)).abs()
        err_y = silu * (err_y + 10 * u * s1)
    # the state's bound, scattered to the cache lines the rows update (others: untouched, exact)
    need_state = torch.zeros(st_in.shape, dtype=torch.float64)
    need_state[rows] = err_s
    floor = (N + 16) * 2.0 ** -149 * (1.0 + (float(C.double().abs().max()) if C.numel() else 0.0))
    return err_y, need_state, floor, float(e_d.max()) if e_d.numel() else 0.0


def mamba2_state_update(args, specs, arrays, outputs):
    from . import ops_ssm
    from .caseio import as_float
    from .trust import fit_tolerance
    from .upstream import from_store
    _, ssm = ops_ssm._mamba()
    dtypes = {s["name"]: s["dtype"] for s in specs}

    def t(name):  # every operand as its exact f32 value (the kernel loads each .to(float32))
        return from_store(arrays[name], dtypes[name]).float() if name in arrays else None

    x, dt, A, B, C, D, z, dt_bias, st_in = (t(n) for n in ("x", "dt", "A", "B", "C", "D", "z", "dt_bias", "state_in"))
    idx = from_store(arrays["state_indices"], "i32") if "state_indices" in arrays else None
    softplus = bool(args.get("dt_softplus", False))
    Nb, H, P = x.shape
    N = B.shape[2]
    zero = torch.zeros(H)
    st = st_in.clone()
    out = torch.empty(Nb, H, P)
    ssm.selective_state_update(
        st, x, dt[:, :, None].expand(-1, -1, P), A[:, None, None].expand(-1, P, N), B, C,
        (D if D is not None else zero)[:, None].expand(-1, P), (dt_bias if dt_bias is not None else zero)[:, None].expand(-1, P),
        z=z, dt_softplus=softplus, state_batch_indices=idx, dst_state_batch_indices=idx,
        null_block_id=int(args.get("null_block_id", -1)), out=out)
    got = {"out": out, "state_out": st}
    _finite_or_skip(got, arrays, "exp(A dt) and the products in f32")
    d32 = dt + (dt_bias if dt_bias is not None else zero)[None, :]  # the same f32 add on both sides
    need_out, need_state, floor, e_d = _ssu_need(st_in, idx, x, d32, A, B, C, D, z, softplus)
    stored = _stored(got, outputs)
    extra, tol = {}, {"atol": 0.0, "rtol": 0.0}
    for name, need in (("out", need_out), ("state_out", need_state)):
        dtype = outputs[name]
        w = as_float(dtype, stored[name][1]).ravel()
        # a 16-bit store on both sides from f32 values within `need`: one more ulp (<= 2^-7 |w|)
        store = BF16_ULP_REL if dtype == "bf16" else 0.0
        ladder = [store] + [2.0 ** -k for k in range(23, 2, -1) if 2.0 ** -k > store]
        atol, rtol = fit_tolerance(need.numpy().ravel() + store * np.abs(w), w, ladder, floor=floor)
        extra[f"atol_{name}"], extra[f"rtol_{name}"] = atol, rtol
        tol = {"atol": max(tol["atol"], atol), "rtol": max(tol["rtol"], rtol)}
    extra["atol_reason"] = ("per output: the atol/rtol pair covering every element's bound (_ssu_need) plus one "
                            "bf16 ulp for a bf16 store that leaves the fewest elements vacuous (trust.fit_tolerance); "
                            "untouched cache lines exact")
    why = (f"one f32 decode step, the same operations on both sides but softplus (log(exp(v) + 1) against log1p: "
           f"max relative {e_d:.3g}), the decay (exp2(LOG2E A d) against exp(A d)), the input term's order and the "
           f"N = {N}-term sum's order (2N u sum|s'C|); bounded per element (vt_regen/live.py _ssu_need), one bf16 ulp "
           f"more where a side stores bf16; floor {floor:.3g} for subnormal roundings")
    adjustments = ops_ssm.TRITON_ADJUSTMENTS + [ops_ssm.AUTOTUNE_ADJUSTMENT, ops_ssm.MAMBA_IMPORT_ADJUSTMENT,
                                                ops_ssm.BF16_STORE_ADJUSTMENT, SSU_ZERO_ADJUSTMENT,
                                                SSU_NULL_ADJUSTMENT]
    return Result(stored, tol, why, extra,
                  _prov("mamba2_state_update", ssm.selective_state_update,
                        "the Triton kernel itself (_selective_scan_update_kernel) through the interpreter, Mamba2's "
                        "tied head dim (A [H] -> [H,P,N], dt [Nb,H] -> [Nb,H,P], dt_bias and D [H] -> [H,P], stride-0 "
                        "expands as MambaMixer2 passes them); operands as exact f32 values, f32 state and out rounded "
                        "to their dtypes by torch", adjustments))


# --- gdn_decode, gdn_prefill (the gated delta rule, fla's fused_recurrent) -----------

GDN_CACHE_ADJUSTMENT = ("states in a cache whose line 0 is the NULL block (vLLM 0.33's kernels skip index 0): case "
                        "line s goes to line s + 1, the final state read back from there")


def _gdn_need(q, k, v, g, beta, h0, seqs, scale, dg=None):
    """Per-element bounds on |ours - upstream| for the gated delta rule (doubles, exact inputs).

    Both sides run the same f32 step per token and value head on the state
    row h [Dk] of each value row: h *= exp(g); v' = (v - h.k) beta;
    h += v' k; o = h.(q scale), in the same order but for the sums' (tl.sum
    against a sequential loop) and q scale's rounding. Each side's computed
    state row differs from the exact one by E_t, its 2-norm, with
        E_t <= c_t E_{t-1} + |r_t|,   c_t = exp(g) max(1, |1 - beta |k|^2|)
    (the step's linear part on a row, h (I - beta k k^T) exp(g): norm c_t,
    <= 1 for unit keys), r_t the step's own roundings, by magnitude: 3u |h
    exp(g)| (exp within one ulp, the product), |k| (beta (Dk u sum|h k| + u
    |v - h.k|) + u |v'|) (the dot, the subtraction, beta's product, entering
    the row through v' k), u |v' k| + u |h'| (the rank-one update). Out: E_t
    |q scale| + (Dk + 2) u sum|h' q scale| (the dot, q's scaling). Both sides
    obey the same bound: the difference is twice it; a state element is
    within its row's 2-norm. Slots no sequence touches: exact.
    dg (KDA only, [T, Hv, Dk]): where each side computes g itself (kda_chunk_prefill's
    gate), a bound on one side's |g - exact g| per element: its decay exp(g) is then
    off by expm1(dg) relative more, and the contraction is taken at exp(g + dg)."""
    u = U32
    T, Hk, Dk = q.shape
    Hv, Dv = v.shape[1], v.shape[2]
    rep = Hv // Hk
    qd = q.double().repeat_interleave(rep, dim=1) * scale          # [T, Hv, Dk]
    kd = k.double().repeat_interleave(rep, dim=1)
    vd, gd, bd = v.double(), g.double(), beta.double()
    need_out = torch.zeros(T, Hv, Dv, dtype=torch.float64)
    need_state = torch.zeros(h0.shape, dtype=torch.float64)
    for line, lo, hi in seqs:
        h = h0[line].double().clone()                                # [Hv, Dv, Dk]
        E = torch.zeros(Hv, Dv, dtype=torch.float64)
        for t in range(lo, hi):
            kt, qt = kd[t], qd[t]                                    # [Hv, Dk]
            knorm = kt.norm(dim=-1)                                  # [Hv]
            fac = torch.maximum(torch.ones_like(knorm), (1 - bd[t] * knorm ** 2).abs())
            if gd.dim() == 3:  # KDA: one decay per key channel, diag(exp(g)): norm max_k exp(g_k)
                decay = torch.exp(gd[t])                             # [Hv, Dk]
                c = (decay if dg is None else torch.exp(gd[t] + dg[t])).max(dim=-1).values * fac
                a = h * decay[:, None, :]
            else:
                decay = torch.exp(gd[t])                             # [Hv]
                c = decay * fac
                a = h * decay[:, None, None]
            kv = (a * kt[:, None, :]).sum(-1)                        # [Hv, Dv]
            skv = (a * kt[:, None, :]).abs().sum(-1)
            vp = (vd[t] - kv) * bd[t][:, None]
            hn = a + vp[..., None] * kt[:, None, :]
            if dg is None:
                r_a = 3 * u * a.abs().norm(dim=-1) * fac[:, None]  # through (I - beta k k^T) as well
            else:
                r_a = ((3 * u + torch.expm1(dg[t]))[:, None, :] * a.abs()).norm(dim=-1) * fac[:, None]
            r_v = knorm[:, None] * (bd[t][:, None] * (Dk * u * skv + u * (vd[t] - kv).abs()) + u * vp.abs())
            r_h = u * (vp[..., None] * kt[:, None, :]).abs().norm(dim=-1) + u * hn.abs().norm(dim=-1)
            E = c[:, None] * E + r_a + r_v + r_h
            so = (hn * qt[:, None, :]).abs().sum(-1)
            need_out[t] = 2 * (E * qt.norm(dim=-1)[:, None] + (Dk + 2) * u * so)
            h = hn
        if hi > lo:
            need_state[line] = 2 * E[..., None].expand(Hv, Dv, Dk)
    return need_out, need_state


def _gdn_result(key, args, fn, got, need_out, need_state, outputs, dk, how, adjustments):
    from .caseio import as_float
    from .trust import fit_tolerance
    stored = _stored(got, outputs)
    extra, tol = {}, {"atol": 0.0, "rtol": 0.0}
    # subnormal roundings are absolute (2^-149 each, (Dk + 8) per element at most)
    floor = (dk + 8) * 2.0 ** -149
    for name, need in (("out", need_out), ("state_out", need_state)):
        dtype = outputs[name]
        w = as_float(dtype, stored[name][1]).ravel()
        store = BF16_ULP_REL if dtype == "bf16" else 0.0  # both sides round an f32 out to bf16: one more ulp
        ladder = [store] + [2.0 ** -j for j in range(23, 2, -1) if 2.0 ** -j > store]
        atol, rtol = fit_tolerance(need.numpy().ravel() + store * np.abs(w), w, ladder, floor=floor)
        extra[f"atol_{name}"], extra[f"rtol_{name}"] = atol, rtol
        tol = {"atol": max(tol["atol"], atol), "rtol": max(tol["rtol"], rtol)}
    extra["atol_reason"] = ("per output: the atol/rtol pair covering every element's bound (live._gdn_need: twice "
                            "one side's running row-norm error bound) plus one bf16 ulp for a bf16 out, leaving the "
                            "fewest elements vacuous (trust.fit_tolerance); slots no sequence touches exact")
    why = ("the gated delta rule in f32 on both sides, the same step order (fla fused_recurrent and the CPU "
           "kernel), different sum orders: per element twice one side's bound, the state row's 2-norm error "
           "carried through each step's contraction exp(g) |I - beta k k^T| plus that step's roundings "
           f"(Dk = {dk}-term dots), out through |q scale| (vt_regen/live.py _gdn_need); one bf16 ulp more for a "
           "bf16 out")
    return Result(stored, tol, why, extra, _prov(key, fn, how, adjustments))


def _gdn_common(args, specs, arrays):
    from . import ops_gdn
    from .upstream import from_store
    dtypes = {s["name"]: s["dtype"] for s in specs}

    def t(name):  # exact f32 values: the kernel loads every operand .to(float32)
        return from_store(arrays[name], dtypes[name]).float()
    return ops_gdn, dtypes, t


def gdn_decode(args, specs, arrays, outputs):
    ops_gdn, dtypes, t = _gdn_common(args, specs, arrays)
    fr = ops_gdn._fused_recurrent()
    q, k, v, g, beta, st_in = (t(n) for n in ("q_l2", "k_l2", "v", "g", "beta", "state_in"))
    bsz = q.shape[0]
    lines = [int(i) for i in arrays["state_idx"]] if "state_idx" in arrays else list(range(bsz))
    scale = float(args["scale"])
    cache = torch.zeros((st_in.shape[0] + 1,) + tuple(st_in.shape[1:]))
    cache[1:] = st_in
    o, _ = fr.fused_recurrent_gated_delta_rule(
        q[None], k[None], v[None], g[None], beta[None], scale=scale, initial_state=cache, inplace_final_state=True,
        cu_seqlens=torch.arange(bsz + 1, dtype=torch.long),
        ssm_state_indices=torch.tensor([s + 1 for s in lines], dtype=torch.int32), use_qk_l2norm_in_kernel=False)
    got = {"out": o[0], "state_out": cache[1:].clone()}
    _finite_or_skip(got, arrays, "f32 recurrence")
    need_out, need_state = _gdn_need(q, k, v, g, beta, st_in, [(s, b, b + 1) for b, s in enumerate(lines)], scale)
    return _gdn_result("gdn_decode", args, fr.fused_recurrent_gated_delta_rule, got, need_out, need_state, outputs,
                       q.shape[2], "fla's fused_recurrent_gated_delta_rule (the Triton kernel, interpreter) on the "
                       "chain's q_l2, k_l2, g, beta, one token per sequence, use_qk_l2norm_in_kernel False; operands "
                       "as exact f32 values, out rounded to its dtype by torch",
                       TRITON_ADJ() + [ops_gdn.ALIAS_ADJUSTMENT, GDN_CACHE_ADJUSTMENT])


def gdn_prefill(args, specs, arrays, outputs):
    ops_gdn, dtypes, t = _gdn_common(args, specs, arrays)
    q, k, v, g, beta, st_in = (t(n) for n in ("q", "k", "v", "g", "beta", "state_in"))
    qsl = torch.from_numpy(arrays["query_start_loc"].astype(np.int32))
    scale = float(args["scale"])
    out, state_out, fn = ops_gdn.prefill_run(q, k, v, g, beta, st_in, qsl, scale)
    got = {"out": out, "state_out": state_out}
    _finite_or_skip(got, arrays, "f32 recurrence")
    off = [int(x) for x in qsl]
    need_out, need_state = _gdn_need(q, k, v, g, beta, st_in,
                                     [(n, off[n], off[n + 1]) for n in range(len(off) - 1)], scale)
    return _gdn_result("gdn_prefill", args, fn, got, need_out, need_state, outputs, q.shape[2],
                       "fla's fused_recurrent_gated_delta_rule (the Triton kernel, interpreter) over the varlen "
                       "batch, states in a NULL-block cache with per-token indices (ops_gdn.prefill_run); operands "
                       "as exact f32 values, out rounded to its dtype by torch",
                       TRITON_ADJ() + [ops_gdn.ALIAS_ADJUSTMENT, GDN_CACHE_ADJUSTMENT])


def kda_gated_delta_rule(args, specs, arrays, outputs):
    from . import ops_ssm
    ops_gdn, dtypes, t = _gdn_common(args, specs, arrays)
    q, k, v, g, beta, st_in = (t(n) for n in ("q", "k", "v", "g", "beta", "state_in"))
    qsl = torch.from_numpy(arrays["query_start_loc"].astype(np.int32))
    scale = float(args["scale"])
    out, state_out, fn = ops_ssm.kda_recurrent_run(q, k, v, g, beta, st_in, qsl, scale)
    got = {"out": out, "state_out": state_out}
    _finite_or_skip(got, arrays, "f32 recurrence")
    off = [int(x) for x in qsl]
    need_out, need_state = _gdn_need(q, k, v, g, beta, st_in,
                                     [(n, off[n], off[n + 1]) for n in range(len(off) - 1)], scale)
    return _gdn_result("kda_gated_delta_rule", args, fn, got, need_out, need_state, outputs, q.shape[2],
                       "fla's fused_recurrent_kda (the Triton kernel with IS_KDA, interpreter) over the varlen batch, "
                       "states in a NULL-block cache with per-token indices (ops_ssm.kda_recurrent_run); operands as "
                       "exact f32 values, out rounded to its dtype by torch",
                       TRITON_ADJ() + [ops_ssm.AUTOTUNE_ADJUSTMENT, ops_ssm.KDA_ALIAS_ADJUSTMENT,
                                       GDN_CACHE_ADJUSTMENT])


def TRITON_ADJ():
    from .upstream import TRITON_ADJUSTMENTS
    return list(TRITON_ADJUSTMENTS)


# --- scaled_fp4_quant (NVFP4 codes: exact) ------------------------------------------

def scaled_fp4_quant(args, specs, arrays, outputs):
    from . import ops_fp4
    from .upstream import from_store
    dtypes = {s["name"]: s["dtype"] for s in specs}
    x = from_store(arrays["x"], dtypes["x"])
    layout = args.get("scale_layout", "linear")
    packed, scale, fn, adj = ops_fp4.quantize(x, float(args["gsi"]), "linear")
    if layout == "swizzled":
        # ops_fp4.quantize's swizzle, with its inverse check sliced to the K/16 scale columns:
        # vLLM's convert_swizzled_to_linear slices them by K (elements), so where K/16 is not a
        # multiple of 4 it returns the padding columns too (vt-fuzz draws G = 1, 3, 5, 17, ...)
        m, k = x.shape
        lin = torch.from_numpy(scale).view(torch.float8_e4m3fn)
        sw, _ = ops_fp4._swizzle(lin)
        back = ops_fp4._emu().convert_swizzled_to_linear(sw, m, k, 16)[:, :k // 16]
        if not torch.equal(back.contiguous().view(torch.uint8), lin.view(torch.uint8)):
            raise ValueError("convert_swizzled_to_linear does not invert swizzle_blockscale")
        scale = sw.contiguous().view(torch.uint8).numpy().copy()
        adj = adj + [ops_fp4.SWIZZLE_ADJUSTMENT]
    return Result({"out_packed": ("u8", packed), "out_scale": ("fp8_e4m3", scale)}, *ops_fp4.QUANT_TOL,
                  oracle=_prov(("scaled_fp4_quant", layout), fn,
                               "ref_nvfp4_quant (plain torch) on CPU tensors with the case's gsi; its e2m1 values "
                               "packed two per byte (low nibble first, sign bit kept), its f32 scales stored as e4m3 "
                               "bits" + ("; swizzled by swizzle_blockscale" if layout == "swizzled" else "")
                               + " (ops_fp4.quantize, as the regenerated goldens)", adj))


# The fused quantizers: upstream's activation in f32 (ops_fp4's: SiluAndMul.forward_native on the
# upcast gate_up, on gate and up concatenated, Qwen3-Next's attn * sigmoid(gate)), rounded once to
# bf16 (act_bf16), then ref_nvfp4_quant as scaled_fp4_quant.
FUSED_ACT_REL = 10 * U32
FUSED_ACT_WHY = ("each side's f32 activation is within 5 u of the exact one (exp within one ulp, 2 u; the add, the "
                 "division or sigmoid's reciprocal and the product, u each): 10 u apart, plus 2^-147 absolute for "
                 "f32 subnormal results")


def _fused_act(key, arrays, dtypes):
    from vllm.model_executor.layers.activation import SiluAndMul

    from .upstream import from_store

    def t(name):
        return from_store(arrays[name], dtypes[name]).float()  # bf16/f16 upcast exactly (ops_fp4.UPCAST)
    if key == "silu_and_mul_fp4_quant":
        return SiluAndMul().forward_native(t("gate_up")), SiluAndMul.forward_native
    if key == "silu_mul_fp4_quant":
        return SiluAndMul().forward_native(torch.cat([t("gate"), t("up")], dim=-1)), SiluAndMul.forward_native
    return t("attn") * torch.sigmoid(t("gate")), torch.sigmoid  # qwen3_next.py's gate expression


def _fused_fp4(key, args, specs, arrays, outputs):
    from . import ops_fp4
    dtypes = {s["name"]: s["dtype"] for s in specs}
    act, act_fn = _fused_act(key, arrays, dtypes)
    _finite_or_skip({"act": act}, arrays, "the f32 activation overflows")
    # An element within the two sides' f32 difference of a bf16 rounding midpoint may round to either
    # neighbour on our side: upstream's act_bf16 (and the codes of its group) cannot vouch for it.
    a = act.double()
    band = FUSED_ACT_REL * a.abs() + 2.0 ** -147
    lo, hi = (a - band).to(torch.bfloat16), (a + band).to(torch.bfloat16)
    torn = int((lo != hi).sum())
    if torn:
        raise Inexpressible(f"{torn} of {a.numel()} activations lie within the two sides' f32 difference "
                            f"({FUSED_ACT_WHY}) of a bf16 rounding midpoint: either bf16 neighbour is right")
    act16 = act.to(torch.bfloat16)
    got = scaled_fp4_quant({**args}, [{"name": "x", "dtype": "bf16"}], {"x": to_store(act16, "bf16")},
                           {"out_packed": "u8", "out_scale": "fp8_e4m3"})
    got.tensors["act_bf16"] = ("bf16", to_store(act16, "bf16"))
    got.tol_reason = (ops_fp4.QUANT_TOL[1] + "; act_bf16 exact: upstream's f32 activation rounded once to bf16, no "
                      "element within the two sides' f32 difference of a bf16 midpoint (else the case is skipped: "
                      + FUSED_ACT_WHY + ")")
    got.oracle = dict(got.oracle, activation_callable=f"{act_fn.__module__}.{act_fn.__qualname__}")
    return got


def silu_and_mul_fp4_quant(args, specs, arrays, outputs):
    return _fused_fp4("silu_and_mul_fp4_quant", args, specs, arrays, outputs)


def silu_mul_fp4_quant(args, specs, arrays, outputs):
    return _fused_fp4("silu_mul_fp4_quant", args, specs, arrays, outputs)


def sigmoid_gate_fp4_quant(args, specs, arrays, outputs):
    return _fused_fp4("sigmoid_gate_fp4_quant", args, specs, arrays, outputs)


# --- gated linear units, embedding ------------------------------------------------

def _glu_tol(key, x, x_dtype, out_dtype):
    """In f32 both sides evaluate the activation and one product with different
    exp/tanh implementations: a few f32 ulps relative (rtol 1e-5 as the
    regenerated f32 goldens), except where the activation cancels: GELU-tanh's
    1 + tanh(inner) for negative g loses relative precision, so its error is a
    few ulps of 1 times |0.5 g up| (atol 8 u32 max|0.5 g up| over the case),
    and silu's sigmoid underflows into f32's subnormals past g ~ -87 (atol
    1e-30). In 16 bits upstream rounds the activation and the product to x's
    dtype (2 roundings), the kernel a 16-bit out (1), the golden's store of
    upstream's result in another 16-bit out dtype (1): that many unit
    roundoffs more, and 2^-25 absolute per f16 rounding (its subnormal
    spacing). (The regenerated goldens' fixed 8e-3 atol is wider than the
    signal for gelu_and_mul at scale 0.05: MISTRUSTED.)"""
    d = x.shape[-1] // 2
    g, up = x[..., :d].astype(np.float64), x[..., d:].astype(np.float64)
    atol = 1e-30
    if key == "gelu_and_mul" and g.size:
        atol = max(atol, 8 * U32 * float(np.max(np.abs(0.5 * g * up))))
    rounds = ([x_dtype] * 2 if x_dtype in ("bf16", "f16") else []) + ([out_dtype] if out_dtype in ("bf16", "f16") else [])
    if out_dtype in ("bf16", "f16") and x_dtype != out_dtype:
        rounds.append(out_dtype)  # the golden stores upstream's x-dtype result in out's dtype
    if not rounds:
        return {"atol": atol, "rtol": 1e-5}, ("f32 in and out: exp/tanh of torch and of the kernel differ by a few "
                                              "f32 ulps (rtol 1e-5 as the regenerated f32 goldens); atol: "
                                              + ("8 u32 max|0.5 g up| for 1 + tanh's cancellation" if key == "gelu_and_mul"
                                                 else "1e-30 for sigmoid's f32 underflow"))
    u = U_BF16 if "bf16" in rounds else U_F16
    k = len(rounds)
    # an f16 rounding of the activation in the subnormal range is off by up to
    # 2^-25 absolute and is then multiplied by up; the product's by 2^-25
    # (vt-fuzz: silu of g ~ -10 in f16 is subnormal, |up| ~ 25: 5e-7 apart)
    f16_atol = (2.0 ** -25 * (1.0 + float(np.max(np.abs(up), initial=0.0))) if x_dtype == "f16" else 0.0) + \
        (2.0 ** -25 if out_dtype == "f16" else 0.0)
    return {"atol": atol + f16_atol, "rtol": k * u + 1e-5}, (
        f"16-bit operands: {k} roundings of unit {u:.3g} only one side makes (upstream rounds the activation and "
        f"the product to x's dtype, the kernel its out store) plus the f32 rule (rtol 1e-5); atol as in f32, plus "
        f"2^-25 (1 + max|up|) for f16's subnormal spacing (the activation's rounding times up, the product's)")


class Inexpressible(Exception):
    """Upstream's result cannot be a golden for this case (the reply says why; vt-fuzz counts it SKIPPED)."""


def _finite_or_skip(got, arrays, why):
    """A golden cannot vouch for a non-finite value: where upstream overflows
    (e.g. the product rounded to f16) from finite inputs, the case is skipped."""
    if all(np.isfinite(a).all() for a in arrays.values() if a.dtype.kind == "f"):
        for name, t in got.items():
            if t.is_floating_point() and not bool(torch.isfinite(t.float()).all()):
                raise Inexpressible(f"upstream's {name} is not finite from finite inputs ({why})")


def _glu(key, layer, args, specs, arrays, outputs):
    fn = {"silu_and_mul": replay._silu_and_mul, "gelu_and_mul": replay._gelu_and_mul}[key]
    got = fn(_man(args, specs), arrays)
    _finite_or_skip(got, arrays, "it computes in x's dtype")
    dtypes = {s["name"]: s["dtype"] for s in specs}
    x = replay._t(_man(args, specs), arrays, "x").double().numpy()
    tol, why = _glu_tol(key, x, dtypes["x"], outputs.get("out"))
    return Result(_stored(got, outputs), tol, why,
                  oracle=_prov(key, layer.forward_native, "forward_native (plain torch) on CPU tensors"))


def silu_and_mul(args, specs, arrays, outputs):
    from vllm.model_executor.layers.activation import SiluAndMul
    return _glu("silu_and_mul", SiluAndMul, args, specs, arrays, outputs)


def gelu_and_mul(args, specs, arrays, outputs):
    from vllm.model_executor.layers.activation import GeluAndMul
    return _glu("gelu_and_mul", GeluAndMul, args, specs, arrays, outputs)


def embedding(args, specs, arrays, outputs):
    got = replay._embedding(_man(args, specs), arrays)
    return Result(_stored(got, outputs), {"atol": 0.0, "rtol": 0.0},
                  "a gather: every output element is a table element, rounded to out's dtype (nearest even) by "
                  "both sides",
                  oracle=_prov("embedding", torch.nn.functional.embedding, "plain torch (VocabParallelEmbedding on "
                               "one rank is F.embedding)"))


LIVE = {"rmsnorm": rmsnorm, "mamba2_chunk_scan": mamba2_chunk_scan, "silu_and_mul": silu_and_mul,
        "gelu_and_mul": gelu_and_mul, "embedding": embedding}
LIVE["mamba2_state_update"] = mamba2_state_update
LIVE["gdn_decode"] = gdn_decode
LIVE["gdn_prefill"] = gdn_prefill
LIVE["scaled_fp4_quant"] = scaled_fp4_quant
LIVE["silu_and_mul_fp4_quant"] = silu_and_mul_fp4_quant
LIVE["silu_mul_fp4_quant"] = silu_mul_fp4_quant
LIVE["sigmoid_gate_fp4_quant"] = sigmoid_gate_fp4_quant
LIVE["kda_gated_delta_rule"] = kda_gated_delta_rule
# The keys of live_more.py (it imports this module's helpers, defined above).
from . import live_more  # noqa: E402
LIVE.update(live_more.LIVE)
from . import live_third  # noqa: E402
LIVE.update(live_third.LIVE)
from . import live_composite  # noqa: E402
LIVE.update(live_composite.LIVE)


def run(op, args, specs, arrays, outputs):
    fn = LIVE.get(op)
    if fn is None:
        raise KeyError(f"runner key '{op}' has no live upstream call here (vt_regen/live.py LIVE: "
                       f"{', '.join(sorted(LIVE))})")
    return fn(args, specs, arrays, outputs)
