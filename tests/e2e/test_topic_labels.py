"""Topic names on the map stay readable where two clusters' centres lie close (qa20: at phone width the two coarse
names of a 60-paper corpus were drawn across each other, neither readable)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.store import Store
from tests.e2e.conftest import Tab, app_tab, embedded_store
from tests.helpers import make_papers

pytestmark = pytest.mark.e2e

# the label boxes the map drew (before qa20 each name was drawn at its cluster's centre: worked out from the state)
LABEL_BOXES = """() => { const m = window.__mireadMaps.map.map; if (m.labelBoxes) return m.labelBoxes;
    const g = document.createElement('canvas').getContext('2d'); g.font = 'bold 12px sans-serif';
    const zoom = m.camera ? Math.abs(m.camera[0]) : 1, labels = m.overlayState.labels;
    const coarse = labels.some(l => l.level === 'coarse'), fine = labels.some(l => l.level === 'fine');
    return labels.filter(l => !(l.level === 'fine' && zoom < 2 && coarse) && !(l.level === 'coarse' && zoom >= 2 && fine))
      .map(l => { const [x, y] = m.screen(l.x, l.y), half = g.measureText(String(l.text)).width / 2 + 4;
                  return [x - half, y - 7, x + half, y + 7]; }); }"""


@pytest.fixture(scope="module")
def tab(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tab]:
    store: Store = embedded_store(tmp_path_factory, "topic-labels", "c", make_papers(20), "make_papers")
    with app_tab(browser, store) as tab:
        tab.page.set_viewport_size({"width": 390, "height": 844})
        tab.url += "/?corpus=c&model=tiny&method=pca&colour=topics&k=8"
        yield tab.open()


def test_topic_names_are_not_drawn_over_each_other_at_phone_width(tab: Tab):
    tab.map_drawn()

    def drawn() -> list:
        boxes = tab.page.evaluate(LABEL_BOXES)
        assert len(boxes) == 2, boxes  # the two coarse names
        return boxes
    boxes = tab.eventually(drawn)
    crossed = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
               if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    assert not crossed, boxes
    assert tab.errors == []
