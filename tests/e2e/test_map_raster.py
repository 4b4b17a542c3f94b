"""The map's points drawn on the CPU (frontend/map/src/raster.js, issue 42): in a GPU-less browser a large map draws
its points with a plain loop into a canvas under regl-scatterplot's, which keeps the camera, hover, click and lasso.
Forced here on a small map (`?raster=cpu`, the hidden override) and compared with WebGL's drawing (`?raster=gl`) of
the same export: the same papers' pixels carry the same colours, a highlight fades the same papers, a hidden legend
group is not drawn, hover and click name the right paper, and the PNG holds the points."""

from __future__ import annotations

import io
from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from core.plots.map_data import colour_codes
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e
MAP = "window.__mireadMaps.export.map"
N = 1500


@pytest.fixture(scope="module")
def html(tmp_path_factory: pytest.TempPathFactory):
    from ui.map.component import standalone_html

    rng = np.random.default_rng(5)
    coords = rng.normal(size=(N, 2)) * 5
    frame = pd.DataFrame({"id": [f"p{i}" for i in range(N)], "title": [f"Paper {i}" for i in range(N)],
                          "journal": [f"J{i % 3}" for i in range(N)], "year": [2000 + i % 5 for i in range(N)]})
    colours = colour_codes([f"group {i % 3}" for i in range(N)], N)
    state = {"name": "t", "palette": colours.palette, "legend": colours.legend, "years": None, "grow": False,
             "labels": [], "stars": [], "lines": []}
    path = tmp_path_factory.mktemp("raster") / "map.html"
    path.write_text(standalone_html("raster", coords, frame, state, colours.codes, None), encoding="utf-8")
    return path


@pytest.fixture()
def pages(browser, html) -> Iterator[dict]:
    """The same export drawn twice: with WebGL and on the CPU."""
    context = browser.new_context(viewport={"width": 1100, "height": 800}, accept_downloads=True)
    out = {}
    for mode in ("gl", "cpu"):
        page = context.new_page()
        page.goto(f"{html.as_uri()}?raster={mode}")
        page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'"
                               f" && {MAP}.wrap.dataset.applied", timeout=60_000)
        settle(page)
        assert page.evaluate(f"() => {MAP}.wrap.dataset.raster") == mode  # (before raster.js: no CPU mode)
        out[mode] = page
    yield out
    context.close()


def settle(page) -> None:
    """Two animation frames and a pause: the last change drawn."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>"
                  " setTimeout(done, 300))))")


def picture(page) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB")).astype(int)


def positions(page) -> list[tuple[int, int]]:
    return [tuple(round(v) for v in xy) for xy in page.evaluate(
        f"() => Array.from({{length: {MAP}.n}}, (_, i) => {MAP}.pageXY(i))")]


def alone(page, rows: range) -> int:
    """A row among `rows` whose point lies farthest from any other on the screen (hover and click find it)."""
    return page.evaluate(f"""(rows) => {{ const m = {MAP}; let best = rows[0], far = -1;
        for (const i of rows) {{ const [x, y] = m.pageXY(i); let near = Infinity;
            for (let j = 0; j < m.n; j += 1) {{ if (j === i) continue; const [u, v] = m.pageXY(j);
                near = Math.min(near, Math.hypot(u - x, v - y)); }}
            if (near > far) {{ far = near; best = i; }} }}
        return best; }}""", list(rows))


def compare(pages: dict, name: str) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Both pictures, and the points' positions (the same in both); at least 95% of the on-screen points' centre
    pixels carry the same colour (within rounding) in both."""
    gl, cpu = picture(pages["gl"]), picture(pages["cpu"])
    xy = positions(pages["cpu"])
    assert xy == positions(pages["gl"])
    h, w, _ = gl.shape
    inside = [(x, y) for x, y in xy if 0 <= x < w and 0 <= y < h]
    assert len(inside) > N * 0.8
    same = sum(int(np.abs(gl[y, x] - cpu[y, x]).max() <= 12) for x, y in inside)
    ARTIFACTS.mkdir(exist_ok=True)
    Image.fromarray(cpu.astype(np.uint8)).save(ARTIFACTS / f"map-raster-{name}-cpu.png")
    Image.fromarray(gl.astype(np.uint8)).save(ARTIFACTS / f"map-raster-{name}-gl.png")
    assert same >= 0.95 * len(inside), (same, len(inside))
    return gl, cpu, xy


def test_the_cpu_draws_the_points_as_webgl_does(pages):
    assert pages["cpu"].evaluate(f"() => {MAP}.wrap.dataset.raster") == "cpu"
    assert pages["gl"].evaluate(f"() => {MAP}.wrap.dataset.raster") == "gl"
    assert int(pages["cpu"].evaluate(f"() => {MAP}.wrap.dataset.rasterFrames")) >= 1
    _, cpu, xy = compare(pages, "colours")
    assert sum(int(cpu[y, x].min() < 200) for x, y in xy if 0 <= y < cpu.shape[0] and 0 <= x < cpu.shape[1]) > N / 2
    # regl-scatterplot's own canvas holds no point bodies in CPU mode (transparent where the points are)
    drawn = pages["cpu"].evaluate(f"""() => {{ const m = {MAP}, g = m.canvas.getContext('2d');
        const d = g.getImageData(0, 0, m.canvas.width, m.canvas.height).data; let on = 0;
        for (let k = 3; k < d.length; k += 4) if (d[k]) on += 1; return on; }}""")
    assert drawn == 0, drawn


def _brightness(picture: np.ndarray, xy: list, wanted) -> list[int]:
    """The summed RGB at the centre of each paper `wanted(i)` that lies inside the picture."""
    h, w, _ = picture.shape
    return [int(picture[y, x].sum()) for i, (x, y) in enumerate(xy) if wanted(i) and 0 <= x < w and 0 <= y < h]


HIGHLIGHT = f"""async () => {{ const m = {MAP}, n = m.n, bits = new Uint8Array(Math.ceil(n / 8));
    for (let r = 0; r < n; r += 2) bits[r >> 3] |= 1 << (7 - (r & 7));  // the even rows match
    await m.apply({{...m.state, mask: bits, state: {{...m.state.state, grow: true}}}}, true); }}"""  # (as the page: larger too)


def test_a_highlight_fades_the_same_papers(pages):
    for page in pages.values():
        page.evaluate(HIGHLIGHT)
        settle(page)
    _, cpu, xy = compare(pages, "highlight")
    even = _brightness(cpu, xy, lambda i: i % 2 == 0)
    odd = _brightness(cpu, xy, lambda i: i % 2 == 1)
    assert np.median(odd) > np.median(even) + 150  # the non-matches faded towards white


YEARS = f"""async () => {{ const m = {MAP};  // the years 2001-2002 only (years are 2000 + row % 5)
    await m.apply({{...m.state, state: {{...m.state.state, years: [2001, 2002]}}}}, true); }}"""


def test_a_year_window_fades_the_same_papers(pages):
    for page in pages.values():
        page.evaluate(YEARS)
        settle(page)
    _, cpu, xy = compare(pages, "years")
    inside = _brightness(cpu, xy, lambda i: i % 5 in (1, 2))
    outside = _brightness(cpu, xy, lambda i: i % 5 not in (1, 2))
    assert np.median(outside) > np.median(inside) + 150  # the papers outside the window faded towards white


def test_a_hidden_legend_group_is_not_drawn(pages):
    for page in pages.values():
        page.locator(".miread-legend-entry").first.click()
        page.wait_for_function(f"() => {MAP}.wrap.dataset.shown === '{N - N // 3}'")
        settle(page)
    _, cpu, xy = compare(pages, "hidden")
    code = pages["cpu"].evaluate("() => Number(document.querySelector('.miread-legend-entry').dataset.code)")
    codes = pages["cpu"].evaluate(f"() => Array.from({MAP}.codes)")
    h, w, _ = cpu.shape
    gone = [int(cpu[y, x].min() >= 250) for i, (x, y) in enumerate(xy) if codes[i] == code and 0 <= x < w and 0 <= y < h]
    assert sum(gone) > 0.7 * len(gone), (sum(gone), len(gone))  # white, but where another group's point lies


def test_hover_and_click_name_the_right_paper_on_the_cpu(pages):
    page = pages["cpu"]
    row = alone(page, range(0, 300))
    page.mouse.move(*page.evaluate(f"() => {MAP}.pageXY({row})"), steps=3)
    card = page.locator(".miread-card")
    card.wait_for(state="visible", timeout=20_000)
    assert (card.text_content() or "").startswith(f"Paper {row}")
    page.mouse.click(*page.evaluate(f"() => {MAP}.pageXY({row})"))
    page.wait_for_function(f"() => {MAP}.wrap.dataset.lastclicked === '{row}'", timeout=20_000)


def png(page) -> np.ndarray:
    with page.expect_download() as download:
        page.locator(".miread-png").click()
    return np.asarray(Image.open(download.value.path()).convert("RGB")).astype(int)


def test_the_png_holds_the_points_drawn_on_the_cpu(pages):
    """The PNG export: the CPU's points under regl-scatterplot's picture, as WebGL's PNG shows them."""
    gl, cpu = png(pages["gl"]), png(pages["cpu"])
    assert gl.shape == cpu.shape
    page = pages["cpu"]
    left, top = page.evaluate(f"() => {{ const r = {MAP}.wrap.getBoundingClientRect(); return [r.left, r.top]; }}")
    height = page.evaluate(f"() => {MAP}.wrap.clientHeight")
    inside = [(round(x - left), round(y - top)) for x, y in positions(page)]
    inside = [(x, y) for x, y in inside if 0 <= x < cpu.shape[1] and 0 <= y < height]
    assert len(inside) > N * 0.8
    coloured = sum(int(cpu[y, x].min() < 200) for x, y in inside)
    assert coloured > 0.5 * len(inside), (coloured, len(inside))
    same = sum(int(np.abs(gl[y, x] - cpu[y, x]).max() <= 12) for x, y in inside)
    Image.fromarray(cpu.astype(np.uint8)).save(ARTIFACTS / "map-raster-png-cpu.png")
    Image.fromarray(gl.astype(np.uint8)).save(ARTIFACTS / "map-raster-png-gl.png")
    assert same >= 0.95 * len(inside), (same, len(inside))


COPIES = """(() => { window.__copies = 0;  // regl-scatterplot's WebGL picture copied onto the map's canvas
    const draw = CanvasRenderingContext2D.prototype.drawImage;
    CanvasRenderingContext2D.prototype.drawImage = function (...args) {
        const m = window.__mireadMaps && window.__mireadMaps.export && window.__mireadMaps.export.map;
        if (m && this.canvas === m.canvas) window.__copies += 1;
        return draw.apply(this, args); }; })();"""
OPAQUE = f"""() => {{ const m = {MAP}, d = m.canvas.getContext('2d').getImageData(0, 0, m.canvas.width,
    m.canvas.height).data; let on = 0; for (let k = 3; k < d.length; k += 4) if (d[k]) on += 1; return on; }}"""


def test_a_cpu_frame_with_nothing_for_webgl_copies_no_webgl_picture(browser, html):
    """In CPU mode regl-scatterplot's WebGL picture holds nothing but what it draws over the points (a hovered
    paper's ring, a small selection's rings, a lasso): a frame without any of them clears the map's canvas instead
    of rendering and copying an empty WebGL picture (a read-back of the whole map: 60-140 ms a frame in a software
    WebGL, BENCHMARKS §31ae). A hovered paper's ring is still drawn, and cleared when the mouse leaves it."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    context.add_init_script(COPIES)
    try:
        opened = {}
        for mode in ("gl", "cpu"):
            page = opened[mode] = context.new_page()
            page.goto(f"{html.as_uri()}?raster={mode}")
            page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'"
                                   f" && {MAP}.wrap.dataset.applied", timeout=60_000)
            settle(page)
        assert opened["gl"].evaluate("() => window.__copies") >= 1  # WebGL draws the points: its picture is copied
        page = opened["cpu"]
        assert int(page.evaluate(f"() => {MAP}.wrap.dataset.frames")) >= 1
        assert page.evaluate("() => window.__copies") == 0
        assert page.evaluate(OPAQUE) == 0
        row = alone(page, range(0, 300))
        page.mouse.move(*page.evaluate(f"() => {MAP}.pageXY({row})"), steps=3)
        page.locator(".miread-card").wait_for(state="visible", timeout=20_000)
        settle(page)
        assert page.evaluate("() => window.__copies") >= 1  # the hovered paper's ring: drawn by WebGL
        assert page.evaluate(OPAQUE) > 0
        box = page.locator(".miread-map").bounding_box()
        page.mouse.move(box["x"] + box["width"] + 40, box["y"] + 10, steps=3)  # off the map: the ring goes
        page.wait_for_function(f"() => {MAP}.plot.get('hoveredPoint') === undefined"
                               f" || {MAP}.plot.get('hoveredPoint') < 0", timeout=20_000)
        settle(page)
        assert page.evaluate(OPAQUE) == 0
    finally:
        context.close()
