#!/usr/bin/env python3
"""vt-golden regen: regenerate golden cases from upstream vLLM's own code.

    vt-golden regen --setup [--with-triton] [--yes]
    vt-golden regen --op NAME [--op NAME...] | --all  [--out DIR] [--seed S]
                    [--dtype f32|bf16|all] [--shape small|realistic|all] [--force]
    vt-golden regen --replay-recorded DIR
    vt-golden regen --list

Cases are written in the layout `vt-golden check` reads (docs/goldens.md). An
existing case is never overwritten silently: the tool prints what changed and
writes nothing without --force. Never run by CI or the default tests.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vt_regen import env  # noqa: E402  (standard library only)

REPO = Path(__file__).resolve().parents[2]
OPS = ["rmsnorm", "rmsnorm_gated", "l2norm", "silu_and_mul", "gelu_and_mul", "embedding", "matmul", "rope", "long_context_rope",
       "moe_router_topk", "causal_conv1d_fwd", "causal_conv1d_update", "gdn_prefill", "gdn_decode",
       "dense_attention", "moe_block", "scaled_fp4_quant", "silu_and_mul_fp4_quant", "silu_mul_fp4_quant",
       "sigmoid_gate_fp4_quant", "matmul_nvfp4_fp4", "kda_gated_delta_rule", "kda_chunk_prefill",
       "mamba2_chunk_scan", "mamba2_state_update"]
# Ops whose upstream reference is known but not wired yet, with the reason.
# (rmsnorm_gated: the silu gate only, through fla's plain-torch rms_norm_ref;
# the sigmoid gate exists only in the Triton kernel.)
UNSUPPORTED = {
    "gdn_packed_decode_bf16": "GPU-only packed kernel: no CPU-runnable reference exists",
    "kda_chunk_prefill_chunked_bf16": "not attempted: the chunked path rounds its solved triangle to bf16, an "
                                      "error not yet measured per output (ops_ssm.KDA_CHUNK_BF16_WHY)",
}
TRITON_OPS = {"l2norm", "gdn_prefill", "gdn_decode", "kda_gated_delta_rule", "kda_chunk_prefill",
              "mamba2_chunk_scan", "mamba2_state_update"}  # run through the Triton interpreter: need --setup --with-triton


def parse(argv):
    p = argparse.ArgumentParser(prog="vt-golden regen", description=__doc__.split("\n\n")[0])
    p.add_argument("--setup", action="store_true", help="create the pinned --no-deps environment and exit")
    p.add_argument("--with-triton", action="store_true", help="with --setup: add triton (Triton interpreter ops)")
    p.add_argument("--yes", action="store_true", help="with --setup: do not ask before downloading")
    p.add_argument("--op", action="append", default=[], metavar="NAME", help="an op (runner key); repeatable")
    p.add_argument("--all", action="store_true", help="every op this tool can regenerate")
    p.add_argument("--out", default=str(REPO / "golden" / "data"), metavar="DIR",
                   help="where the case folders go (default golden/data)")
    p.add_argument("--seed", type=int, default=0, help="the one seed every input derives from (default 0)")
    p.add_argument("--dtype", choices=["f32", "bf16", "all"], default="all")
    p.add_argument("--shape", choices=["small", "realistic", "all"], default="all")
    p.add_argument("--force", action="store_true", help="replace existing cases that differ")
    p.add_argument("--replay-recorded", metavar="DIR", help="rerun the references on recorded cases and compare")
    p.add_argument("--list", action="store_true", help="the ops, and the ones not supported with why")
    a = p.parse_args(argv)
    if a.with_triton and not a.setup:
        p.error("--with-triton goes with --setup")
    if not (a.setup or a.list or a.replay_recorded or a.op or a.all):
        p.error("say what to do: --setup, --op NAME, --all, --replay-recorded DIR or --list")
    for op in a.op:
        if op not in OPS and op not in UNSUPPORTED:
            p.error(f"unknown op '{op}' (see --list)")
    return a


def regen(a):
    from vt_regen import ops_basic, ops_composite, ops_fp4, ops_gdn, ops_more, ops_rope, ops_ssm
    from vt_regen.caseio import commit_case
    from vt_regen.trust import case_untrusted
    builders = {"rmsnorm": ops_basic.rmsnorm, "silu_and_mul": ops_basic.silu_and_mul,
                "gelu_and_mul": ops_basic.gelu_and_mul, "embedding": ops_basic.embedding,
                "matmul": ops_basic.matmul, "rope": ops_rope.rope, "long_context_rope": ops_rope.long_context_rope,
                "rmsnorm_gated": ops_more.rmsnorm_gated, "l2norm": ops_more.l2norm, "moe_router_topk": ops_more.moe_router_topk,
                "causal_conv1d_fwd": ops_more.causal_conv1d_fwd, "causal_conv1d_update": ops_more.causal_conv1d_update,
                "gdn_prefill": ops_gdn.gdn_prefill, "gdn_decode": ops_gdn.gdn_decode,
                "dense_attention": ops_composite.dense_attention, "moe_block": ops_composite.moe_block,
                "scaled_fp4_quant": ops_fp4.scaled_fp4_quant, "silu_and_mul_fp4_quant": ops_fp4.silu_and_mul_fp4_quant,
                "silu_mul_fp4_quant": ops_fp4.silu_mul_fp4_quant,
                "sigmoid_gate_fp4_quant": ops_fp4.sigmoid_gate_fp4_quant, "matmul_nvfp4_fp4": ops_fp4.matmul_nvfp4_fp4,
                "kda_gated_delta_rule": ops_ssm.kda_gated_delta_rule, "kda_chunk_prefill": ops_ssm.kda_chunk_prefill,
                "mamba2_chunk_scan": ops_ssm.mamba2_chunk_scan, "mamba2_state_update": ops_ssm.mamba2_state_update}
    ops = OPS if a.all else a.op
    out = Path(a.out)
    # The checksum lock identifies recorded cases by folder name too: a
    # regenerated case must never take a recorded case's name.
    import json
    recorded = set()
    for lock in (REPO / "golden" / "checksums").glob("*.json"):
        recorded |= set(json.loads(lock.read_text()).get("cases", {}))
    counts, failed = {}, 0
    from vt_regen.upstream import HAS_TRITON
    for op in ops:
        if op in TRITON_OPS and not HAS_TRITON:
            print(f"UNSUPPORTED {op}: a Triton kernel, and this environment has no triton: "
                  "run `vt-golden regen --setup --with-triton`")
            counts["unsupported"] = counts.get("unsupported", 0) + 1
            continue
        if op in UNSUPPORTED:
            print(f"UNSUPPORTED {op}: {UNSUPPORTED[op]}")
            counts["unsupported"] = counts.get("unsupported", 0) + 1
            continue
        dtypes = ["f32", "bf16"] if a.dtype == "all" else [a.dtype]
        shapes = ["small", "realistic"] if a.shape == "all" else [a.shape]
        for dtype in dtypes:
            for shape in shapes:
                for case in builders[op](a.seed, dtype, shape):
                    if case.name in recorded:
                        raise env.EnvError(f"case name {case.name} is a recorded capture's (golden/checksums); "
                                           "rename the variant in golden/regen/vt_regen")
                    why = case_untrusted(case)
                    if why:
                        # The checker would call this golden MISTRUSTED: its
                        # tolerance cannot judge (vt_regen/trust.py). Never
                        # written, never widened to pass.
                        counts["refused"] = counts.get("refused", 0) + 1
                        failed += 1
                        print(f"REFUSED {case.name} [{case.op}]: not written, the checker could not trust it: "
                              + "; ".join(why))
                        continue
                    status, lines = commit_case(out, case, a.force)
                    counts[status] = counts.get(status, 0) + 1
                    print(f"{status.upper()} {case.name} [{case.op}] -> {out / case.name}")
                    for line in lines:
                        print(line)
                    if status == "differs":
                        failed += 1
                        print(f"  not written: {out / case.name} differs; rerun with --force to replace it")
    print(", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    return 1 if failed else 0


def main(argv):
    try:
        a = parse(argv)
        if a.list:
            print("regenerated: " + ", ".join(OPS))
            for op, why in UNSUPPORTED.items():
                print(f"unsupported: {op}: {why}")
            return 0
        if a.setup:
            return env.setup(a.with_triton, a.yes)
        env.ensure_inside(argv)
        from vt_regen.upstream import SignatureChanged
        try:
            if a.replay_recorded:
                from vt_regen.replay import ReplayError, replay_dir
                try:
                    ok, bad, skipped = replay_dir(a.replay_recorded)
                except ReplayError as e:
                    print(f"vt-golden regen: {e}", file=sys.stderr)
                    return 2
                print(f"{ok} reproduced, {bad} differ or failed, {skipped} not replayed")
                return 1 if bad else 0
            return regen(a)
        except SignatureChanged as e:
            print(f"vt-golden regen: upstream signature changed: {e}", file=sys.stderr)
            return 2
    except env.EnvError as e:
        print(f"vt-golden regen: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"vt-golden regen: {e.strerror or e} ({getattr(e, 'filename', '') or ''}); "
              "nothing half-written was left as a case", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
