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
