"""Word + meaning search: the BM25 index (phrases, persistence, rebuilt on import), fusion weights, why, notices."""

import numpy as np
import pandas as pd
import pytest

from core.errors import MireadError
from core.explore.search import hybrid, lexical
from core.explore.search.hybrid import fuse, lexical_weight, search
from core.explore.search.lexical import LexicalIndex, PaperText, corpus_lexical, quoted_phrases
from core.records import Paper

TEXTS = ["Dark matter halo profiles in dwarf galaxies", "A halo of dark clouds; the matter of stars",
         "Quantum error correction with surface codes", "Graph colouring basics", "Running runners ran"]


def test_bm25_ranks_stems_and_leaves_out_stop_words():
    index = LexicalIndex.build(TEXTS)
    assert index.terms("The halos of dark matter") == ["halo", "dark", "matter"]
    scores, rows = index.search("correcting errors", 5)
    assert rows.tolist() == [2] and scores[0] > 0
    assert index.search("run", 5)[1].tolist() == [4]  # running / runners / ran share the stem 'run'
    assert index.search("nothing like this", 5)[1].size == 0


def test_known_share_counts_query_words_the_corpus_has():
    index = LexicalIndex.build(TEXTS)
    assert index.known_share("graph neural networks") == pytest.approx(1 / 3)
    assert index.known_share("transformer attention") == 0
    assert index.known_share("the of") == 1.0  # only stop words: nothing to judge


def test_quoted_phrases_keep_only_papers_holding_them():
    index = LexicalIndex.build(TEXTS)
    assert quoted_phrases('halo "Dark  Matter" and “surface codes”') == ["dark matter", "surface codes"]
    assert index.phrase_mask(["dark matter"], TEXTS).tolist() == [True, False, False, False, False]
    assert not index.phrase_mask(["matter dark"], TEXTS).any()  # the words, but not in that order
    assert not index.phrase_mask(["dark matter", "surface codes"], TEXTS).any()


def test_index_persists_and_is_rebuilt_when_the_corpus_changes(embedded, monkeypatch):
    lexical._INDEXES.clear()
    first = corpus_lexical(embedded, "c")
    assert first.papers == 15
    folder = next((embedded.arrays / "indexes").glob(f"c-{lexical.INDEX_KEY}-v*.npz"))
    lexical._INDEXES.clear()
    built = []
    monkeypatch.setattr(LexicalIndex, "build", classmethod(lambda cls, texts, stem=True: built.append(1)))
    loaded = corpus_lexical(embedded, "c")
    assert loaded.papers == 15 and not built  # loaded from disk, not rebuilt...
    assert loaded.search("redshift telescope", 5)[1].tolist() == first.search("redshift telescope", 5)[1].tolist()
    monkeypatch.undo()
    embedded.import_papers("c", [Paper(id="new-1", title="Pulsar timing arrays", abstract="Nanohertz waves.")])
    second = corpus_lexical(embedded, "c")
    assert second.papers == 16 and second.search("pulsar", 3)[1].tolist() == [15]
    assert not folder.exists()  # the older version's index is gone


def test_a_deleted_corpus_takes_its_index_to_the_trash_and_a_new_one_of_that_name_builds_its_own(store):
    from tests.helpers import make_papers

    lexical._INDEXES.clear()
    store.import_papers("d", make_papers(2))
    assert corpus_lexical(store, "d").search("galaxy", 3)[1].size
    store.delete_corpus("d")
    assert not list((store.arrays / "indexes").glob("d-*"))  # moved with the corpus
    lexical._INDEXES.clear()
    store.import_papers("d", [Paper(id=f"x{i}", title=f"Pulsar {i}", abstract="Timing.") for i in range(6)])
    fresh = corpus_lexical(store, "d")
    assert fresh.search("galaxy", 3)[1].size == 0 and fresh.search("pulsar", 3)[1].size == 3


def test_lexical_weight_depends_on_length_vocabulary_and_phrases():
    short, title, abstract = lexical_weight(3, 1.0), lexical_weight(12, 1.0), lexical_weight(200, 1.0)
    assert short >= title > 0 and abstract == 0 and lexical_weight(40, 1.0) == 0
    assert lexical_weight(3, 0.0) == 0 and lexical_weight(3, 0.5) == pytest.approx(short / 2)
    assert lexical_weight(200, 1.0, phrases=True) == short


def test_coverage_says_how_fully_the_best_match_holds_the_query_words():
    index = LexicalIndex.build(TEXTS)
    whole = index.coverage("quantum surface codes")  # one paper holds all three rare words
    part = index.coverage("quantum halo stars")  # no paper holds more than one of them
    assert 0 < part < whole <= 1
    assert index.coverage("transformer attention") == 0  # no word in the corpus
    best = float(index.search("quantum surface codes", 1)[0][0])
    assert index.coverage("quantum surface codes", best) == pytest.approx(whole)
    assert index.coverage("quantum surface codes", best / 2) == pytest.approx(whole / 2)  # a filtered best


def test_lexical_weight_follows_the_best_match_coverage():
    full = lexical_weight(3, 1.0)
    assert lexical_weight(3, 1.0, coverage=0.5) == pytest.approx(full * 0.5 ** hybrid.COVERAGE_POWER)
    assert lexical_weight(3, 1.0, coverage=0.0) == 0 and lexical_weight(200, 1.0, coverage=1.0) == 0


def test_search_weighs_words_by_how_fully_the_best_paper_holds_them(embedded):
    lexical._INDEXES.clear()
    index = corpus_lexical(embedded, "c")
    query = "redshift telescope"
    found = search(embedded, "c", "tiny", query, k=5)
    cover = index.coverage(query)
    assert 0 < cover <= 1
    assert found.weights["lexical"] == pytest.approx(round(lexical_weight(2, index.known_share(query),
                                                                          coverage=cover), 3))


def test_fuse_weights_the_rankings():
    dense, words = np.array([1, 2, 3]), np.array([3, 4])
    assert fuse([dense, words], [1.0, 0.0], 3).tolist() == [1, 2, 3]
    assert fuse([dense, words], [1.0, 1.0], 2).tolist() == [3, 1]  # in both lists beats first in one
    assert fuse([dense, words], [1.0, 5.0], 4).tolist() == [3, 4, 1, 2]


def test_search_finds_words_and_says_why(embedded):
    found = search(embedded, "c", "tiny", "redshift telescope", k=5)
    top = found.results[0]
    assert "redshift" in top["title"].lower() or "redshift" in top["abstract"].lower()
    assert set(top["why"]["words"]) == {"redshift", "telescope"} & set(top["abstract"].lower().replace(".", "").split())
    assert top["why"]["match"] in ("words", "both") and found.weights["lexical"] > 0
    assert [r["rank"] for r in found.results] == [1, 2, 3, 4, 5]


def test_quoted_phrase_restricts_results_or_says_none_holds_it(embedded):
    found = search(embedded, "c", "tiny", '"dark matter"', k=15)
    assert found.results and all("dark matter" in f"{r['title']} {r['abstract']}".lower() for r in found.results)
    missing = search(embedded, "c", "tiny", '"matter dark" galaxy', k=3)
    assert "no paper here holds \"matter dark\"" in missing.notice and missing.results


def test_nothing_mentions_the_words(embedded, monkeypatch):
    monkeypatch.setattr(hybrid, "LOW_SIMILARITY", 2.0)  # the tiny random model's similarities mean nothing
    found = search(embedded, "c", "tiny", "graph neural networks", k=3)
    assert found.notice == "no paper here mentions graph neural networks; the closest in meaning are these"
    assert found.weights["lexical"] == 0 and all(r["why"]["match"] == "meaning" for r in found.results)
    assert search(embedded, "c", "tiny", "galaxy", k=3).notice is None
    some = search(embedded, "c", "tiny", "galaxy inflation", k=3)  # each word occurs, never both in one paper
    assert some.notice == "no paper here mentions all of galaxy inflation; the closest by words or meaning are these"
    assert {w for r in some.results for w in r["why"]["words"]} <= {"galaxy", "inflation"}


def test_long_query_ranks_as_dense_alone_and_filters_hold(embedded):
    from core.explore import similar_papers

    paper = embedded.papers("c")[7]
    long_text = " ".join([paper.abstract] * 8)
    fused = search(embedded, "c", "tiny", long_text, title=paper.title, k=6)
    dense = similar_papers(embedded, "c", "tiny", title=paper.title, abstract=long_text, k=6)
    assert [r["id"] for r in fused.results] == [r["id"] for r in dense.results] and fused.weights["lexical"] == 0
    filtered = search(embedded, "c", "tiny", "protein gene", k=20, filters={"journal": ["J. Econ"]})
    assert filtered.results and all(r["journal"] == "J. Econ" for r in filtered.results)
    with pytest.raises(MireadError, match="empty"):
        search(embedded, "c", "tiny", "  ")


def test_word_spans_mark_inflections_and_give_the_text_back():
    from core.explore.search.lexical import word_spans

    text = "Dark-matter halos; the HALO of [x](y)."
    pieces = word_spans(text, ["halo"])
    assert "".join(p for p, _ in pieces) == text
    assert [p for p, hit in pieces if hit] == ["halos", "HALO"]


def test_highlight_escapes_data_text_before_marking_words():
    from tests.hostile import HOSTILE, markdown_dangers
    from ui.search_view import highlighted

    line = highlighted(f"{HOSTILE} telescope", ["telescope", "evil", "img"])
    assert "**telescope**" in line and "**evil**" in line and not markdown_dangers(line)
    assert highlighted("a  b\n\nc", []) == "a b c"


def test_paper_text_reads_rows_without_copying_the_columns(monkeypatch):
    """A search reads the title and abstract of a few hundred rows; copying both columns of a 1M-paper corpus into
    Python strings cost ~0.5 s a query (BENCHMARKS §28d)."""
    frame = pd.DataFrame({"title": pd.array(["Alpha", None, "Gamma"], dtype="str"),
                          "abstract": pd.array(["one", "two", None], dtype="str")})

    def refuse(*args, **kwargs):
        raise AssertionError("the whole column was copied")

    monkeypatch.setattr(pd.Series, "to_numpy", refuse)
    monkeypatch.setattr(pd.Series, "tolist", refuse)
    texts = PaperText(frame)
    assert [texts[0], texts[1], texts[2]] == ["Alpha one", " two", "Gamma "]
