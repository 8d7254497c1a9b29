#!/usr/bin/env bash
# Shows vt-fuzz finding a planted bug: applies one mutant of
# harness/mutate/mutants.json to a scratch copy of this tree (build/fuzz-demo/,
# git-ignored), builds vt-fuzz there (ccache), fuzzes the mutant's op for
# SECONDS, then replays every saved (shrunk) case with the mutant build and
# with this tree's clean build: the mutant's cases reproduce on the first and
# pass on the second.
#   scripts/fuzz-mutant-demo.sh MUTANT_ID [SECONDS=60] [extra vt-fuzz flags...]
# Exit 0 when vt-fuzz failed and at least one saved case is the mutant's.
# With --upstream among the flags (needs `vt-golden regen --setup --with-triton`),
# the kernel is held to upstream vLLM and each saved case - a golden folder -
# is rerun by `vt-golden check` (no vLLM) with both builds instead.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
id="${1:?usage: scripts/fuzz-mutant-demo.sh MUTANT_ID [SECONDS] [vt-fuzz flags...]}"
secs="${2:-60}"
shift $(( $# >= 2 ? 2 : 1 ))
clean="$repo/build/fuzz/vt-fuzz"
[ -x "$clean" ] || { echo "fuzz-mutant-demo: build vt-fuzz first (cmake --build build --target vt-fuzz)" >&2; exit 2; }
upstream=0
for a in "$@"; do [ "$a" = --upstream ] && upstream=1; done
targets=(vt-fuzz)
clean_golden="$repo/build/harness/cli/vt-golden"
if [ "$upstream" = 1 ]; then
  targets+=(vt-golden)
  [ -x "$clean_golden" ] || { echo "fuzz-mutant-demo: build vt-golden first (cmake --build build --target vt-golden)" >&2; exit 2; }
fi
demo="$repo/build/fuzz-demo"
src="$demo/src"
mkdir -p "$src"
# The mutant: file, find, replace and its first op, from mutants.json.
read -r file op < <(python3 - "$repo/harness/mutate/mutants.json" "$id" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
data = data.get("mutants", data) if isinstance(data, dict) else data
m = [x for x in data if x.get("id") == sys.argv[2]]
if not m:
    sys.exit(f"fuzz-mutant-demo: no mutant '{sys.argv[2]}' in mutants.json")
print(m[0]["file"], m[0]["ops"][0])
PY
) || exit 2
# Scratch copy: tracked + untracked-not-ignored files, the unchanged ones
# untouched (so the scratch build stays incremental), ../shared beside it.
python3 - "$repo" "$src" <<'PY'
import os, shutil, subprocess, sys, pathlib
repo, src = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
files = subprocess.run(["git", "-C", str(repo), "ls-files", "-co", "--exclude-standard", "-z"],
                       check=True, capture_output=True).stdout.decode().split("\0")
for f in filter(None, files):
    a, b = repo / f, src / f
    if not a.is_file():
        continue
    if b.is_file() and a.read_bytes() == b.read_bytes():
        continue
    b.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(a, b)
PY
ln -sfn "$(cd "$repo/.." && pwd)/shared" "$demo/shared"  # ../shared of the copy
python3 - "$repo/harness/mutate/mutants.json" "$id" "$src" <<'PY'
import json, sys, pathlib
data = json.load(open(sys.argv[1]))
data = data.get("mutants", data) if isinstance(data, dict) else data
m = [x for x in data if x.get("id") == sys.argv[2]][0]
p = pathlib.Path(sys.argv[3]) / m["file"]
text = p.read_text()
if text.count(m["find"]) != 1:
    sys.exit(f"fuzz-mutant-demo: 'find' of {m['id']} occurs {text.count(m['find'])} times in {m['file']}")
p.write_text(text.replace(m["find"], m["replace"]))
print(f"mutant {m['id']} applied to {m['file']}: {m['description']}")
PY
# The build folder sits inside the copy as build/ does in the tree, so that
# ccache (base_dir) sees the same relative paths and reuses the tree's objects.
cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVT_WITH_CUDA=OFF -DVT_WITH_TORCH=OFF \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache > "$demo/configure.log" 2>&1 || { tail -20 "$demo/configure.log"; exit 2; }
cmake --build "$src/build" -j2 --target "${targets[@]}" > "$demo/build.log" 2>&1 || { tail -20 "$demo/build.log"; exit 2; }
mutant="$src/build/fuzz/vt-fuzz"
saved="$demo/saved/$id"
rm -rf "$saved"
echo "== fuzzing $op for $secs s with the mutant build"
set +e
"$mutant" --op "$op" --time "$secs" --save "$saved" --json "$demo/$id.json" "$@"
found=$?
if [ "$upstream" = 1 ]; then
  # Each saved golden folder through vt-golden check: exit 1 = it fails.
  : > "$demo/replay-mutant.log"
  : > "$demo/replay-clean.log"
  for d in $(find "$saved" -name manifest.json -printf '%h\n' 2>/dev/null | sort); do
    echo "== vt-golden check $d (mutant build, expect: failed)"
    "$src/build/harness/cli/vt-golden" check "$d"
    [ $? = 1 ] && echo "REPRODUCED $d" >> "$demo/replay-mutant.log"
    echo "== vt-golden check $d (clean build, expect: passed)"
    "$clean_golden" check "$d"
    [ $? = 0 ] && echo "PASSES NOW $d" >> "$demo/replay-clean.log"
  done
else
  echo "== replay with the mutant build (expect: reproduced)"
  "$mutant" --replay "$saved" | tee "$demo/replay-mutant.log"
  echo "== replay with the clean build (expect: passes now)"
  "$clean" --replay "$saved" | tee "$demo/replay-clean.log"
fi
set -e
# The mutant build's source goes back to clean for the next demo (incremental).
cp "$repo/$file" "$src/$file"
# A saved case is the mutant's when the mutant build reproduces it and the
# clean build passes it; one that fails on both is not the mutant's doing (a
# finding in the clean tree, reported, never counted for the mutant).
mine=0; other=0
for d in $(sed -n 's/^REPRODUCED //p' "$demo/replay-mutant.log"); do
  if grep -qx "PASSES NOW $d" "$demo/replay-clean.log"; then mine=$((mine + 1)); else other=$((other + 1)); echo "also fails on the clean build: $d"; fi
done
echo "== $id: vt-fuzz exit $found; saved cases: $mine reproduce with the mutant and pass clean, $other fail on both"
[ "$found" = 1 ] && [ "$mine" -ge 1 ]
