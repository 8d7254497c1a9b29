"""RoPE cases from vLLM's get_rope: plain (`rope`) and every long-context scaling
(`long_context_rope`), in the recorded captures' layout (upstream-oracles.md 2.2).

A small case records the whole cos/sin cache as an output (the checker compares
its own cache with it); a realistic case has positions up to 131k, where the
cache would be tens of MiB, so only q/k are recorded and the cache is rebuilt
by the checker from `rope_parameters`.
"""
import torch

from . import rope_bf16_tol
from .caseio import Case
from .upstream import TORCH_DTYPE, check_signature, generator, provenance, to_store, vllm_config

# name -> (is_neox_style, rope_parameters without rope_theta/rope_dim, positions kind)
# Positions kind: "1d" [T]; "mrope" [3, T]. Small cases: head 24 / rot 16,
# max_position 128, original max 32 (the recorded small long-context shape);
# realistic: head 128 / rot 128 (or 64), max_position 131072, original 8192.
SCALINGS = {
    "default_neox": (True, {"rope_type": "default"}, "1d"),
    "default_gptj": (False, {"rope_type": "default"}, "1d"),
    "linear_neox": (True, {"rope_type": "linear", "factor": 4.0}, "1d"),
    "llama3_neox_bands": (True, {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                 "high_freq_factor": 4.0, "original_max_position_embeddings": "ORIG"}, "1d"),
    "llama3_gptj_bands": (False, {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                  "high_freq_factor": 4.0, "original_max_position_embeddings": "ORIG"}, "1d"),
    "dynamic_factor_neox": (True, {"rope_type": "dynamic", "factor": 4.0}, "1d"),
    "dynamic_factor1_neox": (True, {"rope_type": "dynamic", "factor": 1.0}, "1d"),
    "dynamic_alpha_neox": (True, {"rope_type": "dynamic", "alpha": 1000.0}, "1d"),
    "yarn_neox_truncate": (True, {"rope_type": "yarn", "factor": "FILL", "original_max_position_embeddings": "ORIG",
                                  "truncate": True}, "1d"),
    "yarn_gptj_untruncated": (False, {"rope_type": "yarn", "factor": "FILL", "original_max_position_embeddings": "ORIG",
                                      "truncate": False}, "1d"),
    "yarn_neox_mscale": (True, {"rope_type": "yarn", "factor": 40.0, "original_max_position_embeddings": "ORIG",
                                "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 0.707}, "1d"),
    "yarn_mrope_contiguous": (True, {"rope_type": "yarn", "factor": "FILL", "original_max_position_embeddings": "ORIG",
                                     "mrope_section": "SECTION"}, "mrope"),
    "yarn_mrope_interleaved": (True, {"rope_type": "yarn", "factor": "FILL", "original_max_position_embeddings": "ORIG",
                                      "mrope_section": "SECTION", "mrope_interleaved": True}, "mrope"),
    "yarn_mrope_text_1d": (True, {"rope_type": "yarn", "factor": "FILL", "original_max_position_embeddings": "ORIG",
                                  "mrope_section": "SECTION"}, "1d"),
    "deepseek_yarn_neox": (True, {"rope_type": "deepseek_yarn", "factor": "FILL", "original_max_position_embeddings":
                                  "ORIG", "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}, "1d"),
    "deepseek_yarn_gptj": (False, {"rope_type": "deepseek_yarn", "factor": "FILL", "original_max_position_embeddings":
                                   "ORIG", "mscale": 0.707, "mscale_all_dim": 0.707}, "1d"),
    "ntk_fixed_neox": (True, {"rope_type": "ntk", "factor": 4.0}, "1d"),
    "ntk_mixed_neox": (True, {"rope_type": "ntk", "factor": 4.0, "mixed_b": 0.5}, "1d"),
    "longrope_neox_short": (True, {"rope_type": "longrope", "short_factor": "SHORT", "long_factor": "LONG",
                                   "original_max_position_embeddings": "ORIG"}, "short"),
    "longrope_neox_long": (True, {"rope_type": "longrope", "short_factor": "SHORT", "long_factor": "LONG",
                                  "original_max_position_embeddings": "ORIG"}, "1d"),
    "longrope_neox_mscale_override": (True, {"rope_type": "longrope", "short_factor": "SHORT", "long_factor": "LONG",
                                             "original_max_position_embeddings": "ORIG", "short_mscale": 1.1,
                                             "long_mscale": 1.3}, "1d"),
}

SHAPES = {  # head, rot, max_position, original max, T, q heads, kv heads
    "small": (24, 16, 128, 32, 5, 2, 1),
    "realistic": (128, 128, 131072, 8192, 8, 4, 2),
}

# bf16 long_context_rope cases derive theirs from the case's data (rope_bf16_tol.py).
F32_TOL = ({"atol": 1e-5, "rtol": 1e-5},
           "f32: vLLM builds inv_freq, t*inv_freq and cos/sin in f32 torch ops; the harness's cache follows "
           "the same formulas, and the rotation is two products and a sum in f32: a few f32 ulps of |x|; "
           "1e-5 as the recorded f32 captures")


def _plain_rope_tol(dtype, params, rot, positions, q, k):
    """Derived, per case, for `rope`: its adapter rotates with angles in double
    (the seed's rope ops), while vLLM forms inv_freq and t * inv_freq in f32:
    inv_freq_i = base^(-2i/rot) to within 2u relative (pow, then a division),
    the product to within u more, so the angle of pair i at position p is off
    by at most 3u p inv_freq_i (pair 0 is exact: inv_freq 1, p < 2^24). A
    rotation moves a pair (x1, x2) by at most that angle times its norm; then
    the usual rounding of the result at the recorded captures' figures."""
    u = 2.0 ** -24
    base = float(params["rope_theta"])
    inv = [base ** (-(2.0 * i) / rot) for i in range(1, rot // 2)]
    p_max = float(positions.max())
    ang = 3 * u * p_max * max(inv) if inv else 0.0
    # |(x1, x2)| <= sqrt(2) max|x| over q and k
    pair = max(float(t.float().abs().max()) for t in (q, k)) * 2 ** 0.5
    extra, rtol = (1e-5, 1e-5) if dtype == "f32" else (1e-2, 1.6e-2)
    atol = ang * pair + extra
    return ({"atol": atol, "rtol": rtol},
            f"angles: vLLM's f32 inv_freq and t*inv_freq are off by <= 3u*p*inv_freq (u = 2^-24; here "
            f"{ang:.3g} rad at p = {int(p_max)}), moving a pair by that times its norm (<= {pair:.3g}); plus "
            f"{extra:g} / rtol {rtol:g} for the final rounding as in the recorded "
            f"{'f32' if dtype == 'f32' else 'bf16'} captures (rope_f32_pos_131k records 2e-2 for the same effect)")


def _resolve(params, rot, orig, max_pos):
    out = {}
    for k, v in params.items():
        if v == "ORIG":
            v = orig
        elif v == "FILL":  # YaRN's cache holds original max * factor positions: fill max_position
            v = float(max_pos // orig)
        elif v == "SECTION":
            half = rot // 2  # sections sum to rot/2: t, h, w
            v = [half - 2 * (half // 3), half // 3, half // 3]
        elif v in ("SHORT", "LONG"):
            lo, hi = (1.0, 1.5) if v == "SHORT" else (1.0, 8.0)
            v = [round(float(x), 4) for x in torch.linspace(lo, hi, rot // 2)]
        out[k] = v
    return out


def _positions(kind, t, max_position, orig, g, realistic, plain=False):
    if kind == "short":  # every position below the original max: the short factors
        p = torch.randint(0, orig, (t,), generator=g, dtype=torch.int64)
    elif plain and realistic:
        # The `rope` adapter rotates with double angles (the seed's ops) where
        # vLLM's are f32: the gap grows with the position (_plain_rope_tol),
        # and past ~32k the derived bound is wider than the smaller outputs
        # (MISTRUSTED). Positions to 131k go through long_context_rope's
        # default cases instead, whose adapter rebuilds vLLM's f32 cache.
        p = torch.randint(0, 32768, (t,), generator=g, dtype=torch.int64)
        p[-1] = 32767
    else:
        p = torch.randint(0, max_position, (t,), generator=g, dtype=torch.int64)
        p[-1] = max_position - 1
        if realistic:
            p[0] = 131040 if max_position > 131040 else 0
    if kind == "mrope":
        return torch.stack([p, torch.flip(p, [0]), (p * 7) % max_position])
    return p


def longrope_max_model_len(positions, rope_parameters, max_position):
    """The max_model_len a Phi-3 LongRoPE case runs under. vLLM 0.33's
    Phi3LongRoPE picks short or long factors for the whole run from
    model_config.max_model_len (long when it exceeds the original max); the
    recorded 0.24 captures switched on the positions. The two rules agree when
    max_model_len is the original max exactly when every position is below it."""
    orig = int(rope_parameters["original_max_position_embeddings"])
    return orig if int(positions.max()) < orig else max_position


def rope_forward(rope, positions, q, k):
    """The rotary object's torch reference on q/k of [T, H*head]: (q_out, k_out) alike."""
    # Phi3LongRoPE is a plain nn.Module: its forward is the torch reference.
    fwd = getattr(rope, "forward_native", None) or rope.forward
    from vllm.model_executor.layers.rotary_embedding.deepseek_scaling_rope import DeepseekScalingRotaryEmbedding
    t = q.shape[0]
    if isinstance(rope, DeepseekScalingRotaryEmbedding):
        # DeepseekScalingRotaryEmbedding broadcasts its cache over a head
        # axis: it takes q/k as [T, H, D] (the others take [T, H*D]).
        q_out, k_out = fwd(positions, q.clone().view(t, -1, rope.head_size), k.clone().view(t, -1, rope.head_size))
        return q_out.reshape(t, -1), k_out.reshape(t, -1)
    return fwd(positions, q.clone(), k.clone())


def run_rope(head, max_position, neox, rope_parameters, dtype, positions, q, k, max_model_len=None):
    """vLLM's get_rope(...) reference on positions and q/k of [T, H*head].

    Shared by generation and replay, so that both run every scaling the same
    way. Returns (the rotary object, the name of the forward it ran, outputs,
    adjustments): outputs holds q_out and k_out ([T, H*head]), cos_sin_cache
    where the class has one, inv_freq for mixed NTK, and max_model_len for
    Phi-3 (when the caller gives none: longrope_max_model_len)."""
    import vllm.model_executor.layers.rotary_embedding as rotary
    from vllm.model_executor.layers.rotary_embedding import get_rope
    # get_rope memoises instances by its arguments, which do not include
    # max_model_len: a Phi-3 case would get the previous case's short-mode
    # instance. Every case builds its own.
    getattr(rotary, "_ROPE_DICT", {}).clear()
    check_signature(get_rope, ["head_size", "max_position", "is_neox_style", "rope_parameters", "dtype"])
    got, adjustments = {}, []
    rope_type = rope_parameters.get("rope_type", "default")
    if rope_type == "longrope":
        if max_model_len is None:
            max_model_len = longrope_max_model_len(positions, rope_parameters, max_position)
        got["max_model_len"] = max_model_len
        adjustments.append(f"model_config stand-in with max_model_len={max_model_len}")
    with vllm_config(got.get("max_model_len")):
        rope = get_rope(head_size=head, max_position=max_position, is_neox_style=neox,
                        rope_parameters=dict(rope_parameters), dtype=TORCH_DTYPE.get(dtype, torch.float32))
        q_out, k_out = rope_forward(rope, positions, q, k)
    fwd = getattr(rope, "forward_native", None) or rope.forward
    if rope_type == "deepseek_yarn":
        adjustments.append("q/k passed as [T, H, D] views (the class's own layout), outputs reshaped to [T, H*D]")
    got.update(q_out=q_out, k_out=k_out)
    # Phi3LongRoPE keeps short and long caches stacked (long_short_cos_sin_cache),
    # a layout of its own: its cases record q/k only.
    if hasattr(rope, "cos_sin_cache"):
        got["cos_sin_cache"] = rope.cos_sin_cache
    if rope_type == "ntk" and "mixed_b" in rope_parameters:
        # Mixed NTK forms its frequencies with torch's vectorized f32 pow and
        # exp, which are not correctly rounded (about 1 ulp): the checker
        # cannot rebuild these bits, and one ulp times a position near 131k
        # is visible in q/k. The case records them; the checker compares its
        # own within the derived bound, then builds the cache from them.
        got["inv_freq"] = rope._compute_inv_freq(rope.base)
    return rope, fwd.__name__, got, adjustments


def _case(seed, dtype, shape, key, op):
    neox, params, kind = SCALINGS[key]
    head, rot, max_pos, orig, t, hq, hk = SHAPES[shape]
    name = f"{op}_{key}_{dtype}_{shape}"
    g = generator(seed, name)
    rope_parameters = {"rope_theta": 10000.0 if shape == "small" else 500000.0, "rope_dim": rot,
                       **_resolve(params, rot, orig, max_pos)}
    positions = _positions(kind, t, max_pos, orig, g, shape == "realistic", plain=op == "rope")
    q = torch.randn(t, hq * head, generator=g).to(TORCH_DTYPE[dtype])
    k = torch.randn(t, hk * head, generator=g).to(TORCH_DTYPE[dtype])
    rope, fwd_name, got, adjustments = run_rope(head, max_pos, neox, rope_parameters, dtype, positions, q, k)
    q_out, k_out = got["q_out"], got["k_out"]
    tensors = {"positions": ("i64", to_store(positions, "i64")), "q_in": (dtype, to_store(q, dtype)),
               "k_in": (dtype, to_store(k, dtype))}
    outputs = []
    if shape == "small" and "cos_sin_cache" in got:
        tensors["cos_sin_cache"] = (dtype, to_store(got["cos_sin_cache"], dtype))
        outputs.append("cos_sin_cache")
    if "inv_freq" in got:
        tensors["inv_freq"] = ("f32", to_store(got["inv_freq"], "f32"))
        outputs.append("inv_freq")
    tensors["q_out"] = (dtype, to_store(q_out, dtype))
    tensors["k_out"] = (dtype, to_store(k_out, dtype))
    outputs += ["q_out", "k_out"]
    args = {"head_size": head, "max_position": max_pos, "is_neox_style": neox, "rope_parameters": rope_parameters,
            "dtype": dtype, "num_q_heads": hq, "num_kv_heads": hk, "class_name": type(rope).__name__, "seed": seed}
    if "max_model_len" in got:
        args["max_model_len"] = got["max_model_len"]
    if op == "rope":  # the plain-rope runner's keys (rope_f32_pos_short)
        args = {"base": rope_parameters["rope_theta"], "rotary_dim": rot, "head_size": head, "num_q_heads": hq,
                "num_kv_heads": hk, "is_neox_style": neox, "max_position": max_pos}
        tensors.pop("cos_sin_cache", None)
        outputs = ["q_out", "k_out"]
    if op == "rope":
        tol, why = _plain_rope_tol(dtype, rope_parameters, rot, positions, q, k)
    elif dtype == "f32":
        tol, why = F32_TOL
    else:
        rope32, _, _, _ = run_rope(head, max_pos, neox, rope_parameters, "f32", positions, q.float(), k.float(),
                                   got.get("max_model_len"))
        tol, why = rope_bf16_tol.derive(rope, rope32, rope_forward, positions, q, k, q_out, k_out)
    return Case(name, op, args, tensors, ["positions", "q_in", "k_in"], outputs, tol, why,
                provenance(getattr(type(rope), fwd_name), f"get_rope(...) -> {type(rope).__name__}.{fwd_name} "
                           "(plain torch) on CPU tensors", adjustments, seed=seed))


def rope(seed, dtype, shape):
    return [_case(seed, dtype, shape, key, "rope") for key in ("default_neox", "default_gptj")]


# Withheld, with the reason (docs/goldens.md, "Open findings"): none now.
#  (Resolved: mixed NTK at 131k positions records its inv_freq, see _case;
#  DeepSeek YaRN is called with [T, H, D] views.)
WITHHELD = set()


def long_context_rope(seed, dtype, shape):
    return [_case(seed, dtype, shape, key, "long_context_rope") for key in SCALINGS
            if (key, shape) not in WITHHELD]
