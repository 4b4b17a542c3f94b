"""Finding a paper by DOI or title words, authors on one line, and the map's zoom window in a link (issue 31)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.display import author_text
from core.explore.search import find_papers
from ui.views import parse_view, parse_zoom, view_query, zoom_text

FRAME = pd.DataFrame({
    "id": ["a", "b", "c", "d"],
    "title": ["Deep learning for cell images", "Cells, deep-learning and images!", "Other topic", None],
    "doi": ["http://dx.doi.org/10.1/AB", None, "10.2/x", "doi: 10.3/Y"],
})


def test_a_doi_finds_its_paper_whatever_prefix_or_case_either_side_has():
    assert find_papers(FRAME, "10.1/ab").tolist() == [0]
    assert find_papers(FRAME, "https://doi.org/10.2/X").tolist() == [2]
    assert find_papers(FRAME, "10.3/y").tolist() == [3]


def test_title_words_match_in_any_order_ignoring_case_and_punctuation_best_first():
    assert find_papers(FRAME, "deep learning").tolist() == [0, 1]  # the title starting with the words first
    assert find_papers(FRAME, "images cell").tolist() == [0, 1]  # neither starts with them: the shorter title first
    assert find_papers(FRAME, "cells deep").tolist() == [1]
    assert find_papers(FRAME, "deep-learning, CELL").tolist() == [0, 1]
    assert find_papers(FRAME, "nothing like it").tolist() == []
    assert find_papers(FRAME, "  ").tolist() == []
    assert find_papers(FRAME, "10.9/none").tolist() == []  # an unknown DOI matches no title either
    assert len(find_papers(pd.DataFrame({"title": ["same words"] * 50}), "same", limit=20)) == 20
    everything = find_papers(pd.DataFrame({"title": ["same words"] * 50 + ["same"]}), "same", limit=None)
    assert len(everything) == 51 and everything[0] == 50  # every match, so the map can say how many; best first


def test_authors_read_as_one_line_from_lists_and_strings():
    assert author_text(["Yang, Z.", "Jiang, B.", "Xu, J.", "McNamara, M.E."]) == "Yang, Z.; Jiang, B.; Xu, J. et al."
    assert author_text(["Yang, Z.", "Jiang, B."]) == "Yang, Z.; Jiang, B."
    assert author_text("Smith J; Doe A; Roe B; Poe C", limit=None) == "Smith J; Doe A; Roe B; Poe C"
    assert author_text("Smith, John") == "Smith, John"
    assert author_text(None) == "" and author_text(float("nan")) == "" and author_text([]) == ""


def test_a_zoom_window_round_trips_through_the_link_and_a_bad_one_is_named():
    zoom = (-1.25, 3.5, 0.0, 2.0)
    query = view_query(corpus="c", model="m", method="umap", colour="journal", zoom=zoom)
    assert query["zoom"] == "-1.25,3.5,0,2"
    assert parse_zoom(query["zoom"]) == zoom
    assert parse_zoom(zoom_text((0.123456789, 1.0, 2.0, 3.0))) == (0.12346, 1.0, 2.0, 3.0)
    for bad in ("1,0,0,1", "0,1,1,0", "0,1,2", "a,b,c,d", "0,1,0,inf", "0,1,0,nan", ""):
        assert parse_zoom(bad) is None, bad
    view = parse_view({"zoom": "0,1,0"}, corpora=["c"], models=["m"], columns=lambda c: [])
    assert view.zoom is None
    assert view.problems == ["The link's zoom '0,1,0' is not a window like x0,x1,y0,y1 (four numbers, each pair "
                             "increasing); showing the whole map."]
    assert parse_view({"zoom": "0,1,0,1"}, corpora=["c"], models=["m"], columns=lambda c: []).zoom == (0, 1, 0, 1)


def test_journal_suggestions_within_a_collection_vote_only_among_its_papers(tmp_path, tiny_model_dir):
    import pytest

    from core.embedding import embed_corpus
    from core.errors import MireadError
    from core.explore import predict_journals
    from core.store import Store
    from tests.helpers import make_papers, register_tiny

    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(), source="t")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    mine = ["econ-1", "econ-2", "bio-3"]
    made = predict_journals(store, "tiny", title="On galaxy and stellar", abstract="galaxy stellar", corpus="c",
                            label_column="journal", within=mine)
    assert made.method == "knn" and made.nearest == 3
    assert {e for p in made.predictions for e in p["evidence"]} <= set(mine)
    assert np.isclose(sum(p["weight_share"] for p in made.predictions), 1.0)
    with pytest.raises(MireadError, match="none of the chosen papers is in corpus 'c' now"):
        predict_journals(store, "tiny", title="x", abstract="y", corpus="c", label_column="journal",
                         within=["gone"])
    with pytest.raises(MireadError, match="cannot be limited to a collection"):
        predict_journals(store, "tiny", title="x", abstract="y", corpus="c", label_column="journal",
                         within=mine, method="head")


def test_row_of_finds_each_paper_by_its_id_once_per_frame() -> None:
    import pandas as pd

    from core.explore.search import lookup

    frame = pd.DataFrame({"id": ["a", 7, "c", "a"], "title": ["A", "B", "C", "A again"]})
    assert lookup.row_of(frame, "c") == 2
    assert lookup.row_of(frame, "7") == 1  # ids are compared as text, as the page and the CLI give them
    assert lookup.row_of(frame, "a") == 0  # a repeated id: its first row
    assert lookup.row_of(frame, "zzz") is None and lookup.row_of(frame, None) is None and lookup.row_of(frame, "") is None
    from core import frames

    index = frames._KEPT[id(frame)][2]["id_index"]
    assert lookup.row_of(frame, "c") == 2 and frames._KEPT[id(frame)][2]["id_index"] is index  # built once
    grown = pd.concat([frame, pd.DataFrame({"id": ["d"], "title": ["D"]})], ignore_index=True)
    assert lookup.row_of(grown, "d") == 4
    key = id(frame)
    del frame, index
    import gc

    gc.collect()
    assert key not in frames._KEPT  # the index goes with its frame


@pytest.mark.parametrize("dtype", ["str", "string[python]", "string[pyarrow]", object])
def test_row_of_reads_the_id_column_as_text_in_every_dtype_it_comes_in(dtype) -> None:
    """The id index is made from the column's own text (BENCHMARKS §31q): every id, a repeated one, a missing one and
    an unknown one give the row a scan of the ids as text gives."""
    from core.explore.search import lookup

    ids = ["a", "b", "a", None, "Straße", "10.1/x", "7"]
    frame = pd.DataFrame({"id": pd.Series(ids, dtype=dtype), "title": list("ABCDEFG")})
    texts = frame["id"].astype(str).tolist()
    for wanted in [*texts, "zzz", "nan", "A", "strasse"]:
        scan = next((row for row, text in enumerate(texts) if text == wanted), None)
        assert lookup.row_of(frame, wanted) == scan, wanted


def test_row_of_on_the_papers_frame_of_a_store(tmp_path) -> None:
    from core.explore.search import lookup
    from core.store import Store
    from tests.helpers import make_papers

    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(10), source="t")
    frame = store.papers_frame("c")
    assert str(frame["id"].dtype) == "str" and len(frame) == 30
    assert [lookup.row_of(frame, pid) for pid in frame["id"]] == list(range(30))
