#!/usr/bin/env python3
"""End-to-end checks of the reports (ctest reports.*; reports/README.md).

    reports_test.py CHECK --conform BIN --report-tool BIN [--golden BIN --fuzz BIN
                    --suite BIN --schema FILE --golden-case DIR] --work DIR

CHECK is one of:
  schema   a small vt-conform run, a vt-golden check --json and a vt-fuzz --json
           validate against results.schema.json; planted defects do not.
  shards   4 shards of a small run, merged, equal the unsharded run case for case;
           a missing, a duplicated shard and a shard of another run are refused (exit 2).
  diff     vt-report diff flags a planted new failure and a removed case (exit 1),
           reads a run against itself as unchanged (exit 0); vt-conform --baseline
           puts the same summary at the top of report.md.
  junit    vt-conform --junit: one testcase per case, classname op.mode; a planted
           failure carries its reason, first bad elements and repro line.
  browser  report.html of a small run renders in headless Chromium (check_report_html.py),
           and three planted broken pages are caught.
  gtest-shards  vt_conform_suite under GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX runs
           each test of the unsharded list exactly once over the shards.
Every check prints what it measured; exit 0 pass, 1 fail, 77 skip (with the reason).
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

OPS = "rms_norm,silu_and_mul"  # two families, every mode, a few seconds at the smoke tier
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(cmd, env=None, expect=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if expect is not None and p.returncode not in expect:
        print("command:", " ".join(cmd), "\nexit", p.returncode, "\n", p.stdout[-3000:], p.stderr[-3000:])
        sys.exit(1)
    return p


def conform(a, out, *extra):
    cmd = [a.conform, "--op", OPS, "--tier", "smoke", "--quiet", "--report", out, *extra]
    run(cmd, expect=(0, 1))
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)


def stable(case):
    """A case without its timing (the only field two identical runs may differ in)."""
    c = dict(case)
    c.pop("seconds", None)
    return c


def validate(a, files):
    p = run([sys.executable, os.path.join(os.path.dirname(a.schema), "tools", "check_schema.py"), a.schema, *files])
    print(p.stdout.strip())
    return p.returncode  # 77: no jsonschema module (the reason is printed)


def t_schema(a):
    doc = conform(a, os.path.join(a.work, "run"))
    files = [os.path.join(a.work, "run", "results.json")]
    golden = os.path.join(a.work, "golden.json")
    run([a.golden, "check", a.golden_case, "--json", golden, "--quiet"], expect=(0, 1))
    files.append(golden)
    fuzz = os.path.join(a.work, "fuzz.json")
    run([a.fuzz, "--op", "silu_and_mul", "--cases", "3", "--seed", "7", "--quiet", "--json", fuzz,
         "--save", os.path.join(a.work, "fuzz-saved")], expect=(0, 1))
    files.append(fuzz)
    rc = validate(a, files)
    if rc == 77:
        sys.exit(77)
    check(rc == 0, "results.json of vt-conform, vt-golden check --json and vt-fuzz --json validate")
    tools = set()
    for f in files:
        with open(f) as h:
            d = json.load(h)
        tools.add(d["meta"]["tool"])
        check(d["meta"]["git_sha"] != "" and d["meta"]["isa"] in ("portable", "avx2", "avx512"),
              f"{os.path.basename(f)}: meta names the commit {d['meta']['git_sha'][:12]} and ISA tier {d['meta']['isa']}")
    check(tools == {"vt-conform", "vt-golden", "vt-fuzz"}, f"one writer, three tools: {sorted(tools)}")
    check(len(doc["cases"]) > 0, f"the small run has {len(doc['cases'])} cases")
    oracle = [c for c in doc["cases"] if c["mode"] == "oracle"]
    check(oracle and all(c["dtypes"] and c["family"] in ("norm", "act") and c["backend"] == "cpu" for c in oracle),
          "every oracle case names its dtypes, family and backend: " + ", ".join(sorted({c["dtypes"] for c in oracle})))
    cuda = [c for c in doc["cases"] if c["mode"] == "cuda"]
    check(all(c["backend"] == doc["meta"]["backend"] for c in cuda), f"{len(cuda)} cuda cases ran on {doc['meta']['backend']}")
    # The marker a run writes before its first case (reports::StartReports) validates too.
    marker = os.path.join(a.work, "running.json")
    with open(marker, "w") as f:
        json.dump({"schema_version": doc["schema_version"], "status": "running", "meta": doc["meta"]}, f)
    check(validate(a, [marker]) == 0, "a running run's marker {schema_version, status, meta} validates")
    # The validator must be able to say no: each planted defect is refused.
    planted = {
        "schema_version 1": lambda d: d.__setitem__("schema_version", 1),
        "no meta.seed": lambda d: d["meta"].pop("seed"),
        "an unknown case status": lambda d: d["cases"][0].__setitem__("status", "OK"),
        "a case without repro": lambda d: d["cases"][0].pop("repro"),
        "an isa tier that does not exist": lambda d: d["meta"].__setitem__("isa", "sse9"),
    }
    for name, plant in planted.items():
        bad = copy.deepcopy(doc)
        plant(bad)
        path = os.path.join(a.work, "planted.json")
        with open(path, "w") as f:
            json.dump(bad, f)
        check(validate(a, [path]) == 1, f"the schema refuses {name}")


def t_shards(a):
    whole = conform(a, os.path.join(a.work, "whole"))
    shards = []
    for i in range(4):
        d = os.path.join(a.work, f"shard{i}")
        conform(a, d, "--shard", f"{i}/4")
        shards.append(os.path.join(d, "results.json"))
    merged_dir = os.path.join(a.work, "merged")
    p = run([a.report_tool, "merge", *shards, "-o", merged_dir], expect=(0, 1))
    print(p.stdout.strip())
    with open(os.path.join(merged_dir, "results.json")) as f:
        merged = json.load(f)
    wc, mc = [stable(c) for c in whole["cases"]], [stable(c) for c in merged["cases"]]
    same = sum(1 for x, y in zip(wc, mc) if x == y)
    check(len(wc) == len(mc) and same == len(wc),
          f"merged 4 shards equal the unsharded run case for case: {same} of {len(wc)} equal, {len(mc)} merged")
    check(merged["summary"] == whole["summary"], f"summaries agree: {merged['summary']['final_line']}")
    check(merged["matrix"] == whole["matrix"], "op x mode matrices agree")
    rc = validate(a, [os.path.join(merged_dir, "results.json")])
    check(rc in (0, 77), "the merged results.json validates" + (" (not checked: no jsonschema)" if rc == 77 else ""))
    for f in ("report.md", "report.html"):
        check(os.path.getsize(os.path.join(merged_dir, f)) > 0, f"merge wrote {f}")
    # Refusals: exit 2 and one line naming the reason.
    other = os.path.join(a.work, "other-seed")
    conform(a, other, "--shard", "1/4", "--seed", "99")
    cases = {
        "a missing shard": (shards[:3], "shard 3/4 is missing"),
        "a duplicated shard": (shards + [shards[1]], "are both shard 1/4"),
        "a shard of another run (seed)": ([shards[0], os.path.join(other, "results.json"), shards[2], shards[3]],
                                           "not shards of one run: seed"),
    }
    for name, (files, expect) in cases.items():
        p = run([a.report_tool, "merge", *files, "-o", os.path.join(a.work, "refused")])
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and expect in lines[0],
              f"merge refuses {name}: exit {p.returncode}, '{lines[0] if lines else ''}'")
    running = copy.deepcopy(whole)
    running["status"] = "running"
    running["meta"]["shard"] = "0/1"
    path = os.path.join(a.work, "running.json")
    with open(path, "w") as f:
        json.dump(running, f)
    p = run([a.report_tool, "merge", path, "-o", os.path.join(a.work, "refused")])
    check(p.returncode == 2 and "did not finish" in p.stderr, f"merge refuses an unfinished shard: {p.stderr.strip()}")


def plant_failure(doc):
    """A copy of doc whose first passing oracle case now fails."""
    bad = copy.deepcopy(doc)
    for c in bad["cases"]:
        if c["status"] == "PASSED" and c["mode"] == "oracle":
            c["status"] = "FAILED_INCORRECT"
            c["reason"] = "out: 3 of 4096 elements outside the planted tolerance"
            c["detail"] = "  [17] got 1.5 want 1.25 (planted)\n"
            return bad, c["id"]
    raise SystemExit("no passing oracle case to plant a failure in")


def t_diff(a):
    old_dir = os.path.join(a.work, "old")
    doc = conform(a, old_dir)
    old = os.path.join(old_dir, "results.json")
    bad, planted_id = plant_failure(doc)
    gone = bad["cases"].pop()  # and one case disappears
    new = os.path.join(a.work, "new.json")
    with open(new, "w") as f:
        json.dump(bad, f)
    p = run([a.report_tool, "diff", old, new, "--json", os.path.join(a.work, "diff.json")])
    with open(os.path.join(a.work, "diff.json")) as f:
        d = json.load(f)
    check(p.returncode == 1, f"vt-report diff exits 1 on a planted new failure (exit {p.returncode})")
    check([r["id"] for r in d["new_failures"]] == [planted_id], f"the new failure is the planted case {planted_id}")
    check([r["id"] for r in d["disappeared"]] == [gone["id"]], "the removed case is listed as disappeared")
    check(planted_id in p.stdout and "new failures: 1" in p.stdout, "the printed summary names it")
    p = run([a.report_tool, "diff", old, old])
    check(p.returncode == 0 and "new failures: 0" in p.stdout, f"a run against itself: exit {p.returncode}, no change")
    # The reverse direction: the planted failure reads as fixed, the lost case as new.
    p = run([a.report_tool, "diff", new, old, "--json", os.path.join(a.work, "rev.json")])
    with open(os.path.join(a.work, "rev.json")) as f:
        r = json.load(f)
    check(p.returncode == 0 and len(r["fixed"]) == 1 and len(r["appeared"]) == 1,
          f"reversed: {len(r['fixed'])} fixed, {len(r['appeared'])} appeared, exit {p.returncode}")
    # Headroom moved more than 2x.
    moved = copy.deepcopy(doc)
    target = next(c for c in moved["cases"] if isinstance(c.get("headroom"), (int, float)) and c["headroom"] > 0.01)
    target["headroom"] *= 3
    with open(new, "w") as f:
        json.dump(moved, f)
    run([a.report_tool, "diff", old, new, "--json", os.path.join(a.work, "moved.json")])
    with open(os.path.join(a.work, "moved.json")) as f:
        m = json.load(f)
    check([x["id"] for x in m["headroom_grew"]] == [target["id"]] and not m["fails"],
          "a 3x headroom rise is reported (and does not fail the diff)")
    # vt-conform --baseline: report.md starts with the same summary.
    with open(new, "w") as f:
        json.dump(bad, f)
    base_dir = os.path.join(a.work, "with-baseline")
    conform(a, base_dir, "--baseline", new)
    with open(os.path.join(base_dir, "report.md")) as f:
        md = f.read()
    head = md[:md.find("- command:")]
    check("## Changes since the baseline" in head and "fixed (failed before, pass now): 1" in head,
          "vt-conform --baseline: report.md starts with the changes (the planted failure reads as fixed)")


def t_junit(a):
    out = os.path.join(a.work, "run")
    xml = os.path.join(a.work, "junit.xml")
    doc = conform(a, out, "--junit", xml)
    root = ET.parse(xml).getroot()
    cases = root.findall(".//testcase")
    check(len(cases) == len(doc["cases"]), f"one testcase per case: {len(cases)} testcases, {len(doc['cases'])} cases")
    want = {(c["op"] + "." + c["mode"], c["id"]) for c in doc["cases"]}
    got = {(t.get("classname"), t.get("name")) for t in cases}
    check(want == got, "classname op.mode, name the case id")
    skipped = sum(1 for c in doc["cases"] if c["status"] in ("SKIPPED", "UNSUPPORTED"))
    check(len(root.findall(".//testcase/skipped")) == skipped, f"{skipped} skipped cases are <skipped> with a reason")
    bad, planted_id = plant_failure(doc)
    path = os.path.join(a.work, "bad.json")
    with open(path, "w") as f:
        json.dump(bad, f)
    run([a.report_tool, "junit", path, "-o", xml], expect=(0,))
    root = ET.parse(xml).getroot()
    fails = root.findall(".//testcase/failure")
    text = fails[0].text if fails else ""
    check(len(fails) == 1 and "planted tolerance" in fails[0].get("message") and "[17] got 1.5" in text
          and "repro: vt-conform" in text, "the planted failure: message = reason, text = first bad elements + repro")
    check(root.get("failures") == "1", f"testsuites failures=\"{root.get('failures')}\"")


def t_gtest_shards(a):
    flt = "--gtest_filter=*_smoke.rms_norm:*_smoke.silu_and_mul"
    env = dict(os.environ)
    for k in ("GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"):
        env.pop(k, None)
    listed = run([a.suite, flt, "--gtest_list_tests"], env=env, expect=(0,)).stdout
    suite, want = None, []
    for line in listed.splitlines():
        if not line.startswith(" "):
            suite = line.strip()
        else:
            want.append(suite + line.strip())
    ran = []
    for i in range(3):
        e = dict(env, GTEST_TOTAL_SHARDS="3", GTEST_SHARD_INDEX=str(i))
        p = run([a.suite, flt], env=e, expect=(0,))
        mine = re.findall(r"^\[ RUN      \] (\S+)$", p.stdout, re.M)
        print(f"shard {i}/3: {len(mine)} tests")
        check(0 < len(mine) < len(want), f"shard {i}/3 runs a part of the {len(want)} tests ({len(mine)})")
        ran += mine
    check(sorted(ran) == sorted(want), f"the 3 shards ran each of the {len(want)} tests exactly once ({len(ran)} runs)")


def t_browser(a):
    out = os.path.join(a.work, "run")
    conform(a, out)
    tool = os.path.join(os.path.dirname(a.schema), "tools", "check_report_html.py")
    page = os.path.join(out, "report.html")
    p = run([sys.executable, tool, page])
    print(p.stdout.strip())
    if p.returncode == 77:
        sys.exit(77)
    check(p.returncode == 0, "report.html of a small run renders: text, no console message, every plot with axes")
    with open(page) as f:
        good = f.read()
    # The check must be able to fail: three planted pages.
    blank = "<!doctype html><html><body></body></html>"
    nan = good.replace("<circle cx=\"", "<circle cx=\"nan\" data-x=\"", 1)
    no_axis = re.sub(r'<g class="axis axis-y">.*?</g>', "", good, count=1)
    for name, html in (("a blank page", blank), ("an SVG coordinate 'nan' (console error)", nan),
                       ("a plot without its y axis", no_axis)):
        path = os.path.join(a.work, "planted.html")
        with open(path, "w") as f:
            f.write(html)
        p = run([sys.executable, tool, path, "--expect-broken"])
        print(p.stdout.strip())
        check(p.returncode == 0 and html != good, f"the browser check fails {name}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check", choices=["schema", "shards", "diff", "junit", "gtest-shards", "browser"])
    for flag in ("--conform", "--report-tool", "--golden", "--fuzz", "--suite", "--schema", "--golden-case"):
        ap.add_argument(flag)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    {"schema": t_schema, "shards": t_shards, "diff": t_diff, "junit": t_junit, "gtest-shards": t_gtest_shards,
     "browser": t_browser}[
        a.check](a)
    print(f"{a.check}: {len(failures)} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
