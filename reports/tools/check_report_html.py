#!/usr/bin/env python3
"""Renders report.html in headless Chromium and fails on what a reader would
see as broken (ctest reports.browser, label browser; reports/README.md).

    check_report_html.py REPORT.html [--chromium BIN] [--expect-broken]

Fails on: a blank page (no text after rendering, or a screenshot that is all
one colour), any browser console message (the page has no script, so a message
is an error: an SVG attribute that does not parse, a missing resource, ...),
a plot (figure.plot) without an x axis and a y axis - each with tick labels
and a title naming the quantity and its unit - or without a legend.
--expect-broken inverts the verdict (the test's own planted pages).
Exit 0 pass, 1 fail, 77 (ctest SKIP) when no Chromium is installed.
"""
import argparse
import html.parser
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib


class Dom(html.parser.HTMLParser):
    """The rendered DOM as a tree of (tag, attrs, children, text)."""

    def __init__(self):
        super().__init__()
        self.root = {"tag": "#root", "attrs": {}, "kids": [], "text": ""}
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = {"tag": tag, "attrs": dict(attrs), "kids": [], "text": ""}
        self.stack[-1]["kids"].append(node)
        if tag not in ("meta", "br", "img", "input", "link", "hr"):
            self.stack.append(node)

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, 0, -1):
            if self.stack[k]["tag"] == tag:
                del self.stack[k:]
                break

    def handle_data(self, data):
        self.stack[-1]["text"] += data


def walk(node):
    yield node
    for k in node["kids"]:
        yield from walk(k)


def classes(node):
    return node["attrs"].get("class", "").split()


def text(node):
    return "".join(n["text"] for n in walk(node)).strip()


def with_class(node, cls):
    return [n for n in walk(node) if cls in classes(n)]


def check_plot(fig):
    """Problems of one figure.plot; [] when it has both axes and a legend."""
    name = fig["attrs"].get("id", "?")
    problems = []
    if not [n for n in walk(fig) if n["tag"] == "svg"]:
        return [f"plot {name}: no svg"]
    for axis in ("axis-x", "axis-y"):
        found = with_class(fig, axis)
        if not found:
            problems.append(f"plot {name}: no {axis}")
            continue
        ticks = [t for t in with_class(found[0], "tick") if text(t)]
        titles = [t for t in with_class(found[0], "axis-title") if text(t)]
        if not ticks:
            problems.append(f"plot {name}: {axis} has no tick labels")
        if not titles:
            problems.append(f"plot {name}: {axis} has no title")
    legend = with_class(fig, "legend")
    if not legend or not [e for e in with_class(legend[0], "legend-entry") if text(e)]:
        problems.append(f"plot {name}: no legend")
    return problems


def png_colours(path):
    """Distinct pixel values of an 8-bit RGB/RGBA PNG (enough to call it blank)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, width, height, ctype = 8, b"", 0, 0, 2
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                return None
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, seen, i = bytearray(stride), set(), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 7):  # a sample is enough
            seen.add(bytes(line[x:x + 3]))
        prev = line
    return seen


def inspect(page, chromium):
    url = "file://" + os.path.abspath(page)
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=" + tempfile.mkdtemp(prefix="vt-chromium-")]
    p = subprocess.run(base + ["--enable-logging=stderr", "--v=0", "--dump-dom", url],
                       capture_output=True, text=True, timeout=120)
    problems = []
    if p.returncode != 0:
        problems.append(f"chromium exited {p.returncode}: {p.stderr.strip()[-300:]}")
    console = [l for l in p.stderr.splitlines() if ":CONSOLE" in l]
    problems += [f"console: {l.split('] ', 1)[-1][:200]}" for l in console]
    dom = Dom()
    dom.feed(p.stdout)
    body = [n for n in walk(dom.root) if n["tag"] == "body"]
    if not body or len(text(body[0])) < 20:
        problems.append("blank page: no text in the rendered body")
    figures = [n for n in walk(dom.root) if n["tag"] == "figure" and "plot" in classes(n)]
    for fig in figures:
        problems += check_plot(fig)
    # A drawn svg outside a figure.plot would escape the axis check.
    loose = [n for n in walk(dom.root) if n["tag"] == "svg"]
    if len(loose) != len(figures):
        problems.append(f"{len(loose)} svg elements but {len(figures)} plots: every plot must be a figure.plot")
    shot = os.path.join(tempfile.mkdtemp(prefix="vt-shot-"), "page.png")
    subprocess.run(base + ["--window-size=1280,1600", "--screenshot=" + shot, url], capture_output=True, timeout=120)
    colours = png_colours(shot) if os.path.exists(shot) else None
    if colours is not None and len(colours) < 2:
        problems.append("blank page: the screenshot is one colour")
    if colours is None:
        problems.append("no screenshot could be taken or read")
    return problems, len(figures), len(colours or ())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--chromium")
    ap.add_argument("--expect-broken", action="store_true")
    a = ap.parse_args()
    chromium = a.chromium or next((c for c in ("chromium", "chromium-browser", "google-chrome")
                                   if shutil.which(c)), None)
    if not chromium or not shutil.which(chromium):
        print("SKIP: no Chromium (Debian: chromium) to render the report in")
        return 77
    problems, plots, colours = inspect(a.page, chromium)
    for pr in problems:
        print(f"{a.page}: {pr}")
    print(f"{a.page}: {plots} plots, {colours} sampled colours, {len(problems)} problems")
    broken = bool(problems)
    if a.expect_broken:
        print("expected broken: " + ("yes" if broken else "NO - the check missed it"))
        return 0 if broken else 1
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
