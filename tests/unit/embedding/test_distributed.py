"""The Ray engine on a local cluster: the same vectors as the in-process path, resuming, refusing a bad address."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import numpy as np
import pytest

from core.embedding import RayOptions, embed_corpus, embed_corpus_ray
from core.errors import MireadError
from core.store import Store
from tests.helpers import make_papers, register_tiny

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    """One local two-CPU cluster for the whole module (starting Ray costs seconds)."""
    from core.embedding.distributed import runtime_env

    ray.init(num_cpus=2, runtime_env=runtime_env(remote=False), include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    yield ray
    ray.shutdown()


def _store(root: Path, tiny_model_dir: Path, per_topic: int = 10) -> Store:
    store = Store(root)
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", make_papers(per_topic))
    return store


def _matrix(store: Store) -> np.ndarray:
    from core.embedding import corpus_embeddings

    return np.asarray(corpus_embeddings(store, "c", "tiny"))


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


def test_ray_workers_import_this_checkout(cluster):
    @ray.remote
    def where() -> str:
        import core

        return core.__file__

    assert ray.get(where.remote()) == str(Path(__file__).resolve().parents[3] / "core" / "__init__.py")


def test_ray_engine_resumes_an_interrupted_run_and_gives_the_in_process_vectors(cluster, tmp_path, tiny_model_dir):
    store = _store(tmp_path / "ray", tiny_model_dir)

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        embed_corpus_ray(store, "c", "tiny", RayOptions(workers=1, save_every=8), on_saved=stop)
    assert len(store.missing_hashes("c", _fp(store))) == 30 - 8  # the first slice was saved before the stop
    seen = []
    report = embed_corpus_ray(store, "c", "tiny", RayOptions(workers=2, batch_size=4, save_every=4),
                              progress=lambda done, total: seen.append((done, total)))
    assert (report.new, report.cached, report.total) == (22, 8, 30)
    assert seen[-1] == (22, 22) and len(seen) >= 5  # progress as slices are saved
    local = _store(tmp_path / "local", tiny_model_dir)
    embed_corpus(local, "c", "tiny")
    assert store.paper_hashes("c") == local.paper_hashes("c")
    assert _cosines(_matrix(local), _matrix(store)).min() >= 0.9999
    again = embed_corpus_ray(store, "c", "tiny", RayOptions(workers=2))
    assert (again.new, again.cached) == (0, 30)


def test_a_killed_ray_worker_is_replaced_and_the_run_completes(cluster, tmp_path, tiny_model_dir):
    store = _store(tmp_path / "ws", tiny_model_dir, per_topic=20)
    killed: list[int] = []

    def kill_a_worker(done: int) -> None:
        if not killed:
            killed.extend(_our_encoder_actors())
            for pid in killed:
                os.kill(pid, signal.SIGKILL)

    report = embed_corpus_ray(store, "c", "tiny", RayOptions(workers=1, batch_size=4, save_every=4),
                              on_saved=kill_a_worker)
    assert killed, "no encoder actor process was found to kill"
    assert report.new == 60 and not store.missing_hashes("c", _fp(store))


def test_an_unreachable_address_is_refused_in_one_sentence(tmp_path, tiny_model_dir):
    store = _store(tmp_path / "ws", tiny_model_dir, per_topic=2)
    for address in ("ray://127.0.0.1:9", "127.0.0.1:9", "not an address"):
        with pytest.raises(MireadError) as err:
            embed_corpus_ray(store, "c", "tiny", RayOptions(address=address, workers=1))
        message = str(err.value)
        assert "\n" not in message and message.count(". ") == 0 and address in message


def _fp(store: Store) -> str:
    from core.embedding import get_model, vectors_fingerprint

    return vectors_fingerprint(get_model("tiny", store), None, "cpu")


def _our_encoder_actors() -> list[int]:
    """Pids of this test's Ray encoder actors: processes named for the actor and descended from this process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if "MapWorker(MapBatches(EmbedActor))" in title and _descends_from(int(entry.name), os.getpid()):
            found.append(int(entry.name))
    return found


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return False


def test_the_cli_refuses_a_bad_address_or_a_missing_ray_in_one_line(tmp_path, tiny_model_dir, capsys, monkeypatch):
    from core.cli import main

    _store(tmp_path / "ws", tiny_model_dir, per_topic=2)
    argv = ["--workspace", str(tmp_path / "ws"), "embed", "--corpus", "c", "--model", "tiny", "--engine", "ray"]
    assert main([*argv, "--address", "ray://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot reach a Ray cluster at ray://127.0.0.1:9") and "\n" not in err
    monkeypatch.setitem(__import__("sys").modules, "ray", None)
    assert main(argv) == 2
    assert "pip install 'ray[data]==2.60.0'" in capsys.readouterr().err
