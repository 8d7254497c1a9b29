"""Running vLLM's references on a CPU, and the provenance every manifest records.

Facts behind the settings: ../shared/spec/golden-regen.md (VLLM_TARGET_DEVICE,
layers built inside set_current_vllm_config, forward_native called directly).
"""
import contextlib
import hashlib
import inspect
import os
import platform
import sys
import types
import zlib
from importlib import metadata

ENV = {"VLLM_TARGET_DEVICE": "cpu", "VLLM_LOGGING_LEVEL": "ERROR", "TRITON_INTERPRET": "1", "CUDA_VISIBLE_DEVICES": "", "TOKENIZERS_PARALLELISM": "false"}
for _k, _v in ENV.items():
    os.environ.setdefault(_k, _v)

import importlib.util  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)  # one reduction order per run: a rerun gives the same bytes

HAS_TRITON = importlib.util.find_spec("triton") is not None
TRITON_ADJUSTMENTS = []
if HAS_TRITON:
    # Triton kernels run through the interpreter (TRITON_INTERPRET=1). vLLM's
    # triton_utils keeps the real triton only when it sees exactly one active
    # GPU driver at import (else it swaps in a placeholder without
    # next_power_of_2 & co.): report the nvidia driver active for that import
    # only, then restore it so the fla code still takes its CPU paths.
    from triton.backends import backends as _backends
    _nv = _backends["nvidia"].driver
    _was = _nv.is_active
    _nv.is_active = staticmethod(lambda: True)
    try:
        import vllm.triton_utils  # noqa: F401
    finally:
        _nv.is_active = _was
    TRITON_ADJUSTMENTS = ["TRITON_INTERPRET=1 (Triton interpreter on the CPU)",
                          "nvidia driver reported active while vllm.triton_utils was imported, then restored"]


class SignatureChanged(Exception):
    """An upstream callable no longer takes what this tool passes."""


class NotReplayable(Exception):
    """A recorded case's variant has no CPU-runnable reference (replay: NOT REPLAYED with this reason)."""


@contextlib.contextmanager
def vllm_config(max_model_len=None):
    """The config layers are built under. Phi3LongRoPE reads only
    model_config.max_model_len (long factors for every position when it exceeds
    the original max): a stand-in carries just that, since a real ModelConfig
    needs a model checkpoint. Cases that use it record the adjustment."""
    from vllm.config import VllmConfig, set_current_vllm_config
    cfg = VllmConfig()
    if max_model_len is not None:
        object.__setattr__(cfg, "model_config", types.SimpleNamespace(max_model_len=max_model_len))
    with set_current_vllm_config(cfg):
        yield


def generator(seed, case_name):
    """The random stream of one case: the run's seed and the case's name, nothing else."""
    g = torch.Generator()
    g.manual_seed((seed * 1000003 + zlib.crc32(case_name.encode())) % (2**63))
    return g


def _version(pkg):
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return None


def _source_sha256(obj):
    try:
        path = inspect.getsourcefile(obj)
        with open(path, "rb") as f:
            return path, hashlib.sha256(f.read()).hexdigest()
    except (TypeError, OSError):
        return None, None


def provenance(callable_obj, how, adjustments=(), seed=None, kind="cpu-reference"):
    """The `oracle` block of a manifest: who computed the outputs, and how."""
    module = getattr(callable_obj, "__module__", "?")
    qualname = getattr(callable_obj, "__qualname__", getattr(callable_obj, "__name__", "?"))
    path, digest = _source_sha256(callable_obj)
    site = next((p for p in sys.path if path and path.startswith(p) and p.endswith("site-packages")), None)
    return {
        "generator": "vt-golden regen",
        "vllm_version": _version("vllm"),
        "torch": _version("torch"),
        "numpy": _version("numpy"),
        "triton": _version("triton"),
        "python": platform.python_version(),
        "callable": f"{module}.{qualname}",
        "callable_source": os.path.relpath(path, site) if site else path,
        "callable_source_sha256": digest,
        "how": how,
        "device": "cpu",
        "kind": kind,
        "adjustments": list(adjustments) + [f"{k}={v}" for k, v in ENV.items()] + ["torch.set_num_threads(1)"],
        "seed": seed,
    }


def check_signature(fn, required):
    """Fails with the callable's name and vLLM's version when a parameter this tool passes is gone."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return
    missing = [p for p in required if p not in params]
    if missing:
        name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', fn)}"
        raise SignatureChanged(f"{name} (vllm {_version('vllm')}) no longer takes {', '.join(missing)}: "
                               f"its signature is now {inspect.signature(fn)}")


def to_store(t, dtype):
    """A torch tensor as the numpy array of the manifest dtype (bf16 as raw bits)."""
    t = t.detach().contiguous().cpu()
    if dtype == "bf16":
        return t.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16).copy()
    return t.to({"f32": torch.float32, "f16": torch.float16, "i32": torch.int32, "i64": torch.int64}[dtype]).numpy().copy()


def from_store(arr, dtype):
    if dtype == "bf16":
        return torch.from_numpy(arr.astype(np.uint16).view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(arr.copy())


TORCH_DTYPE = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
