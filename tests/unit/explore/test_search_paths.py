"""Issue 43 walked as a researcher types (helper qa14): filters that leave nothing, a phrase held only outside the
filters, an author filter on a list column, why a result matched not depending on how many were asked for, queries
with no word to match, and the CLI and MCP taking the same filters."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.explore.search.hybrid import search
from core.explore.search.similar import filter_mask
from core.mcp import papers as mcp
from core.mcp.workspace import Workspace
from core.records import Paper
from tests.unit.cli.test_collections_cli import run


def test_a_year_range_that_leaves_no_paper_says_so_and_never_claims_closest_papers(embedded):
    for query in ("galaxy inflation", "graph neural networks", '"dark matter"', "galaxy"):
        found = search(embedded, "c", "tiny", query, k=5, year_range=(1900, 1901))
        assert found.results == []
        assert found.notice == "no paper passes the filters", (query, found.notice)


def test_a_phrase_held_only_outside_the_filters_is_not_said_to_be_held_by_no_paper(embedded):
    found = search(embedded, "c", "tiny", '"dark matter"', k=5, filters={"journal": ["J. Bio"]})
    assert found.notice is not None and "no paper here" not in found.notice
    assert found.notice == ("no paper that passes the filters mentions all of dark matter; the closest by words or "
                            "meaning are these")  # which says more than 'holds no "dark matter"'
    phrase = search(embedded, "c", "tiny", '"matter problem"', k=5, filters={"journal": ["J. Bio"]})
    assert phrase.notice == ('no paper that passes the filters holds "matter problem"; these hold its words or are '
                             "close in meaning")  # bio papers hold both words, never the phrase
    assert found.results and all(r["journal"] == "J. Bio" for r in found.results)
    anywhere = search(embedded, "c", "tiny", '"dark matter"', k=5)
    assert anywhere.notice is None and anywhere.results


def test_words_held_together_only_outside_the_filters_are_said_so(embedded):
    """'redshift telescope' is held together by astro papers only: among biology papers none holds both."""
    found = search(embedded, "c", "tiny", "redshift telescope", k=5, filters={"journal": ["J. Bio"]})
    assert found.notice == ("no paper that passes the filters mentions all of redshift telescope; the closest by "
                            "words or meaning are these")


def test_an_author_filter_keeps_the_papers_whose_author_list_holds_the_name():
    frame = pd.DataFrame({"id": ["a", "b", "c"], "title": ["x", "y", "z"],
                          "authors": [["Doe, J", "Roe, R"], np.array(["Poe, E"]), None]})
    assert filter_mask(frame, {"authors": ["Roe, R"]}).tolist() == [True, False, False]
    assert filter_mask(frame, {"authors": ["Poe, E", "Doe, J"]}).tolist() == [True, True, False]


def test_why_a_result_matched_does_not_depend_on_how_many_results_were_asked_for(embedded):
    for query in ("redshift telescope", "protein gene", "market"):
        few = search(embedded, "c", "tiny", query, k=5)
        many = {r["id"]: r["why"] for r in search(embedded, "c", "tiny", query, k=15).results}
        assert [(r["id"], r["why"]) for r in few.results] == [(r["id"], many[r["id"]]) for r in few.results], query


def test_a_query_of_only_common_words_or_symbols_says_it_has_no_word_to_match(embedded):
    for query in ("the of and with", "🧬🦠", "?!"):
        found = search(embedded, "c", "tiny", query, k=3)
        assert found.results and all(r["why"]["match"] == "meaning" for r in found.results)
        assert found.notice is not None and found.notice.startswith("no word of the query is searched"), found.notice


def _authored(embedded):
    embedded.import_papers("c", [Paper(id=f"au-{i}", title=f"Galaxy survey number {i}", abstract="Redshift maps.",
                                       fields={"journal": "J. Astro", "year": 2003,
                                               "authors": ["Doe, J", f"Roe {i}"] if i < 2 else [f"Poe {i}"]})
                                 for i in range(4)])
    from core.embedding import embed_corpus

    embed_corpus(embedded, "c", "tiny")
    return embedded


def test_mcp_searches_by_author_and_the_cli_takes_the_same_filters(embedded, capsys):
    store = _authored(embedded)
    doc = mcp.search_papers(Workspace(store), "galaxy survey", corpus="c", model="tiny",
                            labels={"authors": ["Doe, J"]})
    assert sorted(r["id"] for r in doc["results"]) == ["au-0", "au-1"]
    code, cli, err = run(store, capsys, "search", "--corpus", "c", "--model", "tiny", "--abstract", "galaxy survey",
                         "--filter", "authors=Doe, J", "--json")
    assert code == 0, err
    assert [r["id"] for r in cli["results"]] == [r["id"] for r in doc["results"]]
    code, cli, err = run(store, capsys, "search", "--corpus", "c", "--model", "tiny", "--abstract", "galaxy",
                         "--filter", "journal=J. Astro", "--year-from", "2001", "--year-to", "2002", "--json")
    assert code == 0, err
    assert cli["results"] and all(r["journal"] == "J. Astro" and 2001 <= r["year"] <= 2002 for r in cli["results"])
    code, cli, err = run(store, capsys, "search", "--corpus", "c", "--model", "tiny", "--abstract", "galaxy",
                         "--year-from", "1900", "--year-to", "1901", "--json")
    assert code == 0 and cli["results"] == [] and cli["notice"] == "no paper passes the filters"
    code, _, err = run(store, capsys, "search", "--corpus", "c", "--model", "tiny", "--abstract", "galaxy",
                       "--filter", "nosuchcolumn=x")
    assert code == 2 and "no column 'nosuchcolumn'" in err


def test_a_pasted_abstract_ranked_by_meaning_alone_says_so_not_a_list_of_its_words(embedded):
    """A query of more than 20 words is ranked by the dense model alone (lexical weight 0): its results matched by
    meaning, so they say "close in meaning", not the dozens of the abstract's words they happen to hold."""
    paper = embedded.papers("c")[7]
    found = search(embedded, "c", "tiny", " ".join([paper.abstract] * 2), title=paper.title, k=5)
    assert found.weights["lexical"] == 0
    assert all(r["why"] == {"match": "meaning", "words": [], "meaning": True} for r in found.results)


def test_a_phrase_whose_words_no_paper_holds_together_is_said_once(embedded):
    found = search(embedded, "c", "tiny", '"galaxy inflation"', k=3)
    assert found.notice == ("no paper here mentions all of galaxy inflation; the closest by words or meaning are "
                            "these")


def test_one_word_no_paper_passing_the_filters_holds_is_said_so(embedded):
    """An author or journal filter plus one word: the papers left may not hold it; they are then the closest, not
    matches, and the search says so (as it does for several words)."""
    found = search(embedded, "c", "tiny", "redshift", k=3, filters={"journal": ["J. Bio"]})
    assert found.notice == "no paper that passes the filters mentions redshift; the closest by words or meaning are these"
    assert search(embedded, "c", "tiny", "redshift", k=3).notice is None


def test_a_result_far_in_meaning_is_not_called_close_in_meaning(embedded):
    """qa14 saw "close in meaning" beside a similarity of −0.06 (a filter left only distant papers). A result that
    holds no query word and whose similarity is under LOW_SIMILARITY (the measured split between off-topic and
    on-topic queries' best similarity) is "nearest in meaning" with its similarity, never "close"."""
    from core.explore.search.hybrid import LOW_SIMILARITY, why_text

    seen = []
    for query in ("🧬🦠", "graph neural networks", "galaxy", "the of and with"):
        for filters in (None, {"journal": ["J. Bio"]}):
            for r in search(embedded, "c", "tiny", query, k=10, filters=filters).results:
                text = why_text(r["why"])
                seen.append(r["score"])
                if r["score"] < LOW_SIMILARITY and not r["why"]["words"]:
                    assert "close in meaning" not in text and text.startswith("nearest in meaning"), (query, text)
                    assert f"similarity {r['score']:.2f}" in text, text
                if "close in meaning" in text:
                    assert r["score"] >= LOW_SIMILARITY, (query, r["score"], text)
    assert min(seen) < LOW_SIMILARITY <= max(seen)  # both kinds were seen
