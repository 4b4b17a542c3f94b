"""A merge review reloaded midway (qa20): two databases' exports of one search imported together, one merge split,
the page reloaded (a new browser session): the split stays made, the other merges are still offered once each, and
the numbers add up (papers = records read - merges left)."""

from __future__ import annotations

from core.store import Store
from tests.app.test_pages import empty_workspace, open_app  # noqa: F401 (fixtures)


def _ris(prefix: str, style: str) -> bytes:
    """Three records, each with its own DOI; the two databases write the titles and abstracts differently."""
    out = []
    for i in range(3):
        title = f"A study of things number {i}" if style == "a" else f"A Study of Things Number {i}."
        abstract = f"Abstract {i} as the first database has it." if style == "a" else f"Abstract {i}, second database."
        out.append(f"TY  - JOUR\nID  - {prefix}{i}\nTI  - {title}\nAB  - {abstract}\nDO  - 10.1/x{i}\nER  - \n")
    return "".join(out).encode()


def _splits(at) -> list[str]:
    return [b.label for b in at.button if b.label.startswith("Split record")]


def test_a_merge_review_reloaded_midway_keeps_each_decision_once(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    at.file_uploader[0].set_value([("pubmed.ris", _ris("P", "a"), "text/plain"),
                                   ("scopus.ris", _ris("S", "b"), "text/plain")]).run()
    at.text_input[0].set_value("search").run()
    next(b for b in at.button if b.label == "Import 2 files into corpus search").click().run()
    assert not at.exception, at.exception
    store = Store(empty_workspace)
    assert store.corpus("search").papers == 3
    assert len(_splits(at)) >= 1
    next(b for b in at.button if b.label.startswith("Split record")).click().run()  # one decision, then reload
    assert not at.exception and store.corpus("search").papers == 4

    again = open_app("app_pages/library.py", model=None)  # the reload: a new session on the same workspace
    assert not again.exception and store.corpus("search").papers == 4
    expander = next(e.label for e in again.expander if e.label.startswith("Merged records of search"))
    assert expander.endswith("(2 records)"), expander
    while _splits(again):  # decide the rest: each is offered once and each split adds one paper
        again.button(key="split_button_corpus").click().run()
        assert not again.exception, again.exception
    assert store.corpus("search").papers == 6  # six records read, no merge left
