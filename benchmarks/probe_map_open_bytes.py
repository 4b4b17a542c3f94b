"""The warm open of the Domain map broken into its parts (issue 42, BENCHMARKS §31u): the server's page run (its
MIREAD_TIMING line), each websocket message the tab receives (size and arrival, on the document's clock), the
browser's unpack / columns / first draw (index.js's openParts), the coloured map and the heap after a GC.

    .venv/bin/python benchmarks/probe_map_open_bytes.py --papers 1000000 [--before /tmp/x-before] [--opens 3] \
        [--same-tab] [--seconds 20] [--out benchmarks/results/probe.json]

The first open of each server is cold (its caches filled); the later ones are warm: a navigation of the same tab
(--same-tab) or a fresh tab each. The servers alternate per open (A B, B A, ...).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import OUT, PROBE, SERVER_ENV, Bench, before_and_after, serve
from common import ROOT

sys.path.insert(0, str(ROOT))

# every websocket message's size and arrival (ms on the document's clock)
WS = """(() => { const W = window.WebSocket, log = window.__wsLog = [];
    window.WebSocket = class extends W { constructor(...a) { super(...a); this.addEventListener('message', (e) => {
        const d = e.data; log.push([performance.now(), d.byteLength ?? d.size ?? d.length]); }); } };
    // when the heavy instance mounted (its view made) and the page's state part came (first animation frame seen)
    const seen = window.__openSeen = {}, tasks = window.__longTasks = [];
    const look = () => { const e = window.__mireadMaps && window.__mireadMaps.map;
        if (e && e.map && !seen.mounted) seen.mounted = performance.now();
        if (e && e.parts && e.parts.page && !seen.state) seen.state = performance.now();
        if (!seen.state) requestAnimationFrame(look); };
    requestAnimationFrame(look);
    new PerformanceObserver((l) => { for (const t of l.getEntries()) tasks.push([Math.round(t.startTime),
        Math.round(t.duration)]); }).observe({type: 'longtask', buffered: true}); })();"""
READY = """() => { const m = window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map;
    if (!m) return null; const d = m.wrap.dataset;
    return {ready: d.ready || null, applied: d.applied || null, parts: d.openParts ? JSON.parse(d.openParts) : null,
            now: performance.now()}; }"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--before", default="")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--opens", type=int, default=3)
    parser.add_argument("--same-tab", action="store_true")
    parser.add_argument("--out", default="")
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
        for k in range(args.opens):
            for label in (list(served) if k % 2 == 0 else list(served)[::-1]):
                url, log = served[label]
                if label not in tabs or not args.same_tab:
                    if label in tabs:
                        tabs[label].context.close()
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    context.add_init_script(PROBE)
                    context.add_init_script(WS)
                    tabs[label] = context.new_page()
                page = tabs[label]
                seen = log.read_text().count("MIREAD_TIMING")
                wall0 = time.time()
                t0 = time.perf_counter()
                page.goto(Bench(page, url, log, "synthetic", 1.0).link())
                deadline = t0 + (300 if k == 0 else args.seconds)
                coloured = marks = None
                while time.perf_counter() < deadline:
                    try:
                        marks = page.evaluate(READY)
                    except Exception:  # noqa: BLE001 - navigating
                        marks = None
                    if marks and marks["ready"] == "1" and marks["applied"]:
                        coloured = round(time.perf_counter() - t0, 2)
                        break
                    time.sleep(0.1)
                time.sleep(1.0)
                ws = page.evaluate("() => window.__wsLog")
                seen_at = page.evaluate("() => window.__openSeen")
                tasks = page.evaluate("() => window.__longTasks")
                origin = page.evaluate("() => performance.timeOrigin") / 1000.0
                cdp = page.context.new_cdp_session(page)
                cdp.send("HeapProfiler.collectGarbage")
                heap = round(cdp.send("Runtime.getHeapUsage")["usedSize"] / 2 ** 20, 1)
                cdp.detach()
                runs = [(float(a), float(b)) for a, b in
                        re.findall(r"MIREAD_TIMING page=\S+ run_s=([\d.]+) end=([\d.]+)", log.read_text())][seen:]
                big = max(ws, key=lambda m: m[1]) if ws else [0, 0]
                summary = {
                    "coloured_s": coloured, "heap_mb": heap, "nav_to_doc_s": round(origin - wall0, 2),
                    "ws_total_mb": round(sum(m[1] for m in ws) / 1e6, 2), "ws_messages": len(ws),
                    "largest_mb": round(big[1] / 1e6, 2), "largest_at_s": round(big[0] / 1000, 2),
                    # page runs: start and end on the document's clock (s), run_s
                    "runs": [[round(end - run - origin, 2), round(end - origin, 2), run] for run, end in runs],
                    "parts": (marks or {}).get("parts"),
                    "seen_s": {k: round(v / 1000, 2) for k, v in (seen_at or {}).items()},
                    "ws_over_100kb": [[round(t / 1000, 2), round(b / 1e6, 2)] for t, b in ws if b > 100_000],
                    "long_tasks_s": [[round(a / 1000, 2), round(d / 1000, 2)] for a, d in tasks if d >= 200],
                }
                found.setdefault(label, []).append(summary)
                print(label, k, json.dumps(summary), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({"papers": args.papers, "same_tab": args.same_tab, "opens": found},
                                             indent=1))


if __name__ == "__main__":
    main()
