"""A stand-in for golden/regen/vt_regen/worker.py that needs no torch: the same
frames, and requests that exercise the C++ client's failure paths.

    op "echo"   each input comes back as output "<name>_out" (same dtype and bytes)
    op "raise"  an error reply (what an upstream exception gives)
    op "crash"  the process exits mid-request
    op "sleep"  never answers (the per-case time limit)
"""
import json
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "golden", "regen"))
from vt_regen.worker import read_frame, write_frame  # noqa: E402  (standard library only)


def main():
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    if os.environ.get("VT_FAKE_WORKER_FATAL"):
        write_frame(out, {"status": "fatal", "error": "no environment here"})
        return 2
    write_frame(out, {"status": "ready", "vllm": "fake", "torch": "fake", "triton": False, "keys": ["echo"]})
    while True:
        frame = read_frame(sys.stdin.buffer)
        if frame is None:
            return 0
        header, blobs = frame
        op = header["op"]
        if op == "raise":
            write_frame(out, {"status": "error", "error": "ValueError: planted"})
        elif op == "crash":
            print("fake worker: crashing on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        elif op == "sleep":
            time.sleep(60)
        else:
            specs = [dict(s, name=s["name"] + "_out") for s in header["tensors"]]
            write_frame(out, {"status": "ok", "tensors": specs, "tol": {"atol": 0.0, "rtol": 0.0},
                              "tol_reason": "echo", "args": {}, "oracle": {}}, blobs)


if __name__ == "__main__":
    sys.exit(main())
