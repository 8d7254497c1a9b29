"""Is a case's tolerance informative? The checker's trust rule, applied at generation.

`vt-golden check` calls a golden output MISTRUSTED when its acceptance band
says nothing about the signal (harness/core/compare.cpp, VacuousTolerance and
MistrustReason): an element's half-width atol + rtol*|w| is vacuous when it is
wider than both |w| and 1% of the output's RMS; more than 10% of the nonzero
elements vacuous, or an all-NaN, all-zero or mostly-zero (> 50%) reference,
cannot vouch for a result. The generator applies the same rule to what it is
about to write, with the tolerance the checker will apply to each output, and
refuses a case that fails it instead of writing a golden that cannot judge.
"""
import math

import numpy as np

from .caseio import as_float

# Ops whose checker adapter holds each output to the manifest's per-output
# args (`PerOutputTol` in harness/golden/golden_check.cpp: the KDA and Mamba2
# adapters). Any other adapter applies the manifest's `tol` to every output,
# so per-output args there would be ignored by the checker: refused here.
PER_OUTPUT_TOL_OPS = {"kda_gated_delta_rule", "kda_chunk_prefill", "mamba2_chunk_scan", "mamba2_state_update",
                      "rmsnorm",  # rmsnorm: vt-fuzz --upstream's residual_out (vt_regen/live.py)
                      "gdn_decode", "gdn_prefill"}  # vt-fuzz --upstream's per-output bounds (live._gdn_result)

# Outputs of exact codes (ids, packed e2m1, e4m3 scale bytes) are compared for
# equality, and their zeros are values the kernel must write: the checker
# exempts them from the zero-count rules (OutputSpec::zeros_are_data).
EXACT_CODE_DTYPES = {"i32", "i64", "u8", "fp8_e4m3"}
MAX_ZERO_FRACTION = 0.5  # OpSpec::max_zero_fraction's default
MAX_VACUOUS_FRACTION = 0.1



def _rope_cache_tol(args, dtype, tol):
    # long_context_rope.cpp holds the cache to rtol 2^-21 (f32: torch's cos/sin
    # ulp through * mscale), one bf16 ulp for a bf16 cache (GoldenMapping::tighter),
    # when that is not above the manifest's rtol; else the manifest's applies
    rtol = 2.0 ** -7 if dtype == "bf16" else 2.0 ** -21
    if rtol > float(tol.get("rtol", 0.0)):
        return float(tol.get("atol", 0.0)), float(tol.get("rtol", 0.0))
    return 0.0, rtol


def _rope_inv_freq_tol(args, dtype, tol):
    # long_context_rope.cpp (InvFreqAllowedUnits) compares a recorded mixed-NTK
    # inv_freq outside the manifest's tolerance, within (2.5 ln(factor) + 5) u
    # relative, u = 2^-23
    factor = float(args.get("rope_parameters", {}).get("factor", 1.0))
    return 0.0, (2.5 * abs(math.log(factor)) + 5.0) * 2.0 ** -23


# Outputs a checker adapter holds to a bound of its own, in place of the
# manifest's tolerance: (op, output) -> (args, manifest dtype, tol) -> (atol, rtol).
ADAPTER_TOL = {("long_context_rope", "cos_sin_cache"): _rope_cache_tol,
               ("long_context_rope", "inv_freq"): _rope_inv_freq_tol}


def manifest_tolerance(op, args, tol, name):
    """(atol, rtol) the manifest gives golden output `name`: its per-output args
    where the op's adapter honours them, else the case's `tol`."""
    atol, rtol = float(tol.get("atol", 0.0)), float(tol.get("rtol", 0.0))
    if op in PER_OUTPUT_TOL_OPS:
        atol = float(args.get(f"atol_{name}", atol))
        rtol = float(args.get(f"rtol_{name}", rtol))
    return atol, rtol


def output_tolerance(op, args, tol, name, dtype):
    """(atol, rtol) the checker applies to golden output `name` (of manifest dtype `dtype`)."""
    if (op, name) in ADAPTER_TOL:
        return ADAPTER_TOL[(op, name)](args, dtype, tol)
    return manifest_tolerance(op, args, tol, name)


def vacuous_mask(w, atol, rtol):
    """Per element of the reference w (float64): the half-width says nothing."""
    finite = np.isfinite(w)
    rms = float(np.sqrt(np.mean(w[finite] ** 2))) if finite.any() else 0.0
    half = atol + rtol * np.abs(w)
    return ~np.isfinite(half) | ((half > np.abs(w)) & (half > 0.01 * rms))


def fit_tolerance(need, w, rtols, floor=1e-6):
    """(atol, rtol) covering a per-element bound `need` (float64, like the reference w):
    atol + rtol |w_i| >= need_i for every i. Of the candidate rtols, the one that
    leaves the fewest elements vacuous (the smallest on a tie), with the least
    atol that covers every element at that rtol. No candidate widens any
    element's band beyond what covering its own bound at that rtol takes."""
    aw, nonzero = np.abs(w), np.isfinite(w) & (w != 0)
    best = None
    for rtol in sorted(rtols):
        atol = max(float((need - rtol * aw).max(initial=0.0)), floor)
        vacuous = int((vacuous_mask(w, atol, rtol) & nonzero).sum())
        if best is None or vacuous < best[0]:
            best = (vacuous, atol, rtol)
    return best[1], best[2]


def mistrust_reason(w, atol, rtol, zeros_are_data=False):
    """Why reference values w (float64) cannot vouch for a result under atol/rtol, or ""."""
    n = w.size
    if n == 0:
        return "zero elements"
    nans, zeros = int(np.isnan(w).sum()), int((w == 0).sum())
    if nans == n:
        return "the reference is all NaN"
    if not zeros_are_data:
        if zeros == n:
            return "the reference is all zero"
        if zeros > MAX_ZERO_FRACTION * n:
            return f"the reference is mostly zero ({zeros} of {n} elements)"
    nonzero = np.isfinite(w) & (w != 0)
    vacuous = int((vacuous_mask(w, atol, rtol) & nonzero).sum())
    if vacuous > MAX_VACUOUS_FRACTION * int(nonzero.sum()):
        return (f"the tolerance (atol {atol:.3g}, rtol {rtol:.3g}) is wider than the signal for {vacuous} of "
                f"{int(nonzero.sum())} nonzero reference elements")
    return ""


def untrusted(op, args, tol, tensors, outputs):
    """One line per output the checker could not trust; [] when every output is informative.

    tensors: name -> (manifest dtype, stored numpy array), as in caseio.Case."""
    for name in outputs:
        for suffix in ("atol_", "rtol_"):
            if f"{suffix}{name}" in args and op not in PER_OUTPUT_TOL_OPS:
                raise ValueError(f"{op}: args.{suffix}{name} would be ignored by the checker (its adapter does not "
                                 "call PerOutputTol): add the op to trust.PER_OUTPUT_TOL_OPS with the adapter")
    lines = []
    for name in outputs:
        dtype, arr = tensors[name]
        atol, rtol = output_tolerance(op, args, tol, name, dtype)
        if atol > float(tol.get("atol", 0.0)) or rtol > float(tol.get("rtol", 0.0)):
            lines.append(f"{name}: its own tolerance (atol {atol:.3g}, rtol {rtol:.3g}) is above the manifest's")
            continue
        why = mistrust_reason(as_float(dtype, arr).ravel(), atol, rtol, dtype in EXACT_CODE_DTYPES)
        if why:
            lines.append(f"{name}: {why}")
    return lines


def case_untrusted(case):
    return untrusted(case.op, case.args, case.tol, case.tensors, case.outputs)
