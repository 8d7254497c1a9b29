"""The persistent upstream worker of `vt-fuzz --upstream` (docs/fuzzing.md, "Against upstream").

Started once per vt-fuzz run, under the regeneration environment's python. It
reads requests from stdin and answers on stdout, one frame each:

    frame   = u64 little-endian header length, the header (UTF-8 JSON), the payloads
    request = {"op": runner key, "args": {...}, "tensors": [{name, dtype, shape, nbytes}],
               "outputs": {name: manifest dtype}}   + the tensors' bytes in that order
    reply   = {"status": "ok", "tensors": [...], "tol": {atol, rtol}, "tol_reason": "...",
               "args": {per-output tolerances}, "oracle": {...}} + the output bytes
            | {"status": "error", "error": "one line"}
            | {"status": "unsupported", "error": "why upstream's result cannot be a golden"}

Bytes are the golden layout's (manifest dtypes of caseio.NPY, little endian,
contiguous, bf16 as raw bits). The first frame the worker writes is a hello:
{"status": "ready", ...} or {"status": "fatal", "error": "one line"} (no
environment matching the lock). An exception on one request is that
request's error reply; the worker goes on. Anything torch or vLLM prints goes
to stderr: the protocol owns the original stdout.
"""
import json
import os
import struct
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vt_regen import env  # noqa: E402  (standard library only)


def _read_exact(f, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = f.read(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def read_frame(f):
    """(header dict, [payload bytes]) or None at end of input."""
    head = _read_exact(f, 8)
    if head is None:
        return None
    (n,) = struct.unpack("<Q", head)
    header = json.loads(_read_exact(f, n).decode())
    blobs = []
    for spec in header.get("tensors", []):
        blob = _read_exact(f, int(spec["nbytes"]))
        if blob is None:
            raise EOFError("request truncated")
        blobs.append(blob)
    return header, blobs


def write_frame(f, header, blobs=()):
    text = json.dumps(header).encode()
    f.write(struct.pack("<Q", len(text)) + text)
    for b in blobs:
        f.write(b)
    f.flush()


def one_line(e, limit=400):
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text[:limit]}"


def serve(proto_in, proto_out):
    import numpy as np

    from vt_regen import live
    from vt_regen.caseio import NPY
    from vt_regen.upstream import HAS_TRITON, _version, vllm_config

    # One config for the run, as replay_dir does (the first VllmConfig takes
    # seconds; one per request was most of a small case's time).
    with vllm_config():
        write_frame(proto_out, {"status": "ready", "vllm": _version("vllm"), "torch": _version("torch"),
                                "triton": HAS_TRITON, "keys": sorted(live.LIVE)})
        return _loop(proto_in, proto_out, np, live, NPY)


def _loop(proto_in, proto_out, np, live, NPY):
    while True:
        frame = read_frame(proto_in)
        if frame is None:
            return 0
        header, blobs = frame
        try:
            arrays = {}
            for spec, blob in zip(header["tensors"], blobs):
                arrays[spec["name"]] = np.frombuffer(blob, dtype=NPY[spec["dtype"]]).reshape(spec["shape"]).copy()
            t0 = time.monotonic()
            result = live.run(header["op"], header.get("args") or {}, header["tensors"], arrays,
                              header.get("outputs") or {})
            # the log's per-request cost (vt-fuzz shows cases/s; this says where the time goes)
            print(f"vt-upstream-worker: {header['op']} {time.monotonic() - t0:.3f} s "
                  f"{ {s['name']: s['shape'] for s in header['tensors'][:1]} }", file=sys.stderr, flush=True)
            specs, out_blobs = [], []
            for name, (dtype, arr) in result.tensors.items():
                arr = np.ascontiguousarray(arr, dtype=NPY[dtype])
                specs.append({"name": name, "dtype": dtype, "shape": list(arr.shape), "nbytes": arr.nbytes})
                out_blobs.append(arr.tobytes())
            write_frame(proto_out, {"status": "ok", "tensors": specs, "tol": result.tol,
                                    "tol_reason": result.tol_reason, "args": result.args,
                                    "oracle": result.oracle}, out_blobs)
        except live.Inexpressible as e:
            write_frame(proto_out, {"status": "unsupported", "error": str(e)})
        except Exception as e:  # noqa: BLE001 - one request's failure is that request's error
            traceback.print_exc(file=sys.stderr)
            write_frame(proto_out, {"status": "error", "error": one_line(e)})


def main():
    # The protocol keeps the real stdout; fd 1 becomes stderr for everything else.
    proto_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    proto_in = sys.stdin.buffer
    need_triton = "--with-triton" in sys.argv
    venv = env.venv_dir()
    if Path(sys.prefix).resolve() != venv.resolve() or not env.installed_matches(venv, need_triton):
        flag = " --with-triton" if need_triton else ""
        write_frame(proto_out, {"status": "fatal", "error": f"no regeneration environment at {venv} matching "
                                f"golden/regen/requirements.lock (or this is not its python): run "
                                f"`vt-golden regen --setup{flag}` first"})
        return 2
    try:
        return serve(proto_in, proto_out)
    except Exception as e:  # noqa: BLE001 - an import failure: one line for the C++ side
        traceback.print_exc(file=sys.stderr)
        try:
            write_frame(proto_out, {"status": "fatal", "error": one_line(e)})
        except OSError:
            pass
        return 2


if __name__ == "__main__":
    sys.exit(main())
