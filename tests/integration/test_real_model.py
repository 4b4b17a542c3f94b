"""The packaged all-MiniLM-L6-v2: real weights, real semantics."""

import pytest

from core.embedding import Encoder, embed_corpus, get_model
from core.explore import similar_papers
from tests.helpers import make_papers

pytestmark = pytest.mark.realmodel


@pytest.fixture(scope="module")
def minilm():
    return Encoder(get_model("minilm"))


def test_paraphrase_pair_scores_higher_than_an_unrelated_pair(minilm):
    a = ("Deep learning predicts protein structure",
         "We train a neural network on known structures to predict the 3D fold of proteins from their sequence.")
    b = ("Neural networks for protein folding",
         "A deep model learns to infer three-dimensional protein conformations from amino-acid sequences.")
    c = ("Monetary policy and inflation expectations",
         "We estimate how central bank interest rate announcements move household inflation expectations.")
    v = minilm.encode([a, b, c])
    assert v.shape == (3, 384)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.3


def test_a_papers_own_text_is_its_top_hit(store, minilm):
    store.import_papers("c", make_papers(4))
    embed_corpus(store, "c", "minilm", encoder=minilm)
    for paper in store.papers("c")[::3]:
        top = similar_papers(store, "c", "minilm", title=paper.title, abstract=paper.abstract, k=3, encoder=minilm)
        assert top.results[0]["id"] == paper.id
        assert top.results[0]["score"] == pytest.approx(1.0, abs=1e-3)
