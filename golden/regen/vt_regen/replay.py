"""--replay-recorded DIR: rerun the upstream callable on a recorded case's own
inputs and compare with its recorded outputs under the manifest tolerance.

This is what makes regeneration trustworthy: where the CPU reference
reproduces a GPU capture, a regenerated case of the same op can be believed.
"""
from pathlib import Path

import numpy as np
import torch

from . import ops_composite, ops_gdn, ops_more
from .caseio import as_float, read_folder
from .upstream import HAS_TRITON, TORCH_DTYPE, from_store, vllm_config

TRITON_OPS = {"l2norm", "gdn_prefill", "gdn_decode"}


def _t(man, arrays, name):
    return from_store(arrays[name], man["tensors"][name]["dtype"])


def _rmsnorm(man, a):
    from vllm.model_executor.layers.layernorm import GemmaRMSNorm, RMSNorm
    args = man["args"]
    x, w = _t(man, a, "x"), _t(man, a, "weight")
    h = x.shape[-1]
    layer = GemmaRMSNorm(h, args.get("eps", 1e-6)) if args.get("gemma") else RMSNorm(h, args.get("eps", 1e-6), dtype=w.dtype)
    layer.weight.data.copy_(w.to(layer.weight.dtype))
    if args.get("fused_residual"):
        out, res = layer.forward_native(x.clone(), _t(man, a, "residual_in").clone())
        return {"out": out, "residual_out": res}
    return {"out": layer.forward_native(x.clone())}


def _silu_and_mul(man, a):
    from vllm.model_executor.layers.activation import SiluAndMul
    return {"out": SiluAndMul().forward_native(_t(man, a, "x"))}


def _gelu_and_mul(man, a):
    from vllm.model_executor.layers.activation import GeluAndMul
    return {"out": GeluAndMul(approximate=man["args"].get("approximate", "tanh")).forward_native(_t(man, a, "x"))}


def _embedding(man, a):
    return {"out": torch.nn.functional.embedding(_t(man, a, "ids"), _t(man, a, "table"))}


def _matmul(man, a):
    return {"out": _t(man, a, "a").float() @ _t(man, a, "b").float()}


def _rope_common(man, a, head, max_pos, neox, params, dtype):
    from vllm.model_executor.layers.rotary_embedding import get_rope
    rope = get_rope(head_size=head, max_position=max_pos, is_neox_style=neox, rope_parameters=params,
                    dtype=TORCH_DTYPE.get(dtype, torch.float32))
    fwd = getattr(rope, "forward_native", None) or rope.forward
    q, k = fwd(_t(man, a, "positions"), _t(man, a, "q_in").clone(), _t(man, a, "k_in").clone())
    return {"q_out": q, "k_out": k, "cos_sin_cache": getattr(rope, "cos_sin_cache", None)}


def _rope(man, a):
    args = man["args"]
    params = {"rope_type": "default", "rope_theta": args["base"], "rope_dim": args["rotary_dim"]}
    return _rope_common(man, a, args["head_size"], args.get("max_position", 200000), args.get("is_neox_style", True),
                        params, man["tensors"]["q_in"]["dtype"])


def _long_context_rope(man, a):
    args = man["args"]
    return _rope_common(man, a, args["head_size"], args["max_position"], args["is_neox_style"],
                        dict(args["rope_parameters"]), args.get("dtype", "f32"))


REPLAY_COMPOSITE = {"dense_attention": ops_composite.dense_attention_replay,
                    "moe_block": ops_composite.moe_block_replay}
REPLAY = {"rmsnorm": _rmsnorm, "silu_and_mul": _silu_and_mul, "gelu_and_mul": _gelu_and_mul,
          "embedding": _embedding, "matmul": _matmul, "rope": _rope, "long_context_rope": _long_context_rope,
          "rmsnorm_gated": ops_more.rmsnorm_gated_replay, "l2norm": ops_more.l2norm_replay, "moe_router_topk": ops_more.moe_router_topk_replay,
          "causal_conv1d_fwd": ops_more.causal_conv1d_fwd_replay,
          "causal_conv1d_update": ops_more.causal_conv1d_update_replay,
          "gdn_prefill": ops_gdn.gdn_prefill_replay, "gdn_decode": ops_gdn.gdn_decode_replay}

# Why the others are not replayed here (the table in docs/goldens.md).
NOT_REPLAYED = {
    "gdn_packed_decode_bf16": "a GPU-only packed kernel compared by bit statistics: no CPU reference",
}


class ReplayError(Exception):
    """Nothing to replay: one line, exit 2."""


def replay_dir(root):
    """Prints one line per case; returns (reproduced, failed, not replayed) counts."""
    if not Path(root).is_dir():
        raise ReplayError(f"--replay-recorded: '{root}' is not a folder")
    dirs = sorted(p.parent for p in Path(root).rglob("manifest.json"))
    if not dirs:
        raise ReplayError(f"--replay-recorded: no case folder (with manifest.json) under '{root}'")
    counts = [0, 0, 0]
    with vllm_config():
        for d in dirs:
            try:
                man, arrays = read_folder(d)
                man["op"], man["outputs"], man["tensors"]
            except (OSError, ValueError, KeyError, TypeError) as e:
                print(f"UNREADABLE {d.name}: {type(e).__name__}: {e}")
                counts[1] += 1  # a case that cannot be read is not a reproduction
                continue
            fn = REPLAY.get(man.get("op")) or REPLAY_COMPOSITE.get(man.get("op"))
            if man.get("op") in TRITON_OPS and not HAS_TRITON:
                print(f"NOT REPLAYED {d.name} [{man['op']}]: Triton kernel, and this environment has no triton "
                      "(vt-golden regen --setup --with-triton)")
                counts[2] += 1
                continue
            if fn is None:
                why = NOT_REPLAYED.get(man.get("op"), "no CPU-runnable reference wired for this op")
                print(f"NOT REPLAYED {d.name} [{man.get('op')}]: {why}")
                counts[2] += 1
                continue
            got = fn(man, arrays)
            if got is None:
                print(f"NOT REPLAYED {d.name} [{man['op']}]: this variant exists only in the Triton kernel")
                counts[2] += 1
                continue
            tol = man.get("tol") or {}
            atol, rtol = tol.get("atol", 0.0), tol.get("rtol", 0.0)
            worst, ok = [], True
            for name in man["outputs"]:
                want = as_float(man["tensors"][name]["dtype"], arrays[name])
                have = got[name].detach().double().numpy().reshape(want.shape)
                err = np.abs(have - want)
                bad = ~(err <= atol + rtol * np.abs(want))
                ok &= not bad.any()
                worst.append(f"{name} max abs {err.max():.3g}")
            status = "REPRODUCED" if ok else "DIFFERS"
            print(f"{status} {d.name} [{man['op']}]: {', '.join(worst)} (atol {atol:g}, rtol {rtol:g})")
            counts[0 if ok else 1] += 1
    return tuple(counts)
