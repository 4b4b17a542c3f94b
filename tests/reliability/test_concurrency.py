"""Concurrency and load: readers beside a writer (threads and processes), a busy workspace, 50 concurrent
similar-paper queries on a 100k-paper corpus, and deleting a corpus that a job uses."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from core.embedding import embed_corpus, vectors_fingerprint
from core.errors import CorpusError, MireadError, StoreError
from core.explore import similar_papers
from core.store import Store
from tests.helpers import make_papers, register_tiny
from tests.reliability.support import (
    FIGURES,
    TALLY,
    check_one_sentence,
    percentile,
    snapshot,
    start_cli,
    synthetic_papers,
    write_jsonl,
)


def run_readers(store: Store, corpus: str, stop: threading.Event, errors: list, counts: list, spec=None) -> None:
    """Read papers, corpora and (with a model) search until `stop` is set; collect any exception."""
    frame = store.papers_frame(corpus)
    try:
        while not stop.is_set():
            assert len(store.papers_frame(corpus)) == len(frame)
            store.corpora()
            if spec is not None:
                assert similar_papers(store, corpus, spec, title="gene protein", k=5, frame=frame).results
            counts.append(1)
    except Exception as exc:  # noqa: BLE001 - any failure is the finding
        errors.append(exc)


@pytest.fixture()
def embedded(tmp_path, tiny_model_dir):
    store = Store(tmp_path / "ws")
    store.import_papers("read", make_papers(12), source="read.jsonl")
    spec = register_tiny(store, tiny_model_dir)
    embed_corpus(store, "read", spec, device="cpu")
    return store, spec


def test_threads_read_and_search_while_another_thread_imports_and_embeds(embedded):
    store, spec = embedded
    stop, errors, counts = threading.Event(), [], []
    readers = [threading.Thread(target=run_readers, args=(store, "read", stop, errors, counts, spec))
               for _ in range(4)]
    for reader in readers:
        reader.start()
    fp, batches, deadline = vectors_fingerprint(spec), 0, time.time() + 120
    try:
        while (batches < 10 or len(counts) < 40) and time.time() < deadline and not errors:
            papers = synthetic_papers(200, start=batches * 200)
            store.import_papers("write", papers, source=f"batch-{batches}.jsonl")
            vectors = np.random.default_rng(batches).standard_normal((200, 32)).astype(np.float32)
            store.add_embeddings(fp, [p.hash for p in papers], vectors)
            batches += 1
    finally:
        stop.set()
        for reader in readers:
            reader.join(timeout=60)
    assert errors == [] and len(counts) >= 40
    assert store.corpus("write").papers == 200 * batches
    assert store.embeddings("write", fp).shape == (200 * batches, 32)
    TALLY["load: reads and searches beside a writing thread"] += len(counts)


def test_processes_import_and_embed_while_this_process_reads_and_searches(embedded, tmp_path):
    store, spec = embedded
    store.import_papers("to-embed", synthetic_papers(800, words=6), source="to-embed.jsonl")
    big = write_jsonl(synthetic_papers(20_000, start=10_000), tmp_path / "incoming.jsonl")
    importer = start_cli(store.root, "import", str(big), "--corpus", "incoming", log=tmp_path / "import.log")
    embedder = start_cli(store.root, "embed", "--corpus", "to-embed", "--model", "tiny", "--device", "cpu",
                         log=tmp_path / "embed.log")
    stop, errors, counts = threading.Event(), [], []
    readers = [threading.Thread(target=run_readers, args=(store, "read", stop, errors, counts, spec)),
               threading.Thread(target=run_readers, args=(Store(store.root), "read", stop, errors, counts))]
    for reader in readers:
        reader.start()
    try:
        importer.wait(timeout=400)
        embedder.wait(timeout=400)
    finally:
        stop.set()
        for reader in readers:
            reader.join(timeout=60)
    logs = (tmp_path / "import.log").read_text() + (tmp_path / "embed.log").read_text()
    assert (importer.returncode, embedder.returncode) == (0, 0), logs
    assert errors == []
    assert store.corpus("incoming").papers == 20_000
    assert store.missing_hashes("to-embed", vectors_fingerprint(spec)) == []
    assert store.unfinished_imports() == []
    TALLY["load: reads and searches beside importing and embedding processes"] += len(counts)


def test_a_write_that_waits_too_long_for_another_writer_is_one_sentence_and_changes_nothing(store, monkeypatch):
    store.import_papers("c", make_papers(2), source="c.jsonl")
    before = snapshot(store)
    monkeypatch.setattr(Store, "BUSY_TIMEOUT_S", 0.2)
    blocked = Store(store.root)
    other = sqlite3.connect(store.db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="busy") as refused:
            blocked.import_papers("c", make_papers(3), source="more.jsonl")
        check_one_sentence(str(refused.value))
        assert len(blocked.papers_frame("c")) == 6  # reading is never blocked
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert snapshot(store) == before
    assert blocked.import_papers("c", make_papers(3), source="more.jsonl").added == 3
    TALLY["load: busy-writer refusals (one sentence, nothing changed)"] += 1


def build_big_corpus(store: Store, spec, n: int = 100_000):
    """`n` synthetic papers with random unit vectors as their tiny-model embeddings."""
    started = time.perf_counter()
    papers = synthetic_papers(n, words=8)
    store.import_papers("big", papers, source="synthetic.jsonl")
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((n, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    hashes = [p.hash for p in papers]
    for start in range(0, n, 20_000):
        store.add_embeddings(vectors_fingerprint(spec), hashes[start:start + 20_000], vectors[start:start + 20_000])
    return time.perf_counter() - started


def concurrent_queries(store: Store, spec, index: str, queries: int = 50) -> dict[str, float]:
    """Fire `queries` similar-paper queries from as many threads; return latency figures in ms."""
    frame = store.papers_frame("big")
    started = time.perf_counter()
    similar_papers(store, "big", spec, title="warm up", frame=frame)
    cold = time.perf_counter() - started

    def one(i: int) -> float:
        t0 = time.perf_counter()
        found = similar_papers(store, "big", spec, title=f"study {i} of gene", abstract=f"cell protein {i}", k=10,
                               frame=frame)
        assert len(found.results) == 10
        return time.perf_counter() - t0

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=queries) as pool:
        latencies = list(pool.map(one, range(queries)))
    wall = time.perf_counter() - t0
    figures = {"queries": queries, "p50_ms": round(1000 * percentile(latencies, 50), 1),
               "p95_ms": round(1000 * percentile(latencies, 95), 1), "max_ms": round(1000 * max(latencies), 1),
               "wall_s": round(wall, 2), "first_query_s": round(cold, 2), "index": index,
               "load_average": round(os.getloadavg()[0], 1)}
    print(f"\n50 concurrent similar-paper queries, 100k papers, {index}: {figures}")
    return figures


@pytest.mark.parametrize("index", ["exact", pytest.param("hnsw", marks=pytest.mark.slow)])
def test_50_concurrent_similar_paper_queries_on_a_100k_corpus_all_complete(tmp_path, tiny_model_dir, index,
                                                                             monkeypatch):
    from core.explore.search import similar as search

    monkeypatch.setenv("MIREAD_EXACT_SEARCH_LIMIT", "200000" if index == "exact" else "50000")
    search._INDEXES.clear()
    store = Store(tmp_path / "ws")
    spec = register_tiny(store, tiny_model_dir)
    built = build_big_corpus(store, spec)
    figures = concurrent_queries(store, spec, index)
    figures["corpus_build_s"] = round(built, 1)
    FIGURES[f"load: 50 concurrent queries on 100k papers ({index})"] = figures
    TALLY["load: concurrent similar-paper queries completed"] += figures["queries"]


@pytest.mark.parametrize("status", ["queued", "running"])
def test_deleting_a_corpus_that_an_active_job_uses_is_refused(store, status):
    store.import_papers("in use", make_papers(2), source="a.jsonl")
    store.import_papers("in_use", make_papers(1), source="b.jsonl")
    before = snapshot(store)
    args = json.dumps({"config": {"corpus": "in use", "label": "journal", "name": "m"}, "background": True})
    with store.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, created) VALUES ('job-1', 'train', ?, ?, ?)",
                     (status, args, time.time()))
    with pytest.raises(CorpusError, match="in use by job job-1") as refused:
        store.delete_corpus("in use")
    check_one_sentence(str(refused.value))
    assert snapshot(store) == before
    store.delete_corpus("in_use")  # a similar name is not blocked
    with store.connect() as conn:
        conn.execute("UPDATE jobs SET status = 'failed' WHERE id = 'job-1'")
    store.delete_corpus("in use")
    assert store.corpora() == []
    TALLY["load: deletes of corpora in use refused"] += 1


def test_a_corpus_recreated_under_the_same_name_is_never_served_from_stale_caches(embedded):
    from core.explore.search import similar as search

    store, spec = embedded
    store.import_papers("again", make_papers(4), source="first.jsonl")
    embed_corpus(store, "again", spec, device="cpu")
    probe = make_papers(4)[0]
    first = similar_papers(store, "again", spec, title=probe.title, abstract=probe.abstract, k=3).results
    assert first[0]["id"] == probe.id
    store.delete_corpus("again")
    replacement = [p for p in make_papers(4) if p.id.startswith("econ")]
    for paper in replacement:
        paper.id = "new-" + paper.id
    store.import_papers("again", replacement, source="second.jsonl")
    embed_corpus(store, "again", spec, device="cpu")
    found = similar_papers(store, "again", spec, title=probe.title, abstract=probe.abstract, k=3).results
    assert all(r["id"].startswith("new-econ") for r in found)
    assert sum(k[1] == "again" for k in search._INDEXES) == 1
    TALLY["faults: survived (store consistent, nothing finished lost)"] += 1


def test_a_search_with_a_paper_list_from_before_an_import_asks_to_search_again(embedded):
    store, spec = embedded
    stale = store.papers_frame("read")
    store.import_papers("read", synthetic_papers(5), source="more.jsonl")
    embed_corpus(store, "read", spec, device="cpu")
    with pytest.raises(MireadError, match="changed during the search") as refused:
        similar_papers(store, "read", spec, title="gene", frame=stale)
    check_one_sentence(str(refused.value))
    assert len(similar_papers(store, "read", spec, title="gene", k=100).results) == 41
    TALLY["faults: survived (store consistent, nothing finished lost)"] += 1


def test_a_training_job_for_a_deleted_corpus_is_refused_before_it_starts(store, tiny_model_dir):
    from core.training import TrainConfig, jobs

    store.import_papers("gone", make_papers(4), source="g.jsonl")
    register_tiny(store, tiny_model_dir)
    store.delete_corpus("gone")
    with pytest.raises(MireadError, match="no corpus named 'gone'") as refused:
        jobs.launch(store, TrainConfig(corpus="gone", label="journal", base="tiny"))
    check_one_sentence(str(refused.value))
    assert jobs.list_jobs(store) == []
