"""Benchmark 14: the map's time slider, frame time in headless Chromium (WebGL through SwiftShader, no GPU).

Synthetic maps of 50k and 200k papers (40 label blobs, years 1990-2019, hover cards with title, journal and year) are
written as standalone HTML pages. Per frame (one step of a 3-year moving window), in the browser, from the call
until two animation frames later (the canvas painted):

- ``picture`` (the product, core.plots.timeline.add_year_animation): Plotly.animate to the next frame, which only
  switches which per-year overlay traces are visible over the faded map drawn once as a picture under the plot
  (core.plots.picture), so a frame recomputes and draws only the papers in front;
- ``visibility`` (the product before, ``picture=False``): the same frames over the faded map as WebGL traces, which
  Plotly recomputes and redraws on every frame;
- ``overlay``: Plotly.animate to a frame that restyles one overlay trace with the window's points (x, y, colours),
  over the same static faded map;
- ``restyle`` (for reference): Plotly.restyle of the same overlay traces' visibility on the product's page, what a
  slider step with method "restyle" would cost (Plotly.animate computes the figure twice for WebGL traces);
- baseline, a server round trip per frame (st.fragment run_every or a rerun per step): core.plots.maps.map_figure of the
  whole map with the window highlighted and its JSON in Python, then JSON.parse + Plotly.react of that figure in
  Chromium. Streamlit's websocket and protobuf are not counted, so the baseline is if anything flattered. The
  browser half alone (``react``) is reported too.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from common import median, report, row

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PAINTED = "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));"


def synthetic(n: int, seed: int = 0) -> tuple[np.ndarray, list[str], object, np.ndarray]:
    """2-D blobs like a UMAP map, a label per point (40 journals), hover cards and a year per point (1990-2019,
    each blob a field that starts in its own year and grows)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    centres = rng.uniform(-15, 15, (40, 2))
    labels = rng.integers(0, 40, n)
    coords = (centres[labels] + rng.standard_normal((n, 2)) * rng.uniform(0.3, 1.5, 40)[labels, None])
    born = rng.integers(1990, 2015, 40)
    years = np.floor(born[labels] + (2020 - born[labels]) * np.sqrt(rng.uniform(0, 1, n))).astype(float)
    names = [f"Journal of topic {k}" for k in labels]
    hover = pd.DataFrame({"title": [f"Paper {i} on topic {k}: a title of typical length for a journal article"
                                    for i, k in enumerate(labels)], "journal": names, "year": years.astype(int)})
    return coords.astype(np.float32), names, hover, years


def overlay_variant(fig, coords: np.ndarray, years: np.ndarray, windows: list[list[int]]):
    """The same faded map with one overlay trace whose points each frame replaces."""
    import plotly.graph_objects as go

    meta = fig.layout.meta
    overlay = [fig.data[i] for i in meta["overlay"]]
    rows = np.concatenate([np.asarray(t.customdata) for t in overlay])
    colours = np.concatenate([np.asarray(t.marker.color, dtype=object) for t in overlay])
    out = go.Figure(data=[t for i, t in enumerate(fig.data) if i not in set(meta["overlay"])], layout=fig.layout)
    index = len(out.data)
    out.add_trace(go.Scattergl(x=[], y=[], mode="markers", hoverinfo="skip", showlegend=False,
                               marker=dict(size=overlay[0].marker.size, opacity=0.95)))
    frames = []
    for low, high in windows:
        part = (years[rows] >= low) & (years[rows] <= high)
        at = rows[part]
        frames.append(go.Frame(name=f"{low}-{high}", traces=[index], data=[go.Scattergl(
            x=coords[at, 0], y=coords[at, 1], marker=dict(color=list(colours[part])))]))
    out.frames = frames
    return out


def page(path: Path, fig) -> Path:
    """A standalone page drawing `fig` (plotly.js inlined) that sets window.__plotted when drawn."""
    import plotly.io as pio

    html = pio.to_html(fig, include_plotlyjs=True, full_html=True, div_id="map", auto_play=False)
    at = html.rfind("Plotly.newPlot(")
    if at < 0:
        raise SystemExit("plotly's HTML no longer calls Plotly.newPlot; update the hook")
    path.write_text(html[:at] + "window.__plotted = " + html[at:], encoding="utf-8")
    return path


def animate_times(browser, path: Path, names: list[str], restyle: bool = False) -> list[float]:
    """Milliseconds per Plotly.animate step through the named frames (or Plotly.restyle of each frame's
    visibility), until painted."""
    tab = browser.new_page()
    tab.goto(path.as_uri(), timeout=600_000, wait_until="load")
    step = ("const f = gd._transitionData._frames.find(f => f.name === name);"
            " await Plotly.restyle(gd, {visible: f.data.map(d => d.visible)}, f.traces);" if restyle else
            "await Plotly.animate(gd, [name], {frame: {duration: 0, redraw: true}, transition: {duration: 0},"
            " mode: 'immediate'});")
    times = tab.evaluate("""async (names) => { await window.__plotted; const gd = document.getElementById('map');
        const out = []; for (const name of names) { const t = performance.now(); STEP
          PAINTED out.push(performance.now() - t); } return out; }""".replace("STEP", step).replace("PAINTED", PAINTED),
                         names)
    tab.close()
    return times


def react_times(browser, path: Path, figures: list[str]) -> list[float]:
    """Milliseconds per JSON.parse + Plotly.react of each whole figure, until painted."""
    tab = browser.new_page()
    tab.goto(path.as_uri(), timeout=600_000, wait_until="load")
    tab.evaluate("async () => { await window.__plotted; }")
    times = []
    for text in figures:
        tab.evaluate("text => { window.__next = text; }", text)
        times.append(tab.evaluate("""async () => { const gd = document.getElementById('map');
            const t = performance.now(); const fig = JSON.parse(window.__next);
            await Plotly.react(gd, fig.data, fig.layout); PAINTED return performance.now() - t; }""".replace("PAINTED", PAINTED)))
    tab.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="50000,200000")
    parser.add_argument("--frames", type=int, default=5, help="frames timed per variant (after one warm-up)")
    parser.add_argument("--width", type=int, default=3, help="window width in years")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from core.plots import add_year_animation, map_figure, window_label

    rows: list[dict] = []
    extra: dict = {}
    with tempfile.TemporaryDirectory(prefix="miread-time-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for n in [int(s) for s in args.sizes.split(",") if s]:
            coords, labels, hover, years = synthetic(n)
            start = time.perf_counter()
            fig = add_year_animation(map_figure(coords, color=labels, color_name="journal", hover=hover), coords, years,
                                     width=args.width, picture=False)
            build_s = time.perf_counter() - start
            start = time.perf_counter()
            pictured = add_year_animation(map_figure(coords, color=labels, color_name="journal", hover=hover), coords,
                                          years, width=args.width, picture=True)
            picture_build_s = time.perf_counter() - start
            every = [tuple(w) for w in fig.layout.meta["windows"]]  # spread over the span: the early windows are
            windows = [every[int(i)] for i in np.linspace(0, len(every) - 1, args.frames + 1).round()]  # near-empty
            names = [window_label(w) for w in windows]
            files = {"picture": page(Path(tmp) / f"pic-{n}.html", pictured),
                     "visibility": page(Path(tmp) / f"vis-{n}.html", fig),
                     "overlay": page(Path(tmp) / f"ovl-{n}.html", overlay_variant(fig, coords, years, windows))}
            server = []
            figures = []
            for low, high in windows:
                t = time.perf_counter()
                figures.append(map_figure(coords, color=labels, color_name="journal", hover=hover,
                                          highlight=(years >= low) & (years <= high)).to_json())
                server.append(time.perf_counter() - t)
            files["react"] = page(Path(tmp) / f"react-{n}.html", map_figure(coords, color=labels,
                                                                            color_name="journal", hover=hover))
            times = {"picture": animate_times(browser, files["picture"], names)[1:],
                     "visibility": animate_times(browser, files["visibility"], names)[1:],
                     "restyle": animate_times(browser, files["visibility"], names, restyle=True)[1:],
                     "overlay": animate_times(browser, files["overlay"], [f"{a}-{b}" for a, b in windows])[1:],
                     "react": react_times(browser, files["react"], figures)[1:]}
            client = median(times["react"])
            trip = client + median(server[1:]) * 1000
            for name in ("picture", "visibility", "restyle", "overlay"):
                ms = median(times[name])
                rows.append(row(f"{n:,} points: frame, {name}", ms / 1000, trip / 1000, "s",
                                f"vs the browser half alone (react {client:.0f} ms): {client / ms:.2f}x; "
                                f"HTML {files[name if name != 'restyle' else 'visibility'].stat().st_size / 2**20:.1f}"
                                f" MiB; vs visibility (before): {median(times['visibility']) / ms:.2f}x"))
                print(rows[-1], flush=True)
            extra[str(n)] = {"frame_ms": times, "server_build_s": server, "figure_build_s": build_s,
                          "picture_figure_build_s": picture_build_s,
                             "html_mib": {k: f.stat().st_size / 2**20 for k, f in files.items()},
                             "frame_json_mib": len(figures[0]) / 2**20}
            print(json.dumps({k: round(median(v), 1) for k, v in times.items()}), flush=True)
        browser.close()
    report("time_slider", rows, extra)


if __name__ == "__main__":
    main()
