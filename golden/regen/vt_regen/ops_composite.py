"""Composite layer cases in the recorded captures' formats: `dense_attention`
(Qwen3-Next attention after the projections: per-head q/k RMSNorm, partial
NeoX rotary, causal GQA attention, the sigmoid output gate) and `moe_block`
(Qwen3-Next sparse MoE block: router, routed experts, shared expert).

Every step is a vLLM piece that runs on a CPU (the norm layer's and the
rotary embedding's forward_native, SiluAndMul.forward_native, the CPU
router), joined by plain torch where vLLM's own join is a GPU kernel (SDPA
for the attention backend; the per-expert loop of vLLM's test helper
torch_experts for the fused-MoE kernel). The provenance names each piece.
Also the replays of recorded cases of these formats (replay.py).
"""
import torch
import torch.nn.functional as F

from .caseio import Case
from .upstream import TORCH_DTYPE, NotReplayable, from_store, generator, provenance, to_store, vllm_config

# --- dense_attention ----------------------------------------------------------

# name -> (T, q heads, kv heads, head_dim, rotary_dim): small is the recorded
# capture's shape; realistic is Qwen3-Next's (head 256, a quarter rotated).
ATTN_SHAPES = {"small": (6, 4, 2, 8, 4), "realistic": (32, 16, 2, 256, 64)}
ATTN_TOL = {
    "f32": ({"atol": 2e-4, "rtol": 2e-4},
            "f32: the norms and the softmax are reductions whose order differs between torch and the "
            "kernels (a few ulps each), and the scores pass through exp: 2e-4 as the recorded f32 capture"),
}


def _attention_chain(q, gate, k, v, positions, qw, kw, eps, base, rot, scale, causal):
    from vllm.model_executor.layers.layernorm import GemmaRMSNorm
    from vllm.model_executor.layers.rotary_embedding import get_rope
    t, hq, d = q.shape
    hk = k.shape[1]
    with vllm_config():
        qn, kn = GemmaRMSNorm(d, eps), GemmaRMSNorm(d, eps)
        qn.weight.data.copy_(qw.float())
        kn.weight.data.copy_(kw.float())
        rope = get_rope(head_size=d, max_position=int(positions.max()) + 1, is_neox_style=True,
                        rope_parameters={"rope_theta": base, "rope_dim": rot}, dtype=q.dtype)
        qr = qn.forward_native(q.reshape(t * hq, d)).reshape(t, hq * d)
        kr = kn.forward_native(k.reshape(t * hk, d)).reshape(t, hk * d)
        qr, kr = rope.forward_native(positions, qr, kr)
    qh = qr.reshape(t, hq, d).transpose(0, 1).unsqueeze(0)
    kh = kr.reshape(t, hk, d).transpose(0, 1).unsqueeze(0)
    vh = v.transpose(0, 1).unsqueeze(0)
    attn = F.scaled_dot_product_attention(qh, kh, vh, is_causal=causal, scale=scale, enable_gqa=True)
    attn = attn.squeeze(0).transpose(0, 1).contiguous()  # [T, Hq, D]
    out = (attn * torch.sigmoid(gate)).reshape(t, hq * d)
    return attn, out, (GemmaRMSNorm, get_rope)


def dense_attention(seed, dtype, shape):
    # f32 only. Measured on bf16 cases (vt-golden check, 2026-11-30): the
    # chain and vLLM round q/k to bf16 at the same points, but a reduction
    # order difference flips some of those roundings, which moves outputs by
    # up to one bf16 ulp of |V| (max abs 0.0156 over 131072 elements); a
    # tolerance admitting that is wider than the signal for 17% of the
    # outputs, and the checker rightly calls such a case MISTRUSTED.
    if dtype != "f32":
        return []
    t, hq, hk, d, rot = ATTN_SHAPES[shape]
    name = f"dense_attention_chain_{dtype}_{shape}"
    g = generator(seed, name)
    dt = TORCH_DTYPE[dtype]
    q, gate = torch.randn(t, hq, d, generator=g).to(dt), torch.randn(t, hq, d, generator=g).to(dt)
    k, v = torch.randn(t, hk, d, generator=g).to(dt), torch.randn(t, hk, d, generator=g).to(dt)
    positions = torch.arange(t, dtype=torch.int64) + (0 if shape == "small" else 1000)
    qw, kw = (torch.randn(d, generator=g) * 0.2).to(dt), (torch.randn(d, generator=g) * 0.2).to(dt)
    args = {"eps": 1e-6, "base": 10000.0 if shape == "small" else 10000000.0, "rotary_dim": rot,
            "scale": d ** -0.5, "head_dim": d, "num_q_heads": hq, "num_kv_heads": hk, "causal": True}
    attn, out, pieces = _attention_chain(q, gate, k, v, positions, qw, kw, args["eps"], args["base"], rot,
                                         args["scale"], True)
    tensors = {"q": (dtype, to_store(q, dtype)), "gate": (dtype, to_store(gate, dtype)),
               "k": (dtype, to_store(k, dtype)), "v": (dtype, to_store(v, dtype)),
               "positions": ("i64", to_store(positions, "i64")),
               "q_norm_weight": (dtype, to_store(qw, dtype)), "k_norm_weight": (dtype, to_store(kw, dtype)),
               "attn": (dtype, to_store(attn, dtype)), "out": (dtype, to_store(out, dtype))}
    tol, why = ATTN_TOL[dtype]
    how = ("GemmaRMSNorm.forward_native on q and k per head, get_rope(rope_dim=rotary_dim, neox).forward_native, "
           "torch SDPA (is_causal, enable_gqa, scale) for the attention backend, attn * sigmoid(gate)")
    return [Case(name, "dense_attention", args, tensors,
                 ["q", "gate", "k", "v", "positions", "q_norm_weight", "k_norm_weight"], ["attn", "out"], tol, why,
                 provenance(pieces[0].forward_native, how, seed=seed))]


def dense_attention_replay(man, a):
    args = man["args"]
    t = {k: from_store(a[k], man["tensors"][k]["dtype"]) for k in man["inputs"]}
    attn, out, _ = _attention_chain(t["q"], t["gate"], t["k"], t["v"], t["positions"], t["q_norm_weight"],
                                    t["k_norm_weight"], args["eps"], args["base"], args["rotary_dim"],
                                    args["scale"], args.get("causal", True))
    return {"attn": attn, "out": out}


# --- moe_block ----------------------------------------------------------------

# name -> (T, experts, top_k, hidden, moe intermediate, shared intermediate):
# small is the recorded capture's; realistic keeps Qwen3-Next's ratios
# (512 experts, 10 routed) scaled to a case of a few MiB.
MOE_SHAPES = {"small": (6, 8, 2, 64, 32, 48), "realistic": (8, 64, 8, 256, 64, 256)}
MOE_TOL = {
    "f32": ({"atol": 1e-5, "rtol": 1e-5},
            "f32: matmul and softmax reductions in a different order than the kernels' (a few ulps of each "
            "partial sum over H or I); 1e-5 as the recorded f32 capture"),
    "bf16": ({"atol": 3e-2, "rtol": 3e-2},
             "bf16: torch rounds each linear's and the activation's output to bf16 (2^-8 relative) at points "
             "the chain of kernels shares only in part; four roundings deep before the combine"),
}


def _moe_chain(x, gate_w, w13, w2, wsgu, wsd, wsg, top_k, renormalize):
    from vllm.model_executor.layers.activation import SiluAndMul
    from vllm.model_executor.layers.fused_moe.router import cpu_router
    with vllm_config():
        act = SiluAndMul()
    logits = F.linear(x, gate_w)
    weights, ids = cpu_router._softmax_topk(logits.float(), top_k, renormalize)
    routed = torch.zeros(x.shape, dtype=torch.float32)
    for slot in range(top_k):
        for e in ids[:, slot].unique().tolist():
            rows = (ids[:, slot] == e).nonzero().squeeze(1)
            h = act.forward_native(F.linear(x[rows], w13[e]))
            y = F.linear(h, w2[e]).float()
            routed[rows] += y * weights[rows, slot].unsqueeze(1)
    shared = F.linear(act.forward_native(F.linear(x, wsgu)), wsd).float()
    shared = shared * torch.sigmoid(F.linear(x, wsg).float())
    return logits, weights, ids, routed, shared, routed + shared, (act, cpu_router._softmax_topk)


def moe_block(seed, dtype, shape):
    t, e, k, h, inter, sh = MOE_SHAPES[shape]
    name = f"moe_block_chain_{dtype}_{shape}"
    g = generator(seed, name)
    dt = TORCH_DTYPE[dtype]

    def w(*s):
        return (torch.randn(*s, generator=g) * s[-1] ** -0.5).to(dt)

    x = torch.randn(t, h, generator=g).to(dt)
    gate_w, w13, w2 = w(e, h), w(e, 2 * inter, h), w(e, h, inter)
    wsgu, wsd, wsg = w(2 * sh, h), w(h, sh), w(1, h)
    logits, weights, ids, routed, shared, out, pieces = _moe_chain(x, gate_w, w13, w2, wsgu, wsd, wsg, k, True)
    args = {"num_experts": e, "top_k": k, "hidden": h, "moe_intermediate": inter, "shared_intermediate": sh,
            "renormalize": True, "scoring_func": "softmax", "activation": "silu",
            "w13_layout": "[E, 2I, H], gate rows 0..I-1, up rows I..2I-1", "w2_layout": "[E, H, I]"}
    tensors = {"x": (dtype, to_store(x, dtype)), "gate_w": (dtype, to_store(gate_w, dtype)),
               "w13": (dtype, to_store(w13, dtype)), "w2": (dtype, to_store(w2, dtype)),
               "w_shared_gate_up": (dtype, to_store(wsgu, dtype)), "w_shared_down": (dtype, to_store(wsd, dtype)),
               "w_shared_gate": (dtype, to_store(wsg, dtype)),
               "router_logits": ("f32", to_store(logits.float(), "f32")),
               "topk_weights": ("f32", to_store(weights.float(), "f32")),
               "topk_ids": ("i32", to_store(ids, "i32")),
               "routed_out": ("f32", to_store(routed, "f32")), "shared_out": ("f32", to_store(shared, "f32")),
               "out": ("f32", to_store(out, "f32"))}
    tol, why = MOE_TOL[dtype]
    how = ("F.linear router, fused_moe.router.cpu_router._softmax_topk, per expert F.linear -> "
           "SiluAndMul.forward_native -> F.linear weighted in f32 (vLLM's test helper torch_experts, restated), "
           "shared expert * sigmoid(F.linear gate), routed + shared")
    return [Case(name, "moe_block", args, tensors,
                 ["x", "gate_w", "w13", "w2", "w_shared_gate_up", "w_shared_down", "w_shared_gate"], ["out"],
                 tol, why, provenance(pieces[1], how, seed=seed))]


def moe_block_replay(man, a):
    args = man["args"]
    if args.get("scoring_func", "softmax") != "softmax" or args.get("activation", "silu") != "silu":
        raise NotReplayable("only the softmax router with SiluAndMul experts is wired (the chain this tool "
                            "generates)")
    t = {n: from_store(a[n], man["tensors"][n]["dtype"]) for n in man["inputs"]}
    *_, out, _ = _moe_chain(t["x"], t["gate_w"], t["w13"], t["w2"], t["w_shared_gate_up"], t["w_shared_down"],
                            t["w_shared_gate"], args["top_k"], args.get("renormalize", True))
    return {"out": out}
