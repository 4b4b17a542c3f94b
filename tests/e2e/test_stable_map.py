"""A map that stays put, in Chromium (issue 31): a corpus of 120 real medical abstracts is mapped (t-SNE, the
packaged MiniLM model), 200 more real abstracts are imported into it and embedded, and the reloaded map draws every
old paper exactly where it was, the 200 new ones ringed and counted in the caption."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from core.embedding import embed_corpus
from core.explore import stable_coordinates
from core.store import Store, import_file
from tests.conftest import SHARED_DATA
from tests.e2e.conftest import Tab, app_tab

pytestmark = pytest.mark.e2e

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "topics" / "abstracts.jsonl"
MORE = SHARED_DATA / "medical_abstracts.jsonl.gz"
RING = "new since the map was fitted"
ADDED = 200


def more_abstracts(path: Path) -> Path:
    """A JSONL file of ADDED real abstracts the corpus does not hold yet (none a duplicate, which would be merged)."""
    def key(record: dict) -> str:
        return re.sub(r"\W+", "", str(record.get("title", "")).lower())

    seen = {key(json.loads(line)) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()}
    rows = []
    with gzip.open(MORE, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if key(record) and key(record) not in seen and record.get("abstract"):
                seen.add(key(record))
                rows.append(line)
            if len(rows) == ADDED:
                break
    path.write_text("".join(rows), encoding="utf-8")
    return path


def drawn(tab: Tab) -> dict[str, dict[int, tuple[float, float]]]:
    """The map component's points by corpus row in the map's coordinates, and the ringed (new) papers."""
    tab.map_drawn()
    got = tab.page.evaluate("""() => { const m = window.__mireadMaps.map.map; const u = m.unit;
        return {x: Array.from(m.x, v => u[0] + v * u[2]), y: Array.from(m.y, v => u[1] + v * u[2]),
                rings: Array.from((m.overlayState && m.overlayState.rings) || [])}; }""")
    out = {"papers": {i: (x, y) for i, (x, y) in enumerate(zip(got["x"], got["y"]))}}
    if got["rings"]:
        out[RING] = {int(r): out["papers"][int(r)] for r in got["rings"]}
    return out


def papers(traces: dict[str, dict[int, tuple[float, float]]]) -> dict[int, tuple[float, float]]:
    """Every paper's drawn position (the ring trace draws new papers a second time)."""
    return {row: xy for name, points in traces.items() if name != RING for row, xy in points.items()}


@pytest.mark.slow  # 50-140 s: in `make test-slow`, keeping `make test` near 20 min
def test_added_papers_are_placed_on_the_map_and_the_old_ones_stay_put(browser, tmp_path_factory):
    if not MORE.exists():
        pytest.skip(f"no {MORE}")
    root = tmp_path_factory.mktemp("stable-map")
    store = Store(root / "ws")
    import_file(store, FIXTURE, "med")
    embed_corpus(store, "med", "minilm")
    first, _ = stable_coordinates(store, "med", "minilm", "tsne")  # the corpus is mapped
    old_ids = store.paper_ids("med")
    with app_tab(browser, store) as tab:
        tab.url += "/?corpus=med&model=minilm&method=tsne"
        tab.open()
        tab.see(re.compile(rf"TSNE: drawing all {len(old_ids)} papers"), where="[data-testid=stCaptionContainer]")
        before = tab.eventually(lambda: _all_papers(drawn(tab), len(old_ids)))
        assert RING not in drawn(tab)
        assert import_file(store, more_abstracts(root / "more.jsonl"), "med").added == ADDED
        embed_corpus(store, "med", "minilm")
        tab.open()  # reload
        caption = tab.see(re.compile(r"added since this map was fitted"), where="[data-testid=stCaptionContainer]")
        assert caption == (f"{ADDED} papers added since this map was fitted are marked new (placed from their "
                           "nearest mapped papers).")
        traces = tab.eventually(lambda: _ring(drawn(tab)))
        after = papers(traces)
        assert len(after) == len(old_ids) + ADDED
        assert store.paper_ids("med")[: len(old_ids)] == old_ids  # old papers keep their rows
        for row in range(len(old_ids)):  # every old paper drawn exactly where it was
            assert after[row] == pytest.approx(before[row], abs=1e-4), row
            assert after[row] == pytest.approx(tuple(first.coords[row]), abs=1e-4), row
        assert sorted(traces[RING]) == list(range(len(old_ids), len(old_ids) + ADDED))  # the new ones ringed
        tab.snap("stable-map-new-papers")
        tab.click("Re-fit the map")  # a fresh fit of all 320, aligned onto this map; the report, then undo
        report = tab.see(re.compile("Re-fitted: the median paper moved"), where="[data-testid=stCaptionContainer]")
        assert re.search(r"papers? of 320 moved more than 10%", report), report
        assert RING not in tab.eventually(lambda: _all_papers_traces(drawn(tab), len(old_ids) + ADDED))
        undo = tab.page.get_by_role("button", name=re.compile(
            rf"^Undo re-fit: back to the TSNE map fitted on {len(old_ids)} papers on .*, {ADDED} placed since$"))
        undo.click()
        tab.idle()
        restored = papers(tab.eventually(lambda: _ring(drawn(tab))))
        assert all(restored[row] == pytest.approx(after[row], abs=1e-4) for row in after)
        assert tab.errors == []


def _all_papers(traces: dict, n: int) -> dict[int, tuple[float, float]]:
    points = papers(traces)
    assert len(points) == n, len(points)
    return points


def _all_papers_traces(traces: dict, n: int) -> dict:
    _all_papers(traces, n)
    return traces


def _ring(traces: dict) -> dict:
    assert len(traces.get(RING, {})) == ADDED, {k: len(v) for k, v in traces.items()}
    return traces
