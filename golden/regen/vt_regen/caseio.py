"""Golden case folders: write (all or nothing), read back, and diff.

The layout is the one `vt-golden check` reads (docs/goldens.md): manifest.json
with op, args, tensors {file, dtype, shape, sha256}, inputs, outputs, tol,
oracle; one .npy per tensor, bf16 stored as its raw uint16 bits.
"""
import hashlib
import io
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# manifest dtype -> the numpy dtype its .npy holds
NPY = {"f32": np.dtype("<f4"), "f16": np.dtype("<f2"), "bf16": np.dtype("<u2"),
       "i8": np.dtype("i1"), "i32": np.dtype("<i4"), "i64": np.dtype("<i8"),
       "u8": np.dtype("u1"), "fp8_e4m3": np.dtype("u1")}  # fp8_e4m3: the e4m3fn bits (ops_fp4.py)


@dataclass
class Case:
    name: str
    op: str
    args: dict
    tensors: dict  # name -> (manifest dtype, numpy array in NPY[dtype])
    inputs: list
    outputs: list
    tol: dict  # {"atol": .., "rtol": ..}
    tol_reason: str
    oracle: dict = field(default_factory=dict)


def npy_bytes(arr):
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(arr), allow_pickle=False)
    return buf.getvalue()


def manifest_of(case, blobs):
    tensors = {}
    for name, (dtype, arr) in case.tensors.items():
        tensors[name] = {"file": f"{name}.npy", "dtype": dtype, "shape": list(arr.shape),
                         "sha256": hashlib.sha256(blobs[name]).hexdigest()}
    return {"op": case.op, "args": case.args, "tensors": tensors, "inputs": case.inputs,
            "outputs": case.outputs, "tol": case.tol, "tol_reason": case.tol_reason, "oracle": case.oracle}


def _write_file(path, data):
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def write_folder(folder, case):
    """Writes the case into a new folder `folder` (which must not exist)."""
    folder.mkdir(parents=True)
    blobs = {}
    for name, (dtype, arr) in case.tensors.items():
        if arr.dtype != NPY[dtype]:
            raise ValueError(f"{case.name}: tensor {name} is {arr.dtype}, manifest dtype {dtype} needs {NPY[dtype]}")
        blobs[name] = npy_bytes(arr)
        _write_file(folder / f"{name}.npy", blobs[name])
    text = json.dumps(manifest_of(case, blobs), indent=1) + "\n"
    _write_file(folder / "manifest.json", text.encode())


def read_manifest(folder):
    return json.loads((folder / "manifest.json").read_text())


def read_folder(folder):
    """(manifest dict, {tensor name: array}) of an existing case folder."""
    man = read_manifest(folder)
    arrays = {}
    for name, spec in man.get("tensors", {}).items():
        arrays[name] = np.load(folder / spec["file"], allow_pickle=False)
    return man, arrays


def as_float(dtype, arr):
    if dtype == "bf16":
        return (arr.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return arr.astype(np.float64)


def diff(old_folder, new_folder):
    """Lines describing what differs between two case folders; [] when equal."""
    old_m, old_a = read_folder(old_folder)
    new_m, new_a = read_folder(new_folder)
    lines = []
    for key in ("op", "args", "inputs", "outputs", "tol", "tol_reason"):
        if old_m.get(key) != new_m.get(key):
            lines.append(f"  {key}: {json.dumps(old_m.get(key))} -> {json.dumps(new_m.get(key))}")
    ot, nt = old_m.get("tensors", {}), new_m.get("tensors", {})
    for name in sorted(set(ot) | set(nt)):
        if name not in nt or name not in ot:
            lines.append(f"  tensor {name}: {'removed' if name not in nt else 'added'}")
            continue
        if (ot[name]["dtype"], ot[name]["shape"]) != (nt[name]["dtype"], nt[name]["shape"]):
            lines.append(f"  tensor {name}: {ot[name]['dtype']}{ot[name]['shape']} -> {nt[name]['dtype']}{nt[name]['shape']}")
            continue
        if np.array_equal(old_a[name], new_a[name]):
            continue
        a, b = as_float(ot[name]["dtype"], old_a[name]), as_float(nt[name]["dtype"], new_a[name])
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.abs(a - b)
            rel = d / np.maximum(np.abs(a), np.finfo(np.float64).tiny)
        changed = int(np.count_nonzero(old_a[name] != new_a[name]))
        lines.append(f"  tensor {name}: {changed} of {a.size} elements changed, max abs {np.nanmax(d):.3g}, "
                     f"max rel {np.nanmax(rel):.3g}")
    oo, no = old_m.get("oracle", {}), new_m.get("oracle", {})
    for key in sorted(set(oo) | set(no)):
        if oo.get(key) != no.get(key):
            lines.append(f"  provenance {key}: {json.dumps(oo.get(key))} -> {json.dumps(no.get(key))}")
    return lines


def commit_case(out_root, case, force):
    """Writes one case under out_root/case.name, all or nothing.

    Returns (status, lines): status is "written", "unchanged", "replaced" or
    "differs" (an existing case differs and force is off: nothing written).
    The new case is built in a temporary sibling folder and renamed into place,
    so an interrupted run leaves the existing case (or no folder) behind."""
    out_root.mkdir(parents=True, exist_ok=True)
    final = out_root / case.name
    tmp = out_root / f".tmp-{case.name}-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        write_folder(tmp, case)
        if not final.exists():
            os.rename(tmp, final)
            return "written", []
        lines = diff(final, tmp)
        if not lines:
            shutil.rmtree(tmp)
            return "unchanged", []
        if not force:
            shutil.rmtree(tmp)
            return "differs", lines
        backup = out_root / f".old-{case.name}-{os.getpid()}"
        os.rename(final, backup)
        os.rename(tmp, final)
        shutil.rmtree(backup)
        return "replaced", lines
    except BaseException:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
        raise
