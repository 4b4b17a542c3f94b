"""Where the browser's time goes between a map action's input and the settled page (issue 42, BENCHMARKS §31ab).

The actions of bench_map_component.py (colour journal ↔ none, highlight a word, one year step, click a paper, lasso
a region, switch back to the map, colour by fine topics), each timed with its harness (input → the page's last DOM
change) and, around it, on the tab's main thread: Chromium's own counters (CDP `Performance.getMetrics`: task,
script, style recalc and layout time and counts, DOM nodes), a sampling CPU profile (CDP `Profiler`) grouped by
script (Streamlit's bundle chunks, the map's bundle, native work) and by function, and which Streamlit elements the
DOM changed under (a MutationObserver: the closest `data-testid` of each change, counted).

    nice -n 10 .venv/bin/python benchmarks/probe_map_settle.py --papers 3000 --rounds 2 \
        --out benchmarks/results/probe_map_settle_31ab_3k.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import SERVER_ENV, Bench, before_and_after, bench_tab, synthetic_map_workspace
from bench_map_component import READY, lasso, opened, pan_mode, point
from common import machine

WATCH = """() => { const w = window.__settleWatch = {counts: {}};
    const name = n => { let e = n && n.nodeType === 1 ? n : n && n.parentElement;
        while (e && !(e.dataset && e.dataset.testid)) e = e.parentElement;
        return e ? e.dataset.testid : '(none)'; };
    w.obs = new MutationObserver(rs => { for (const r of rs) { const k = name(r.target) + ':' + r.type;
        w.counts[k] = (w.counts[k] || 0) + 1; } });
    w.obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); }"""
UNWATCH = "() => { const w = window.__settleWatch; w.obs.disconnect(); return w.counts; }"
METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "RecalcStyleCount",
           "LayoutCount", "Nodes", "JSHeapUsedSize")


def metrics(cdp: Any) -> dict[str, float]:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: got.get(k, 0.0) for k in METRICS}


def by_script(profile: dict, top: int, window: tuple[float, float] | None = None) -> dict[str, Any]:
    """Self time (ms) per script file and per function (file:function:line) of a CDP CPU profile; with `window`
    ((from, to) in the profile's clock, µs), only the samples inside it (input → settle)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    files: dict[str, float] = defaultdict(float)
    funcs: dict[str, float] = defaultdict(float)
    at = profile["startTime"]
    for sample, delta in zip(profile.get("samples", [])[1:], profile.get("timeDeltas", [])[1:], strict=False):
        at += delta
        if window is not None and not window[0] <= at <= window[1]:
            continue
        frame = nodes[sample]["callFrame"]
        url = frame.get("url", "").rsplit("/", 1)[-1].split("?")[0] or "(native)"
        name = frame["functionName"] or "(anonymous)"
        if name == "(idle)":
            continue
        files[url] += delta / 1000
        funcs[f"{url}:{name}:{frame['lineNumber'] + 1}"] += delta / 1000
    rank = lambda d: [[k, round(v, 1)] for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]]  # noqa: E731
    return {"files": rank(files), "functions": rank(funcs)}


def profiled(b: Bench, name: str, act: Callable[[], None], top: int) -> dict[str, Any]:
    """Measure `act` with the counters, the CPU profile and the DOM changes around it."""
    b.idle()
    cdp = b.page.context.new_cdp_session(b.page)
    cdp.send("Performance.enable")
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    b.page.evaluate(WATCH)
    m0 = metrics(cdp)
    cdp.send("Profiler.start")
    now0 = b.page.evaluate("() => performance.now()")  # the profile's clock (µs) ≈ performance.now() + offset
    sample = b.measure(name, act)
    profile = cdp.send("Profiler.stop")["profile"]
    start = b.page.evaluate("() => window.__t.input") * 1000 + profile["startTime"] - now0 * 1000
    window = (start, start + sample.total_s * 1e6)
    m1 = metrics(cdp)
    changed = Counter(b.page.evaluate(UNWATCH))
    cdp.detach()
    d = {k: round(m1[k] - m0[k], 3) for k in METRICS}
    found = {"action": name, **sample.__dict__, "metrics": d, "profile": by_script(profile, top, window),
             "whole_profile": by_script(profile, top),
             "dom_changes": changed.most_common(top)}
    busy = sum(v for k, v in found["profile"]["files"])
    print(f"    input→settle busy {busy:.0f} ms of {sample.total_s * 1000:.0f}; whole window: task {d['TaskDuration']:.3f} s script {d['ScriptDuration']:.3f} s style {d['RecalcStyleDuration']:.3f}"
          f" s ({d['RecalcStyleCount']:.0f}) layout {d['LayoutDuration']:.3f} s ({d['LayoutCount']:.0f}) nodes "
          f"{d['Nodes']:+.0f}\n    files {found['profile']['files'][:6]}\n    funcs {found['profile']['functions'][:8]}"
          f"\n    dom {found['dom_changes'][:8]}", flush=True)
    return found


def round_of(b: Bench, k: int, top: int) -> list[dict[str, Any]]:
    """bench_map_component's actions, each profiled."""
    out = []
    b.page.goto(b.link())
    b.idle()
    b.page.wait_for_function(READY, timeout=900_000)

    def pick(option: str) -> Callable[[], None]:
        def act() -> None:
            b.pick(option)
        return act

    b.open_options("Colour by")
    out.append(profiled(b, "colour: journal → none", pick("(none)"), top))
    b.open_options("Colour by")
    out.append(profiled(b, "colour: none → journal", pick("journal"), top))
    word = ["galaxy", "protein", "market"][k % 3]
    out.append(profiled(b, "highlight a word", lambda: b.type_and_commit("Highlight papers matching", word), top))
    b.type_and_commit("Highlight papers matching", "")
    b.idle()
    high = b.page.locator("[data-testid=stSlider] input[aria-label='Years — end']").first
    high.focus()
    out.append(profiled(b, "year window (one step)", lambda: high.press("ArrowLeft"), top))
    pan_mode(b)
    xy = point(b, 11 + 13 * k)
    if xy:
        b.page.mouse.move(*xy, steps=2)
        out.append(profiled(b, "click a paper (side panel)", lambda: b.page.mouse.click(*xy), top))
        close = b.page.locator(".st-key-map_panel_close button").first
        if close.count():
            close.click()
            b.idle()
    out.append(profiled(b, "lasso a region (list)", lambda: lasso(b, 0.1 + 0.05 * (k % 3), 0.1, 0.6, 0.7), top))
    pan_mode(b)
    b.go("Similar papers")
    b.idle()
    out.append(profiled(b, "switch back to the map", lambda: b.go("Domain map"), top))
    b.page.goto(b.link(colour="topics", level="fine"))
    b.idle()
    b.page.wait_for_function(READY, timeout=600_000)
    b.idle()
    b.open_options("Colour by")
    b.pick("journal")
    b.idle()
    b.open_options("Colour by")
    out.append(profiled(b, "colour: journal → fine topics", pick("topics"), top))
    return out


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=3000)
    parser.add_argument("--before", default="", help="a checkout of the revision before")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    root = synthetic_map_workspace(args.papers)
    results: dict[str, Any] = {"machine": machine(), "papers": args.papers, "command": " ".join(sys.argv)}
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        benches = {}
        for label, app_root in before_and_after(args.before).items():
            b = benches[label] = bench_tab(stack, browser, app_root, root, dict(SERVER_ENV), "synthetic", 0.3)
            opened(b)
        for k in range(args.rounds):
            order = list(benches.items()) if k % 2 else list(benches.items())[::-1]
            for label, b in order:
                print(f"-- round {k + 1} [{label}]", flush=True)
                results.setdefault(label, []).extend(round_of(b, k, args.top))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    sys.exit(main())
