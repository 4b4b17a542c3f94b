"""The preview's sentence counts in English: '1 paper', '1 row will be skipped', 'the first 1 row' (it read
'1 papers, 1 with an abstract; 1 rows will be skipped'; README: counts read '1 paper', '2 papers')."""

from core.io.ids import IdStats as _IdStats
from core.io.plan import ImportPlan


def _plan(papers: int, with_abstract: int, skipped: int, complete: bool = True) -> ImportPlan:
    return ImportPlan(file="f.ris", reading={}, source_columns=[], records=papers + skipped, papers=papers,
                      with_abstract=with_abstract, skipped=[{"row": i, "reason": "x"} for i in range(skipped)],
                      complete=complete)


def test_one_paper_and_one_skipped_row_are_singular():
    assert _plan(1, 1, 1).summary() == "1 paper, 1 with an abstract; 1 row will be skipped"
    assert _plan(2, 1, 0).summary() == "2 papers (1 title-only), 1 with an abstract; 0 rows will be skipped"
    assert _plan(0, 0, 1, complete=False).summary() == "0 papers, 0 with an abstract; 1 row will be skipped in " \
                                                       "the first 1 row"


def test_an_id_note_over_one_row_is_singular():
    assert _IdStats("id", rows=1).problem() == "the first row holds no id or a placeholder (empty)"
    assert _IdStats("id", rows=3).problem() == "the first 3 rows hold no id or a placeholder (empty)"
