#!/usr/bin/env python3
"""CTest `golden.regen.random_seeds` (labels regen;slow, opt-in): regenerated
goldens are trusted for any seed.

    regen_seeds_test.py VT_GOLDEN [--seeds N]

Draws N (default 3) fresh seeds from the OS (printed, so a failure can be
rerun with `vt-golden regen --all --seed S`), regenerates every op into a
temporary folder per seed and runs `vt-golden check` on it. Fails when the
tool refuses a case (a tolerance it could not make informative) or the check
fails one; exits 77 (ctest SKIP_RETURN_CODE) with the reason when the
regeneration environment (`vt-golden regen --setup --with-triton`) is absent.
Standard library only: it runs under the system python3.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vt_regen import env  # noqa: E402  (standard library only)

SKIP = 77


def tail(text, n):
    return "\n".join(text.strip().splitlines()[-n:])


def run_seed(vt_golden, seed, out):
    """(ok, summary line) for one seed: regen --all into out, then check it."""
    regen = subprocess.run([vt_golden, "regen", "--all", "--seed", str(seed), "--out", str(out)],
                           capture_output=True, text=True)
    refused = [ln for ln in regen.stdout.splitlines() if ln.startswith(("REFUSED", "DIFFERS", "UNSUPPORTED"))]
    for line in refused:
        print(f"  seed {seed}: {line}")
    if regen.returncode != 0:
        print(tail(regen.stdout, 3) + "\n" + tail(regen.stderr, 5))
        return False, f"seed {seed}: vt-golden regen exited {regen.returncode}"
    check = subprocess.run([vt_golden, "check", str(out)], capture_output=True, text=True)
    failed = [ln for ln in check.stdout.splitlines() if ln.startswith(("FAILED", "MISTRUSTED"))]
    for line in failed:
        print(f"  seed {seed}: {line}")
    last = tail(check.stdout, 1)
    return check.returncode == 0, f"seed {seed}: {tail(regen.stdout, 1)}; check: {last}"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("vt_golden", help="the vt-golden binary")
    p.add_argument("--seeds", type=int, default=3)
    a = p.parse_args(argv)
    venv = env.venv_dir()
    if not env.installed_matches(venv, with_triton=True):
        print(f"SKIPPED: no regeneration environment with triton at {venv} matching "
              "golden/regen/requirements.lock (create it with `vt-golden regen --setup --with-triton`)")
        return SKIP
    seeds = [int.from_bytes(os.urandom(4), "little") for _ in range(a.seeds)]
    print("seeds: " + " ".join(map(str, seeds)), flush=True)
    results = []
    with tempfile.TemporaryDirectory(prefix="vt-regen-seeds-") as tmp:
        for seed in seeds:
            ok, line = run_seed(a.vt_golden, seed, Path(tmp) / str(seed))
            print(("ok    " if ok else "FAIL  ") + line, flush=True)
            results.append(ok)
    print(f"{sum(results)} of {len(results)} seeds regenerated and checked clean")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
