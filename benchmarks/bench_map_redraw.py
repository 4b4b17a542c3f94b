"""Issue 32: the browser's floor for a map action that changes the figure (colour, highlight) at 50k papers.

What Plotly alone needs, in the same headless Chromium the interaction benchmark drives, to draw a new figure of the
same points on a page that already shows one: `JSON.parse` of the figure Streamlit would send, then `Plotly.react`,
until two animation frames later. No Streamlit, no websocket, no Python. Figures are the map page's own
(`core.plots.map_figure`, coloured by journal, then by year), with hover cards and, as the baseline, without them.
If this floor is over 1 s, no change to our Python side can bring "change the colour" under the 1 s budget there.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from bench_browser import CHROMIUM, CHROMIUM_ARGS, map_points
from common import median

REACT = """async (key) => {
    const gd = document.querySelector('.js-plotly-plot');
    const t = performance.now();
    const fig = JSON.parse(window.__next[key]);
    const parsed = performance.now();
    await Plotly.react(gd, fig.data, fig.layout);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    return [parsed - t, performance.now() - t];
}"""


def figures(n: int) -> dict[str, str]:
    """The figure JSON (as st.plotly_chart sends it) coloured two ways, with and without hover cards."""
    import plotly.io as pio

    from core.plots import map_figure

    coords, labels, hover = map_points(n)
    years = hover["year"].tolist()
    out = {}
    for name, colour, values in (("journal", "journal", labels), ("year", "year", years)):
        fig = map_figure(coords, color=values, color_name=colour, hover=hover.drop(columns=[colour]), scale=colour == "year")
        out[f"{name}+cards"] = pio.to_json(fig, validate=False)
        for trace in fig.data:
            trace.hovertext, trace.hoverinfo = None, "none"
        out[f"{name}-bare"] = pio.to_json(fig, validate=False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    import plotly
    from playwright.sync_api import sync_playwright

    specs = figures(args.papers)
    plotly_js = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        page_path = Path(tmp) / "map.html"
        page_path.write_text(f"<html><body><div id='m' style='width:1000px;height:720px'></div><script src="
                             f"'{plotly_js.as_uri()}'></script></body></html>", encoding="utf-8")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(page_path.as_uri(), wait_until="load")
        page.evaluate("specs => { window.__next = specs; }", specs)
        page.evaluate("async () => { const f = JSON.parse(window.__next['journal+cards']);"
                      " await Plotly.newPlot('m', f.data, f.layout); }")
        results: dict[str, list[list[float]]] = {"cards": [], "bare": []}
        for _ in range(args.reps):
            for kind in ("cards", "bare"):
                for colour in ("year", "journal"):
                    results[kind].append(page.evaluate(REACT, f"{colour}+{kind}" if kind == "cards"
                                                       else f"{colour}-bare"))
        browser.close()
    sizes = {k: round(len(v) / 2**20, 2) for k, v in specs.items()}
    print(json.dumps({"papers": args.papers, "figure_mb": sizes}))
    print("| figure | MB | JSON.parse ms (p50) | parse + Plotly.react + 2 frames ms (p50) | samples |")
    print("|---|---:|---:|---:|---:|")
    for kind, samples in results.items():
        print(f"| {'with hover cards' if kind == 'cards' else 'no hover text (baseline)'} | "
              f"{sizes['journal+' + kind if kind == 'cards' else 'journal-bare']} | "
              f"{median([s[0] for s in samples]):.0f} | {median([s[1] for s in samples]):.0f} | {len(samples)} |")


if __name__ == "__main__":
    main()
