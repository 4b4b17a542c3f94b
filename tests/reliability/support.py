"""Shared helpers for the reliability tests: a tally of what was tried, store snapshots, import checks."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from core.errors import MireadError
from core.io import read_papers
from core.records import Paper
from core.store import ImportReport, Store

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
TALLY: Counter[str] = Counter()  # printed at the end of the run (see conftest.py) and copied into RELIABILITY.md
FIGURES: dict[str, Any] = {}


def snapshot(store: Store) -> str:
    """A digest of every corpus and paper row: equal digests mean the corpora did not change."""
    digest = hashlib.blake2b(digest_size=16)
    with store.connect() as conn:
        for row in conn.execute("SELECT name, version, columns, labels FROM corpora ORDER BY name"):
            digest.update(repr(tuple(row)).encode("utf-8", "surrogatepass"))
        for row in conn.execute(
            "SELECT corpus, pid, seq, title, abstract, fields, hash FROM papers ORDER BY corpus, seq"
        ):
            digest.update(repr(tuple(row)).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def check_one_sentence(message: str, file_name: str | None = None) -> None:
    """A user-facing error: one line, not empty, naming the file when there is one."""
    assert message and "\n" not in message and "\r" not in message, repr(message)
    assert "Traceback" not in message, message
    if file_name is not None:
        assert file_name in message, f"{message!r} does not name {file_name!r}"


def import_or_refuse(store: Store, path: Path, corpus: str, kind: str, **columns: Any) -> ImportReport | None:
    """Import `path` into `corpus`; either a consistent report, or one-sentence refusal with nothing changed.

    Any exception other than a MireadError fails the calling test (it propagates).
    """
    before = snapshot(store)
    existed = store.has_corpus(corpus)
    count_before = store.corpus(corpus).papers if existed else 0
    TALLY[f"bad input: {kind}"] += 1
    try:
        report = store.import_papers(corpus, read_papers(path, **columns), source=path.name)
    except MireadError as exc:
        check_one_sentence(str(exc), path.name)
        assert snapshot(store) == before, f"a refused import of {path.name} changed the store"
        TALLY["bad input: refused with one sentence"] += 1
        return None
    info = store.corpus(corpus)
    assert info.papers == count_before + report.added > 0
    assert report.imported == report.added + report.merged
    assert report.skipped == len(report.errors)
    assert all(isinstance(e.row, int) and e.reason for e in report.errors)
    TALLY["bad input: imported with a report"] += 1
    return report


def papers_of(store: Store, corpus: str) -> list[tuple[str, str, str, str]]:
    """Every paper as (id, title, abstract, fields as canonical JSON), in corpus order."""
    return [(p.id, p.title, p.abstract, json.dumps(p.fields, sort_keys=True, ensure_ascii=False))
            for p in store.papers(corpus)]


def synthetic_papers(n: int, start: int = 0, words: int = 40) -> list[Paper]:
    """`n` distinct synthetic papers with a journal and a year column."""
    vocab = ["cell", "gene", "star", "market", "graph", "neuron", "quantum", "protein", "galaxy", "price",
             "network", "tumour", "climate", "soil", "laser", "spin", "model", "theory", "signal", "data"]
    papers = []
    for i in range(start, start + n):
        text = " ".join(vocab[(i * 7 + j * 3) % len(vocab)] for j in range(words))
        papers.append(Paper(id=f"s{i}", title=f"Study {i} of {vocab[i % len(vocab)]} {vocab[(i // 20) % 20]}",
                            abstract=f"{text} (record {i}).", fields={"journal": f"J{i % 7}", "year": 1990 + i % 30}))
    return papers


def write_jsonl(papers: list[Paper], path: Path) -> Path:
    """Write papers as JSONL (id, title, abstract, journal, year)."""
    with open(path, "w", encoding="utf-8") as out:
        for p in papers:
            out.write(json.dumps({"id": p.id, "title": p.title, "abstract": p.abstract, **p.fields}) + "\n")
    return path


def cli(workspace: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run `python -m core --workspace W ...` in a child process (one torch thread)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false",
               HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "core", "--workspace", str(workspace), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)


def start_cli(workspace: Path, *args: str, log: Path) -> subprocess.Popen:
    """Start `python -m core --workspace W ...` in the background, output to `log`."""
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false",
               HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "core", "--workspace", str(workspace), *args], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)



def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) of `values`, nearest-rank."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[rank]
