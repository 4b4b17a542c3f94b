"""The overlap chart's counts read level on a phone: Plotly turned a count that fitted a short bar better on its side
(a 390 px wide screen showed '4' and '3' rotated by 90 degrees inside the bars)."""

from __future__ import annotations

from ui.import_report import combinations_figure


def test_the_counts_on_the_bars_are_never_turned_on_their_side():
    summary = {"combinations": {("Lens",): 4, ("Web of Science",): 3, ("Scopus", "Web of Science"): 1}}
    bar = combinations_figure(summary).data[0]
    assert bar.textangle == 0
    assert [int(t) for t in bar.text] == [4, 3, 1]
    assert list(bar.y) == ["Lens", "Web of Science", "Scopus + Web of Science"]
