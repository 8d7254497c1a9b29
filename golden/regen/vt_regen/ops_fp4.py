"""NVFP4 cases from vLLM's pure-torch NVFP4 emulation
(`vllm.model_executor.layers.quantization.utils.nvfp4_emulation_utils`):
`ref_nvfp4_quant` for the quantizers, `run_nvfp4_emulations` (the emulation
linear kernel's dequantize-then-matmul) for matmul_nvfp4_fp4.

Golden format (docs/goldens.md, "NVFP4 goldens"):
- out_packed: u8 [M, K/2], two e2m1 codes per byte, element 2j in the LOW
  nibble and 2j+1 in the high nibble (the order vLLM's own `break_fp4_bytes`
  unpacks). ref_nvfp4_quant returns the e2m1 VALUES as f32; each value is
  packed as its code: sign bit = the value's sign bit (so the reference's -0.0,
  which `torch.sign(x) * 0` gives for small negative x, is nibble 0x8), three
  magnitude bits = the index of |value| in {0, .5, 1, 1.5, 2, 3, 4, 6}.
- out_scale: fp8_e4m3 (u8 bits of torch.float8_e4m3fn), one per 16 elements,
  in the case's layout: `linear` [M, K/16], or `swizzled` = vLLM's own
  `swizzle_blockscale` (CUTLASS 128x4 tiles, [round_up(M,128), round_up(K/16,4)],
  zero padding).
- gsi (args): vLLM's `global_scale` argument of scaled_fp4_quant /
  ref_nvfp4_quant, the multiplier s = gsi * amax / 6 (the catalog's "global
  scale inverse"), an f32 value stored as a double.
"""
import numpy as np
import torch

from .caseio import Case
from .upstream import TORCH_DTYPE, check_signature, generator, provenance, to_store, vllm_config

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
QUANT_SHAPES = {"small": (8, 64), "realistic": (16, 2048)}   # [M, K]: K/16 = 4 / 128 groups
GLU_SHAPES = {"small": (8, 64), "realistic": (16, 1024)}     # [M, I]: gate_up is [M, 2I]
MM_SHAPES = {"small": (4, 64, 16), "realistic": (8, 512, 64)}  # M, K, N

QUANT_TOL = ({"atol": 0.0, "rtol": 0.0},
             "exact: ref_nvfp4_quant and the kernel run the same f32 operations in the same order "
             "(s = gsi * (amax * f32(1/6)) - torch rounds the Python constant 1/6 to f32 before the multiply, "
             "measured -, e4m3 RNE, block = scale * (1/gsi), x * (1/block) with correctly rounded f32 "
             "reciprocals, the same e2m1 thresholds and ties), so every scale byte and every code agrees; the "
             "adapter canonicalises the reference's -0 nibbles (0x8) to +0 before the byte comparison "
             "(upstream's own test compares values, where -0 == +0)")


def _emu():
    from vllm.model_executor.layers.quantization.utils import nvfp4_emulation_utils as emu
    from vllm.platforms import current_platform
    if current_platform.is_cuda_alike():
        # ref_nvfp4_quant_dequant would run its Triton kernel instead of the plain-torch reference.
        raise RuntimeError("vLLM sees a CUDA-alike platform: the NVFP4 emulation would not take its torch path")
    check_signature(emu.ref_nvfp4_quant, ["x", "global_scale", "block_size"])
    check_signature(emu.run_nvfp4_emulations, ["x", "input_global_scale", "weight", "weight_scale_swizzled",
                                               "weight_global_scale", "swizzle"])
    return emu


def pack_e2m1(values):
    """f32 e2m1 values [M, K] -> u8 [M, K/2], low nibble = even element, sign bit kept (-0.0 -> 0x8)."""
    v = values.detach().float().numpy()
    mag = np.abs(v)
    idx = np.full(v.shape, -1, dtype=np.int64)
    for i, e in enumerate(E2M1):
        idx[mag == e] = i
    if (idx < 0).any():
        raise ValueError("ref_nvfp4_quant returned a value that is not an e2m1 value")
    code = (idx | (np.signbit(v).astype(np.int64) << 3)).astype(np.uint8)
    return (code[:, 0::2] | (code[:, 1::2] << 4)).astype(np.uint8)


def _swizzle(scale_e4m3):
    """vLLM's swizzle_blockscale; it ends with `.cuda()`, made the identity for the call (CPU tensors)."""
    from vllm.model_executor.layers.quantization.utils.nvfp4_utils import swizzle_blockscale
    saved = torch.Tensor.cuda
    torch.Tensor.cuda = lambda self, *a, **k: self
    try:
        out = swizzle_blockscale(scale_e4m3)
    finally:
        torch.Tensor.cuda = saved
    return out, swizzle_blockscale


SWIZZLE_ADJUSTMENT = ("swizzle_blockscale (nvfp4_utils) moves its result to the GPU with .cuda(): torch.Tensor.cuda "
                      "made the identity for that call; the pad/reshape/permute is vLLM's, and the tool checks "
                      "that the emulation's convert_swizzled_to_linear inverts it")


def quantize(x, gsi, layout):
    """(packed u8 [M,K/2], scale bits u8 in the layout, callables, adjustments) from ref_nvfp4_quant."""
    emu = _emu()
    m, k = x.shape
    vals, scale = emu.ref_nvfp4_quant(x, torch.tensor([gsi], dtype=torch.float32), 16)
    scale8 = scale.to(torch.float8_e4m3fn)
    if not torch.equal(scale8.float(), scale):
        raise ValueError("ref_nvfp4_quant's scales are not e4m3 values")
    adjustments = []
    if layout == "swizzled":
        sw, _ = _swizzle(scale8)
        back = emu.convert_swizzled_to_linear(sw, m, k, 16)
        if not torch.equal(back.view(torch.uint8), scale8.view(torch.uint8)):
            raise ValueError("convert_swizzled_to_linear does not invert swizzle_blockscale")
        scale8 = sw
        adjustments.append(SWIZZLE_ADJUSTMENT)
    return pack_e2m1(vals), scale8.contiguous().view(torch.uint8).numpy().copy(), emu.ref_nvfp4_quant, adjustments


def global_scale(t):
    """vLLM's per-tensor global scale for an activation: 448 * 6 / amax, in f32."""
    return float(torch.tensor(448.0 * 6.0, dtype=torch.float32) / t.float().abs().max())


def _activations(g, m, k, dtype, spread=1.0):
    """Rows of randn with a per-row magnitude exp(N(0, spread)) (outlier rows, as activations have), and
    a few outlier channels, in the case's dtype."""
    x = torch.randn(m, k, generator=g) * torch.exp(torch.randn(m, 1, generator=g) * spread)
    cols = torch.randint(0, k, (max(1, k // 256),), generator=g)
    x[:, cols] *= 8.0
    return x.to(TORCH_DTYPE[dtype])


def _e4m3_midpoints():
    """The rounding midpoints between consecutive positive e4m3fn values (subnormals included), as f64."""
    vals = torch.arange(0, 127, dtype=torch.int32).to(torch.uint8).view(torch.float8_e4m3fn).double()
    vals = torch.unique(vals[torch.isfinite(vals)])
    return ((vals[1:] + vals[:-1]) / 2).numpy()


def _midpoints(g, m, k, gsi):
    """f32 targeted values (gsi a power of two): in each group amax is chosen so that s = gsi * (amax *
    f32(1/6)) - ref_nvfp4_quant's f32 arithmetic - lands exactly on an e4m3 rounding midpoint (so the scale
    byte is decided by the tie rule), preferring an amax for which amax / 6 (a true division) rounds to a
    different f32 value; the other 15 elements uniform in (-amax, amax)."""
    c = np.float32(1.0 / 6.0)
    mids = _e4m3_midpoints()
    mids = mids[(mids >= 2.0 ** -9) & (mids <= 432.0)]
    groups = k // 16
    x = np.zeros((m, groups, 16), dtype=np.float32)
    pick = torch.randint(0, len(mids), (m, groups), generator=g).numpy()
    other = torch.rand(m, groups, 16, generator=g, dtype=torch.float64).numpy() * 2 - 1
    sign = np.where(torch.rand(m, groups, generator=g).numpy() < 0.5, -1.0, 1.0)
    for i in range(m):
        for j in range(groups):
            target = np.float32(mids[pick[i, j]] / gsi)
            if float(target) * gsi != mids[pick[i, j]]:
                raise ValueError("midpoint not representable")
            a0 = np.float32(float(target) / float(c))
            below, above = [a0], [a0]
            for _ in range(64):  # the f32 neighbours of a0, 64 each way, nearest first
                below.append(np.nextafter(below[-1], np.float32(-np.inf), dtype=np.float32))
                above.append(np.nextafter(above[-1], np.float32(np.inf), dtype=np.float32))
            best = None
            for a in [a0] + [v for pair in zip(below[1:], above[1:]) for v in pair]:
                if np.float32(a * c) == target:
                    if best is None or (np.float32(a / np.float32(6.0)) != target and
                                        np.float32(best / np.float32(6.0)) == target):
                        best = a
            if best is None:
                raise ValueError("no f32 amax reaches the midpoint")
            x[i, j] = (other[i, j] * float(best)).astype(np.float32)
            x[i, j, 0] = sign[i, j] * best
    return torch.from_numpy(x.reshape(m, k))


def scaled_fp4_quant_midpoints(seed, dtype, shape):
    if shape != "small" or dtype != "f32":
        return []  # an f32 amax is needed to reach each midpoint exactly
    m, k = 8, 128
    name = f"scaled_fp4_quant_midpoints_{dtype}_{shape}"
    g = generator(seed, name)
    gsi = 16.0
    x = _midpoints(g, m, k, gsi)
    packed, scale, fn, adj = quantize(x, gsi, "linear")
    return [Case(name, "scaled_fp4_quant", {"gsi": gsi, "scale_layout": "linear", "block_size": 16,
                                            "aim": "midpoints"},
                 {"x": (dtype, to_store(x, dtype)), "out_packed": ("u8", packed), "out_scale": ("fp8_e4m3", scale)},
                 ["x"], ["out_packed", "out_scale"], *QUANT_TOL,
                 provenance(fn, "ref_nvfp4_quant (plain torch) on CPU tensors, gsi = 16; each group's amax chosen "
                            "so that gsi * (amax * f32(1/6)) is exactly an e4m3 rounding midpoint (the scale byte "
                            "is the tie rule's; amax / 6 would round elsewhere where possible); packing as the "
                            "other scaled_fp4_quant cases", adj, seed=seed))]


def scaled_fp4_quant(seed, dtype, shape):
    m, k = QUANT_SHAPES[shape]
    cases = scaled_fp4_quant_ties(seed, dtype, shape) + scaled_fp4_quant_midpoints(seed, dtype, shape)
    for layout in ("linear", "swizzled"):
        name = f"scaled_fp4_quant_{layout}_{dtype}_{shape}"
        g = generator(seed, name)
        x = _activations(g, m, k, dtype)
        gsi = global_scale(x)
        packed, scale, fn, adj = quantize(x, gsi, layout)
        cases.append(Case(name, "scaled_fp4_quant", {"gsi": gsi, "scale_layout": layout, "block_size": 16},
                          {"x": (dtype, to_store(x, dtype)), "out_packed": ("u8", packed),
                           "out_scale": ("fp8_e4m3", scale)},
                          ["x"], ["out_packed", "out_scale"], *QUANT_TOL,
                          provenance(fn, "ref_nvfp4_quant (plain torch) on CPU tensors, gsi = 448*6/amax(x) in f32 "
                                     "(vLLM's activation global scale); its e2m1 values packed two per byte (low "
                                     "nibble first, sign bit kept), its f32 scales stored as e4m3 bits"
                                     + ("; scales swizzled by swizzle_blockscale" if layout == "swizzled" else ""),
                                     adj, seed=seed)))
    return cases


TIES = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 6.0]  # every e2m1 tie and the saturation edge


def _ties(g, m, k, dtype, gsi):
    """Targeted values (gsi a power of two): each group's block scale is a power of two b (so 1/block is
    exact), amax exactly 6b, and the other elements +-b times an e2m1 tie / the saturation edge or a value
    inside (-6b, 6b); b spans 2^-15 .. 2^2 so that s = gsi * b reaches e4m3 subnormal scales (2^-9 ..
    2^-7 at gsi = 64); one group in 8 all zero."""
    groups = k // 16
    e = torch.randint(-15, 3, (m, groups, 1), generator=g).double()
    b = torch.pow(2.0, e)
    pick = torch.randint(0, len(TIES), (m, groups, 16), generator=g)
    t = torch.tensor(TIES, dtype=torch.float64)[pick]
    inside = (torch.rand(m, groups, 16, generator=g, dtype=torch.float64) * 12 - 6).to(TORCH_DTYPE[dtype]).double()
    use_inside = torch.rand(m, groups, 16, generator=g) < 0.25
    t = torch.where(use_inside, inside, t)
    sign = torch.where(torch.rand(m, groups, 16, generator=g) < 0.5, -1.0, 1.0).double()
    t = t * sign
    t[..., 0] = 6.0 * sign[..., 0]  # amax = 6b exactly
    x = t * b
    x[torch.rand(m, groups, generator=g) < 0.125] = 0.0
    x = x.reshape(m, k)
    out = x.to(TORCH_DTYPE[dtype])
    if not torch.equal(out.double(), x):
        raise ValueError("ties case: a targeted value is not representable in " + dtype)
    return out


def scaled_fp4_quant_ties(seed, dtype, shape):
    if shape != "small":
        return []
    m, k = 8, 128
    name = f"scaled_fp4_quant_ties_{dtype}_{shape}"
    g = generator(seed, name)
    gsi = 64.0
    x = _ties(g, m, k, dtype, gsi)
    packed, scale, fn, adj = quantize(x, gsi, "linear")
    return [Case(name, "scaled_fp4_quant", {"gsi": gsi, "scale_layout": "linear", "block_size": 16, "aim": "ties"},
                 {"x": (dtype, to_store(x, dtype)), "out_packed": ("u8", packed), "out_scale": ("fp8_e4m3", scale)},
                 ["x"], ["out_packed", "out_scale"], *QUANT_TOL,
                 provenance(fn, "ref_nvfp4_quant (plain torch) on CPU tensors, gsi = 64; x targeted at every e2m1 "
                            "tie and the saturation edge under power-of-two block scales (normal and e4m3 "
                            "subnormal), one group in 8 zero; packing as the other scaled_fp4_quant cases",
                            adj, seed=seed))]


def _silu_mul_bf16(gate_up):
    """vLLM's SiluAndMul.forward_native evaluated in f32, rounded once to bf16: the activation the fused
    silu_and_mul_nvfp4_quant kernel quantizes (f32 silu(gate) * up, one conversion to the 16-bit type)."""
    from vllm.model_executor.layers.activation import SiluAndMul
    with vllm_config():
        layer = SiluAndMul()
        act = layer.forward_native(gate_up.float())
    return act.to(torch.bfloat16), SiluAndMul.forward_native


ACT_WHY = (". The bf16 activation (recorded as act_bf16) is computed on both sides - torch's f32 {what} and the "
           "kernel's - and the two could round to different bf16 neighbours where the f32 value lies within an ulp "
           "or two of a bf16 midpoint; the adapter also runs the op's activation (bf16 out) and compares it with "
           "act_bf16 exactly, so such an element would show as an act_bf16 mismatch, not hide in the codes")


def _fused_case(seed, name, op, inputs, act, act_how, act_callable, adj, dtype, layout):
    gsi = global_scale(act)
    packed, scale, fn, qadj = quantize(act, gsi, layout)
    tensors = {n: (d, to_store(t, d)) for n, (d, t) in inputs.items()}
    tensors.update({"act_bf16": ("bf16", to_store(act, "bf16")), "out_packed": ("u8", packed),
                    "out_scale": ("fp8_e4m3", scale)})
    prov = provenance(fn, act_how + ", rounded once to bf16, then ref_nvfp4_quant (plain torch), gsi = "
                      "448*6/amax(act) in f32; packing as scaled_fp4_quant", qadj + adj, seed=seed)
    prov["activation_callable"] = f"{act_callable.__module__}.{act_callable.__qualname__}"
    return Case(name, op, {"gsi": gsi, "scale_layout": layout, "block_size": 16}, tensors, list(inputs),
                ["act_bf16", "out_packed", "out_scale"], dict(QUANT_TOL[0]),
                QUANT_TOL[1] + ACT_WHY.format(what="activation"), prov)


UPCAST = ("bf16 inputs upcast to f32 before the activation: on bf16 tensors torch would round an intermediate to "
          "bf16 before the multiply, which neither the fused CUDA kernel nor the seed does (f32 math, one "
          "conversion to bf16)")


def silu_and_mul_fp4_quant(seed, dtype, shape):
    m, i = GLU_SHAPES[shape]
    layout = "linear" if shape == "small" else "swizzled"
    name = f"silu_and_mul_fp4_quant_{layout}_{dtype}_{shape}"
    g = generator(seed, name)
    gate_up = (torch.randn(m, 2 * i, generator=g) * 2.0).to(TORCH_DTYPE[dtype])
    act, act_fn = _silu_mul_bf16(gate_up)
    return [_fused_case(seed, name, "silu_and_mul_fp4_quant", {"gate_up": (dtype, gate_up)}, act,
                        "SiluAndMul.forward_native on gate_up" + (".float()" if dtype == "bf16" else "") +
                        " (f32; the fused silu_and_mul_nvfp4_quant kernel and the vllm.cpp contract round silu * up "
                        "through bf16 before the quant)", act_fn, [UPCAST] if dtype == "bf16" else [], dtype, layout)]


def silu_mul_fp4_quant(seed, dtype, shape):
    """The two-input form (gate, up [M, I]): SiluAndMul on their concatenation, gate first."""
    m, i = GLU_SHAPES[shape]
    layout = "swizzled" if shape == "small" else "linear"
    name = f"silu_mul_fp4_quant_{layout}_{dtype}_{shape}"
    g = generator(seed, name)
    gate = (torch.randn(m, i, generator=g) * 2.0).to(TORCH_DTYPE[dtype])
    up = (torch.randn(m, i, generator=g) * 2.0).to(TORCH_DTYPE[dtype])
    act, act_fn = _silu_mul_bf16(torch.cat([gate, up], dim=-1))
    return [_fused_case(seed, name, "silu_mul_fp4_quant", {"gate": (dtype, gate), "up": (dtype, up)}, act,
                        "SiluAndMul.forward_native on torch.cat([gate, up], -1)" +
                        (".float()" if dtype == "bf16" else "") + " (f32)", act_fn,
                        ["gate and up concatenated (gate first) into SiluAndMul's [M, 2I] input"] +
                        ([UPCAST] if dtype == "bf16" else []), dtype, layout)]


def sigmoid_gate_fp4_quant(seed, dtype, shape):
    """Qwen3-Next's attention output gate feeding o_proj's fp4 quant (an Inductor fusion upstream, no named
    op): qwen3_next.py's `attn_output * torch.sigmoid(gate)`, in f32 (attn upcast; gate f32 as the op takes
    it), rounded once to bf16."""
    import hashlib
    from pathlib import Path

    import vllm
    m, k = QUANT_SHAPES[shape]
    layout = "linear" if shape == "small" else "swizzled"
    name = f"sigmoid_gate_fp4_quant_{layout}_{dtype}_{shape}"
    g = generator(seed, name)
    attn = _activations(g, m, k, dtype, spread=0.5)
    gate = torch.randn(m, k, generator=g) * 2.0
    act = (attn.float() * torch.sigmoid(gate)).to(torch.bfloat16)
    model = Path(vllm.__file__).parent / "model_executor" / "models" / "qwen3_next.py"
    case = _fused_case(seed, name, "sigmoid_gate_fp4_quant", {"attn": (dtype, attn), "gate": ("f32", gate)}, act,
                       "attn.float() * torch.sigmoid(gate) (the expression of Qwen3NextAttention.forward in "
                       "vllm/model_executor/models/qwen3_next.py; the module itself is not importable in the "
                       "pinned environment: it needs compressed_tensors)", torch.sigmoid,
                       ["gate f32 (the op's contract); attn upcast to f32, the product rounded once to bf16 (the "
                        "seed's sigmoid_gate_bf16 boundary)"], dtype, layout)
    case.tol_reason = QUANT_TOL[1] + ACT_WHY.format(what="sigmoid")
    case.oracle["gate_expression_source"] = "vllm/model_executor/models/qwen3_next.py"
    case.oracle["gate_expression_source_sha256"] = hashlib.sha256(model.read_bytes()).hexdigest()
    return [case]


def _decoded(vals, scale_f32, k):
    """ref_nvfp4_quant's values times its block scales (f64): the decoded operand without the global scale."""
    return (vals.double().reshape(vals.shape[0], k // 16, 16) * scale_f32.double()[..., None]).reshape(-1, k)


def matmul_nvfp4_fp4(seed, dtype, shape):
    emu = _emu()
    m, k, n = MM_SHAPES[shape]
    name = f"matmul_nvfp4_fp4_{dtype}_{shape}"
    g = generator(seed, name)
    x = _activations(g, m, k, dtype, spread=0.5)
    w = (torch.randn(n, k, generator=g) * 0.05).to(TORCH_DTYPE[dtype])
    gs_a, gs_w = global_scale(x), global_scale(w)
    if dtype == "bf16":
        # Powers of two, so that every dequantized operand (a 2-bit e2m1 significand times a 4-bit e4m3 one,
        # times 2^e) is exact in bf16 and the emulation's .to(bf16) of x_dq / w_dq rounds nothing.
        gs_a, gs_w = 2.0 ** round(np.log2(gs_a)), 2.0 ** round(np.log2(gs_w))
    gs_a_t = torch.tensor([gs_a], dtype=torch.float32)
    w_vals, w_scale = emu.ref_nvfp4_quant(w.float(), torch.tensor([gs_w], dtype=torch.float32), 16)
    w_packed = torch.from_numpy(pack_e2m1(w_vals))
    w_scale8 = w_scale.to(torch.float8_e4m3fn)
    w_dqmul = torch.tensor([1.0], dtype=torch.float32) / torch.tensor([gs_w], dtype=torch.float32)
    out = emu.run_nvfp4_emulations(x, gs_a_t, w_packed, w_scale8, w_dqmul, swizzle=False)
    # The activation's codes and scales as the emulation forms them (ref_nvfp4_quant_dequant calls
    # ref_nvfp4_quant on x with the same global scale), as our op's A operand.
    a_vals, a_scale = emu.ref_nvfp4_quant(x, gs_a_t, 16)
    alpha = float(np.float32(w_dqmul.item()) / np.float32(gs_a))  # one f32 division
    alpha_exact = float(w_dqmul.item()) / gs_a
    s = alpha_exact * (_decoded(a_vals, a_scale, k).abs() @ _decoded(w_vals, w_scale, k).abs().t())
    u = 2.0 ** -24
    if dtype == "f32":
        # Emulation: x_dq = fl(e2m1 * fl(scale / gs_a)), w_dq = fl(e2m1 * fl(scale * w_dqmul)), a rounded
        # product each, an f32 sum of K terms in torch's order: within ((1+u)^5 (1 + gamma_{K-1}) - 1) S of
        # alpha* sum A B, S = alpha* sum |A||B|. Ours: exact products, a sequential f32 sum, alpha rounded
        # to f32 once and one multiply: within ((1+u)^2 (1 + gamma_{K-1}) - 1) S. Together < (2K + 8) u S.
        tol = {"atol": float((2 * k + 8) * u * s.max()), "rtol": 0.0}
        why = ("derived per case: the emulation rounds each dequantized operand twice (block scale / global "
               "scale, then times the e2m1 value) and each product once, and sums K f32 terms in its order; "
               "the kernel's products are exact and it sums sequentially, then multiplies by alpha (rounded to "
               "f32): |difference| < (2K + 8) u max_ij alpha sum_k |A_ik||B_jk|, u = 2^-24, from this case's data")
        gs_note = "global scales 448*6/amax in f32 (vLLM's)"
    else:
        # Power-of-two global scales: both dequantized operands exact in bf16 and f32, the products exact;
        # the two f32 sums differ by at most 2 gamma_K S, then each rounds to bf16 (half an ulp each,
        # <= 2^-8 |v| apiece): atol 2 gamma_K max S, rtol 2^-7 (1 + 2^-7).
        gamma = k * u / (1 - k * u)
        tol = {"atol": float(2 * gamma * s.max() * (1 + 2.0 ** -7)), "rtol": 2.0 ** -7 * (1 + 2.0 ** -7)}
        why = ("derived per case: with power-of-two global scales every dequantized operand is exact in bf16, "
               "so emulation and kernel sum the same exact f32 products in two orders (2 gamma_K max_ij alpha "
               "sum_k |A_ik||B_jk|, u = 2^-24) and each result is rounded to bf16 once (up to 2^-8 |v| each: "
               "rtol 2^-7 (1 + 2^-7))")
        gs_note = ("global scales 448*6/amax rounded to powers of two (bf16: otherwise the emulation's .to(bf16) "
                   "of each dequantized operand rounds at 2^-9, a bound wider than a few percent of the outputs)")
    tensors = {"x": (dtype, to_store(x, dtype)),
               "a_packed": ("u8", pack_e2m1(a_vals)),
               "a_scale": ("fp8_e4m3", a_scale.to(torch.float8_e4m3fn).view(torch.uint8).numpy().copy()),
               "b_packed": ("u8", w_packed.numpy().copy()),
               "b_scale": ("fp8_e4m3", w_scale8.view(torch.uint8).numpy().copy()),
               "out": (dtype, to_store(out, dtype))}
    return [Case(name, "matmul_nvfp4_fp4",
                 {"alpha": alpha, "input_global_scale": gs_a, "weight_global_scale": float(w_dqmul.item()),
                  "weight_quant_global_scale": gs_w, "scale_layout": "linear", "block_size": 16},
                 tensors, ["x", "a_packed", "a_scale", "b_packed", "b_scale"], ["out"], tol, why,
                 provenance(emu.run_nvfp4_emulations,
                            "run_nvfp4_emulations (plain torch on CPU: ref_nvfp4_quant_dequant of x, "
                            "dequantize_to_dtype of the weight with swizzle=False - the emulation linear kernel's "
                            "call -, torch.matmul in x's dtype); the weight quantized by ref_nvfp4_quant; a_packed/"
                            f"a_scale are ref_nvfp4_quant(x) (the emulation's own activation codes); {gs_note}; "
                            "alpha = f32(weight_global_scale) / f32(input_global_scale), one f32 division",
                            seed=seed))]
