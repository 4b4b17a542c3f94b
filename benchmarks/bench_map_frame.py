"""Benchmark 30h (issue 42): what one frame of the map component costs in GPU-less Chromium (SwiftShader), on the
Domain map page as users get it — the floor under any action that changes the map.

Serves a workspace of bench_map_component.py (`benchmarks/out/interactions/ws-map-<papers>`, made by its first run),
opens the map, then in the page: one animation frame with nothing to draw, the component's own redraw (points and
weights uploaded again, spatial index reused), and `set({opacity})` alone (no upload) up to regl-scatterplot's next
`draw` event; three rounds each. Then the hover card (issue 42: within 50 ms): the mouse moved onto a paper's point,
from the browser's mousemove event to the card shown (an observer on the card), on 9 papers.

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

AIM = """row => { const m = window.__mireadMaps.map.map; m.wrap.scrollIntoView({block: 'center'});
    m.card.style.display = 'none'; const h = window.__hover = {moved: -1, shown: -1, painted: -1};
    document.addEventListener('mousemove', () => { h.moved = performance.now(); }, {capture: true, once: true});
    new MutationObserver((_, obs) => { if (m.card.style.display === 'block') { h.shown = performance.now();
        requestAnimationFrame(() => { h.painted = performance.now(); }); obs.disconnect(); } })
        .observe(m.card, {attributes: true, childList: true});
    return m.pageXY(row); }"""


def hover_ms(page: object, rows: list[int]) -> tuple[list[float], list[float]]:
    """Mouse onto each row's point (from 40 px away): milliseconds from the mousemove event to the hover card set
    in the page, and to the end of the animation frame that paints it (the map's own redraw of the hovered point runs
    in that frame's callbacks, before ours)."""
    got, painted = [], []
    for row in rows:
        x, y = page.evaluate("row => window.__mireadMaps.map.map.pageXY(row)", row)
        page.mouse.move(x + 40, y + 40)
        page.wait_for_timeout(300)
        x, y = page.evaluate(AIM, row)
        page.mouse.move(x, y)
        page.wait_for_function("() => window.__hover.painted > 0", timeout=10_000)
        h = page.evaluate("() => window.__hover")
        got.append(h["shown"] - h["moved"])
        painted.append(h["painted"] - h["moved"])
    return got, painted


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
        hovers, painted = hover_ms(page, [int(papers * k / 10) for k in range(1, 10)])
        browser.close()
    keys = ("empty_frame", "redraw", "set_opacity")
    return {"papers": papers, "canvas": runs[0]["canvas"],
            **{k: {"p50_ms": round(median([r[k] for r in runs]), 1), "runs_ms": [round(r[k], 1) for r in runs]}
               for k in keys},
            "hover_card": {"p50_ms": round(median(hovers), 1), "runs_ms": [round(v, 1) for v in hovers]},
            "hover_painted": {"p50_ms": round(median(painted), 1), "runs_ms": [round(v, 1) for v in painted]}}


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
            f"{k} {r[k]['p50_ms']:.0f} ms {r[k]['runs_ms']}" for k in ("empty_frame", "redraw", "set_opacity", "hover_card", "hover_painted")))


if __name__ == "__main__":
    main()
