"""The third batch of runner keys for the upstream worker (vt-fuzz --upstream).

moe_router_topk, causal_conv1d_update, matmul_nvfp4_fp4 and long_context_rope. Each function has
live.py's signature (args, specs, arrays, outputs) and runs the callable
`vt-golden regen` uses for the key (ops_more.py, ops_fp4.py) on the inputs the
catalog's inverse adapter wrote; each tolerance is derived for what vt-fuzz
draws, its reason in words (docs/fuzzing.md, "Tolerances").
"""
import numpy as np
import torch

from . import replay
from .live import U32, Result, _finite_or_skip, _man, _prov, _stored
from .live_more import F32_UNDERFLOW, _conv_fwd_tol, _f64, _matmul_tol, _rounded_twice


# --- moe_router_topk -----------------------------------------------------------------

def _router_exact(x, ids, args):
    """The weights of upstream's picks in double: the exact values of the CPU router's formulas for these ids
    (softmax over all E - exp(logit - logsumexp) and softmax over the picked logits are the same value, before
    and after renormalizing - or sigmoid; the bias only steers the selection), renormalized, times the scaling."""
    picked = np.take_along_axis(x, ids, axis=1)
    if args.get("scoring_func", "softmax") == "sigmoid":
        w = 1.0 / (1.0 + np.exp(-picked))
    else:
        m = x.max(axis=1, keepdims=True)
        w = np.exp(picked - m) / np.exp(x - m).sum(axis=1, keepdims=True)
    if args["renormalize"]:
        w = w / w.sum(axis=1, keepdims=True)
    return w * (float(args.get("routed_scaling_factor", 1.0)) if args.get("use_grouped_topk") else 1.0)


def _router_kernel_rel(x, args, k):
    """Per row: a relative bound on the kernel's weights (docs/ops/moe.md: scores in f32, the picked scores
    summed in order, a divide, a product).

    softmax: each exp's argument x_j - max rounds (u |x_j - max| absolute, that relative through exp), expf
    is within one ulp (2u): e_j = (|x_j - max| + 2) u; the E-term sum of positive terms adds gamma_E, the
    divide u: a score within e_j + max e + gamma_E + u. sigmoid: expf (2u), the add and the divide: 4u (the
    sigmoid's sensitivity to its exp is below 1). Renormalizing sums k picked scores (gamma_k plus their
    errors) and divides (u); the routed scaling multiplies (u)."""
    e, gk = x.shape[1], k * U32 / (1 - k * U32)
    if args.get("scoring_func", "softmax") == "sigmoid":
        score = np.full(x.shape[0], 4 * U32)
    else:
        spread = (x.max(axis=1) - x.min(axis=1)) + 2.0
        score = 2 * spread * U32 + e * U32 / (1 - e * U32) + U32
    rel = score.copy()
    if args["renormalize"]:
        rel = 2 * score + gk + U32
    return rel + U32  # the routed scaling's product (exact when 1, counted anyway)


def moe_router_topk(args, specs, arrays, outputs):
    from . import ops_more
    from .trust import fit_tolerance
    man = _man(args, specs)
    logits = replay._t(man, arrays, "logits")
    bias = replay._t(man, arrays, "e_score_correction_bias") if "e_score_correction_bias" in arrays else None
    fn, w, ids = ops_more._route(logits, args, bias)  # the CPU router, re-sorted by weight (as vt-golden regen)
    got = {"topk_weights": w, "topk_ids": ids}
    _finite_or_skip(got, arrays, "f32 scores")
    x = logits.double().numpy()
    ids_np = ids.long().numpy()
    exact = _router_exact(x, ids_np, args)
    kernel_rel = _router_kernel_rel(x, args, int(args["top_k"]))[:, None]
    up = w.double().numpy()
    # Per element: upstream's own error, measured against the exact value of its picks' formula (double),
    # plus the kernel's bound; at most E + 4 roundings into f32's subnormals (the exps, the sums) as floor.
    need = np.abs(up - exact) + kernel_rel * np.abs(exact) * (1 + 4 * U32)
    floor = (x.shape[1] + 4) * 2 * F32_UNDERFLOW
    ladder = [0.0] + [2.0 ** -j for j in range(23, 6, -1)]
    atol, rtol = fit_tolerance(need.ravel(), up.ravel(), ladder, floor=floor)
    why = ("weights, per element: upstream's error measured against the exact value of its formula for its picks "
           "(double: softmax / sigmoid / exp(logit - logsumexp), renormalized, times the routed scaling) plus the "
           f"kernel's bound (scores (|x - max| + 2) u per exp, gamma_E for the sum, the divide; the renormalizing sum "
           f"of k and its divide; the scaling): the (atol, rtol) pair covering every element that leaves the fewest "
           f"vacuous (trust.fit_tolerance), floor (E + 4) 2^-149 for subnormal roundings; ids exact, judged tie-aware "
           f"by the adapter (rows picked differently among candidates tied within the bound take the kernel's ids)")
    extra = {"atol_topk_ids": 0.0, "rtol_topk_ids": 0.0,
             "atol_reason": "topk_ids are a selection: exact (ties relaid by the adapter); topk_weights keep the "
                            "manifest's tolerance"}
    return Result(_stored(got, outputs), {"atol": atol, "rtol": rtol}, why, extra,
                  oracle=_prov(("moe_router_topk", fn.__name__), fn,
                               "plain torch CPU router (fused_moe/router/cpu_router.py), then sorted by weight "
                               "descending (ops_more._route)"))


# --- causal_conv1d_update ------------------------------------------------------------

CONV_UPDATE_F32_ADJUSTMENT = ("a 16-bit weight or bias given as f32 (exact): the fallback convolves in the weight's "
                              "dtype, which would round the f32 state and x to it, where vLLM's update kernels "
                              "(Triton, CUDA) and the port convert every operand to f32")
CONV_UPDATE_INDEX_ADJUSTMENT = ("conv_state_indices (no NULL entries) applied around the call: the indexed rows "
                                "gathered, updated by causal_conv1d_update_torch, scattered back (pure data "
                                "movement; the fallback takes no indices)")


def causal_conv1d_update(args, specs, arrays, outputs):
    from vllm.model_executor.layers.mamba.ops.cpu.causal_conv1d import causal_conv1d_update_torch
    man = _man(args, specs)
    dtypes = {s["name"]: s["dtype"] for s in specs}
    t = {n: replay._t(man, arrays, n) for n in arrays}
    silu = args.get("activation", "none") in ("silu", "swish")
    b = int(t["x"].shape[0])
    rows = t["conv_state_indices"].long() if "conv_state_indices" in t else torch.arange(b)
    if bool((rows < 0).any()):
        raise ValueError("causal_conv1d_update: NULL slots are not mapped")
    state = t["conv_state_in"].clone()
    sub = state[rows].clone()
    # the fallback concatenates the f32 state with x (x promoted to f32, exact) and convolves in the weight's
    # dtype (given as f32: CONV_UPDATE_F32_ADJUSTMENT), returning f32
    bias = t["bias"].float() if "bias" in t else None
    out = causal_conv1d_update_torch(t["x"].unsqueeze(-1), sub, t["weight"].float(), bias,
                                     "silu" if silu else None).squeeze(-1)
    state[rows] = sub
    got = {"out": out, "conv_state_out": state}
    _finite_or_skip(got, arrays, "an f32 sum that overflows")
    x = _f64(args, specs, arrays, "x")
    st = _f64(args, specs, arrays, "conv_state_in")[rows.numpy()]
    bias64 = _f64(args, specs, arrays, "bias") if "bias" in arrays else None
    # each row is a one-token sequence from its state (causal_conv1d_fwd's rule, vt_regen/live_more.py);
    # upstream's result is f32 whatever x's dtype (hence "f32" for the dtype it returns)
    qsl = np.arange(b + 1)
    tol, why = _conv_fwd_tol(x, _f64(args, specs, arrays, "weight"), bias64, st, qsl, np.ones(b, bool), silu, "f32",
                             outputs.get("out", "f32"))
    why = "one token per row from its state row: " + why + f" (upstream returns f32 for an x of {dtypes['x']})"
    extra = {"atol_conv_state_out": 0.0, "rtol_conv_state_out": 0.0,
             "atol_reason": "conv_state_out holds shifted f32 taps and x (converted exactly) on both sides, other "
                            "rows untouched: exact; out keeps the manifest's tolerance"}
    adjustments = ([CONV_UPDATE_INDEX_ADJUSTMENT] if "conv_state_indices" in t else []) + \
        ([CONV_UPDATE_F32_ADJUSTMENT] if dtypes["weight"] != "f32" or dtypes.get("bias", "f32") != "f32" else [])
    return Result(_stored(got, outputs), tol, why, extra,
                  oracle=_prov(("causal_conv1d_update", tuple(adjustments)), causal_conv1d_update_torch,
                               "plain torch: vLLM's causal_conv1d_update_torch (one decode token per row)",
                               adjustments))


# --- matmul_nvfp4_fp4 ----------------------------------------------------------------

NVFP4_MM_HOW = ("the NVFP4 emulation's dequantize_to_dtype (nvfp4_emulation_utils, the linear kernel's weight path, "
                "swizzle=False, global scale 1) on both packed operands in f32, torch.matmul in f32, times alpha in "
                "f32 (cutlass_scaled_fp4_mm's contract: alpha scales the f32 product)")
NVFP4_MM_ADJUSTMENT = ("the activation is given already quantized (codes and linear e4m3 block scales, as "
                       "cutlass_scaled_fp4_mm takes it) instead of being quantized by ref_nvfp4_quant_dequant, and "
                       "alpha multiplies the product instead of entering the weight's dequantization")


def matmul_nvfp4_fp4(args, specs, arrays, outputs):
    from . import ops_fp4
    emu = ops_fp4._emu()
    one = torch.tensor([1.0], dtype=torch.float32)

    def dq(codes, scales):
        return emu.dequantize_to_dtype(torch.from_numpy(arrays[codes].copy()), torch.from_numpy(arrays[scales].copy()),
                                       one, torch.float32, 16, swizzle=False)

    a, b = dq("a_packed", "a_scale"), dq("b_packed", "b_scale")
    s = torch.matmul(a, b.t())
    alpha = np.float32(args["alpha"])
    got = {"out": s * torch.tensor(alpha, dtype=torch.float32)}
    # u8 inputs only: any non-finite out (an overflow) is SKIPPED (NaN scale bytes are left out by to_upstream)
    _finite_or_skip(got, arrays, "an f32 product that overflows")
    # The decoded operands (a 2-bit e2m1 significand times a 4-bit e4m3 one) and their products (12 bits) are
    # exact in f32: the two f32 sums differ by E (matmul's rule: upstream's sum measured against the exact one,
    # the kernel's running error bound in its order), then each side rounds alpha * sum once:
    # |a s1 (1 + d1) - a s2 (1 + d2)| <= |a| E (1 + u) + 2u/(1 - u) |value|, plus 2^-150 per underflow.
    tol0, why0 = _matmul_tol(a.double().numpy(), b.double().numpy().T, "f32", s)
    atol = abs(float(alpha)) * tol0["atol"] * (1 + U32) + 2 * F32_UNDERFLOW
    rel = 2 * U32 / (1 - U32)
    out_dtype = outputs.get("out", "f32")
    if out_dtype != "f32":
        atol, rel = _rounded_twice(rel, out_dtype, atol)
    why = ("decoded operands and their products exact in f32; the f32 sums: " + why0 +
           f"; then alpha = {float(alpha):g} (f32) times the sum, rounded on each side: |alpha| E (1 + u) + "
           "2u/(1 - u) |value|" + (f"; out rounded to {out_dtype} by both sides" if out_dtype != "f32" else ""))
    return Result(_stored(got, outputs), {"atol": atol, "rtol": rel}, why,
                  oracle=_prov("matmul_nvfp4_fp4", emu.dequantize_to_dtype, NVFP4_MM_HOW, [NVFP4_MM_ADJUSTMENT]))


# --- rope (rope_neox) in bf16 ---------------------------------------------------------

def rope_plain_bf16_tol(args, positions, q, k, e_f32, stored):
    """(tol, reason) for a bf16 `rope` case (live_more.rope), rope_bf16_tol.py's shape for the plain cache.

    Upstream (get_rope(dtype=bf16).forward_native) rotates with a bf16 cache in bf16 torch ops (each product
    and the sum rounded to bf16); the kernel takes f32 cos/sin of its double angle, rotates in f32 and rounds
    once at the store. m: upstream's own forward in f32 (vLLM's f32 cache, f32 arithmetic) on the same
    inputs, measured per element; our value before its store is within e_f32 of m (the f32 `rope` rule,
    live_more._rope_tol: vLLM's f32 angle against the double one, cos/sin and the f32 products). So
    |ours - upstream| <= (1 + u) (g + e_f32) + u |w| + 2^-134, g = |w - m| measured, u = 2^-8 (our store;
    2^-134: its rounding into bf16's subnormals); fitted as the (atol, rtol) pair covering every element
    that leaves the fewest vacuous (trust.fit_tolerance)."""
    from . import ops_rope
    from .caseio import as_float
    from .trust import fit_tolerance
    u = 2.0 ** -8
    params = {"rope_type": "default", "rope_theta": float(args["base"]), "rope_dim": int(args["rotary_dim"])}
    _, _, m, _ = ops_rope.run_rope(int(args["head_size"]), int(args["max_position"]), True, params, "f32",
                                   positions, q.float(), k.float())
    need, ws, gap = [], [], 0.0
    for name in ("q_out", "k_out"):
        w = as_float("bf16", stored[name][1]).ravel()
        g = np.abs(w - m[name].double().numpy().ravel())
        gap = max(gap, float(g.max(initial=0.0)))
        need.append((1 + u) * (g + e_f32) + u * np.abs(w) + 2.0 ** -134)
        ws.append(w)
    need, w = np.concatenate(need), np.concatenate(ws)
    atol, rtol = fit_tolerance(need, w, [2.0 ** -j for j in range(8, 3, -1)], floor=2.0 ** -133)
    why = (f"bf16: upstream rotates with a bf16 cache in bf16 ops, ours in f32 from f32 cos/sin of the double angle "
           f"and rounds once: per element (1 + 2^-8)(g + E) + 2^-8 |w|, g = |upstream - its own f32 forward| "
           f"measured (max {gap:.3g}), E = {e_f32:.3g} the f32 rule (angle drift, cos/sin, products); the (atol, "
           f"rtol) pair covering every element that leaves the fewest vacuous (trust.fit_tolerance)")
    return {"atol": atol, "rtol": rtol}, why


# --- long_context_rope (rope_from_cache's scaled caches) -------------------------------

def _rope_f32_need(q, k, rot, neox, cache_max, u=U32):
    """Per element of q_out and k_out (f32): the kernel rotates with the adapter's cache, within 2^-21 relative
    of vLLM's (long_context_rope.cpp: the angles bit-exact, torch's cos/sin within one ulp, * mscale), upstream
    with its own; each side rounds two products and an add/sub. A pair (x1, x2) moves by at most
    (|x1| + |x2|) max|cache| (2^-21 + 4u) (1 + 2^-21), plus 2^-150 per f32 operation that underflows (6);
    dims past rotary_dim are copied (exact)."""
    half = rot // 2
    per = 2.0 ** -21 + 4 * u
    needs = []
    for x in (q, k):  # [T, H, D] f64
        n = np.zeros_like(x)
        a, b = (x[..., :half], x[..., half:rot]) if neox else (x[..., 0:rot:2], x[..., 1:rot:2])
        pair = (np.abs(a) + np.abs(b)) * cache_max * per * (1 + 2.0 ** -21) + 6 * F32_UNDERFLOW
        if neox:
            n[..., :half], n[..., half:rot] = pair, pair
        else:
            n[..., 0:rot:2], n[..., 1:rot:2] = pair, pair
        needs.append(n)
    return needs


def long_context_rope(args, specs, arrays, outputs):
    from . import ops_rope, rope_bf16_tol
    from .trust import fit_tolerance
    man = _man(args, specs)
    dtype = man["tensors"]["q_in"]["dtype"]
    head, max_pos, neox = int(args["head_size"]), int(args["max_position"]), bool(args.get("is_neox_style", True))
    params = dict(args["rope_parameters"])
    if params.get("rope_type") not in ("default", "linear", "llama3", "yarn") or "mrope_section" in params:
        raise ValueError("long_context_rope: only the default, linear, llama3 and yarn caches with 1-d positions "
                         "are mapped")
    positions = replay._t(man, arrays, "positions").long()
    q_in, k_in = replay._t(man, arrays, "q_in"), replay._t(man, arrays, "k_in")
    t = q_in.shape[0]
    q, k = q_in.reshape(t, -1), k_in.reshape(t, -1)  # vLLM's [T, H * D]
    rope, fwd_name, got, adjustments = ops_rope.run_rope(head, max_pos, neox, params, dtype, positions, q, k)
    res = {"q_out": got["q_out"].reshape(q_in.shape), "k_out": got["k_out"].reshape(k_in.shape),
           "cos_sin_cache": got["cos_sin_cache"]}
    _finite_or_skip(res, arrays, "products that overflow")
    stored = _stored(res, outputs)
    rot = int(params.get("rope_dim", head))
    if dtype == "f32":
        from .caseio import as_float
        cache_max = float(got["cos_sin_cache"].float().abs().max())
        need_q, need_k = _rope_f32_need(q_in.double().numpy(), k_in.double().numpy(), rot, neox, cache_max)
        w = np.concatenate([as_float("f32", stored[n][1]).ravel() for n in ("q_out", "k_out")])
        need = np.concatenate([need_q.ravel(), need_k.ravel()])
        # rtol from 2^-21 up: the adapter holds the cache to 2^-21 only under a manifest rtol at least that
        atol, rtol = fit_tolerance(need, w, [2.0 ** -j for j in range(21, 6, -1)], floor=6 * F32_UNDERFLOW)
        tol = {"atol": atol, "rtol": rtol}
        why = ("f32: the kernel rotates with the adapter's cache (within 2^-21 relative of vLLM's: angles bit-exact, "
               "torch's cos/sin within one ulp, * mscale), upstream with its own; two products and an add per side: "
               "per element (|x1| + |x2|) max|cache| (2^-21 + 4 u32), dims past rotary_dim exact; the (atol, rtol) "
               "pair covering every element that leaves the fewest vacuous (trust.fit_tolerance), rtol >= 2^-21 so "
               "that the cache is held to its own bound")
    else:
        # vt-golden regen's bf16 rule for this key (rope_bf16_tol.py), on the case's own data
        rope32, _, _, _ = ops_rope.run_rope(head, max_pos, neox, params, "f32", positions, q.float(), k.float())
        tol, why = rope_bf16_tol.derive(rope, rope32, ops_rope.rope_forward, positions, q, k, got["q_out"],
                                        got["k_out"])
    fwd = getattr(type(rope), fwd_name)
    return Result(stored, tol, why,
                  oracle=_prov(("long_context_rope", type(rope).__name__), fwd,
                               f"get_rope(...) -> {type(rope).__name__}.{fwd_name} (plain torch) on CPU tensors",
                               adjustments))


LIVE = {"long_context_rope": long_context_rope, "moe_router_topk": moe_router_topk, "causal_conv1d_update": causal_conv1d_update,
        "matmul_nvfp4_fp4": matmul_nvfp4_fp4}
