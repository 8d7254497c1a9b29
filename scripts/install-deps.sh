#!/usr/bin/env bash
# Installs the Debian packages vt-conform builds with. Idempotent: asks dpkg
# what is missing and runs `apt-get update` + `apt-get install` only for that.
set -euo pipefail

packages=(
  g++ cmake ninja-build git           # compiler and build
  ccache                              # compiler cache (cmake/VtOptions.cmake uses it when present)
  libgtest-dev libgmock-dev           # GoogleTest suites
  librapidcheck-dev                   # property generators (case generators are rc::Gen)
  nlohmann-json3-dev                  # case args, manifests, reports
  libcli11-dev                        # command lines of vt-conform, vt-golden, vt-fuzz
  libbenchmark-dev                    # Google Benchmark (speed targets)
  libopenblas-dev                     # OpenBLAS: the GEMM benchmarks' baseline (scripts/bench)
  libtorch-dev                        # libtorch: the second, independent reference (torch mode)
  libboost-context-dev                # fibers of the cuda-emu SIMT emulation (kernels/cuda/emu)
  python3-jsonschema                  # ctest reports.schema: results.json against reports/results.schema.json
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
    echo "install-deps: missing ${missing[*]} and not root (no sudo)" >&2; exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
