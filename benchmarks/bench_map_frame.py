"""Benchmark 30h (issue 42): what one frame of the map component costs in GPU-less Chromium (SwiftShader), on the
Domain map page as users get it — the floor under any action that changes the map.

Serves a workspace of bench_map_component.py (`benchmarks/out/interactions/ws-map-<papers>`, made by its first run),
opens the map, then in the page: one animation frame with nothing to draw, the component's own redraw (points and
weights uploaded again, spatial index reused), and `set({opacity})` alone (no upload) up to regl-scatterplot's next
`draw` event; three rounds each.

    .venv/bin/python benchmarks/bench_map_frame.py --papers 3000,50000
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench_interactions import MODEL, OUT, serve
from common import ROOT, machine, median

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, wait_idle

READY = """() => window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map
    && window.__mireadMaps.map.map.wrap.dataset.ready === '1'"""
ROUND = """async () => {
    const m = window.__mireadMaps.map.map, out = {};
    const frame = () => new Promise(r => requestAnimationFrame(() => r()));
    const drawn = () => new Promise(r => m.plot.subscribe('draw', () => r(), 1));
    let t = performance.now(); await frame(); out.empty_frame = performance.now() - t;
    t = performance.now(); await m.redraw(); out.redraw = performance.now() - t;
    t = performance.now(); const p = drawn(); m.plot.set({opacity: [0.1, 0.9]}); await p;
    out.set_opacity = performance.now() - t;
    const q = drawn(); m.plot.set({opacity: m.n > 20000 ? 0.7 : 0.85}); await q;
    out.canvas = [m.canvas.width, m.canvas.height];
    return out; }"""


def measure(papers: int, rounds: int) -> dict:
    from playwright.sync_api import sync_playwright

    root = OUT / f"ws-map-{papers}"
    env = {"MIREAD_WARM_NUMBA": "0", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": MODEL}
    with serve(ROOT, root, env) as (url, _log), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.goto(url + "/?corpus=synthetic&model=minilm&method=pca")
        page.wait_for_function(READY, timeout=600_000)
        wait_idle(page, timeout=600_000)
        runs = [page.evaluate(ROUND) for _ in range(rounds)]
        browser.close()
    keys = ("empty_frame", "redraw", "set_opacity")
    return {"papers": papers, "canvas": runs[0]["canvas"],
            **{k: {"p50_ms": round(median([r[k] for r in runs]), 1), "runs_ms": [round(r[k], 1) for r in runs]}
               for k in keys}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", default="3000,50000")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results = [measure(int(p), args.rounds) for p in args.papers.split(",")]
    out = {"machine": machine(), "results": results}
    Path(OUT / "map-frame.json").write_text(json.dumps(out, indent=2), encoding="utf-8")
    for r in results:
        print(f"{r['papers']:>9,} papers  canvas {r['canvas']}  " + "  ".join(
            f"{k} {r[k]['p50_ms']:.0f} ms {r[k]['runs_ms']}" for k in ("empty_frame", "redraw", "set_opacity")))


if __name__ == "__main__":
    main()
