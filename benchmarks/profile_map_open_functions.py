"""Where a warm open of the Domain map spends the browser's main thread, by function (BENCHMARKS §31ae): a CDP CPU
profile of each new page load of the same tab, summed per function of the map's bundle (and native calls such as
drawImage) INCLUSIVE of what they call, averaged over the opens. Build the bundle with names kept first
(`cd frontend/map && node build.mjs ../../ui/map/static/map_component.js --dev`; `npm run build` after).

    .venv/bin/python benchmarks/profile_map_open_functions.py --papers 50000 --opens 3
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from contextlib import ExitStack

from bench_interactions import PROBE, SERVER_ENV, Bench, serve, synthetic_map_workspace, wait_idle
from common import ROOT

sys.path.insert(0, str(ROOT))

READY = "() => { const m = window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map; " \
    "return m && m.wrap.dataset.ready === '1'; }"


def inclusive(profile: dict, into: collections.Counter, share: float) -> None:
    """Add each sample's time (ms × `share`) once to every bundle or native function on its stack."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    for sample, dt in zip(profile["samples"], profile["timeDeltas"]):
        seen, node = set(), sample
        while node is not None:
            frame = nodes[node]["callFrame"]
            if "map_component" in frame.get("url", "") or not frame.get("url"):
                name = (frame.get("functionName") or "(anonymous)") + (
                    f"@{frame.get('lineNumber')}" if frame.get("url") else "")
                if name not in seen:
                    seen.add(name)
                    into[name] += dt / 1000 * share
            node = parent.get(node)


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=50000)
    parser.add_argument("--opens", type=int, default=3)
    parser.add_argument("--top", type=int, default=60)
    args = parser.parse_args()
    workspace = synthetic_map_workspace(args.papers)
    found: collections.Counter = collections.Counter()
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        url, log = stack.enter_context(serve(ROOT, workspace, dict(SERVER_ENV)))
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.add_init_script(PROBE)
        page = context.new_page()
        bench = Bench(page, url, log, "synthetic", 0.3)
        page.goto(bench.link())  # the first open (a cold server) is not counted
        page.wait_for_function(READY, timeout=600_000)
        wait_idle(page, timeout=60_000)
        for _ in range(args.opens):
            cdp = context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            cdp.send("Profiler.start")
            page.goto(bench.link())
            page.wait_for_function(READY, timeout=600_000)
            profile = cdp.send("Profiler.stop")["profile"]
            cdp.detach()
            print("open parts", page.evaluate("() => window.__mireadMaps.map.map.wrap.dataset.openParts"), flush=True)
            inclusive(profile, found, 1 / args.opens)
            wait_idle(page, timeout=60_000)
    print(json.dumps([[name, round(ms, 1)] for name, ms in found.most_common(args.top)], indent=0))


if __name__ == "__main__":
    main()
