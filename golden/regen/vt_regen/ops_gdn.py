"""Gated delta rule (GDN) cases from fla's Triton kernels in vLLM, through the
Triton interpreter, in the recorded captures' layout (gdn_prefill_*, gdn_decode_*).

vLLM 0.33's kernels address states through a cache whose line 0 is the NULL
block and per-sequence state indices (golden-regen.md): the recorded per-sequence
states go to lines 1..N, and the final state is read back from there. In the
prefill kernel, state indices are [N, max_len]: token t of sequence n stores its
running state at idx[n, t] when that is > 0, and the initial state is read from
idx[n, 0]; so idx[n, 0] = idx[n, len-1] = n + 1 and the rest 0 (skipped) leaves
the final state in line n + 1.
"""
import torch
import torch.nn.functional as F

from .caseio import Case
from .upstream import HAS_TRITON, TRITON_ADJUSTMENTS, generator, provenance, to_store

if HAS_TRITON:  # the wrappers must be module-level: jit'd code needs `tl` as a global
    import triton
    from vllm.triton_utils import tl

    @triton.jit
    def _exp(x):
        return tl.exp(x)

    @triton.jit
    def _log(x):
        return tl.log(x)

TOL = ({"atol": 1e-5, "rtol": 1e-5},
       "f32 recurrence: the kernel's row sums (tl.sum over K and V blocks) and a sequential f32 loop differ by a "
       "few ulps per step, kept small by |decay| < 1 and unit-norm keys; 1e-5 as the recorded f32 captures")
ALIAS_ADJUSTMENT = "fla fused_recurrent's module-level exp/log aliases of tl.exp/tl.log replaced by jitted wrappers"


def _fused_recurrent():
    """fused_recurrent with its `exp = tl.exp`-style aliases (bound at import,
    which the interpreter's patching misses) replaced by jitted wrappers."""
    from vllm.third_party.flash_linear_attention.ops import fused_recurrent as fr
    fr.exp, fr.log = _exp, _log
    return fr


def null_block_cache(state_in, qsl):
    """The per-sequence states in cache lines 1..N (line 0: the NULL block) and
    the [N, max_len] state indices that read sequence n's initial state from
    line n + 1 and leave its final state there (the module docstring)."""
    n = state_in.shape[0]
    cache = torch.zeros((n + 1,) + tuple(state_in.shape[1:]))
    cache[1:] = state_in
    lens = (qsl[1:] - qsl[:-1]).tolist()
    idx = torch.zeros(n, max(max(lens), 1), dtype=torch.int32)
    for i, length in enumerate(lens):
        idx[i, 0] = i + 1
        idx[i, max(length - 1, 0)] = i + 1
    return cache, idx


def prefill_run(q, k, v, g, beta, state_in, qsl, scale):
    fr = _fused_recurrent()
    cache, idx = null_block_cache(state_in, qsl)
    o, _ = fr.fused_recurrent_gated_delta_rule(q[None], k[None], v[None], g[None], beta[None], scale=scale,
                                               initial_state=cache, inplace_final_state=True,
                                               cu_seqlens=qsl.long(), ssm_state_indices=idx,
                                               use_qk_l2norm_in_kernel=False)
    return o[0], cache[1:].clone(), fr.fused_recurrent_gated_delta_rule


def gdn_prefill(seed, dtype, shape):
    if dtype != "f32":
        return []  # bf16 prefill goes through the chunked kernel upstream (not wired)
    hk, hv, dk, dv, seqlens = {"small": (2, 4, 16, 32, [5, 7]), "realistic": (2, 4, 128, 128, [9, 4])}[shape]
    cases = []
    for with_init in (True, False):
        name = f"gdn_prefill_{'init' if with_init else 'noinit'}_f32_{shape}"
        g_ = generator(seed, name)
        t, n = sum(seqlens), len(seqlens)
        q = F.normalize(torch.randn(t, hk, dk, generator=g_), dim=-1)
        k = F.normalize(torch.randn(t, hk, dk, generator=g_), dim=-1)
        v = torch.randn(t, hv, dv, generator=g_)
        g = F.logsigmoid(torch.randn(t, hv, generator=g_) + 2)
        beta = torch.sigmoid(torch.randn(t, hv, generator=g_))
        state = torch.randn(n, hv, dv, dk, generator=g_) * 0.1 if with_init else torch.zeros(n, hv, dv, dk)
        qsl = torch.tensor([0] + torch.cumsum(torch.tensor(seqlens), 0).tolist(), dtype=torch.int32)
        scale = dk ** -0.5
        out, state_out, fn = prefill_run(q, k, v, g, beta, state, qsl, scale)
        tensors = {"q": ("f32", to_store(q, "f32")), "k": ("f32", to_store(k, "f32")), "v": ("f32", to_store(v, "f32")),
                   "g": ("f32", to_store(g, "f32")), "beta": ("f32", to_store(beta, "f32")),
                   "state_in": ("f32", to_store(state, "f32")), "query_start_loc": ("i32", to_store(qsl, "i32")),
                   "out": ("f32", to_store(out, "f32")), "state_out": ("f32", to_store(state_out, "f32"))}
        cases.append(Case(name, "gdn_prefill", {"scale": scale, "Hk": hk, "Hv": hv, "Dk": dk, "Dv": dv,
                                                "seqlens": seqlens, "use_qk_l2norm_in_kernel": False,
                                                "q_k_prenormalized": True, "with_initial_state": with_init},
                          tensors, ["q", "k", "v", "g", "beta", "state_in", "query_start_loc"], ["out", "state_out"],
                          *TOL, provenance(fn, "the Triton kernel itself (fused_recurrent), Triton interpreter on a "
                                           "CPU; NULL-block state cache, indices as in ops_gdn.py",
                                           TRITON_ADJUSTMENTS + [ALIAS_ADJUSTMENT], seed=seed,
                                           kind="cpu-reference (Triton interpreter)")))
    return cases


def decode_run(a_log, a, b, dt_bias, q, k, v, state_in, scale, threshold):
    from vllm.third_party.flash_linear_attention.ops.fused_sigmoid_gating import (
        fused_sigmoid_gating_delta_rule_update as fn)
    bsz = q.shape[0]
    cache = torch.zeros((bsz + 1,) + tuple(state_in.shape[1:]))
    cache[1:] = state_in
    o, _ = fn(a_log, a[None], b[None], dt_bias, q[None], k[None], v[None], beta=1.0, threshold=threshold, scale=scale,
              initial_state=cache, inplace_final_state=True, cu_seqlens=torch.arange(bsz + 1, dtype=torch.int32),
              ssm_state_indices=torch.arange(1, bsz + 1, dtype=torch.int32), use_qk_l2norm_in_kernel=True)
    return o.reshape(bsz, *v.shape[1:]), cache[1:].clone(), fn


def gdn_decode(seed, dtype, shape):
    if dtype != "f32":
        return []
    hk, hv, dk, dv, bsz = {"small": (2, 4, 16, 32, 3), "realistic": (2, 4, 128, 128, 2)}[shape]
    name = f"gdn_decode_rawqk_f32_{shape}"
    g_ = generator(seed, name)
    q, k = torch.randn(bsz, hk, dk, generator=g_), torch.randn(bsz, hk, dk, generator=g_)
    v = torch.randn(bsz, hv, dv, generator=g_)
    a, b = torch.randn(bsz, hv, generator=g_), torch.randn(bsz, hv, generator=g_)
    a_log, dt_bias = torch.randn(hv, generator=g_) * 0.5, torch.randn(hv, generator=g_) * 0.5
    state = torch.randn(bsz, hv, dv, dk, generator=g_) * 0.1
    scale = dk ** -0.5
    out, state_out, fn = decode_run(a_log, a, b, dt_bias, q, k, v, state, scale, 20.0)
    names = {"q": q, "k": k, "v": v, "a": a, "b": b, "A_log": a_log, "dt_bias": dt_bias, "state_in": state,
             "out": out, "state_out": state_out}
    return [Case(name, "gdn_decode", {"scale": scale, "Hk": hk, "Hv": hv, "Dk": dk, "Dv": dv, "batch": bsz,
                                      "use_qk_l2norm_in_kernel": True, "softplus_threshold": 20.0},
                 {n: ("f32", to_store(t, "f32")) for n, t in names.items()},
                 ["q", "k", "v", "a", "b", "A_log", "dt_bias", "state_in"], ["out", "state_out"], *TOL,
                 provenance(fn, "the Triton kernel itself, Triton interpreter on a CPU; NULL-block state cache, "
                            "one token per sequence", TRITON_ADJUSTMENTS, seed=seed,
                            kind="cpu-reference (Triton interpreter)"))]


def _t(man, arrays, name):
    return torch.from_numpy(arrays[name].copy())


def gdn_prefill_replay(man, arrays):
    t = {n: _t(man, arrays, n) for n in man["inputs"]}
    out, state_out, _ = prefill_run(t["q"], t["k"], t["v"], t["g"], t["beta"], t["state_in"], t["query_start_loc"],
                                    man["args"]["scale"])
    return {"out": out, "state_out": state_out}


def gdn_decode_replay(man, arrays):
    t = {n: _t(man, arrays, n) for n in man["inputs"]}
    out, state_out, _ = decode_run(t["A_log"], t["a"], t["b"], t["dt_bias"], t["q"], t["k"], t["v"], t["state_in"],
                                   man["args"]["scale"], man["args"].get("softplus_threshold", 20.0))
    return {"out": out, "state_out": state_out}
