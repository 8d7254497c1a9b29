#!/usr/bin/env bash
# The device check: builds vt-conform with nvcc (the CUDA kernels for sm_80
# and sm_90) and runs the cuda mode on the real GPU (backend cuda) for every
# op with a CUDA kernel (the mode covers exactly those: no list to keep), at
# the ci tier: CUDA vs the Bounded oracle, CUDA vs
# the CPU kernels, run-to-run determinism, the wrong-device refusal.
# Prints "N passed, M failed, ..." (vt-conform's final line) and writes the
# report to $VT_DEVICE_REPORT (default build-device/reports).
# Budget: under 8 minutes on an H100/H200-class machine (the build is most of
# it; the cases take seconds). Needs the packages of scripts/install-deps.sh
# and the CUDA toolkit; nothing is downloaded. Exit 0 only when nothing failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${VT_DEVICE_BUILD:-$root/build-device}"
report="${VT_DEVICE_REPORT:-$build/reports}"
jobs="$(nproc)"

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
start=$(date +%s)
echo "device-check: configure + build in $build ($jobs jobs)"
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVT_WITH_CUDA=ON \
  -DVT_WITH_TORCH=OFF -DVT_CUDA_DEVICE_ARCHS="80;90" >"$build.configure.log" 2>&1 || { tail -20 "$build.configure.log"; exit 2; }
grep -q "CUDA              : .*nvcc" "$build.configure.log" || {
  echo "device-check: nvcc was not found (CUDA targets skipped); see $build.configure.log"; exit 2; }
cmake --build "$build" -j "$jobs" --target vt-conform vt-cuda-probe
echo "device-check: build took $(( $(date +%s) - start )) s"

probe="$(find "$build" -name vt-cuda-probe -type f -perm -u+x | head -1)"
if ! "$probe"; then
  echo "device-check: no usable CUDA device (vt-cuda-probe above says why); nothing ran"
  exit 2
fi

mkdir -p "$report"
set +e
timeout 420 "$build/harness/cli/vt-conform" --mode cuda --backend cuda --tier ci \
  --report "$report" 2>&1 | tee "$report/device-check.log"
rc=${PIPESTATUS[0]}
set -e
echo "device-check: total $(( $(date +%s) - start )) s; report in $report (results.json, report.md)"
if [ "$rc" -eq 124 ]; then echo "device-check: vt-conform ran past 420 s"; fi
exit "$rc"
