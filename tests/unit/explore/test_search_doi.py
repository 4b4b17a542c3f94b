"""A DOI typed as the query (bare, doi.org link or 'doi:') finds the paper it names and the papers closest to it in
meaning; it was split into number words ('10 1038 s41375 …') that no paper mentions, and the results were noise.
A DOI no paper of the corpus has is said in one sentence, with no results."""

from __future__ import annotations

import pytest

from core.embedding import embed_corpus
from core.explore.search.hybrid import search
from core.records import Paper
from tests.helpers import make_papers


@pytest.fixture()
def with_dois(embedded):
    papers = [Paper(p.id, p.title, p.abstract, {**p.fields, "doi": f"10.1000/Paper.{i}"})
              for i, p in enumerate(make_papers(5))]
    embedded.import_papers("d", papers)
    embed_corpus(embedded, "d", "tiny")
    return embedded, papers


@pytest.mark.parametrize("typed", ["10.1000/paper.3", "https://doi.org/10.1000/Paper.3", "doi: 10.1000/Paper.3"])
def test_a_doi_of_the_corpus_finds_its_paper_and_its_neighbours(with_dois, typed: str):
    store, papers = with_dois
    found = search(store, "d", "tiny", "", title=typed, k=5)
    assert found.notice and papers[3].title in found.notice and "DOI" in found.notice
    ids = [r["id"] for r in found.results]
    assert len(ids) == 5 and papers[3].id not in ids  # its neighbours; the paper itself is named above them
    assert all(r["why"] == {"match": "meaning", "words": [], "meaning": True} for r in found.results)


def test_a_doi_no_paper_has_is_said_and_gives_no_results(with_dois):
    store, _ = with_dois
    found = search(store, "d", "tiny", "", title="10.9999/nowhere.1", k=5)
    assert found.results == []
    assert found.notice == "no paper of d has the DOI 10.9999/nowhere.1; paste its title and abstract to find " \
                           "papers like it"
