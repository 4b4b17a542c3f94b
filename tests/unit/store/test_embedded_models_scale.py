"""Which models embedded a corpus, asked in work proportional to the corpus (issue 32: the Library page's table
asked it with a join that scanned every vector key per paper, minutes at 50k papers)."""

import numpy as np

from core.records import Paper

PAPERS = 2000


def test_embedded_models_does_work_linear_in_the_corpus_not_quadratic(store):
    store.import_papers("c", [Paper(id=f"p{i}", title=f"paper {i}", abstract=f"text {i}") for i in range(PAPERS)])
    store.import_papers("d", [Paper(id="q", title="other", abstract="other")])
    hashes = store.paper_hashes("c")
    store.add_embeddings("fp", hashes, np.ones((len(hashes), 2), np.float32))
    store.add_embeddings("half", hashes[: PAPERS // 2], np.ones((PAPERS // 2, 2), np.float32))
    steps = [0]
    store._connection().set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1), 1000)
    assert store.embedded_models("c") == ["fp"]  # every paper; "half" is not
    assert store.embedded_models("d") == []
    store._connection().set_progress_handler(None, 0)
    assert steps[0] < 1000  # < 1M SQLite VM steps for 2,000 papers (the quadratic join took ~20M)
