"""The map component without a server: the standalone HTML export opens from a file (same bundle, data inlined, no
network), hostile titles and labels stay text; a million synthetic points draw, hover and click in GPU-less Chromium
(slow)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest

from core.plots.map_data import colour_codes
from tests.e2e.conftest import ARTIFACTS
from tests.hostile import EVIL, HOSTILE

pytestmark = pytest.mark.e2e
TITLE = f'</script><script>window.__xss=1</script> <img src=x onerror="window.__xss=2"> {HOSTILE}'
MAP = "window.__mireadMaps.export.map"


@pytest.fixture()
def page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.requests = requests
    yield page
    context.close()


def export(tmp_path, n: int = 200):
    from ui.map.component import standalone_html

    rng = np.random.default_rng(3)
    coords = rng.normal(size=(n, 2)) * 5
    frame = pd.DataFrame({"id": [f"p{i}" for i in range(n)], "title": [TITLE if i == 0 else f"Paper {i}"
                                                                       for i in range(n)],
                          "journal": [f"J{i % 3}" for i in range(n)], "year": [2000 + i % 5 for i in range(n)]})
    colours = colour_codes([f"{EVIL} label {i % 3} <b>x</b>" for i in range(n)], n)
    state = {"name": "t", "palette": colours.palette, "legend": colours.legend, "years": None, "grow": False,
             "labels": [{"text": TITLE, "x": 0.0, "y": 0.0, "level": "coarse"}], "stars": [], "lines": []}
    path = tmp_path / "map.html"
    path.write_text(standalone_html("hostile <corpus>", coords, frame, state, colours.codes, None), encoding="utf-8")
    return path


def test_the_html_export_opens_offline_and_shows_hostile_text_as_text(page, tmp_path):
    page.goto(export(tmp_path).as_uri())
    page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'", timeout=60_000)
    assert page.evaluate(f"() => {MAP}.n") == 200
    legend = page.locator(".miread-legend-entry").all_text_contents()
    assert any("<b>x</b>" in text for text in legend)  # a label is text, never markup
    xy = page.evaluate(f"() => {MAP}.pageXY(0)")
    page.mouse.move(*xy, steps=3)
    card = page.locator(".miread-card")
    card.wait_for(state="visible", timeout=10_000)
    assert TITLE[:60] in (card.text_content() or "")
    assert page.evaluate("() => window.__xss") is None
    assert all(url.startswith(("file:", "blob:", "data:")) for url in page.requests), page.requests  # no network
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "map-export-html.png"))


@pytest.mark.slow
def test_a_million_points_draw_and_answer_hover_and_click(page, tmp_path):
    page.goto(export(tmp_path, 10).as_uri())
    page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'", timeout=60_000)
    took = page.evaluate("""async () => {
        const n = 1000000, x = new Float32Array(n), y = new Float32Array(n), codes = new Uint8Array(n);
        let seed = 7; const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
        for (let i = 0; i < n; i++) { const c = i % 12, a = c / 12 * 2 * Math.PI;
            x[i] = 0.6 * Math.cos(a) + (rand() - 0.5) * 0.3; y[i] = 0.6 * Math.sin(a) + (rand() - 0.5) * 0.3; codes[i] = c; }
        const root = document.createElement('div'); root.style.cssText = 'position:fixed;inset:0;background:#fff';
        document.body.appendChild(root);
        const palette = ['#1f77b4','#ff7f0e','#2ca02c','#d62728','#9467bd','#8c564b','#e377c2','#7f7f7f','#bcbd22',
                         '#17becf','#393b79','#637939'];
        const started = performance.now();
        window.__mireadModule.default({data: {points: {x, y, title: Array.from({length: n}, (_, i) => 'Paper ' + i)},
            meta: {key: 'million', n, hub: 'million'}, state: {state: {palette, legend: [], flight: 0}, codes}},
            parentElement: root, setStateValue() {}, setTriggerValue() {}});
        const m = () => window.__mireadMaps.million.map;
        while (!(m() && m().wrap.dataset.ready === '1' && m().wrap.dataset.applied)) await new Promise(r => setTimeout(r, 50));
        return performance.now() - started; }""")
    big = "window.__mireadMaps.million.map"
    assert page.evaluate(f"() => {big}.n") == 1_000_000
    assert page.evaluate(f"() => {big}.wrap.dataset.index") == "worker"  # its hover index built beside the open
    xy = page.evaluate(f"() => {big}.pageXY(123456)")
    page.mouse.move(*xy, steps=3)
    card = page.locator(".miread-card").last
    card.wait_for(state="visible", timeout=60_000)
    assert (card.text_content() or "").startswith("Paper ")
    page.screenshot(path=str(ARTIFACTS / "map-million.png"))
    print(f"1,000,000 points drawn in {took / 1000:.1f} s")
    assert took < 60_000


def test_the_export_opens_in_one_draw_of_its_points_with_their_colours(page, tmp_path):
    """The points are handed to regl-scatterplot once at an open that brings its state: not drawn once uncoloured
    and again coloured (two frames of every point: 2–5 s at 1M papers in a GPU-less browser, BENCHMARKS §31r)."""
    page.goto(export(tmp_path, 2000).as_uri())
    page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'"
                           f" && {MAP}.wrap.dataset.applied", timeout=60_000)
    assert page.evaluate(f"() => {MAP}.wrap.dataset.pointDraws") == "1"
    # drawn with the state's colours: the codes the page sent are the ones drawn (three groups, i % 3)
    assert page.evaluate(f"() => Array.from({MAP}.codes.slice(0, 6))") == [0, 1, 2, 0, 1, 2]
    assert page.evaluate(f"() => {MAP}.plot.get('points')[4][2]") == 1


STAR = """async () => {  // a five-pointed star drawn in Lasso mode, one mouse move per corner (crossing edges: non-zero
    const m = window.__mireadMaps.export.map;  // winding counts the middle in), let go; then the same polygon
    m.setMode('lasso');  // through regl-scatterplot's own lassoSelect, for the papers it selects
    const r = m.canvas.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const rad = 0.4 * Math.min(r.width, r.height);
    const corners = [0, 2, 4, 1, 3].map((k) => [Math.round(cx + rad * Math.sin(k * 2 * Math.PI / 5)),
                                                 Math.round(cy - rad * Math.cos(k * 2 * Math.PI / 5))]);
    const fire = (type, [x, y]) => m.canvas.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y,
        bubbles: true, cancelable: true, composed: true, button: 0, buttons: type === 'mouseup' ? 0 : 1, view: window}));
    const wait = (ms) => new Promise((done) => setTimeout(done, ms));
    await wait(300); fire('mousemove', corners[0]); await wait(300);
    const frames = Number(m.wrap.dataset.frames || 0), points = m.wrap.dataset.pointDraws;
    fire('mousedown', corners[0]);
    for (const c of corners.slice(1)) { await new Promise((done) => requestAnimationFrame(done)); fire('mousemove', c); }
    await new Promise((done) => requestAnimationFrame(done));
    fire('mouseup', corners[0]);
    while (Number(m.wrap.dataset.frames || 0) === frames) await wait(20);
    await wait(300);
    const ours = m.selection.slice(), drawn = Number(m.wrap.dataset.frames) - frames;
    const box = m.wrap.getBoundingClientRect();  // the lasso's path is kept in CSS px of the map's wrapper
    const inMap = corners.map(([x, y]) => m.lasso.toMap(x - box.left, y - box.top));
    m.plot.deselect({preventEvent: true});
    m.plot.lassoSelect(inMap, {isGl: true});
    const theirs = Array.from(m.plot.get('selectedPoints')).sort((a, b) => a - b);
    return {ours, theirs, drawn, pointDraws: [points, m.wrap.dataset.pointDraws], vertices: m.wrap.dataset.lassoVertices,
            sent: m.wrap.dataset.lastselected}; }"""


def test_a_lasso_selects_the_papers_regl_scatterplot_would_and_draws_them_once(page, tmp_path):
    """inside.js finds a lasso's papers in one pass over the points (a canvas fill, the exact test only along the
    line): the same papers as regl-scatterplot's lassoSelect for the same polygon, sent to the page in order, drawn in
    one frame without handing the points over again."""
    page.goto(export(tmp_path, 30000).as_uri())
    page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'"
                           f" && {MAP}.wrap.dataset.applied", timeout=60_000)
    found = page.evaluate(STAR)
    assert found["vertices"] == "5"
    assert 1000 < len(found["ours"]) < 29000, len(found["ours"])  # a star over a cloud: many in, many out
    assert found["ours"] == found["theirs"]
    assert found["ours"] == sorted(found["ours"])
    assert found["sent"].startswith("[" + ",".join(str(r) for r in found["ours"][:5]))
    assert found["drawn"] == 1, found["drawn"]
    assert found["pointDraws"][0] == found["pointDraws"][1]
    page.screenshot(path=str(ARTIFACTS / "map-export-star-lasso.png"))


BIG_BOX = """async (n) => {  // n points in two clusters (left, right); a Box over the left one, let go
    const x = new Float32Array(n), y = new Float32Array(n), codes = new Uint8Array(n);
    let seed = 11; const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < n; i++) { const c = i % 2; x[i] = (c ? 0.5 : -0.5) + (rand() - 0.5) * 0.6;
        y[i] = (rand() - 0.5) * 0.6; codes[i] = c; }
    const root = document.createElement('div'); root.style.cssText = 'position:fixed;inset:0;background:#fff';
    document.body.replaceChildren(root);
    window.__mireadModule.default({data: {points: {x, y, title: Array.from({length: n}, (_, i) => 'Paper ' + i)},
        meta: {key: 'big', n, hub: 'big'}, state: {state: {palette: ['#ff7f0e', '#2ca02c'], legend: [], flight: 0}, codes}},
        parentElement: root, setStateValue() {}, setTriggerValue() {}});
    const wait = (ms) => new Promise((done) => setTimeout(done, ms));
    const m = () => window.__mireadMaps.big.map;
    while (!(m() && m().wrap.dataset.ready === '1' && m().wrap.dataset.applied)) await wait(50);
    const map = m(); await wait(500);
    map.setMode('rectangle');
    const r = map.wrap.getBoundingClientRect();
    const [ax, ay] = map.screen(-0.9, 0.4), [bx, by] = map.screen(0.05, -0.4);
    const fire = (type, sx, sy) => map.canvas.dispatchEvent(new MouseEvent(type, {clientX: r.left + sx,
        clientY: r.top + sy, bubbles: true, cancelable: true, composed: true, button: 0,
        buttons: type === 'mouseup' ? 0 : 1, view: window}));
    const frames = Number(map.wrap.dataset.frames || 0);
    fire('mousedown', ax, ay); fire('mousemove', (ax + bx) / 2, (ay + by) / 2); fire('mousemove', bx, by);
    fire('mouseup', bx, by);
    while (Number(map.wrap.dataset.picked || 0) === 0 || Number(map.wrap.dataset.frames) === frames) await wait(20);
    await wait(1000);
    // the colour drawn at the middle of each cluster (the map's canvas, where regl-scatterplot copies each frame, over
    // the CPU's points when they are drawn there: raster.js)
    const g = map.picture().getContext('2d'), scale = map.canvas.width / map.wrap.clientWidth;
    const pixel = (px, py) => { const [sx, sy] = map.screen(px, py);
        return Array.from(g.getImageData(Math.round(sx * scale), Math.round(sy * scale), 1, 1).data); };
    return {selected: map.selection.length, left: n / 2, frames: Number(map.wrap.dataset.frames) - frames,
            inLeft: pixel(-0.5, 0), inRight: pixel(0.5, 0)}; }"""


def test_a_selection_too_large_for_rings_is_drawn_in_the_lasso_ink_in_one_frame(page, tmp_path):
    """Above 100,000 selected papers the selection is drawn in one pass (build.mjs) and, its rings gone, a map of
    more than 100,000 papers draws it in the lasso's ink (selection.js): regl-scatterplot draws a coloured map's
    selection in each point's own colour, so a lasso over 830,000 of 1M papers looked like no selection at all. The ink
    is set with the palette, not at the selection (regl-scatterplot's set() draws a frame of its own)."""
    page.goto(export(tmp_path, 10).as_uri())
    page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'", timeout=60_000)
    found = page.evaluate(BIG_BOX, 240_000)
    page.screenshot(path=str(ARTIFACTS / "map-large-selection.png"))
    assert 110_000 < found["selected"] <= found["left"], found
    # at most two frames: a Box let-go here draws two with the start's bundle too (5b77da6: regl-scatterplot's own
    # frame beside the selection's); the ink set at the selection instead of with the palette made more
    assert found["frames"] <= 2, found
    assert max(found["inLeft"][:3]) < 60, found  # the lasso's ink (#1a1a1a) where the papers are selected
    assert found["inRight"][:3] != found["inLeft"][:3] and max(found["inRight"][:3]) > 120, found  # their own colour
