"""Gated rmsnorm, MoE router and causal conv1d cases from vLLM's CPU-runnable
plain-torch references (the Triton kernels' own references, or vLLM's CPU
paths), in the recorded captures' layout. Also the replay of recorded cases
of these ops (replay.py imports the *_replay functions).
"""
import torch

from .caseio import Case
from .upstream import TORCH_DTYPE, NotReplayable, from_store, generator, provenance, to_store

F32_TOL = ({"atol": 1e-5, "rtol": 1e-5},
           "f32: torch's vectorised reductions and the kernel's sequential ones differ by a few f32 ulps "
           "of the result; 1e-5 as the recorded f32 captures")
# Relative, for outputs that are products and one quotient of the inputs (the
# norms, the gates): it judges every element. The recorded captures' 8e-3 / 8e-3
# left up to 8% of l2norm's and the sigmoid-gated norm's small outputs unjudged
# (the atol wider than the value), near the 10% at which a case is refused.
BF16_TOL = ({"atol": 0.0, "rtol": 2.0 ** -7 + 2.0 ** -11},
            "bf16 out: both sides compute products and one quotient (the row's rsqrt) in f32, a relative gap "
            "of at most (n + 8) f32 ulps for the n-term sum of squares (n <= 2048: <= 2^-12), and round once "
            "to bf16, each within 2^-8 relative: |ours - upstream| <= (2^-7 + 2^-12)(1 + 2^-8) |w|; rtol "
            "2^-7 + 2^-11, atol 0 (a relative error vanishes with the value)")


def _tol(dtype):
    return F32_TOL if dtype == "f32" else BF16_TOL


# --- rmsnorm_gated: fla layernorm_guard.rms_norm_ref (silu gate only) ---------

def rmsnorm_gated(seed, dtype, shape):
    from vllm.third_party.flash_linear_attention.ops.layernorm_guard import rms_norm_ref
    # (rows, width, group_size, norm_before_gate): the GDN output norm is per
    # value head (128 wide) with the gate after the norm; the grouped form
    # gates first, then normalises each group.
    variants = {"small": [("silu", 8, 64, None, True), ("silu_group", 8, 64, 16, False)],
                "realistic": [("silu", 16, 128, None, True), ("silu_group", 4, 2048, 128, False)]}[shape]
    cases = []
    for variant, t, w, group, before in variants:
        name = f"rmsnorm_gated_{variant}_{dtype}_{shape}"
        g = generator(seed, name)
        dt = TORCH_DTYPE[dtype]
        x = torch.randn(t, w, generator=g).to(dt)
        z = (torch.randn(t, w, generator=g) * 2).to(dt)
        weight = (torch.randn(w, generator=g) * 0.5 + 1).to(dt)
        out = rms_norm_ref(x, weight, None, z=z, eps=1e-6, group_size=group, norm_before_gate=before, upcast=True)
        tol, why = _tol(dtype)
        cases.append(Case(name, "rmsnorm_gated", {"eps": 1e-6, "norm_before_gate": before, "activation": "silu",
                                                  "group_size": group},
                          {"x": (dtype, to_store(x, dtype)), "gate": (dtype, to_store(z, dtype)),
                           "weight": (dtype, to_store(weight, dtype)), "out": ("f32", to_store(out.float(), "f32"))},
                          ["x", "gate", "weight"], ["out"], tol, why,
                          provenance(rms_norm_ref, "plain torch: the reference of fla's Triton rmsnorm_fn "
                                     "(layernorm_guard.rms_norm_ref, upcast=True)", seed=seed)))
    return cases + _rmsnorm_gated_sigmoid(seed, dtype, shape)


def _rmsnorm_gated_sigmoid(seed, dtype, shape):
    """The sigmoid gate (KDA's output norm): fla's rms_norm_ref has only silu,
    vLLM's RMSNormGated.forward_static (plain torch, f32 inside, one rounding
    to the input dtype at the end) has both."""
    from vllm.model_executor.layers.layernorm import RMSNormGated
    # Ungrouped only: the seed's gated norms take the sigmoid gate on whole
    # rows (rms_norm_gated); the grouped form (rms_norm_gated_group) is silu.
    variants = {"small": [("sigmoid", 8, 64, None, True)], "realistic": [("sigmoid", 16, 128, None, True)]}[shape]
    cases = []
    for variant, t, w, group, before in variants:
        name = f"rmsnorm_gated_{variant}_{dtype}_{shape}"
        g = generator(seed, name)
        dt = TORCH_DTYPE[dtype]
        x = torch.randn(t, w, generator=g).to(dt)
        z = (torch.randn(t, w, generator=g) * 2).to(dt)
        weight = (torch.randn(w, generator=g) * 0.5 + 1).to(dt)
        out = RMSNormGated.forward_static(x, z, weight, 1e-6, dt, group_size=group, norm_before_gate=before,
                                          activation="sigmoid")
        tol, why = _tol(dtype)
        cases.append(Case(name, "rmsnorm_gated", {"eps": 1e-6, "norm_before_gate": before, "activation": "sigmoid",
                                                  "group_size": group},
                          {"x": (dtype, to_store(x, dtype)), "gate": (dtype, to_store(z, dtype)),
                           "weight": (dtype, to_store(weight, dtype)), "out": (dtype, to_store(out, dtype))},
                          ["x", "gate", "weight"], ["out"], tol, why,
                          provenance(RMSNormGated.forward_static, "plain torch: vLLM's RMSNormGated.forward_static "
                                     "(activation='sigmoid'; f32 inside, rounded to the input dtype)", seed=seed)))
    return cases


def rmsnorm_gated_replay(man, a):
    from vllm.third_party.flash_linear_attention.ops.layernorm_guard import rms_norm_ref
    args = man["args"]
    if args.get("activation", "silu") == "sigmoid":
        from vllm.model_executor.layers.layernorm import RMSNormGated
        t = {k: from_store(a[k], man["tensors"][k]["dtype"]) for k in ("x", "gate", "weight")}
        return {"out": RMSNormGated.forward_static(t["x"], t["gate"], t["weight"], args.get("eps", 1e-6),
                                                   torch.float32, group_size=args.get("group_size"),
                                                   norm_before_gate=args.get("norm_before_gate", True),
                                                   activation="sigmoid")}
    if args.get("activation", "silu") not in ("silu", "swish"):
        raise NotReplayable(f"activation {args.get('activation')!r}: neither plain-torch reference has this gate "
                            "(only the Triton kernel)")
    t = {k: from_store(a[k], man["tensors"][k]["dtype"]) for k in ("x", "gate", "weight")}
    return {"out": rms_norm_ref(t["x"], t["weight"], None, z=t["gate"], eps=args.get("eps", 1e-6),
                                group_size=args.get("group_size"), norm_before_gate=args.get("norm_before_gate", True))}


# --- l2norm: fla's Triton l2norm_fwd through the interpreter ------------------

# The kernel computes in f32 and stores at x's dtype. The compiled store rounds
# to nearest even; the Triton 3.8.0 interpreter truncates (ops_ssm.py measured
# it), so a bf16 x gets an f32 output from the kernel, rounded to bf16 by torch.
L2NORM_BF16_ADJUSTMENT = ("bf16 x: the kernel's output_dtype set to f32 and the f32 result rounded to bf16 by torch "
                          "(round to nearest even, as the compiled kernel's store; the interpreter truncates)")


def _l2norm_as_compiled(x, eps):
    from vllm.third_party.flash_linear_attention.ops.l2norm import l2norm_fwd
    if x.dtype == torch.float32:
        return l2norm_fwd(x.clone(), eps)
    return l2norm_fwd(x.clone(), eps, output_dtype=torch.float32).to(x.dtype)


def l2norm(seed, dtype, shape):
    from vllm.third_party.flash_linear_attention.ops.l2norm import l2norm_fwd
    from .upstream import TRITON_ADJUSTMENTS
    t, d = {"small": (12, 6), "realistic": (16, 128)}[shape]  # realistic: GDN q/k heads of 128
    name = f"l2norm_rows_{dtype}_{shape}"
    g = generator(seed, name)
    x = (torch.randn(t, d, generator=g) * 3).to(TORCH_DTYPE[dtype])
    out = _l2norm_as_compiled(x, 1e-6)
    tol, why = _tol(dtype)
    adjustments = list(TRITON_ADJUSTMENTS) + ([L2NORM_BF16_ADJUSTMENT] if dtype != "f32" else [])
    return [Case(name, "l2norm", {"eps": 1e-6}, {"x": (dtype, to_store(x, dtype)),
                                                "out": ("f32", to_store(out.float(), "f32"))},
                 ["x"], ["out"], tol, why,
                 provenance(l2norm_fwd, "the Triton kernel itself, run by the Triton interpreter on a CPU",
                            adjustments, seed=seed, kind="cpu-reference (Triton interpreter)"))]


def l2norm_replay(man, a):
    x = from_store(a["x"], man["tensors"]["x"]["dtype"])
    return {"out": _l2norm_as_compiled(x, man["args"].get("eps", 1e-6))}


# --- moe_router_topk: the CPU router (fused_moe/router/cpu_router.py) ---------

def _sorted(weights, ids):
    """The CPU router returns top-k unsorted; the recorded layout is weights descending."""
    order = torch.sort(weights, dim=-1, descending=True, stable=True).indices
    return weights.gather(1, order), ids.gather(1, order.to(torch.int64))


def _route(logits, args, bias):
    """The CPU router on logits (as stored) with a case's args: (callable, weights, ids) sorted."""
    from vllm.model_executor.layers.fused_moe.router import cpu_router
    if args.get("use_grouped_topk"):
        fn = cpu_router._grouped_topk
        w, ids = fn(logits, args["top_k"], args["renormalize"], args["num_expert_group"], args["topk_group"],
                    args["scoring_func"], args["routed_scaling_factor"], bias)
    elif args.get("scoring_func", "softmax") == "softmax":
        fn = cpu_router._softmax_topk
        w, ids = fn(logits.float(), args["top_k"], args["renormalize"])
    else:
        raise NotReplayable(f"scoring_func {args['scoring_func']!r} without grouped top-k is not wired")
    return (fn, *_sorted(w.float(), ids))


def moe_router_topk(seed, dtype, shape):
    t, e, k, n_group, topk_group = {"small": (6, 8, 2, 4, 2), "realistic": (8, 128, 8, 8, 4)}[shape]
    cases = []
    for variant in ("softmax_renorm", "softmax_norenorm", "grouped_sigmoid_bias"):
        name = f"moe_router_topk_{variant}_{dtype}_{shape}"
        g = generator(seed, name)
        logits = (torch.randn(t, e, generator=g) * 2).to(TORCH_DTYPE[dtype])
        tensors = {"logits": (dtype, to_store(logits, dtype))}
        args = {"num_experts": e, "top_k": k, "renormalize": variant != "softmax_norenorm"}
        bias = None
        if variant.startswith("softmax"):
            args["scoring_func"] = "softmax"
        else:
            bias = torch.randn(e, generator=g) * 0.1
            args.update({"scoring_func": "sigmoid", "use_grouped_topk": True, "num_expert_group": n_group,
                         "topk_group": topk_group, "routed_scaling_factor": 2.5})
            tensors["e_score_correction_bias"] = ("f32", to_store(bias, "f32"))
        fn, w, ids = _route(logits, args, bias)
        tensors["topk_weights"] = ("f32", to_store(w, "f32"))
        tensors["topk_ids"] = ("i32", to_store(ids, "i32"))
        cases.append(Case(name, "moe_router_topk", args, tensors, [n for n in tensors if not n.startswith("topk_")],
                          ["topk_weights", "topk_ids"], {"atol": 1e-5, "rtol": 1e-5},
                          "weights are softmax/sigmoid probabilities computed in f32 (exp, sum, divide: a few ulps); "
                          "ids are compared exactly; 1e-5 as the recorded captures",
                          provenance(fn, "plain torch CPU router, then sorted by weight descending", seed=seed)))
    return cases


def moe_router_topk_replay(man, a):
    bias = from_store(a["e_score_correction_bias"], "f32") if "e_score_correction_bias" in a else None
    _, w, ids = _route(from_store(a["logits"], man["tensors"]["logits"]["dtype"]), man["args"], bias)
    return {"topk_weights": w, "topk_ids": ids}


# --- causal conv1d: vLLM's CPU forward and the plain-torch update --------------

def causal_conv1d_fwd(seed, dtype, shape):
    if dtype != "f32":
        return []  # the recorded captures and the seed's conv state are f32
    from vllm.model_executor.layers.mamba.ops.cpu.causal_conv1d import causal_conv1d_fn_cpu
    dim, width, seqlens = {"small": (16, 4, [5, 7, 1]), "realistic": (1024, 4, [17, 3, 40])}[shape]
    name = f"causal_conv1d_fwd_silu_f32_{shape}"
    g = generator(seed, name)
    total, batch = sum(seqlens), len(seqlens)
    x = torch.randn(total, dim, generator=g)
    weight = torch.randn(dim, width, generator=g) * 0.5
    state = torch.randn(batch, dim, width - 1, generator=g)
    qsl = torch.tensor([0] + list(torch.cumsum(torch.tensor(seqlens), 0)), dtype=torch.int32)
    has_init = torch.tensor([1, 0, 1][:batch], dtype=torch.int32)
    state_out = state.clone()
    out = causal_conv1d_fn_cpu(x.t().contiguous(), weight, None, state_out, qsl, None, has_init.bool(), "silu").t()
    return [Case(name, "causal_conv1d_fwd", {"activation": "silu", "bias": None, "dim": dim, "width": width,
                                             "seqlens": seqlens},
                 {"x": ("f32", to_store(x, "f32")), "weight": ("f32", to_store(weight, "f32")),
                  "conv_state_in": ("f32", to_store(state, "f32")), "query_start_loc": ("i32", to_store(qsl, "i32")),
                  "has_initial_state": ("i32", to_store(has_init, "i32")), "out": ("f32", to_store(out, "f32")),
                  "conv_state_out": ("f32", to_store(state_out, "f32"))},
                 ["x", "weight", "conv_state_in", "query_start_loc", "has_initial_state"], ["out", "conv_state_out"],
                 *F32_TOL, provenance(causal_conv1d_fn_cpu, "plain torch: vLLM's CPU causal_conv1d_fn "
                                      "(F.conv1d per sequence), x passed channel-first", seed=seed))]


def causal_conv1d_update(seed, dtype, shape):
    if dtype != "f32":
        return []
    from vllm.model_executor.layers.mamba.ops.cpu.causal_conv1d import causal_conv1d_update_torch
    dim, width, batch = {"small": (16, 4, 3), "realistic": (1024, 4, 8)}[shape]
    name = f"causal_conv1d_update_silu_f32_{shape}"
    g = generator(seed, name)
    x = torch.randn(batch, dim, generator=g)
    weight = torch.randn(dim, width, generator=g) * 0.5
    state = torch.randn(batch, dim, width - 1, generator=g)
    state_out = state.clone()
    out = causal_conv1d_update_torch(x.unsqueeze(-1), state_out, weight, None, "silu").squeeze(-1)
    return [Case(name, "causal_conv1d_update", {"activation": "silu", "bias": None, "dim": dim, "width": width,
                                                "batch": batch},
                 {"x": ("f32", to_store(x, "f32")), "weight": ("f32", to_store(weight, "f32")),
                  "conv_state_in": ("f32", to_store(state, "f32")), "out": ("f32", to_store(out, "f32")),
                  "conv_state_out": ("f32", to_store(state_out, "f32"))},
                 ["x", "weight", "conv_state_in"], ["out", "conv_state_out"], *F32_TOL,
                 provenance(causal_conv1d_update_torch, "plain torch: vLLM's causal_conv1d_update_torch "
                            "(one decode token per row)", seed=seed))]


def causal_conv1d_fwd_replay(man, a):
    from vllm.model_executor.layers.mamba.ops.cpu.causal_conv1d import causal_conv1d_fn_cpu
    t = {k: torch.from_numpy(a[k].copy()) for k in man["inputs"]}
    state = t["conv_state_in"].clone()
    out = causal_conv1d_fn_cpu(t["x"].t().contiguous(), t["weight"], None, state, t["query_start_loc"], None,
                               t["has_initial_state"].bool(), man["args"].get("activation", "silu")).t()
    return {"out": out, "conv_state_out": state}


def causal_conv1d_update_replay(man, a):
    from vllm.model_executor.layers.mamba.ops.cpu.causal_conv1d import causal_conv1d_update_torch
    t = {k: torch.from_numpy(a[k].copy()) for k in man["inputs"]}
    state = t["conv_state_in"].clone()
    out = causal_conv1d_update_torch(t["x"].unsqueeze(-1), state, t["weight"], None,
                                     man["args"].get("activation", "silu")).squeeze(-1)
    return {"out": out, "conv_state_out": state}
