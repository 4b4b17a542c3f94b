"""Soak: minutes of mixed imports, embeddings, searches, journal suggestions, deletes, repairs and CLI imports
from several threads and processes; at the end nothing is lost and the store is consistent.

Run it with `make soak` (suggested: `pytest -q -m slow tests/reliability/test_soak.py`); MIREAD_SOAK_S sets
its length in seconds (default 600)."""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter

import numpy as np
import pytest

from core.embedding import embed_corpus, vectors_fingerprint
from core.errors import MireadError
from core.explore import predict_journals, similar_papers
from core.store import Store
from tests.helpers import register_tiny
from tests.reliability.support import FIGURES, TALLY, cli, percentile, synthetic_papers, write_jsonl

SOAK_S = float(os.environ.get("MIREAD_SOAK_S", "600"))
pytestmark = [pytest.mark.slow, pytest.mark.timeout(int(SOAK_S) + 900)]
CORPORA = [f"soak-{i}" for i in range(4)]


def test_a_long_mixed_workload_loses_nothing(tmp_path, tiny_model_dir):
    seconds = SOAK_S
    store = Store(tmp_path / "ws")
    spec = register_tiny(store, tiny_model_dir)
    fp = vectors_fingerprint(spec)
    expected: dict[str, set[str]] = {}  # corpus -> ids that must be there
    lock = threading.Lock()
    ops, errors, latencies = Counter(), [], []
    stop = threading.Event()
    next_id = iter(range(10**9))

    def new_papers(n: int):
        start = next(next_id) * 1000
        return synthetic_papers(n, start=start, words=10)

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            while not stop.is_set():
                corpus = rng.choice(CORPORA)
                action = rng.random()
                if action < 0.4:
                    papers = new_papers(rng.randint(20, 120))
                    report = store.import_papers(corpus, papers, source="soak.jsonl")
                    assert report.added == len(papers)
                    with lock:
                        expected.setdefault(corpus, set()).update(p.id for p in papers)
                    ops["import"] += 1
                elif action < 0.85:
                    if store.has_corpus(corpus):
                        embed_corpus(store, corpus, spec, device="cpu", batch_size=64)
                        ops["embed"] += 1
                elif action < 0.9:
                    with lock:
                        if store.has_corpus(corpus):
                            store.delete_corpus(corpus)
                            expected.pop(corpus, None)
                            ops["delete"] += 1
                else:
                    store.repair()
                    ops["repair"] += 1
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            errors.append(("writer", exc))

    def reader(seed: int) -> None:
        rng = random.Random(seed)
        try:
            while not stop.is_set():
                corpus = rng.choice(CORPORA)
                t0 = time.perf_counter()
                try:
                    store.papers_frame(corpus)
                    if rng.random() < 0.7:
                        similar_papers(store, corpus, spec, title=f"study {rng.randint(0, 99)}", abstract="cell gene")
                        ops["search"] += 1
                    else:
                        predict_journals(store, spec, title="study of cells", abstract="gene", corpus=corpus)
                        ops["predict"] += 1
                    latencies.append(time.perf_counter() - t0)
                except MireadError as exc:  # not embedded yet, deleted meanwhile: a clear sentence is right
                    assert "\n" not in str(exc)
                    ops["clear refusal"] += 1
                    stop.wait(0.05)
        except Exception as exc:  # noqa: BLE001
            errors.append(("reader", exc))

    def processes() -> None:
        index = 0
        try:
            while not stop.is_set():
                papers = new_papers(300)
                path = write_jsonl(papers, tmp_path / f"cli-{index}.jsonl")
                done = cli(store.root, "import", str(path), "--corpus", "soak-cli", "--json")
                assert done.returncode == 0, done.stderr
                with lock:
                    expected.setdefault("soak-cli", set()).update(p.id for p in papers)
                ops["cli import"] += 1
                index += 1
                stop.wait(5)
        except Exception as exc:  # noqa: BLE001
            errors.append(("process", exc))

    threads = [threading.Thread(target=writer, args=(1,)), threading.Thread(target=processes)]
    threads += [threading.Thread(target=reader, args=(10 + i,)) for i in range(3)]
    started = time.time()
    for thread in threads:
        thread.start()
    while time.time() - started < seconds and not errors:
        time.sleep(1)
    stop.set()
    for thread in threads:
        thread.join(timeout=300)
    assert errors == []

    lost = 0
    for corpus, ids in expected.items():
        have = set(store.papers_frame(corpus)["id"]) if store.has_corpus(corpus) else set()
        lost += len(ids - have)
        assert have == ids, corpus
    assert {c.name for c in store.corpora()} == set(expected)
    with store.connect() as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert store.unfinished_imports() == []
    for corpus in expected:
        embed_corpus(store, corpus, spec, device="cpu")
        matrix = store.embeddings(corpus, fp)
        assert matrix.shape == (len(expected[corpus]), 32) and np.isfinite(matrix).all()
    figures = {"seconds": round(time.time() - started), **dict(ops), "papers_lost": lost,
               "query_p95_ms": round(1000 * percentile(latencies, 95), 1) if latencies else None}
    FIGURES["soak"] = figures
    TALLY["soak: operations"] += sum(ops.values())
    print(f"\nsoak: {figures}")
