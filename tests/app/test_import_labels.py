"""The import preview lets the user choose label columns before anything is stored (issue 29, section 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.store import Store

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"


def _preview_script(path: str) -> None:
    from pathlib import Path

    from ui.import_preview import import_preview

    import_preview(Path(path), "wos_3.ciw", "digest1")


def test_label_columns_chosen_in_the_preview_are_the_corpus_labels(tmp_path, monkeypatch):
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    upload = tmp_path / "up" / "wos_3.ciw"
    upload.parent.mkdir()
    shutil.copy(REAL / "wos_3.ciw", upload)
    at = AppTest.from_function(_preview_script, args=(str(upload),), default_timeout=60).run()
    assert not at.exception
    labels = at.multiselect(key="import_labels_digest1")
    assert "journal" in labels.options and "publication_type" in labels.options
    assert not {"year", "title", "abstract", "volume", "issue", "ar", "publication_date", "times_cited", "zb", "ri"} & set(labels.options)
    labels.set_value(["publication_type"]).run()
    next(b for b in at.button if b.label == "Import").click().run()
    assert not at.exception and not at.error
    info = Store(tmp_path / "ws").corpus("wos_3")
    assert info.labels == ["publication_type"] and info.labels_chosen and info.journal == "journal"


def _refer_preview(path: str) -> None:
    from pathlib import Path

    from ui.import_preview import import_preview

    import_preview(Path(path), "ais.enw", "digest2")


def test_an_endnote_tagged_export_previews_its_reading_and_imports_its_papers(tmp_path, monkeypatch):
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    upload = tmp_path / "up" / "ais.enw"
    upload.parent.mkdir()
    shutil.copy(REAL / "ais_refer_6.txt", upload)
    at = AppTest.from_function(_refer_preview, args=(str(upload),), default_timeout=60).run()
    assert not at.exception
    assert any("EndNote tagged / Refer text" in c.value for c in at.caption)
    assert any("4 papers, 4 with an abstract; 2 rows will be skipped" in w.value for w in at.warning)
    labels = at.multiselect(key="import_labels_digest2")
    assert "journal" in labels.options and "publication_type" in labels.options
    assert not {"title", "abstract", "url", "pages", "date"} & set(labels.options)  # the id and the text are no labels
    next(b for b in at.button if b.label == "Import").click().run()
    assert not at.exception and not at.error
    store = Store(tmp_path / "ws")
    assert store.corpus("ais").papers == 4 and store.corpus("ais").journal == "journal"
