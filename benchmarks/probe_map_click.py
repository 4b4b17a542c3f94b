"""What one click on a paper costs the real map page, in the browser (issue 42, BENCHMARKS §31t): the map's frames
(regl-scatterplot's draw events) during the mouse's move onto the paper and during the click, the click's settle
(bench_interactions' harness: input → the page's last change), its card pinned ("answer"), and a sampling CPU profile
of the browser's main thread over the click (CDP `Profiler`; SwiftShader's frames show as `drawImage`, the copy of
regl-scatterplot's renderer canvas to the map's, which waits for the frame).

    nice -n 10 .venv/bin/python benchmarks/probe_map_click.py --papers 1000000 --before /tmp/map1mclick-before \
        [--clicks 3] [--out benchmarks/results/probe_map_click_31t_1m.json]

Per server (before, after: two servers on one workspace, the corpus of bench_map_click.py), a fresh tab opens the
map, then `--clicks` papers are clicked in turn: the mouse moved onto the paper, the page left to settle (so the
hover's frame is counted apart), then the click measured, then the panel closed. The servers alternate per click.
With --highlights, then a word highlighted (profiled, its frames counted) and cleared, as many times.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import (
    SERVER_ENV,
    Bench,
    before_and_after,
    bench_tab,
    synthetic_map_workspace,
)
from bench_map_component import READY, opened, pan_mode, point
from common import machine
from profile_map_browser import summarise

FRAMES = "() => Number(window.__mireadMaps.map.map.wrap.dataset.frames || 0)"


def quiet_frames(b: Bench, still_s: float = 1.0, limit_s: float = 60.0) -> int:
    """The map's frame count once it has not changed for `still_s` (a frame at 1M is 1-2 s in this browser)."""
    last, since, end = b.page.evaluate(FRAMES), time.monotonic(), time.monotonic() + limit_s
    while time.monotonic() < end:
        time.sleep(0.1)
        now = b.page.evaluate(FRAMES)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still_s:
            break
    return last


def one_click(b: Bench, row: int, top: int) -> dict[str, Any]:
    """Move onto the paper at `row`, let the page settle, then click it (profiled); then close its panel."""
    b.page.wait_for_function(READY, timeout=900_000)
    pan_mode(b)
    b.idle()
    xy = point(b, row)
    if not xy:
        return {"row": row, "note": "no point"}
    f0 = quiet_frames(b)
    b.page.mouse.move(*xy, steps=2)
    f1 = quiet_frames(b, 1.5)
    cdp = b.page.context.new_cdp_session(b.page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 500})
    cdp.send("Profiler.start")
    sample = b.measure("click a paper", lambda: b.page.mouse.click(*xy))
    profile = cdp.send("Profiler.stop")["profile"]
    cdp.detach()
    f2 = quiet_frames(b, 1.5)
    pinned = b.page.evaluate("() => { const c = window.__mireadMaps.map.map.wrap.querySelector('.miread-pinned');"
                             " return c && c.style.display !== 'none' ? c.dataset.row : null; }")
    found = {"row": row, "hover_frames": f1 - f0, "click_frames": f2 - f1, "pinned": pinned, **sample.__dict__,
             "profile": summarise(profile, top)}
    close = b.page.locator(".st-key-map_panel_close button").first
    if close.count():
        close.click()
        b.idle()
    return found


def one_highlight(b: Bench, word: str, top: int) -> dict[str, Any]:
    """Highlight `word` (profiled, its frames counted), then clear the highlight (not measured)."""
    b.page.wait_for_function(READY, timeout=900_000)
    b.idle()
    f0 = quiet_frames(b)
    cdp = b.page.context.new_cdp_session(b.page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 500})
    cdp.send("Profiler.start")
    sample = b.measure("highlight a word", lambda: b.type_and_commit("Highlight papers matching", word))
    profile = cdp.send("Profiler.stop")["profile"]
    cdp.detach()
    f1 = quiet_frames(b, 1.5)
    b.type_and_commit("Highlight papers matching", "")
    b.idle()
    quiet_frames(b, 1.5)
    return {"word": word, "frames": f1 - f0, **sample.__dict__, "profile": summarise(profile, top)}


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--before", default="", help="a checkout of the revision before")
    parser.add_argument("--clicks", type=int, default=3)
    parser.add_argument("--highlights", type=int, default=0, help="then highlight a word this many times")
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    root = synthetic_map_workspace(args.papers)
    env = dict(SERVER_ENV)
    roots = before_and_after(args.before)
    results: dict[str, Any] = {"machine": machine(), "papers": args.papers, "command": " ".join(sys.argv)}
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        benches: dict[str, Bench] = {}
        for label, app_root in roots.items():
            b = bench_tab(stack, browser, app_root, root, env, "synthetic", 1.0)
            print(f"[{label}]", flush=True)
            opened(b, "open the map")
            b.idle()
            benches[label] = b
        for k in range(args.clicks):
            order = list(benches.items()) if k % 2 else list(benches.items())[::-1]
            for label, b in order:
                found = one_click(b, 11 + 13 * k, args.top)
                results.setdefault(label, []).append(found)
                prof = found.get("profile", {})
                print(f"  [{label}] click {k + 1}: hover frames {found.get('hover_frames')}, click frames "
                      f"{found.get('click_frames')}, settled {found.get('total_s')} s, script {found.get('script_s')}"
                      f" s, answer {found.get('answer_s')} s, main thread busy {prof.get('busy_ms')} ms; top "
                      f"{prof.get('self', [])[:6]}", flush=True)
        for k in range(args.highlights):
            order = list(benches.items()) if k % 2 else list(benches.items())[::-1]
            for label, b in order:
                found = one_highlight(b, ["galaxy", "protein", "market"][k % 3], args.top)
                results.setdefault(f"{label}_highlight", []).append(found)
                prof = found["profile"]
                print(f"  [{label}] highlight {found['word']}: frames {found['frames']}, settled {found['total_s']} s,"
                      f" script {found['script_s']} s, map {found['map_s']} s, main thread busy {prof['busy_ms']} ms;"
                      f" top {prof['self'][:6]}", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    sys.exit(main())
