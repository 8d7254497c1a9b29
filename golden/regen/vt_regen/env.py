"""The regeneration environment: a pinned, --no-deps virtual environment.

Only the standard library is used here: this module runs under the system
python3 before the environment exists. `ensure_inside` re-executes the tool
with the environment's own python, so everything else may import torch/vllm.
"""
import hashlib
import json
import os
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REGEN_DIR = Path(__file__).resolve().parent.parent
LOCK = REGEN_DIR / "requirements.lock"
TRITON_LOCK = REGEN_DIR / "requirements-triton.lock"
STAMP = "vt-regen-stamp.json"


class EnvError(Exception):
    """One line for the user: what is missing and the command that fixes it."""


def venv_dir():
    env = os.environ.get("VT_REGEN_VENV")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "vt-conform" / "regen-venv"


def read_lock(path):
    pins = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep:
            raise EnvError(f"{path}: '{line}' is not pinned as name==version")
        pins.append((name.strip(), version.strip()))
    return pins


def lock_digest(with_triton):
    h = hashlib.sha256(LOCK.read_bytes())
    if with_triton:
        h.update(TRITON_LOCK.read_bytes())
    return h.hexdigest()


def _wheel_size(name, version):
    """Bytes of the file pip would pick for this machine (cp311, x86_64 Linux),
    from the index's JSON simple API (PEP 691/700: file names and sizes)."""
    req = urllib.request.Request(f"https://pypi.org/simple/{name}/",
                                 headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            files = json.load(r).get("files", [])
    except Exception:  # offline or unknown: the total says how many are unknown
        return None

    def fits(fn):
        if not fn.endswith(".whl"):
            return False
        parts = fn[:-4].split("-")
        if len(parts) < 5 or parts[1] != version:
            return False
        py, abi, plat = parts[-3:]
        ok_py = "py3" in py.split(".") or "cp311" in py.split(".") or (py.startswith("cp3") and abi == "abi3")
        ok_plat = plat == "any" or ("x86_64" in plat and "linux" in plat)
        return ok_py and ok_plat

    sizes = [f.get("size") for f in files if fits(f.get("filename", "")) and f.get("size")]
    if not sizes:
        sizes = [f.get("size") for f in files if f.get("filename", "").endswith(f"-{version}.tar.gz") and f.get("size")]
    return min(sizes) if sizes else None


def plan_download(pins):
    with ThreadPoolExecutor(max_workers=8) as ex:
        sizes = list(ex.map(lambda p: _wheel_size(*p), pins))
    known = sum(s for s in sizes if s is not None)
    unknown = [f"{n}=={v}" for (n, v), s in zip(pins, sizes) if s is None]
    return known, unknown


def _python(venv):
    return venv / "bin" / "python"


def installed_matches(venv, with_triton):
    stamp = venv / STAMP
    if not stamp.is_file() or not _python(venv).exists():
        return False
    try:
        data = json.loads(stamp.read_text())
    except ValueError:
        return False
    return data.get("lock_sha256") == lock_digest(data.get("with_triton", False)) and (
        data.get("with_triton", False) or not with_triton)


def setup(with_triton, assume_yes):
    venv = venv_dir()
    pins = read_lock(LOCK) + (read_lock(TRITON_LOCK) if with_triton else [])
    if installed_matches(venv, with_triton):
        print(f"vt-golden regen: environment at {venv} already matches {LOCK.name}; nothing to do")
        return 0
    known, unknown = plan_download(pins)
    print(f"vt-golden regen --setup: {len(pins)} pinned packages into {venv}, every one with pip --no-deps")
    print(f"  download: about {known / 1e6:.0f} MB from PyPI (less when pip's cache holds some)"
          + (f"; size unknown for {', '.join(unknown)}" if unknown else ""))
    print("  on disk: about 3.1 GB (torch's CUDA build, which imports without a GPU; no nvidia-* set beyond the four pinned)")
    if not assume_yes and sys.stdin.isatty():
        if input("  proceed? [y/N] ").strip().lower() not in ("y", "yes"):
            print("vt-golden regen: setup cancelled")
            return 1
    if not _python(venv).exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    reqs = [f"{n}=={v}" for n, v in pins]
    cmd = [str(_python(venv)), "-m", "pip", "install", "--no-deps", "--disable-pip-version-check"] + reqs
    if subprocess.run(cmd).returncode != 0:
        raise EnvError(f"pip failed installing the pinned set into {venv} (see pip's output above); "
                       f"rerun `vt-golden regen --setup`")
    probe = ("import os; os.environ.setdefault('VLLM_TARGET_DEVICE','cpu'); import torch, vllm; "
             "from vllm.model_executor.layers import layernorm, activation, rotary_embedding; "
             "print(torch.__version__, vllm.__version__)")
    r = subprocess.run([str(_python(venv)), "-c", probe], capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["?"])[-1]
        raise EnvError(f"the environment installed but vLLM does not import: {last}")
    (venv / STAMP).write_text(json.dumps({"lock_sha256": lock_digest(with_triton), "with_triton": with_triton}))
    print(f"vt-golden regen: ready (torch, vllm = {r.stdout.strip()})")
    return 0


def ensure_inside(argv, need_triton=False):
    """Re-executes the tool under the environment's python unless already there."""
    venv = venv_dir()
    if Path(sys.prefix).resolve() == venv.resolve():
        return
    if not installed_matches(venv, need_triton):
        what = "with triton " if need_triton else ""
        flag = " --with-triton" if need_triton else ""
        raise EnvError(f"no regeneration environment {what}at {venv} matching golden/regen/requirements.lock: "
                       f"run `vt-golden regen --setup{flag}` first")
    os.execv(str(_python(venv)), [str(_python(venv)), str(REGEN_DIR / "vt_golden_regen.py")] + argv)
