"""--replay-recorded DIR: rerun the upstream callable on a recorded case's own
inputs and compare with its recorded outputs under the manifest tolerance.

This is what makes regeneration trustworthy: where the CPU reference
reproduces a GPU capture, a regenerated case of the same op can be believed.
"""
from pathlib import Path

import numpy as np
import torch

from . import ops_composite, ops_gdn, ops_more, ops_rope
from .caseio import as_float, read_folder, read_manifest
from .trust import manifest_tolerance
from .upstream import HAS_TRITON, NotReplayable, from_store, vllm_config

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
    _, _, got, _ = ops_rope.run_rope(head, max_pos, neox, params, dtype, _t(man, a, "positions"),
                                     _t(man, a, "q_in"), _t(man, a, "k_in"), man["args"].get("max_model_len"))
    return got


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

# Ops whose recorded cases have no CPU-runnable reference at all, with why.
NOT_REPLAYED = {
    "gdn_packed_decode_bf16": "a GPU-only packed kernel compared by bit statistics: no CPU reference",
}
NOT_WIRED = ("the generator has a CPU reference for this op, but replay is not wired for it "
             "(vt_regen/replay.py REPLAY)")


class ReplayError(Exception):
    """Nothing to replay: one line, exit 2."""


def _one_line(e, limit=300):
    text = (str(e).strip().splitlines() or [""])[0]
    return f"{type(e).__name__}: {text[:limit]}"


def _compare(man, arrays, got):
    """(reproduced?, one summary) of the replayed outputs against the recorded ones,
    each under the tolerance the manifest gives it."""
    ok, worst, tols = True, [], []
    for name in man["outputs"]:
        atol, rtol = manifest_tolerance(man["op"], man.get("args") or {}, man["tol"], name)
        want = as_float(man["tensors"][name]["dtype"], arrays[name])
        have = got[name].detach().double().numpy().reshape(want.shape)
        err = np.abs(have - want)
        ok &= bool((err <= atol + rtol * np.abs(want)).all())
        tols.append(f"atol {atol:g}, rtol {rtol:g}")
        worst.append(f"{name} max abs {err.max():.3g}")
    if len(set(tols)) == 1:
        return ok, f"{', '.join(worst)} ({tols[0]})"
    return ok, ", ".join(f"{w} ({t})" for w, t in zip(worst, tols))


def _replay_one(d):
    """(outcome, line) for one case folder; outcome 0 reproduced, 1 failed, 2 not replayed.
    Any exception is the caller's: it counts the case failed."""
    op = read_manifest(d).get("op")
    fn = REPLAY.get(op) or REPLAY_COMPOSITE.get(op)
    if op in NOT_REPLAYED or fn is None:
        return 2, f"NOT REPLAYED {d.name} [{op}]: {NOT_REPLAYED.get(op, NOT_WIRED)}"
    if op in TRITON_OPS and not HAS_TRITON:
        return 2, (f"NOT REPLAYED {d.name} [{op}]: Triton kernel, and this environment has no triton "
                   "(vt-golden regen --setup --with-triton)")
    man, arrays = read_folder(d)
    try:
        got = fn(man, arrays)
    except NotReplayable as e:
        return 2, f"NOT REPLAYED {d.name} [{op}]: {e}"
    ok, summary = _compare(man, arrays, got)
    return (0, f"REPRODUCED {d.name} [{op}]: {summary}") if ok else (1, f"DIFFERS {d.name} [{op}]: {summary}")


def replay_dir(root):
    """Prints one line per case; returns (reproduced, failed, not replayed) counts.

    One case's exception never stops the run: the case is counted failed, with
    a line naming the exception."""
    if not Path(root).is_dir():
        raise ReplayError(f"--replay-recorded: '{root}' is not a folder")
    dirs = sorted(p.parent for p in Path(root).rglob("manifest.json"))
    if not dirs:
        raise ReplayError(f"--replay-recorded: no case folder (with manifest.json) under '{root}'")
    counts = [0, 0, 0]
    with vllm_config():
        for d in dirs:
            try:
                outcome, line = _replay_one(d)
            except Exception as e:  # noqa: BLE001 - any failure of one case is that case's
                outcome, line = 1, f"FAILED {d.name}: {_one_line(e)}"
            print(line, flush=True)
            counts[outcome] += 1
    return tuple(counts)
