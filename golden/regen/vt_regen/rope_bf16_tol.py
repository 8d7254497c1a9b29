"""The tolerance of a bf16 long_context_rope case, derived from its own data.

Upstream (get_rope(dtype=bf16).forward_native, Phi-3's forward) rotates in
bf16 torch ops: each product x*cos and x*sin is rounded to bf16, then their sum
or difference. Our kernel (rope_from_cache, fed by the long_context_rope
adapter) takes the same bf16 cache - vLLM's f32 cache rebuilt, rounded once -
computes the rotation in f32 and rounds once at the store. So per element

    |upstream - ours| <= g + u |m| + f32 <= (1 + u) g + u |w| + f32,   g = |w - m| + flip,

m: upstream's own forward run in f32 arithmetic on the same bf16 cache and the
same inputs, which is our computation before its store (measured per element);
u = 2^-8, the bf16 unit roundoff of our store; flip: where our f32 cache (within
2^-21 relative of vLLM's, long_context_rope.cpp) could round to the other bf16
neighbour, that neighbour's effect (measured by rerunning m with the cos and the
sin entries so flipped); f32: our f32 products and sum. As a manifest tolerance:
rtol 2^-7 - one bf16 ulp, the least that lets the adapter hold a recorded cache to
its own one-ulp bound (it applies that only when not above the manifest's rtol) -
and atol max((1 + u) g - (2^-7 - u) |w|) + the f32 term, so every element's bound
is covered.

The recorded captures' fixed 1e-2 / 1.6e-2 held at seed 0 but not for every
seed: |w - m| grows with |x1| + |x2| of a pair (up to 0.0127 measured at seeds
102081066 and 1865824704, over 1e-2 + 1.6e-2 |w| at small |w|: FAILED).
"""
import torch

BF16_U = 2.0 ** -8
RTOL = 2.0 ** -7  # one bf16 ulp: long_context_rope.cpp's cache bound applies only under a manifest rtol >= it
CACHE_AGREEMENT = 2.0 ** -21  # our f32 cache vs vLLM's, relative (long_context_rope.cpp)
F32_U = 2.0 ** -24


def cache_attr(rope):
    """The name of the rotary object's cos/sin cache buffer (Phi-3 keeps short and long stacked)."""
    return next(a for a in ("cos_sin_cache", "long_short_cos_sin_cache") if hasattr(rope, a))


def _other_neighbour(cache_f32, cache_b):
    """Per entry, the bf16 value our rebuilt cache could hold instead of cache_b:
    the rounding of vLLM's f32 value moved by the caches' agreement, either way."""
    lo = (cache_f32 * (1 - CACHE_AGREEMENT)).to(torch.bfloat16)
    hi = (cache_f32 * (1 + CACHE_AGREEMENT)).to(torch.bfloat16)
    far_lo = (lo.float() - cache_b.float()).abs() >= (hi.float() - cache_b.float()).abs()
    return torch.where(far_lo, lo, hi)


def derive(rope, rope32, forward, positions, q, k, w_q, w_k):
    """(tol, reason) for a bf16 case. rope: the bf16 rotary object; rope32: the same
    scaling built in f32 (vLLM's f32 cache); forward(rope, positions, q, k) -> (q_out, k_out);
    w_q, w_k: upstream's bf16 outputs."""
    attr = cache_attr(rope)
    saved = getattr(rope, attr)
    cache_b = saved.to(torch.bfloat16)
    cache_f32 = getattr(rope32, attr).float()
    other = _other_neighbour(cache_f32, cache_b)
    half = cache_b.shape[-1] // 2  # rows are [cos | sin]
    is_cos = torch.arange(cache_b.shape[-1]) < half

    def run(cache):
        setattr(rope, attr, cache.float())
        try:
            return [t.double() for t in forward(rope, positions, q.float(), k.float())]
        finally:
            setattr(rope, attr, saved)

    m = run(cache_b)
    flip_cos = run(torch.where(is_cos, other, cache_b))
    flip_sin = run(torch.where(is_cos, cache_b, other))
    gap, need, flips = 0.0, 0.0, 0
    for w, mo, fc, fs in zip((w_q, w_k), m, flip_cos, flip_sin):
        flip = (fc - mo).abs() + (fs - mo).abs()
        flips += int((flip > 0).sum())
        g = (w.double() - mo).abs() + flip
        gap = max(gap, float(g.max()))
        need = max(need, float(((1 + BF16_U) * g - (RTOL - BF16_U) * w.double().abs()).max()))
    x_max = max(float(q.float().abs().max()), float(k.float().abs().max()))
    f32 = 4 * F32_U * 2 * x_max * float(cache_b.float().abs().max())  # two f32 products and a sum
    atol = max(need, 0.0) + f32
    why = (f"bf16: upstream rounds each product x*cos, x*sin and their sum to bf16; ours computes in f32 on the "
           f"same bf16 cache and rounds once. Measured per element against upstream's own forward run in f32 on "
           f"that cache (our computation before its store), with the effect of the bf16 cache entries our f32 cache "
           f"(within 2^-21 of vLLM's) could round the other way ({flips} outputs touched): g = max {gap:.3g}; "
           f"|ours - upstream| <= (1 + 2^-8) g + 2^-8 |w| (our store) + {f32:.2g} (f32 products): rtol 2^-7 (one "
           f"bf16 ulp, which lets the adapter hold the cache to one ulp), atol the rest over every element. "
           f"Replaces the recorded captures' fixed 1e-2 / 1.6e-2, which some seeds exceed")
    return {"atol": atol, "rtol": RTOL}, why
