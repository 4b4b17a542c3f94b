"""Benchmark 30e (issue 42): the map component in GPU-less Chromium (SwiftShader) at 50,000 and 1,000,000 points —
time to draw, frames per second while panning, a recolour, a lasso drawn for 3 s (frames per second the page keeps,
map draws while it is drawn, time from letting go to the papers drawn selected; §31e), and the JavaScript heap.

No server: the standalone HTML export (same bundle) is opened from a file and N synthetic clustered points with
titles are handed to the component, as tests/e2e/test_map_scale.py does. Panning moves the camera's target one step on
every animation frame for 4 s (a drag by script: Playwright's mouse moves are slower than the map); frames are counted
with requestAnimationFrame and the map's own "draw" events. The heap is
Chromium's `Performance.getMetrics` JSHeapUsedSize over CDP after a forced garbage collection. Baseline: the same
measurements at 50,000 points in the same run (the goal table in issue 42 names 50k and 1M).

    .venv/bin/python benchmarks/bench_map_fps.py --points 50000,1000000 --runs 3
    .venv/bin/python benchmarks/bench_map_fps.py --steps lasso --baseline-bundle /tmp/old_map_component.js

With --baseline-bundle, a second page inlines that bundle (an older build of ui/map/static/map_component.js) and the
two are measured in turn, interleaved, in the same run. With --rasters gl,cpu this bundle is measured with its points
drawn by WebGL and on the CPU (frontend/map/src/raster.js, `?raster=`), in turn (BENCHMARKS §31w).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from common import ROOT, machine

sys.path.insert(0, str(ROOT))

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

MAP = "window.__mireadMaps.export.map"
LOAD = """async (n) => {
    const x = new Float32Array(n), y = new Float32Array(n), codes = new Uint8Array(n);
    let seed = 7; const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < n; i++) { const c = i % 12, a = c / 12 * 2 * Math.PI;
        x[i] = 0.6 * Math.cos(a) + (rand() - 0.5) * 0.3; y[i] = 0.6 * Math.sin(a) + (rand() - 0.5) * 0.3; codes[i] = c; }
    document.body.replaceChildren();
    const root = document.createElement('div'); root.style.cssText = 'position:fixed;inset:0;background:#fff';
    document.body.appendChild(root);
    const palette = ['#1f77b4','#ff7f0e','#2ca02c','#d62728','#9467bd','#8c564b','#e377c2','#7f7f7f','#bcbd22',
                     '#17becf','#393b79','#637939'];
    window.__palette = palette;
    const started = performance.now();
    window.__mireadModule.default({data: {points: {x, y, title: Array.from({length: n}, (_, i) => 'Paper ' + i)},
        meta: {key: 'bench' + n, n, hub: 'bench'}, state: {state: {palette, legend: [], flight: 0}, codes}},
        parentElement: root, setStateValue() {}, setTriggerValue() {}});
    const m = () => window.__mireadMaps.bench.map;
    while (!(m() && m().wrap.dataset.ready === '1' && m().wrap.dataset.applied)) await new Promise(r => setTimeout(r, 20));
    return performance.now() - started; }"""
PAN = """async (seconds) => { const m = window.__mireadMaps.bench.map; let draws = 0, frames = 0;
    m.plot.subscribe('draw', () => { draws += 1; });
    const t0 = performance.now();
    await new Promise((done) => { const tick = (now) => { const t = (now - t0) / 1000;
        if (t > seconds) { done(); return; } frames += 1;
        m.plot.set({cameraTarget: [0.3 * Math.sin(t * 2), 0.2 * Math.cos(t * 2)]});  // a pan, one step a frame
        requestAnimationFrame(tick); }; requestAnimationFrame(tick); });
    const s = (performance.now() - t0) / 1000;
    return {seconds: s, frames, draws}; }"""
RECOLOUR = """async () => { const m = window.__mireadMaps.bench.map, n = m.n, codes = new Uint8Array(n);
    for (let i = 0; i < n; i++) codes[i] = (i * 7) % 12;
    const started = performance.now();
    await m.apply({state: {palette: window.__palette, legend: [], flight: 0}, codes: Array.from(codes)});
    return performance.now() - started; }"""
LASSO = """async (seconds) => { const m = window.__mireadMaps.bench.map; let draws = 0, frames = 0;
    m.setMode('lasso');
    m.plot.subscribe('draw', () => { draws += 1; });
    const r = m.canvas.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const rad = 0.35 * Math.min(r.width, r.height);
    const fire = (type, x, y) => m.canvas.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, bubbles: true,
        cancelable: true, composed: true, button: 0, buttons: type === 'mouseup' ? 0 : 1, view: window}));
    await new Promise((r) => setTimeout(r, 300));
    fire('mousemove', cx + rad, cy);
    await new Promise((r) => setTimeout(r, 300));
    draws = 0;
    fire('mousedown', cx + rad, cy);
    const t0 = performance.now();
    await new Promise((done) => { const tick = (now) => { const t = (now - t0) / 1000;
        if (t > seconds) { done(); return; } frames += 1;
        const a = 2 * Math.PI * t / seconds;  // a circle, one mouse move a frame
        fire('mousemove', cx + rad * Math.cos(a), cy + rad * Math.sin(a));
        requestAnimationFrame(tick); }; requestAnimationFrame(tick); });
    const s = (performance.now() - t0) / 1000, during = draws, picked = Number(m.wrap.dataset.picked || 0);
    const t1 = performance.now();
    fire('mouseup', cx + rad, cy - 1);
    let deselected = false;
    m.plot.subscribe('deselect', () => { deselected = true; });
    await new Promise((done) => { const check = () => {  // selected (or nothing inside: deselected) and drawn
        if ((Number(m.wrap.dataset.picked || 0) > picked || deselected) && draws > during) done();
        else if (performance.now() - t1 > 120000) done(); else setTimeout(check, 2); };
        check(); });
    const selectMs = performance.now() - t1, selected = m.selection.length;
    m.setMode('panZoom');
    // the same polygon selected through regl-scatterplot's lassoSelect in both bundles (the mouse's paths differ:
    // the baseline's lasso keeps fewer points of the circle): what selecting and drawing the selection costs
    m.plot.deselect(); await new Promise((r) => setTimeout(r, 500));
    const circle = []; for (let k = 0; k < 64; k++) circle.push([0.5 * Math.cos(k * Math.PI / 32), 0.5 * Math.sin(k * Math.PI / 32)]);
    const before = draws, t2 = performance.now();
    m.lassoing = true; m.plot.lassoSelect(circle, {isGl: true});
    while (draws === before && performance.now() - t2 < 120000) await new Promise((r) => setTimeout(r, 2));
    return {seconds: s, frames, draws: during, selected, selectMs, sameMs: performance.now() - t2}; }"""


def export_page(folder: Path, bundle: Path | None = None, name: str = "map.html") -> Path:
    """The standalone export page of 10 placeholder points (the bench hands the component its own), with the current
    bundle or `bundle` inlined."""
    from core.plots.map_data import colour_codes
    from ui.map import component
    from ui.map.component import standalone_html

    if bundle is not None:
        component.BUNDLE, current = bundle, component.BUNDLE
        try:
            return export_page(folder, None, name)
        finally:
            component.BUNDLE = current

    frame = pd.DataFrame({"id": [f"p{i}" for i in range(10)], "title": [f"Paper {i}" for i in range(10)]})
    colours = colour_codes(None, 10)
    state = {"name": "bench", "palette": colours.palette, "legend": [], "years": None, "grow": False, "labels": [],
             "stars": [], "lines": []}
    path = folder / name
    path.write_text(standalone_html("bench", np.random.default_rng(3).normal(size=(10, 2)), frame, state, colours.codes, None), encoding="utf-8")
    return path


def in_page(browser, page_file: Path, steps: Callable[[Any], dict], raster: str = "") -> dict:
    """Open the exported page (with `?raster=` cpu or gl: the points drawn on the CPU or with WebGL, else as the map
    chooses), wait for its map, run `steps(page)`; its result and the JS heap after a GC, in MB."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(page_file.as_uri() + (f"?raster={raster}" if raster else ""))
    page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'", timeout=60_000)
    found = steps(page)
    cdp.send("HeapProfiler.enable")
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    context.close()
    return {**found, "heap_mb": metrics.get("JSHeapUsedSize", 0) / 2**20}


def measure(browser, page_file: Path, n: int, wanted: set[str], raster: str = "") -> dict:
    def steps(page: Any) -> dict:
        found: dict = {"draw_s": page.evaluate(LOAD, n) / 1000}
        if "pan" in wanted:
            pan = page.evaluate(PAN, 4)
            found.update(pan_fps=pan["frames"] / pan["seconds"], pan_draws_per_s=pan["draws"] / pan["seconds"],
                         pan_s=pan["seconds"])
        if "recolour" in wanted:
            found["recolour_s"] = page.evaluate(RECOLOUR) / 1000
        if "lasso" in wanted:
            lasso = page.evaluate(LASSO, 3)
            found.update(lasso_fps=lasso["frames"] / lasso["seconds"], lasso_draws=lasso["draws"],
                         lasso_selected=lasso["selected"], lasso_select_s=lasso["selectMs"] / 1000,
                         same_select_s=lasso["sameMs"] / 1000)
        found["raster"] = page.evaluate("() => window.__mireadMaps.bench.map.wrap.dataset.raster || ''")
        return found

    return in_page(browser, page_file, steps, raster)


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--points", default="50000,1000000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", default="pan,recolour,lasso", help="which of pan, recolour, lasso to measure")
    parser.add_argument("--baseline-bundle", type=Path, default=None, help="an older bundle, measured in turn")
    parser.add_argument("--rasters", default="", help="e.g. gl,cpu: this bundle measured in each mode, in turn")
    args = parser.parse_args()
    sizes = [int(v) for v in args.points.split(",")]
    wanted = set(args.steps.split(","))
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        this = export_page(Path(tmp))
        pages = {f"this:{mode}": (this, mode) for mode in args.rasters.split(",") if mode} or {"this": (this, "")}
        if args.baseline_bundle:
            pages = {"baseline": (export_page(Path(tmp), args.baseline_bundle, "baseline.html"), ""), **pages}
        results: dict[str, dict[int, list[dict]]] = {label: {n: [] for n in sizes} for label in pages}
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(args.runs):
            for n in (sizes if run % 2 == 0 else sizes[::-1]):
                for label in (list(pages) if run % 2 == 0 else list(pages)[::-1]):
                    results[label][n].append(measure(browser, pages[label][0], n, wanted, pages[label][1]))
                    print(label, n, json.dumps(results[label][n][-1]), flush=True)
        browser.close()
    print(json.dumps({"machine": machine(), "results": results}))
    columns = [("draw_s", "draw s", 2), ("pan_fps", "pan: frames/s (rAF)", 1), ("pan_draws_per_s", "pan: map draws/s", 1),
               ("recolour_s", "recolour s", 2), ("lasso_fps", "lasso: frames/s (rAF)", 1),
               ("lasso_draws", "lasso: map draws while drawn", 0), ("lasso_select_s", "lasso: let go → drawn s", 2),
               ("lasso_selected", "lasso: selected", 0), ("same_select_s", "one polygon selected → drawn s", 2),
               ("heap_mb", "JS heap MB", 0)]
    for label, by_size in results.items():
        first = next(iter(by_size.values()))[0]
        shown = [c for c in columns if c[0] in first]
        print(f"\n{label}\n| points | " + " | ".join(c[1] for c in shown) + " |")
        print("|---|" + "---|" * len(shown))
        for n, rows in by_size.items():
            med = {k: statistics.median(r[k] for r in rows) for k, _, _ in shown}
            print(f"| {n:,} | " + " | ".join(f"{med[k]:,.{d}f}" for k, _, d in shown) + " |")


if __name__ == "__main__":
    main()
