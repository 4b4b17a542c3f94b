"""Counts on the Library read '1 paper', '1 record' (README: counts read '1 paper', '2 papers'); the page showed
'Merged records of pubmed-demo (1 records)' and, after one paper was added to an embedded corpus, '1 papers of c still
need embedding'."""

from __future__ import annotations

from core.records import Paper
from tests.app.test_import_several import THREE, _upload
from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)


def test_one_paper_to_embed_is_singular(workspace):  # noqa: F811
    workspace.import_papers("c", [Paper("extra-1", "Pulsar timing arrays", "Nanohertz gravitational waves.")])
    at = open_app("app_pages/library.py")
    at.sidebar.selectbox(key="corpus").set_value("c").run()
    captions = [c.value for c in at.caption]
    assert "1 paper of **c** still needs embedding with **tiny**." in captions, captions


def test_one_merged_record_is_singular(empty_workspace):  # noqa: F811
    at = open_app("app_pages/library.py", model=None)
    _upload(at, THREE)  # two Web of Science records merge into PubMed papers; split one back to leave one
    at.text_input[0].set_value("two").run()
    next(b for b in at.button if b.label == "Import 3 files into corpus two").click().run()
    next(b for b in at.button if b.label.startswith("Split record")).click().run()
    labels = [e.label for e in at.expander]
    assert any(label.startswith("Merged records of two (1 record)") for label in labels), labels
