"""More runner keys for the upstream worker (vt-fuzz --upstream; live.py has the first ones and the helpers).

Each function has live.py's signature (args, specs, arrays, outputs) and runs
the callable `vt-golden regen` and its replay use for the runner key, on the
inputs the catalog's inverse adapter wrote; each tolerance is derived for the
dtype mixes and shapes vt-fuzz draws, its reason in words.
"""
import numpy as np
import torch

from . import replay
from .live import U32, Result, _finite_or_skip, _man, _prov, _stored

# The unit roundoff of each dtype a store may round to.
UNIT = {"f32": U32, "bf16": 2.0 ** -8, "f16": 2.0 ** -11}
# Half the spacing of f32's subnormals: the most a product or sum that
# underflows can lose (absolute).
F32_UNDERFLOW = 2.0 ** -150


def _dtypes(specs):
    return {s["name"]: s["dtype"] for s in specs}


def _f64(args, specs, arrays, name):
    return replay._t(_man(args, specs), arrays, name).double().numpy()


# --- matmul ----------------------------------------------------------------------

def _matmul_tol(a, b, out_dtype, got):
    """A bound on |kernel - upstream| derived from this case's data.

    Upstream's own error is measured: its f32 result against the exact dot
    products (in double: the products of f32 values are exact there and the
    double sum of K terms is within K 2^-53 sum|a||b|, added). The kernel's
    is bounded by the running error bound of its documented order
    (docs/ops/gemm.md: from +0 in k order, one f32 product and one f32 add per
    step): u sum_k (|p_k| + |s_k|) over its own f32 products p_k and partial
    sums s_k, simulated here, times (1 + u) (the bound's second-order terms),
    plus 2^-150 per product and add that underflows. The worst-case gamma_K
    sum|a||b| for any order was wider than the value of a single dot product
    with cancellation (vt-fuzz: M = N = 1, K = 1024, MISTRUSTED). Where every
    input is a whole number and max sum|a||b| < 2^24 every product and
    partial sum is exact in f32 in any order: 0. A 16-bit out is rounded once
    by the kernel and once by the golden's store of upstream's f32 result:
    |r(x) - r(y)| <= (1 + u) E + 2u/(1 - u) |r(y)|."""
    k = a.shape[1]
    s = np.abs(a) @ np.abs(b)
    smax = float(s.max()) if s.size else 0.0
    whole = bool(np.all(a == np.round(a)) and np.all(b == np.round(b)))
    if whole and smax < 2.0 ** 24:
        e, why = 0.0, (f"whole-number inputs with max sum|a||b| = {smax:g} < 2^24: every product and partial sum "
                       f"is exact in f32 in any order, so both sides hold the exact dot products")
    else:
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
        part = np.zeros(s.shape, np.float32)
        run = np.zeros(s.shape)
        with np.errstate(over="ignore", invalid="ignore"):
            for j in range(k):
                prod = a32[:, j:j + 1] * b32[j:j + 1, :]
                part = part + prod
                run += np.abs(prod.astype(np.float64)) + np.abs(part.astype(np.float64))
        kernel = (1 + U32) * U32 * run + 2 * k * F32_UNDERFLOW
        up = np.abs(got.double().numpy().reshape(s.shape) - a @ b) + k * 2.0 ** -53 * s
        e = float((kernel + up).max()) if s.size else 0.0
        why = (f"K = {k}: upstream's f32 result measured against the exact dot products (double, + K 2^-53 "
               f"sum|a||b|), plus the kernel's running error bound in its documented order (from +0 in k, one f32 "
               f"product and add per step: u sum(|p_k| + |s_k|), simulated), per element, their max {e:.3g}")
    if out_dtype == "f32":
        return {"atol": e, "rtol": 0.0}, why
    u = UNIT[out_dtype]
    atol = e * (1 + u) + (2 * 2.0 ** -25 if out_dtype == "f16" else 0.0)
    return {"atol": atol, "rtol": 2 * u / (1 - u)}, (
        why + f"; out stored in {out_dtype} by the kernel and by the golden (upstream's f32 result): "
        f"(1 + u) E + 2u/(1 - u) |value|, u = {u:.3g}" + (" (+2^-25 per f16 subnormal rounding)"
                                                          if out_dtype == "f16" else ""))


def matmul(args, specs, arrays, outputs):
    import torch
    got = replay._matmul(_man(args, specs), arrays)
    _finite_or_skip(got, arrays, "an f32 sum that overflows")
    a, b = _f64(args, specs, arrays, "a"), _f64(args, specs, arrays, "b")
    tol, why = _matmul_tol(a, b, outputs.get("out", "f32"), got["out"])
    return Result(_stored(got, outputs), tol, why,
                  oracle=_prov("matmul", torch.matmul, "plain torch a.float() @ b.float() (vLLM's unquantized "
                               "linear on CPU)"))


# --- l2norm ----------------------------------------------------------------------

# Half the subnormal spacing of each dtype: the most a rounding into its
# subnormal range loses (absolute).
SUBNORMAL_HALF = {"f32": 2.0 ** -150, "bf16": 2.0 ** -134, "f16": 2.0 ** -25}


def _rounded_twice(rel, out_dtype, atol=0.0):
    """(atol, rtol) between two values within `rel` relative (and `atol`) of each
    other, each rounded once to out_dtype (the kernel's store, the golden's
    store of upstream's f32 result): |r(x) - r(y)| <= (1 + u)(rel |y| + atol)
    + 2u/(1 - u) |r(y)| + 2 x half the subnormal spacing, |y| <= |r(y)|/(1 - u)."""
    if out_dtype == "f32":
        return atol + 2 * SUBNORMAL_HALF["f32"], rel
    u = UNIT[out_dtype]
    return (1 + u) * atol + 2 * SUBNORMAL_HALF[out_dtype], (1 + u) * rel / (1 - u) + 2 * u / (1 - u)


L2NORM_F32_OUT = ("output_dtype f32 whatever x's dtype, the result rounded to out's dtype by torch (round to "
                  "nearest even, as the compiled kernel's store; the interpreter's store truncates)")


def l2norm(args, specs, arrays, outputs):
    import torch
    from vllm.third_party.flash_linear_attention.ops.l2norm import l2norm_fwd

    from .upstream import TRITON_ADJUSTMENTS
    x = replay._t(_man(args, specs), arrays, "x")
    eps = float(args.get("eps", 1e-6))
    # f32 out of the kernel, rounded by torch (nearest even, as the compiled
    # store; the interpreter's store truncates): the golden holds it in out's dtype
    got = {"out": l2norm_fwd(x.clone(), eps, output_dtype=torch.float32)}
    _finite_or_skip(got, arrays, "its sum of squares overflows")
    d = int(x.shape[-1])
    # Both sides sum D squares in f32 (all terms >= 0: each sum within gamma_D
    # relative of the exact one), add eps, take 1/sqrt and one product: the two
    # results differ by at most gamma_D + 7 u32 <= (D + 8) u32 relative; squares
    # that underflow lose up to 2^-150 each, at most D 2^-149 / eps relative
    # after the + eps, halved by the square root.
    rel = (d + 8) * U32 + d * 2.0 ** -150 / eps
    atol, rtol = _rounded_twice(rel, outputs.get("out", "f32"))
    why = (f"both sides: f32 sum of D = {d} squares (in different orders), + eps, 1/sqrt, one product: "
           f"(D + 8) u32 relative (u32 = 2^-24), plus D 2^-150/eps for squares that underflow")
    if outputs.get("out", "f32") != "f32":
        why += (f"; out rounded to {outputs['out']} by the kernel and by the golden's store of upstream's f32 "
                f"result: (1 + u) rel / (1 - u) + 2u/(1 - u)")
    return Result(_stored(got, outputs), {"atol": atol, "rtol": rtol}, why,
                  oracle=_prov("l2norm", l2norm_fwd, "the Triton kernel itself, run by the Triton interpreter on a "
                               "CPU", list(TRITON_ADJUSTMENTS) + [L2NORM_F32_OUT]))


# --- rmsnorm_gated ----------------------------------------------------------------

# |act(z)| where exp(-z) overflows f32 (z < -ln(FLT_MAX) = -88.72): there
# torch's z / (1 + exp(-z)) is -0 and 1 / (1 + exp(-z)) is 0, while the true
# value (and a kernel that guards the overflow) is at most this in magnitude.
_Z_OVERFLOW = float(np.log(np.finfo(np.float32).max))
GATE_LOST = {"silu": _Z_OVERFLOW * float(np.exp(-_Z_OVERFLOW)), "sigmoid": float(np.exp(-_Z_OVERFLOW))}


def rmsnorm_gated(args, specs, arrays, outputs):
    """Norm before the gate over whole rows (rms_norm_gated): out = x rstd w act(z)."""
    import torch
    from vllm.model_executor.layers.layernorm import RMSNormGated
    from vllm.third_party.flash_linear_attention.ops.layernorm_guard import rms_norm_ref
    man = _man(args, specs)
    x, z, w = (replay._t(man, arrays, n).float() for n in ("x", "gate", "weight"))
    eps = float(args["eps"])
    act = args.get("activation", "silu")
    if not args.get("norm_before_gate", True) or args.get("group_size") is not None:
        raise ValueError("rmsnorm_gated: only norm before the gate over whole rows is mapped")
    # The callables of vt-golden regen (ops_more.rmsnorm_gated and its sigmoid
    # cases) on the inputs as f32 - exact, and what both do first - so the
    # result stays f32 (fla's rms_norm_ref returns x's dtype, forward_static
    # orig_dtype); the golden rounds it once to out's dtype.
    if act == "sigmoid":
        fn = RMSNormGated.forward_static
        y = fn(x, z, w, eps, torch.float32, group_size=None, norm_before_gate=True, activation="sigmoid")
    else:
        fn = rms_norm_ref
        y = fn(x, w, None, z=z, eps=eps, group_size=None, norm_before_gate=True, upcast=True)
    got = {"out": y}
    _finite_or_skip(got, arrays, "its sum of squares overflows")
    d = int(x.shape[-1])
    # Both sides in f32 from the same exact inputs: the rms part as rmsnorm's
    # rule, (D + 8) u32 relative (two D-term sums of squares in different
    # orders, /D, + eps, 1/sqrt, the products by x and w); the gate, z/(1 +
    # exp(-z)) or 1/(1 + exp(-z)), within 3 u32 on each side (exp within one
    # ulp - glibc's expf and torch's vectorised exp -, the add, the quotient)
    # and the product by it (1 u32 each): (D + 16) u32. Squares that underflow
    # lose up to 2^-150 each: D 2^-149/eps relative after + eps. Absolute:
    # where exp(-z) overflows one side may give 0 for act(z) (GATE_LOST at
    # most), times the largest |x rstd w| of the case.
    xd, wd = x.double(), w.double()
    rstd = 1.0 / torch.sqrt((xd * xd).mean(dim=-1, keepdim=True) + eps)
    scale_max = float((xd * rstd * wd).abs().max())
    rel = (d + 16) * U32 + d * 2.0 ** -149 / eps
    atol, rtol = _rounded_twice(rel, outputs.get("out", "f32"), GATE_LOST[act] * scale_max * (1 + rel))
    why = (f"both sides in f32: the rms part (D + 8) u32 relative (D = {d}: sums of squares in different orders, "
           f"/D, + eps, 1/sqrt, products), the {act} gate 3 u32 per side (exp within 1 ulp, the add, the quotient) "
           f"and its product: (D + 16) u32, plus D 2^-149/eps for squares that underflow; atol: the gate lost where "
           f"exp(-z) overflows ({GATE_LOST[act]:.3g}) times max|x rstd w|")
    if outputs.get("out", "f32") != "f32":
        why += f"; out rounded to {outputs['out']} by both sides: (1 + u) rel / (1 - u) + 2u/(1 - u)"
    how = ("plain torch: vLLM's RMSNormGated.forward_static (activation='sigmoid', orig_dtype f32)" if act == "sigmoid"
           else "plain torch: the reference of fla's Triton rmsnorm_fn (layernorm_guard.rms_norm_ref, upcast=True)")
    return Result(_stored(got, outputs), {"atol": atol, "rtol": rtol}, why,
                  oracle=_prov(("rmsnorm_gated", act), fn, how,
                               ["inputs given as f32 (exact; both callables upcast first), so the result stays f32 "
                                "and the golden rounds it to out's dtype once"]))


# --- rope -------------------------------------------------------------------------

def _rope_tol(args, positions, xs):
    """atol over q and k: the largest per-element bound of the case (f32).

    The kernel rotates by the angle p inv_freq_i in double, rounding cos and
    sin to f32 (u each). vLLM builds inv_freq_i = 1 / base^(2i/rot) in f32:
    2i/rot rounded (u relative, times e ln(base) <= ln(base) through the
    power), torch's f32 pow (one ulp: 2u), the reciprocal (u); then the
    product t inv_freq_i (u): its angle is off by at most (4 + ln base) u p
    inv_freq_i (0 for pair 0: inv_freq 1 exactly, p < 2^24 exact), and its
    f32 cos/sin are within one ulp (2u) of those of that angle. So each
    cos/sin entry differs by |dtheta| + 3u, which moves an output by
    (|x1| + |x2|)(|dtheta| + 3u); the two f32 products and the add/sub of
    each side add gamma_2 (|x1| + |x2|) (2u each, 4u both): per element
    (|x1| + |x2|)(|dtheta| + 7u), plus 2^-150 per f32 operation that
    underflows (6 between the two sides). Dims past rot are copied (exact)."""
    rot, d = int(args["rotary_dim"]), int(args["head_size"])
    base = float(args["base"])
    half = rot // 2
    inv = base ** (-(2.0 * np.arange(half)) / rot)
    dtheta = (4 + np.log(base)) * U32 * positions.astype(np.float64)[:, None] * inv[None, :]  # [T, half]
    dtheta[:, 0] = 0.0
    worst = 0.0
    for x in xs:  # [T, H*D] as f64
        x = x.reshape(x.shape[0], -1, d)
        pair = np.abs(x[..., :half]) + np.abs(x[..., half:rot])  # [T, H, half]
        if pair.size:
            worst = max(worst, float((pair * (dtheta[:, None, :] + 7 * U32)).max()))
    return worst + 6 * F32_UNDERFLOW


def rope(args, specs, arrays, outputs):
    from . import ops_rope
    man = _man(args, specs)
    dtype = man["tensors"]["q_in"]["dtype"]
    if not args.get("is_neox_style", True) or dtype not in ("f32", "bf16"):
        raise ValueError("rope: only NeoX pairing on f32 or bf16 q/k is mapped")
    positions = replay._t(man, arrays, "positions")
    params = {"rope_type": "default", "rope_theta": float(args["base"]), "rope_dim": int(args["rotary_dim"])}
    q, k = replay._t(man, arrays, "q_in"), replay._t(man, arrays, "k_in")
    rope_obj, fwd_name, got, adjustments = ops_rope.run_rope(
        int(args["head_size"]), int(args["max_position"]), True, params, dtype, positions, q, k)
    got = {"q_out": got["q_out"], "k_out": got["k_out"]}
    _finite_or_skip(got, arrays, "f32 products that overflow")
    atol = _rope_tol(args, arrays["positions"], [_f64(args, specs, arrays, n) for n in ("q_in", "k_in")])
    if dtype == "bf16":
        from .live_third import rope_plain_bf16_tol
        tol, why = rope_plain_bf16_tol(args, positions, q, k, atol, _stored(got, outputs))
        fwd = getattr(type(rope_obj), fwd_name)
        return Result(_stored(got, outputs), tol, why,
                      oracle=_prov(("rope", "bf16"), fwd, f"get_rope(..., dtype=bf16) -> {type(rope_obj).__name__}."
                                   f"{fwd_name} (plain torch, bf16 cache and arithmetic) on CPU tensors", adjustments))
    why = ("f32, per element (|x1| + |x2|)(|dtheta| + 7 u32) at its largest over the case: vLLM's f32 angle "
           "(f32 pow and reciprocal for inv_freq, the product by t) is off from the kernel's double one by "
           "(4 + ln base) u32 p inv_freq_i (0 for pair 0), cos/sin within one ulp each side, then two f32 products "
           "and an add/sub per side; dims past rotary_dim are copied")
    fwd = getattr(type(rope_obj), fwd_name)
    return Result(_stored(got, outputs), {"atol": atol, "rtol": 0.0}, why,
                  oracle=_prov("rope", fwd, f"get_rope(...) -> {type(rope_obj).__name__}.{fwd_name} (plain torch) "
                               "on CPU tensors", adjustments))


# --- causal_conv1d_fwd ---------------------------------------------------------------

def _conv_fwd_tol(x, w, bias, state, qsl, init, silu, x_dtype, out_dtype):
    """(tol, reason) for out; conv_state_out is exact (copied f32 values).

    Each output is a K-term f32 dot product of taps and weights plus the bias,
    on both sides from the same f32 values (x 16-bit converts exactly): each
    within gamma_{K+1} S of the exact value (S = sum |w x| + |b|, any order),
    E = 2 gamma_{K+1} max S between the two, plus 2^-150 per operation that
    underflows; silu moves that by at most max|silu'| = 1.0998 times, and each
    side's silu (exp within one ulp, the add, the quotient) is 3 u32 relative
    (6 u32 both), or - where exp(-y) overflows - up to 88.72 e^-88.72 lost.
    Then the roundings only one side makes or that differ: upstream returns
    x's dtype (a 16-bit x rounds its f32 result), the golden stores that in
    out's dtype (a second rounding where they differ), the kernel rounds once
    to a 16-bit out: one unit roundoff each, relative."""
    n_seq = len(qsl) - 1
    kk = w.shape[1]
    s_max = 0.0
    for i in range(n_seq):
        lo, hi = int(qsl[i]), int(qsl[i + 1])
        if hi <= lo:
            continue
        pre = state[i] if init[i] else np.zeros_like(state[i])
        seq = np.concatenate([pre, x[lo:hi].T], axis=1)  # [C, K-1 + len]
        for t in range(hi - lo):
            taps = seq[:, t:t + kk]
            s = (np.abs(taps) * np.abs(w)).sum(axis=1) + (np.abs(bias) if bias is not None else 0.0)
            s_max = max(s_max, float(s.max()))
    gamma = (kk + 1) * U32 / (1 - (kk + 1) * U32)
    e = 2 * gamma * s_max + 4 * (kk + 1) * F32_UNDERFLOW
    rel = 0.0
    if silu:
        e = 1.0998 * e + GATE_LOST["silu"]
        rel = 6 * U32
    up_dtype = x_dtype if x_dtype in ("bf16", "f16") else "f32"  # what upstream returns
    rounds = [up_dtype] if up_dtype != "f32" else []
    if out_dtype in ("bf16", "f16"):
        if out_dtype != up_dtype:
            rounds.append(out_dtype)  # the golden's store of upstream's result
        rounds.append(out_dtype)  # the kernel's
    su = sum(UNIT[r] for r in rounds)
    atol = e * (1 + su) + 2 * sum(SUBNORMAL_HALF[r] for r in rounds)
    rtol = (rel + su) / (1 - su)
    return {"atol": atol, "rtol": rtol}, (
        f"K + 1 = {kk + 1} term f32 sums (taps times weights, bias) in any order on both sides: "
        f"2 gamma_(K+1) max S = {2 * gamma * s_max:.3g} absolute"
        + (", silu: times 1.0998 (its slope), 6 u32 relative, 88.72 e^-88.72 where exp overflows" if silu else "")
        + (f"; roundings of unit roundoff {', '.join(rounds)} (upstream returns x's dtype, the golden stores it in "
           f"out's, the kernel rounds to out): their sum relative" if rounds else "; f32 throughout"))


def causal_conv1d_fwd(args, specs, arrays, outputs):
    import torch
    from vllm.model_executor.layers.mamba.ops.cpu.causal_conv1d import causal_conv1d_fn_cpu
    man = _man(args, specs)
    dtypes = _dtypes(specs)
    t = {n: replay._t(man, arrays, n) for n in arrays}
    silu = args.get("activation", "none") in ("silu", "swish")
    state = t["conv_state_in"].clone()
    # vLLM's CPU forward takes x channel-first ([dim, T]); it converts x to
    # the state's f32 itself and returns x's dtype
    out = causal_conv1d_fn_cpu(t["x"].t().contiguous(), t["weight"], t.get("bias"), state, t["query_start_loc"], None,
                               t["has_initial_state"].bool(), "silu" if silu else None).t()
    got = {"out": out, "conv_state_out": state}
    _finite_or_skip(got, arrays, "the output overflows x's dtype")
    f64 = {n: _f64(args, specs, arrays, n) for n in ("x", "weight", "conv_state_in")}
    bias = _f64(args, specs, arrays, "bias") if "bias" in arrays else None
    tol, why = _conv_fwd_tol(f64["x"], f64["weight"], bias, f64["conv_state_in"], arrays["query_start_loc"],
                             arrays["has_initial_state"].astype(bool), silu, dtypes["x"], outputs.get("out", "f32"))
    extra = {"atol_conv_state_out": 0.0, "rtol_conv_state_out": 0.0,
             "atol_reason": "conv_state_out holds the last K-1 f32 taps (state or x, converted exactly) on both "
                            "sides: exact; out keeps the manifest's tolerance"}
    return Result(_stored(got, outputs), tol, why, extra,
                  oracle=_prov("causal_conv1d_fwd", causal_conv1d_fn_cpu,
                               "plain torch: vLLM's CPU causal_conv1d_fn (F.conv1d per sequence), x passed "
                               "channel-first"))


# --- kda_chunk_prefill ----------------------------------------------------------------

# The transcendental functions each side calls, taken within 4 ulps (8 u32
# relative): NumPy's float32 exp and log (the Triton interpreter's tl.exp /
# tl.log; measured in the regen environment over 2e6 arguments each, exp in
# [-100, 30], log in [1, 3e13]: at most 2.4 and 3.0 ulps) and glibc's expf /
# log1pf (within an ulp or two).
FN_REL = 8 * U32


def _kda_gate_gap(g_raw, a_log, dt_bias):
    """Per element [T, Hv, Dk], a bound on one side's |g - exact g| (doubles).

    x = g_raw + dt_bias is one f32 add on both sides (the same value). Exact:
    g = -exp(A) sp, sp = softplus(x) (x past the threshold 20: sp = x on both
    sides, the same comparison). Upstream (fused_kda_gate) takes log(1 +
    exp(x)) in f32: exp within FN_REL, the add within u (and 1 + e rounds to 1
    where e < u: sp lost entirely, at most u), log within FN_REL: |sp~ - sp|
    <= 2 FN_REL sp + u (1 + O(u)) - e^x/(1 + e^x) <= sp carries the exp's error
    through the log. The kernel's log1p(exp(x)): 2 FN_REL sp. Then -exp(A)
    (FN_REL) and the product (u): |g~ - g| <= e^A ((2 FN_REL + FN_REL + u) sp +
    u) (1 + O(u)) = e^A u (25 sp + 1)(1 + O(u)); taken as e^A u (26 sp + 2), plus
    2^-149 for a g rounded into the subnormals."""
    t, h, d = g_raw.shape
    x = g_raw.double() + (dt_bias.double().view(h, d) if dt_bias is not None else 0.0)
    x = x.float().double()  # the f32 add both sides make
    sp = torch.where(x > 20.0, x, torch.nn.functional.softplus(x, threshold=1e9))
    rate = torch.exp(a_log.double()).view(1, h, 1)
    return rate * U32 * (26.0 * sp + 2.0) + 2.0 ** -149


def kda_chunk_prefill(args, specs, arrays, outputs):
    """fused_kda_gate then fused_recurrent_kda (the regenerated goldens' gate_bias cases), one sequence."""
    from . import live, ops_ssm
    _, _, t = live._gdn_common(args, specs, arrays)
    if args.get("lower_bound") is not None or float(args.get("softplus_beta", 1.0)) != 1.0 or \
            float(args.get("softplus_threshold", 20.0)) != 20.0:
        raise ValueError("kda_chunk_prefill: only the softplus gate with beta 1, threshold 20 is mapped")
    q, k, v, g_raw, beta, st_in, a_log = (t(n) for n in ("q", "k", "v", "g_raw", "beta", "state_in", "A_log"))
    dt_bias = t("dt_bias") if arrays["dt_bias"].size else None
    qsl = torch.from_numpy(arrays["query_start_loc"].astype(np.int32))
    scale = float(args["scale"])
    n_tok, h, d = g_raw.shape
    kda = ops_ssm._kda()
    g = kda.fused_kda_gate(g_raw.reshape(n_tok, h * d).contiguous(), a_log, d, g_bias=dt_bias)
    out, state_out, _ = ops_ssm.kda_recurrent_run(q, k, v, g, beta, st_in, qsl, scale)
    got = {"out": out, "state_out": state_out}
    _finite_or_skip(got, arrays, "f32 recurrence")
    off = [int(x) for x in qsl]
    need_out, need_state = live._gdn_need(q, k, v, g, beta, st_in,
                                          [(n, off[n], off[n + 1]) for n in range(len(off) - 1)], scale,
                                          dg=_kda_gate_gap(g_raw, a_log, dt_bias))
    res = live._gdn_result("kda_chunk_prefill", args, kda.fused_kda_gate, got, need_out, need_state, outputs, d,
                           "fla's fused_kda_gate (threshold 20, g_bias = dt_bias) then fused_recurrent_kda on its g "
                           "(Triton kernels, interpreter), one sequence in a NULL-block cache (ops_ssm."
                           "kda_recurrent_run); operands as exact f32 values, out rounded to its dtype by torch",
                           live.TRITON_ADJ() + [ops_ssm.AUTOTUNE_ADJUSTMENT, ops_ssm.KDA_ALIAS_ADJUSTMENT,
                                                live.GDN_CACHE_ADJUSTMENT])
    res.tol_reason += ("; each side computes the gate g itself: per element e^A u (26 sp + 2) on one side's g "
                       "(log(1 + exp) upstream, log1p(exp) ours, exp/log within 4 ulps; _kda_gate_gap), entering "
                       "each step's decay as expm1 of it")
    return res


LIVE = {"matmul": matmul, "l2norm": l2norm, "rmsnorm_gated": rmsnorm_gated, "rope": rope,
        "causal_conv1d_fwd": causal_conv1d_fwd, "kda_chunk_prefill": kda_chunk_prefill}
