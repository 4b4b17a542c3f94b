"""Benchmark 30f (issue 42 §4): a 10,000,000-paper map opens as a density overview — the server's work (density
grid, a window's rows, the window's points table) and, in GPU-less Chromium (SwiftShader), the time to first draw and
the JS heap, against drawing 1,000,000 points the old way in the same run (the baseline).

No corpus and no server: synthetic clustered positions (12 clusters); the standalone HTML export page (same bundle)
is opened from a file and the component is handed what show_map would send (as bench_map_fps.py does for 30e).

    cd benchmarks && ../.venv/bin/python bench_map_density.py --papers 10000000 --baseline 1000000 --runs 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from bench_map_fps import LOAD, export_page, in_page
from common import ROOT, machine

sys.path.insert(0, str(ROOT))

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

OVERVIEW = """async ([x, y, rows, grid, total, inside]) => {
    const n = x.length;
    document.body.replaceChildren();
    const root = document.createElement('div'); root.style.cssText = 'position:fixed;inset:0;background:#fff';
    document.body.appendChild(root);
    const codes = new Uint8Array(total);  // a code per corpus paper, as push_state sends them
    for (let i = 0; i < total; i++) codes[i] = i % 12;
    const palette = ['#1f77b4','#ff7f0e','#2ca02c','#d62728','#9467bd','#8c564b','#e377c2','#7f7f7f','#bcbd22',
                     '#17becf','#393b79','#637939'];
    const started = performance.now();
    window.__mireadModule.default({data: {points: {x: Float32Array.from(x), y: Float32Array.from(y),
            row: Int32Array.from(rows), title: Array.from({length: n}, (_, i) => 'Paper ' + rows[i])},
        density: Uint8Array.from(grid), meta: {key: 'dense@whole', base: 'dense', n, total, hub: 'bench',
            overview: {size: 512, inside}}, state: {state: {palette, legend: [], flight: 0}, codes}},
        parentElement: root, setStateValue() {}, setTriggerValue() {}});
    const m = () => window.__mireadMaps.bench.map;
    while (!(m() && m().wrap.dataset.ready === '1' && m().wrap.dataset.applied)) await new Promise(r => setTimeout(r, 20));
    return performance.now() - started; }"""


def positions(n: int, seed: int = 7) -> np.ndarray:
    """n synthetic map positions in 12 clusters (map coordinates, not unit space)."""
    rng = np.random.default_rng(seed)
    c = np.arange(n) % 12
    a = c / 12 * 2 * np.pi
    xy = np.stack([np.cos(a), np.sin(a)], axis=1) * 6 + rng.normal(size=(n, 2)).astype(np.float32)
    return xy.astype(np.float32)


def server(coords: np.ndarray) -> tuple[dict, dict]:
    """What show_map does for an overview, timed: the grid (unit frame, positions, bincount), the rows of the whole
    map and of a zoomed window, the window's points table."""
    from core.explore.maps.density import density_grid, window_rows
    from core.plots.map_data import unit_frame
    from ui.map.component import points_table

    times: dict[str, float] = {}
    t = time.perf_counter()
    unit = unit_frame(coords)
    xy = unit.to_unit(coords)
    grid = density_grid(xy)
    times["grid_s"] = time.perf_counter() - t
    t = time.perf_counter()
    whole = window_rows(xy, None)
    times["whole_rows_s"] = time.perf_counter() - t
    t = time.perf_counter()
    zoomed = window_rows(xy, (0.2, 0.6, -0.2, 0.2))
    times["zoom_rows_s"] = time.perf_counter() - t
    frame = pd.DataFrame({"title": [f"Paper {r}" for r in whole.rows], "year": 2000 + whole.rows % 20})
    t = time.perf_counter()
    points_table(coords[whole.rows], frame, unit)
    times["table_s"] = time.perf_counter() - t
    times["zoom_inside"], times["zoom_drawn"] = zoomed.inside, len(zoomed.rows)
    sent = {"x": xy[whole.rows, 0].round(5).tolist(), "y": xy[whole.rows, 1].round(5).tolist(),
            "rows": whole.rows.tolist(), "grid": grid.ravel().tolist(), "total": len(coords), "inside": whole.inside}
    return times, sent


def measure(browser, page_file: Path, script: str, arg: object) -> dict:
    return in_page(browser, page_file, lambda page: {"draw_s": page.evaluate(script, arg) / 1000})


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=10_000_000)
    parser.add_argument("--baseline", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    coords = positions(args.papers)
    times, sent = server(coords)
    del coords
    print("server", json.dumps(times), flush=True)
    arg = [sent["x"], sent["y"], sent["rows"], sent["grid"], sent["total"], sent["inside"]]
    results: dict[str, list[dict]] = {"overview": [], "baseline": []}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        page_file = export_page(Path(tmp))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(args.runs):
            for name in (("overview", "baseline") if run % 2 == 0 else ("baseline", "overview")):
                script, value = (OVERVIEW, arg) if name == "overview" else (LOAD, args.baseline)
                results[name].append(measure(browser, page_file, script, value))
                print(name, json.dumps(results[name][-1]), flush=True)
        browser.close()
    print(json.dumps({"machine": machine(), "server": times, "results": results}))
    med = {name: {k: statistics.median(r[k] for r in rows) for k in rows[0]} for name, rows in results.items()}
    print("\n| map | first draw s | JS heap MB |\n|---|---|---|")
    print(f"| {args.papers:,} papers, overview ({len(sent['rows']):,} drawn) | {med['overview']['draw_s']:.2f} | "
          f"{med['overview']['heap_mb']:.0f} |")
    print(f"| {args.baseline:,} points, every paper (baseline) | {med['baseline']['draw_s']:.2f} | "
          f"{med['baseline']['heap_mb']:.0f} |")
    print(f"ratio overview / baseline: draw {med['overview']['draw_s'] / med['baseline']['draw_s']:.2f}, heap "
          f"{med['overview']['heap_mb'] / med['baseline']['heap_mb']:.2f}")


if __name__ == "__main__":
    main()
