"""How many times the real map page hands its points to regl-scatterplot, and draws them, in one open (issue 42,
BENCHMARKS §31r): a fresh tab opens the Domain map on a served workspace and the map's marks (`pointDraws`: the
points handed over, since §31r; `frames`: regl-scatterplot's draw events; `applied`: states applied; `ready`) are
read every 100 ms from the navigation on, with the time of each change.

    .venv/bin/python benchmarks/probe_map_open_draws.py --papers 1000000 [--before /tmp/mapdraw1m-before] [--seconds 25] \
        [--same-tab] [--out benchmarks/results/probe.json]

With --same-tab (BENCHMARKS §31s) every open of a server is a navigation of one tab (the warm open of
bench_map_click.py: the points come from Streamlit's cache before the state), and each open also notes `coloured`
(the first sample with a state applied and the map ready: the map the user sees), `last_frame` (the time of the
last change of `frames`) and the JS heap after a garbage collection.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import OUT, PROBE, SERVER_ENV, Bench, before_and_after, serve
from common import ROOT

sys.path.insert(0, str(ROOT))

MARKS = """() => { const e = window.__mireadMaps && window.__mireadMaps.map, m = e && e.map;
    if (!m) return null; const d = m.wrap.dataset;
    return {pointDraws: d.pointDraws || null, frames: d.frames || null, applied: d.applied || null, ready: d.ready || null,
            loads: d.loads || null}; }"""
# the open's parts as index.js notes them at the first draw (readyAt: ms from the document's navigation)
OPEN_PARTS = """() => { const m = window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map;
    const p = m && m.wrap.dataset.openParts; return p ? JSON.parse(p) : null; }"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--before", default="")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--opens", type=int, default=2, help="opens per server, each in a fresh tab (the first is cold)")
    parser.add_argument("--same-tab", action="store_true", help="every open of a server in one tab (a navigation)")
    parser.add_argument("--out", default="", help="a JSON file for the timelines and summaries")
    args = parser.parse_args()
    root = OUT / f"ws-map-{args.papers}"
    env = dict(SERVER_ENV)
    roots = before_and_after(args.before)
    found: dict[str, list] = {}
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        served = {label: stack.enter_context(serve(app_root, root, env)) for label, app_root in roots.items()}
        tabs: dict[str, Any] = {}
        for k in range(args.opens):  # the servers alternate: A B, B A, ...
            for label in (list(served) if k % 2 == 0 else list(served)[::-1]):
                url, log = served[label]
                if label not in tabs or not args.same_tab:
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    context.add_init_script(PROBE)
                    tabs[label] = context.new_page()
                page = tabs[label]
                link = Bench(page, url, log, "synthetic", 1.0).link()
                t0 = time.perf_counter()
                page.goto(link)
                timeline, last = [], None
                deadline = t0 + (240 if k == 0 else args.seconds)
                while time.perf_counter() < deadline:
                    try:
                        marks = page.evaluate(MARKS)
                    except Exception:  # noqa: BLE001 - navigating
                        marks = None
                    if marks != last:
                        timeline.append([round(time.perf_counter() - t0, 2), marks])
                        last = marks
                        if k == 0 and marks and marks.get("ready") == "1":
                            deadline = min(deadline, time.perf_counter() + args.seconds)
                    time.sleep(0.1)
                summary = summarise(timeline)
                cdp = page.context.new_cdp_session(page)
                cdp.send("HeapProfiler.collectGarbage")
                summary["heap_mb"] = round(cdp.send("Runtime.getHeapUsage")["usedSize"] / 2 ** 20, 1)
                summary["parts"] = page.evaluate(OPEN_PARTS)
                cdp.detach()
                if not args.same_tab or k == args.opens - 1:
                    page.context.close()
                found.setdefault(label, []).append({"timeline": timeline, **summary})
                print(label, k, json.dumps(summary), json.dumps(timeline), flush=True)
    print(json.dumps(found))
    if args.out:
        Path(args.out).write_text(json.dumps({"papers": args.papers, "same_tab": args.same_tab, "opens": found},
                                             indent=1))


def summarise(timeline: list) -> dict:
    """When the coloured map was shown (a state applied, the map ready), the last frame, and the marks at the end."""
    coloured = next((t for t, m in timeline if m and m.get("ready") == "1" and m.get("applied")), None)
    frames = [t for (t, m), (_, prev) in zip(timeline, [[0, None], *timeline])
              if (m or {}).get("frames") != (prev or {}).get("frames")]
    end = timeline[-1][1] if timeline else None
    return {"coloured": coloured, "last_frame": frames[-1] if frames else None,
            "frames": (end or {}).get("frames"), "pointDraws": (end or {}).get("pointDraws")}


if __name__ == "__main__":
    main()
