"""Benchmark 5: a map of up to 200k points rendered in headless Chromium (WebGL through SwiftShader, no GPU).

For each size, core.plots.maps.map_figure (12 label traces, hover cards on or off) is exported with export_html and
opened in Chromium; we time the figure build, the HTML size, the load until Plotly.newPlot's promise resolves,
and a zoom (Plotly.relayout) once drawn, as a measure of staying usable. Baseline: the bare minimum plotly
figure of the same points (one Scattergl trace of x, y; no colours, no hover text), in the same run.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from common import arxiv, median, report, row

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
CALL = "Plotly.newPlot("


def map_points(n: int, seed: int = 0) -> tuple[np.ndarray, list[str], object]:
    """2-D blobs like a UMAP map, a label per point (40 journals) and a hover frame of real titles."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    centres = rng.uniform(-15, 15, (40, 2))
    labels = rng.integers(0, 40, n)
    coords = (centres[labels] + rng.standard_normal((n, 2)) * rng.uniform(0.3, 1.5, 40)[labels, None]).astype(np.float32)
    titles = [r["title"] for r in arxiv(5000)]
    hover = pd.DataFrame({"title": [titles[i % len(titles)] for i in range(n)],
                          "journal": [f"Journal of topic {k}" for k in labels], "year": 1990 + labels % 30})
    return coords, [f"Journal of topic {k}" for k in labels], hover


def render(page, html_path: Path) -> dict[str, float]:
    """Milliseconds from navigation to the plot drawn, and for one zoom afterwards."""
    page.goto(html_path.as_uri(), timeout=600_000, wait_until="load")
    drawn = page.evaluate("async () => { await window.__plotted; return performance.now(); }")
    zoom = page.evaluate(
        "async () => { const gd = document.querySelector('.js-plotly-plot'); const t = performance.now();"
        " await Plotly.relayout(gd, {'xaxis.range': [-5, 5], 'yaxis.range': [-5, 5]});"
        " await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));"
        " return performance.now() - t; }")
    return {"drawn_ms": drawn, "zoom_ms": zoom}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,50000,100000,200000")
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()

    import plotly.graph_objects as go
    from playwright.sync_api import sync_playwright

    from core.plots import export_html, map_figure

    rows: list[dict] = []
    extra: dict = {}
    with tempfile.TemporaryDirectory(prefix="miread-browser-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for n in [int(s) for s in args.sizes.split(",") if s]:
            coords, labels, hover = map_points(n)
            files, builds = {}, {}
            variants = {
                "hover on": lambda: map_figure(coords, color=labels, color_name="journal", hover=hover),
                "hover off": lambda: map_figure(coords, color=labels, color_name="journal"),
                "bare": lambda: go.Figure(go.Scattergl(x=coords[:, 0], y=coords[:, 1], mode="markers")),
            }
            for name, build in variants.items():
                start = time.perf_counter()
                html = export_html(build())
                builds[name] = time.perf_counter() - start
                at = html.rfind(CALL)
                if at < 0:
                    raise SystemExit("plotly's HTML no longer calls Plotly.newPlot; update the hook")
                files[name] = Path(tmp) / f"map-{n}-{name.replace(' ', '-')}.html"
                files[name].write_text(html[:at] + "window.__plotted = " + html[at:], encoding="utf-8")
            times: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
            for rep in range(args.reps):
                for name in list(variants) if rep % 2 == 0 else list(variants)[::-1]:
                    page = browser.new_page()
                    times[name].append(render(page, files[name]))
                    page.close()
            bare = median([t["drawn_ms"] for t in times["bare"]])
            for name in ("hover on", "hover off"):
                drawn = median([t["drawn_ms"] for t in times[name]])
                zoom = median([t["zoom_ms"] for t in times[name]])
                size = files[name].stat().st_size / 2**20
                rows.append(row(f"{n:,} points, {name}: load to drawn", drawn / 1000, bare / 1000, "s",
                                f"HTML {size:.1f} MiB (bare {files['bare'].stat().st_size / 2**20:.1f}); "
                                f"figure build + export {builds[name]:.1f}s; zoom redraw {zoom:.0f} ms"))
                print(rows[-1], flush=True)
            extra[str(n)] = {"times": times, "build_s": builds,
                             "html_mib": {k: f.stat().st_size / 2**20 for k, f in files.items()}}
        browser.close()
    report("browser", rows, extra)


if __name__ == "__main__":
    main()
