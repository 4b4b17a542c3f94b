"""The heavy map instance's packed data (ui/map/packing.py) read by the bundle in Chromium, without a server
(BENCHMARKS §31m): the hover text stays Arrow vectors read on hover (never decoded up front), the journal comes as an
Arrow dictionary, the card's year is made from the one year number (none for a missing year), and a new state is
drawn from one row array written in place."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

pytestmark = pytest.mark.e2e
MAP = "window.__mireadMaps.packed.map"


@pytest.fixture()
def page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    yield page
    context.close()


def packed_page(tmp_path, n: int = 300):
    from core.plots.map_data import unit_frame
    from ui.map.component import BUNDLE, points_table
    from ui.map.packing import pack

    rng = np.random.default_rng(4)
    coords = rng.normal(size=(n, 2)) * 5
    frame = pd.DataFrame({"id": [f"p{i}" for i in range(n)], "title": [f"Paper {i} <b>x</b>" for i in range(n)],
                          "journal": [f"J{i % 3}" for i in range(n)],
                          "year": [None if i % 7 == 0 else 2000 + i % 20 for i in range(n)]})
    unit = unit_frame(coords)
    table = pa.Table.from_pandas(points_table(coords, frame, unit), preserve_index=False)
    data = pack({"key": "k1", "n": n, "hub": "packed", "name": "t", "unit": [unit.cx, unit.cy, unit.half]}, table)
    path = tmp_path / "packed.html"
    path.write_text(f"""<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
<div id="map" style="height:100vh"></div>
<script type="text/plain" id="bundle">{BUNDLE.read_text(encoding="utf-8")}</script>
<script type="module">
const url = URL.createObjectURL(new Blob([document.getElementById("bundle").textContent], {{type: "text/javascript"}}));
const module = await import(url);
const bytes = Uint8Array.from(atob("{base64.b64encode(data).decode()}"), (c) => c.charCodeAt(0));
module.default({{data: bytes, parentElement: document.getElementById("map"), setStateValue() {{}},
                 setTriggerValue() {{}}}});
</script></body></html>""", encoding="utf-8")
    return path


def hover_card(page, row: int) -> str:
    page.mouse.move(5, 5)
    page.locator(".miread-card").wait_for(state="hidden", timeout=10_000)
    page.mouse.move(*page.evaluate(f"(r) => {MAP}.pageXY(r)", row), steps=3)
    page.wait_for_function(f"(r) => {MAP}.card.style.display === 'block' && {MAP}.card.dataset.row === String(r)",
                           arg=row, timeout=10_000)
    return page.locator(".miread-card").text_content() or ""


def test_packed_points_are_read_on_hover_and_redrawn_in_place(page, tmp_path):
    page.goto(packed_page(tmp_path).as_uri())
    page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'", timeout=60_000)
    kinds = page.evaluate(f"""() => ({{title: typeof {MAP}.text.title.get, array: Array.isArray({MAP}.text.title),
        year: {MAP}.text.year, journal: String({MAP}.text.journal.type)}})""")
    assert kinds["title"] == "function" and not kinds["array"]  # an Arrow vector, not 300 decoded strings
    assert kinds["year"] is None and kinds["journal"].startswith("Dictionary")
    # the card: the paper's own text as text, its year made from the number; a missing year shows none
    for row in (8, 14):  # 8: 2008; 14: no year (14 % 7 == 0)
        card = hover_card(page, row)
        assert f"Paper {row} <b>x</b>" in card and f"J{row % 3}" in card
        assert ("2008" in card) if row == 8 else not any(w in card for w in ("NaN", "null", " 0", "2014"))
    # a new state: the codes are written into the same row array and drawn
    frames = page.evaluate(f"() => Number({MAP}.wrap.dataset.frames || 0)")
    rows_before = page.evaluate(f"() => {{ window.__rows = {MAP}.rowsOfPoints; return {MAP}.rowsOfPoints.length; }}")
    page.evaluate(f"""() => {MAP}.apply({{state: {{palette: ["#111111", "#222222", "#333333"], legend: []}},
        codes: Uint8Array.from({{length: {MAP}.n}}, (_, i) => i % 3)}})""")
    page.wait_for_function(f"(f) => Number({MAP}.wrap.dataset.frames || 0) > f", arg=frames, timeout=30_000)
    same, codes = page.evaluate(f"() => [window.__rows === {MAP}.rowsOfPoints, [4, 5, 6].map((i) => {MAP}.rowsOfPoints[i][2])]")
    assert rows_before == 300 and same and codes == [1, 2, 0]
