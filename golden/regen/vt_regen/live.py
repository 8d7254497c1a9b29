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
# The keys of live_more.py (it imports this module's helpers, defined above).
from . import live_more  # noqa: E402
LIVE.update(live_more.LIVE)


def run(op, args, specs, arrays, outputs):
    fn = LIVE.get(op)
    if fn is None:
        raise KeyError(f"runner key '{op}' has no live upstream call here (vt_regen/live.py LIVE: "
                       f"{', '.join(sorted(LIVE))})")
    return fn(args, specs, arrays, outputs)
