"""Benchmark 30 (issue 42): the Domain map's actions before (main's Plotly map) and after (the regl-scatterplot
component), same harness as benchmark 22 (bench_interactions.Bench: from the browser's input event to the settled
page, bytes the websocket brought in), the two revisions interleaved round by round on one workspace.

Corpora: synthetic papers with MiniLM-fingerprinted vectors (bench_interactions.synthetic_corpus; journals and years),
3,000 ("small", the demo's size) and 50,000 ("big"). Maps are PCA. Actions: change the colour (journal ↔ none),
highlight a word, move the Years window, click a paper (side panel), lasso a region (selection list), colour by
fine topics already computed, from journal (BENCHMARKS §31j; `--only-topics`: that step alone), and with
--switch-back another page and back to the map. With --floor, a third server runs `streamlit_floor_app.py` (the
same widgets with nothing behind them): the actions made with Streamlit's widgets timed on bare Streamlit, in the
same rounds — the floor under any map action a widget starts.

    .venv/bin/python benchmarks/bench_map_component.py --before /work/main --papers 3000,50000 --runs 3

At 1M (BENCHMARKS §31m): `--fit-first` computes the PCA map before the servers open it; `--open-each-round` times
the open in every round with the map's own parts (bytes, unpack, columns, first draw), the JS heap, a 3-s pan's
frames/s and a wheel zoom; `--draw-limit N` opens a map of more than N papers as the density overview.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import MODEL, OUT, POINT, Bench, bench_tab, synthetic_corpus
from common import ROOT, machine, median

from tests.e2e.conftest import draw_lasso
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

COMPONENT_POINT = """row => { const m = window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map;
    if (!m || !m.n) return null; m.wrap.scrollIntoView({block: 'center'}); return m.pageXY(row); }"""


def is_component(b: Bench) -> bool:
    return bool(b.page.evaluate("() => !!(window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map)"))


def point(b: Bench, row: int) -> tuple[float, float] | None:
    if is_component(b):
        xy = b.page.evaluate(COMPONENT_POINT, row)
    else:
        b.page.locator(".st-key-corpus_map .js-plotly-plot").first.scroll_into_view_if_needed()
        xy = b.page.evaluate(POINT, row)
    return (float(xy[0]), float(xy[1])) if xy else None


def lasso(b: Bench, left: float, top: float, right: float, bottom: float) -> None:
    if is_component(b):
        draw_lasso(b.page, left, top, right, bottom)
        return
    plot = b.page.locator("[data-testid=stPlotlyChart] .nsewdrag").first  # main's Plotly map: lasso is its drag mode
    box = plot.bounding_box()
    x0, y0 = box["x"] + left * box["width"], box["y"] + top * box["height"]
    x1, y1 = box["x"] + right * box["width"], box["y"] + bottom * box["height"]
    b.page.mouse.move(x0, y0)
    b.page.mouse.down()
    for x, y in ((x1, y0), (x1, y1), (x0, y1), (x0, y0 + 2)):
        b.page.mouse.move(x, y, steps=8)
    b.page.mouse.up()


def pan_mode(b: Bench) -> None:
    if is_component(b):
        b.page.locator(".miread-map-outer button[data-mode=panZoom]").first.click()


READY = "() => window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map && " \
    "window.__mireadMaps.map.map.wrap.dataset.ready === '1'"
OPEN_PARTS = "() => window.__mireadMaps.map.map.wrap.dataset.openParts || null"


def opened(b: Bench, name: str = "open the map") -> None:
    """Open the map (a navigation), then note when its points were drawn (the map's own mark, which the page's
    settle does not wait for), its parts (bytes, unpack, columns, first draw: index.js `openParts`) and the JS
    heap after a garbage collection (CDP)."""
    start = time.perf_counter()
    b.measure(name, lambda: b.page.goto(b.link()), navigation=True)
    if getattr(b, "floor", False) or not is_component(b):
        return
    b.page.wait_for_function(READY, timeout=900_000, polling=100)
    parts = json.loads(b.page.evaluate(OPEN_PARTS) or "null")
    if parts is not None:  # how many times the points went to regl-scatterplot so far (a mark since §31r; None before)
        parts["pointDraws"] = b.page.evaluate("() => window.__mireadMaps.map.map.wrap.dataset.pointDraws || null")
    notes = b.notes.setdefault("opens", [])
    cdp = b.page.context.new_cdp_session(b.page)
    cdp.send("HeapProfiler.collectGarbage")
    heap = cdp.send("Runtime.getHeapUsage")
    cdp.detach()
    notes.append({"name": name, "wall_s": round(time.perf_counter() - start, 2), "parts": parts,
                  "heap_mb": round(heap["usedSize"] / 2 ** 20, 1)})
    print(f"  map drawn at {parts and parts.get('readyAt', 0) / 1000:.2f} s; parts {parts}; heap "
          f"{notes[-1]['heap_mb']} MB", flush=True)


def pan_fps(b: Bench, seconds: float = 3.0) -> None:
    """Drag the map for `seconds` in Pan mode: the map's frames and the browser's animation frames per second."""
    if not is_component(b):
        return
    box = b.page.locator(".miread-map").first.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    count = """() => { const w = window.__mireadMaps.map.map.wrap; window.__raf = 0; const tick = () => {
        window.__raf += 1; if (!window.__rafStop) requestAnimationFrame(tick); }; window.__rafStop = false;
        requestAnimationFrame(tick); return Number(w.dataset.frames || 0); }"""
    frames0 = b.page.evaluate(count)
    b.page.mouse.move(cx, cy)
    b.page.mouse.down()
    start = time.perf_counter()
    k = 0
    while time.perf_counter() - start < seconds:
        k += 1
        b.page.mouse.move(cx + 80 * ((k // 10) % 2 * 2 - 1) * (k % 10) / 10, cy + 3 * (k % 7))
    b.page.mouse.up()
    took = time.perf_counter() - start
    frames, raf = b.page.evaluate("""() => { window.__rafStop = true;
        return [Number(window.__mireadMaps.map.map.wrap.dataset.frames || 0), window.__raf]; }""")
    b.notes.setdefault("pan", []).append({"map_frames_per_s": round((frames - frames0) / took, 2),
                                          "animation_frames_per_s": round(raf / took, 2), "moves": k})
    print(f"  pan {took:.1f} s: map frames/s {b.notes['pan'][-1]['map_frames_per_s']}, animation frames/s "
          f"{b.notes['pan'][-1]['animation_frames_per_s']}", flush=True)
    b.idle()


def zoom_in(b: Bench) -> None:
    """Wheel in on the map's middle: on a density overview the page sends the window's papers (a page run); on a map
    of every paper only the camera moves (the zoom reported into the session, a fragment run)."""
    if not is_component(b):
        return
    box = b.page.locator(".miread-map").first.bounding_box()
    b.page.mouse.move(box["x"] + box["width"] * 0.45, box["y"] + box["height"] * 0.45)
    b.measure("zoom in (wheel ×4)", lambda: [b.page.mouse.wheel(0, -400) for _ in range(4)])
    b.page.wait_for_function(READY, timeout=900_000)
    b.page.locator(".miread-whole").first.click()  # back to the whole map
    b.idle()
    b.page.wait_for_function(READY, timeout=900_000)


def actions(b: Bench, round_: int) -> None:
    """One round of every action on this revision, from opening the map again in the same tab (a warm open: the
    server has the corpus and map cached, the browser its scripts); with --open-each-round its parts and heap too."""
    if getattr(b, "open_each_round", False):
        opened(b, "open the map (warm, same tab)")
    else:
        b.measure("open the map (warm, same tab)", lambda: b.page.goto(b.link()), navigation=True)
    b.idle()
    if getattr(b, "floor", False):  # bare Streamlit: the widget actions only
        floor_actions(b, round_)
        return
    if is_component(b):
        b.page.wait_for_function(READY, timeout=900_000)
    if getattr(b, "only_topics", False):
        topic_actions(b)
        return
    widget_actions(b, round_)
    pan_mode(b)
    xy = point(b, 11 + 13 * round_)
    if xy:
        b.page.mouse.move(*xy, steps=2)
        b.measure("click a paper (side panel)", lambda: b.page.mouse.click(*xy))
        close = b.page.locator(".st-key-map_panel_close button").first
        if close.count():
            close.click()
            b.idle()
    b.measure("lasso a region (list)", lambda: lasso(b, 0.1 + 0.05 * (round_ % 3), 0.1, 0.6, 0.7))
    pan_mode(b)
    if getattr(b, "open_each_round", False):
        pan_fps(b)
        zoom_in(b)
    if getattr(b, "switch_back", False):  # leave for another page and come back: the map drawn again
        b.go("Similar papers")
        b.idle()
        b.measure("switch back to the map", lambda: b.go("Domain map"))
    topic_actions(b)


def topic_actions(b: Bench) -> None:
    """Colour by fine topics, from journal, once the topics are computed and the fine level chosen (a link opens the
    map coloured by them: computed the first time, then read), the map's colour set back to journal first."""
    b.page.goto(b.link(colour="topics", level="fine"))
    b.idle()
    if is_component(b):
        b.page.wait_for_function("() => window.__mireadMaps.map.map.wrap.dataset.ready === '1'", timeout=600_000)
    b.idle()
    b.open_options("Colour by")
    b.pick("journal")
    b.idle()
    b.open_options("Colour by")
    b.measure("colour: journal → fine topics", lambda: b.pick("topics"))


def widget_actions(b: Bench, round_: int) -> None:
    """The actions made with Streamlit's widgets: colour (a page run), highlight and a year step (fragment runs)."""
    b.open_options("Colour by")
    b.measure("colour: journal → none", lambda: b.pick("(none)"))
    b.open_options("Colour by")
    b.measure("colour: none → journal", lambda: b.pick("journal"))
    b.measure("highlight a word", lambda: b.type_and_commit("Highlight papers matching", ["galaxy", "protein",
                                                                                           "market"][round_ % 3]))
    b.type_and_commit("Highlight papers matching", "")
    b.idle()
    high = b.page.locator("[data-testid=stSlider] input[aria-label='Years — end']").first
    if high.count():
        high.focus()
        b.measure("year window (one step)", lambda: high.press("ArrowLeft"))


def floor_actions(b: Bench, round_: int) -> None:
    """The widget actions of `actions` and switch back on the bare app (`streamlit_floor_app.py`), same names."""
    widget_actions(b, round_)
    if getattr(b, "switch_back", False):
        b.go("Similar papers")
        b.idle()
        b.measure("switch back to the map", lambda: b.go("Domain map"))


def floor_root() -> Path:
    """A folder whose app.py is the bare app (streamlit_server runs `streamlit run app.py` in it)."""
    root = OUT / "floor-app"
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(Path(__file__).with_name("streamlit_floor_app.py"), root / "app.py")
    return root


def run(browser: Any, papers: int, args: argparse.Namespace) -> dict[str, Any]:
    from core.store import Store

    root = OUT / f"ws-map-{papers}"
    store = Store(root)
    synthetic_corpus(store, "synthetic", papers, seed=7)
    if args.fit_first:  # the PCA map computed before any server opens it: every server's first open reads it
        from core.embedding import get_model
        from core.explore.maps.cached import map_coordinates

        map_coordinates(store, "synthetic", get_model(MODEL, store), "pca", {})
    env = {"MIREAD_WARM_NUMBA": "0", "MIREAD_TIMING": "1", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": MODEL,
           **({"MIREAD_MAP_DRAW_LIMIT": str(args.draw_limit)} if args.draw_limit else {})}
    roots = {"after": ROOT, **({"before": Path(args.before)} if args.before else {}),
             **({"floor": floor_root()} if args.floor else {})}
    print(f"\n== synthetic ({papers:,} papers) ==", flush=True)
    with ExitStack() as stack:
        benches: dict[str, Bench] = {}
        for label, app_root in roots.items():
            bench = benches[label] = bench_tab(stack, browser, app_root, root, env, "synthetic", args.quiet)
            bench.switch_back = args.switch_back
            bench.floor = label == "floor"
            bench.only_topics = args.only_topics
            bench.open_each_round = args.open_each_round
            start = time.perf_counter()
            opened(bench)
            bench.notes["first_open_s"] = round(time.perf_counter() - start, 2)
        for i in range(args.runs):
            print(f"-- round {i + 1}", flush=True)
            order = list(benches.items()) if i % 2 == 0 else list(benches.items())[::-1]
            for label, bench in order:
                print(f" [{label}]", flush=True)
                try:
                    actions(bench, i)
                except Exception as exc:  # noqa: BLE001 - one failed round is reported, the others still run
                    bench.notes[f"round{i}_failed"] = f"{type(exc).__name__}: {str(exc)[:300]}"
                    print(f"  failed: {exc}", flush=True)
    return {label: {"papers": papers, "notes": b.notes,
                    "actions": {k: [s.__dict__ for s in v] for k, v in b.results.items()}}
            for label, b in benches.items()}


def table(results: dict[str, Any]) -> str:
    """Per action: the settled page (p50) and the map's first redraw after the input (p50 of the runs that redrew it;
    '–' where the revision marks none, as the Plotly map) for both revisions, the browser's own first answer (a
    colour drawn, a clicked paper's card pinned, before the page's run: §31f), the websocket's bytes, and with
    --floor the same widget action on bare Streamlit (the floor under it)."""
    lines = ["| corpus | action | before settled s | after settled s | ratio | before map s | after map s | "
             "after first answer s | before ws kB | after ws kB | bare Streamlit s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def p50(samples: list[dict], key: str) -> float | None:
        got = [s[key] for s in samples if s.get(key) is not None]
        return median(got) if got else None

    def show(v: float | None, digits: str = ".2f") -> str:
        return "–" if v is None else format(v, digits)

    for papers, both in results.items():
        after = both.get("after", {}).get("actions", {})
        before = both.get("before", {}).get("actions", {})
        floor = both.get("floor", {}).get("actions", {})
        for name in after:
            a, am, aw = p50(after[name], "total_s"), p50(after[name], "map_s"), p50(after[name], "ws_kb")
            b_, bm, bw = (p50(before[name], "total_s"), p50(before[name], "map_s"), p50(before[name], "ws_kb")) \
                if name in before else (None, None, None)
            f = p50(floor[name], "total_s") if name in floor else None
            ratio = f"{b_ / a:.1f}×" if a and b_ else "–"
            first = p50(after[name], "answer_s")  # the browser's own answer (§31f): a colour drawn, a card pinned
            lines.append(f"| {papers} | {name} | {show(b_)} | {show(a)} | {ratio} | {show(bm)} | {show(am)} | "
                         f"{show(first)} | {show(bw, '.0f')} | {show(aw, '.0f')} | {show(f)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--papers", default="3000,50000")
    parser.add_argument("--before", default="", help="a checkout of another revision (the Plotly map: 4d311c0)")
    parser.add_argument("--quiet", type=float, default=0.3)
    parser.add_argument("--switch-back", action="store_true", help="also time leaving the map and coming back")
    parser.add_argument("--floor", action="store_true", help="also time the widget actions on bare Streamlit")
    parser.add_argument("--only-topics", action="store_true", help="only the step colour: journal → fine topics")
    parser.add_argument("--draw-limit", type=int, default=0, help="the servers' map draw limit (density above it)")
    parser.add_argument("--fit-first", action="store_true", help="compute the PCA map before the servers start")
    parser.add_argument("--open-each-round", action="store_true",
                        help="time the open in every round (server warm), its parts and heap, and a 3-s pan")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for papers in [int(p) for p in args.papers.split(",")]:
            results[f"{papers:,}"] = run(browser, papers, args)
        browser.close()
    out = {"machine": machine(), "command": " ".join([Path(sys.executable).name] + sys.argv), "results": results}
    (OUT / "map-component.json").write_text(json.dumps(out, indent=2), encoding="utf-8")
    text = table(results)
    (OUT / "map-component.md").write_text(text + "\n", encoding="utf-8")
    print("\n" + text)


if __name__ == "__main__":
    main()
