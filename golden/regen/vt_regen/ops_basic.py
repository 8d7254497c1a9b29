"""Norm, activation, embedding and matmul cases from vLLM's plain-torch references.

Each builder takes (seed, dtype, shape) and returns Cases named
<op>_<variant>_<dtype>_<shape>; the runner keys (`op`) and tensor names are the
recorded captures' (upstream-oracles.md 2.2), so the same adapters read both.
"""
import torch

from .caseio import Case
from .upstream import TORCH_DTYPE, check_signature, generator, provenance, to_store, vllm_config

# Realistic widths are a Llama-class hidden size / MLP width with few rows,
# so a case stays a few hundred KiB.
NORM_SHAPES = {"small": (8, 128), "realistic": (4, 4096)}
GLU_SHAPES = {"small": (8, 128), "realistic": (4, 4096)}

# Why each tolerance: the reference and the kernel differ only in reduction
# order (f32) or in where a value is rounded to bf16; the figures are the
# recorded captures' own for the same op and dtype.
TOL = {
    "f32": ({"atol": 1e-5, "rtol": 1e-5},
            "f32 in, f32 out: torch's vectorised mean-of-squares and the kernel's sequential sum differ "
            "by a few f32 ulps of the row's scale; 1e-5 as the recorded f32 captures"),
    "bf16": ({"atol": 8e-3, "rtol": 8e-3},
             "bf16 in: vLLM rounds intermediate results to bf16 (2^-8 relative) where the kernel may keep "
             "f32, so outputs differ by up to about one bf16 ulp; 8e-3 as the recorded bf16 captures"),
}


def _randn(g, shape, dtype, scale=1.0):
    return (torch.randn(*shape, generator=g, dtype=torch.float32) * scale).to(TORCH_DTYPE[dtype])


def rmsnorm(seed, dtype, shape):
    from vllm.model_executor.layers.layernorm import GemmaRMSNorm, RMSNorm
    t, h = NORM_SHAPES[shape]
    cases = []
    for variant in ("plain", "gemma", "residual"):
        name = f"rmsnorm_{variant}_{dtype}_{shape}"
        g = generator(seed, name)
        x = _randn(g, (t, h), dtype)
        w = _randn(g, (h,), dtype, 0.5) + (0 if variant == "gemma" else 1)
        res = _randn(g, (t, h), dtype) if variant == "residual" else None
        eps = 1e-6
        with vllm_config():
            cls = GemmaRMSNorm if variant == "gemma" else RMSNorm
            layer = cls(h, eps) if variant == "gemma" else RMSNorm(h, eps, dtype=TORCH_DTYPE[dtype])
            check_signature(layer.forward_native, ["x", "residual"])
            layer.weight.data.copy_(w.to(layer.weight.dtype))
            # fused_add_rms_norm may work in place: the stored inputs are copies.
            got = layer.forward_native(x.clone(), res.clone()) if res is not None else layer.forward_native(x.clone())
        tensors = {"x": (dtype, to_store(x, dtype)), "weight": (dtype, to_store(w, dtype))}
        outputs = ["out"]
        if res is not None:
            out, res_out = got
            tensors["residual_in"] = (dtype, to_store(res, dtype))
            tensors["out"] = ("f32", to_store(out.float(), "f32"))
            tensors["residual_out"] = ("f32", to_store(res_out.float(), "f32"))
            outputs.append("residual_out")
        else:
            tensors["out"] = ("f32", to_store(got.float(), "f32"))
        tol, why = TOL[dtype]
        cases.append(Case(name, "rmsnorm", {"eps": eps, "gemma": variant == "gemma", "fused_residual": res is not None},
                          tensors, [k for k in tensors if k not in ("out", "residual_out")], outputs, tol, why,
                          provenance(cls.forward_native, "forward_native (plain torch) on CPU tensors", seed=seed)))
    return cases


def _glu(seed, dtype, shape, op, layer_fn, variant_args):
    t, d = GLU_SHAPES[shape]
    name = f"{op}_{dtype}_{shape}"
    g = generator(seed, name)
    x = _randn(g, (t, 2 * d), dtype, 2.0)
    with vllm_config():
        layer = layer_fn()
        out = layer.forward_native(x.clone())
    tol, why = TOL[dtype]
    why = why.replace("the row's scale", "the value") if dtype == "f32" else why
    return [Case(name, op, variant_args, {"x": (dtype, to_store(x, dtype)), "out": ("f32", to_store(out.float(), "f32"))},
                 ["x"], ["out"], tol, why,
                 provenance(type(layer).forward_native, "forward_native (plain torch) on CPU tensors", seed=seed))]


def silu_and_mul(seed, dtype, shape):
    from vllm.model_executor.layers.activation import SiluAndMul
    return _glu(seed, dtype, shape, "silu_and_mul", SiluAndMul, {})


def gelu_and_mul(seed, dtype, shape):
    # The seed's kernel set has only the tanh form (docs/goldens.md: erf not in the seed).
    from vllm.model_executor.layers.activation import GeluAndMul
    return _glu(seed, dtype, shape, "gelu_and_mul", lambda: GeluAndMul(approximate="tanh"), {"approximate": "tanh"})


def embedding(seed, dtype, shape):
    v, d, n = {"small": (64, 32, 32), "realistic": (256, 1024, 16)}[shape]
    name = f"embedding_{dtype}_{shape}"
    g = generator(seed, name)
    table = _randn(g, (v, d), dtype)
    ids = torch.randint(0, v, (n,), generator=g, dtype=torch.int64)
    ids[0], ids[-1] = 0, v - 1  # both ends of the table
    out = torch.nn.functional.embedding(ids, table)
    return [Case(name, "embedding", {}, {"table": (dtype, to_store(table, dtype)), "ids": ("i64", to_store(ids, "i64")),
                                        "out": ("f32", to_store(out.float(), "f32"))},
                 ["table", "ids"], ["out"], {"atol": 0.0, "rtol": 0.0},
                 "a gather: every output element is a table element, exactly",
                 provenance(torch.nn.functional.embedding, "plain torch (vLLM's VocabParallelEmbedding "
                            "forward on one rank is F.embedding)", seed=seed))]


def matmul(seed, dtype, shape):
    m, k, n = {"small": (16, 64, 32), "realistic": (8, 1024, 256)}[shape]
    name = f"matmul_{dtype}_{shape}"
    g = generator(seed, name)
    a, b = _randn(g, (m, k), dtype), _randn(g, (k, n), dtype)
    out = a.float() @ b.float()
    # Derived, per case: each output is a K-term f32 dot product, and any
    # summation order (torch's blocked one, the kernel's sequential one) is
    # within gamma_K * sum_k |a_ik b_kj| of the exact value, gamma_K = K u / (1 - K u),
    # u = 2^-24 (products of bf16/f32 inputs are exact in f32 only for bf16; the
    # product rounding is inside the same gamma). Two such results differ by at most twice that.
    u = 2.0 ** -24
    gamma = k * u / (1 - k * u)
    atol = float(2 * gamma * (a.double().abs() @ b.double().abs()).max())
    tol = {"atol": atol, "rtol": 0.0}
    return [Case(name, "matmul", {}, {"a": (dtype, to_store(a, dtype)), "b": (dtype, to_store(b, dtype)),
                                     "out": ("f32", to_store(out, "f32"))},
                 ["a", "b"], ["out"], tol,
                 "f32 dot products of K terms in two summation orders: |difference| <= 2 gamma_K max sum|a||b| "
                 "(gamma_K = K u/(1 - K u), u = 2^-24), computed from this case's data",
                 provenance(torch.matmul, "plain torch a.float() @ b.float() (vLLM's unquantized linear on CPU)",
                            seed=seed))]
