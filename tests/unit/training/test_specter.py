"""SPECTER objectives: triplet sampling (no held-out query link leaks), the loss, and a tiny training run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from core.embedding import META_FILE, get_model
from core.errors import TrainingError
from core.io import read_papers
from core.store import Store
from core.store.links import citation_split
from core.training import metrics_frame, run_foreground, validate_config
from core.training.citations import CitationData, in_batch_loss, triplet_margin_loss
from tests.unit.training.support import add_corpus, one_torch_thread, tiny_config

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "citations" / "arxiv_150.jsonl"


@pytest.fixture(autouse=True)
def _one_thread():
    with one_torch_thread():
        yield


def _graph(n: int = 300) -> tuple[list[str], list[tuple[str, str]]]:
    rng = np.random.default_rng(0)
    ids = [f"p{i}" for i in range(n)]
    pairs = sorted({(ids[i], ids[int(j)]) for i in range(n) for j in rng.integers(0, n, 4) if i != j})
    return ids, pairs


def test_triplets_never_use_a_held_out_query_link_and_are_reproducible():
    ids, pairs = _graph()
    data = CitationData.build(ids, pairs, seed=0, fraction=0.2)
    held = set(data.held_out)
    assert held == set(citation_split(ids, data.cites, 0, 0.2)[1]) and held
    held_links = {(q, c) for q in held for c in data.cites[q]}
    first = data.epoch(np.random.default_rng(5), hard_ratio=0.4)
    assert len(first) and not ({int(q) for q in first[:, 0]} & held)
    assert not {(int(q), int(p)) for q, p, _ in first} & held_links
    for q, p, n in first:
        assert p in data.cites[q] and n not in data.cites[q] and n != q
    again = CitationData.build(ids, pairs, seed=0, fraction=0.2).epoch(np.random.default_rng(5), 0.4)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, data.epoch(np.random.default_rng(6), 0.4))


def test_hard_negatives_are_cited_by_a_cited_paper_and_the_ratio_holds():
    ids, pairs = _graph()
    data = CitationData.build(ids, pairs, seed=0, fraction=0.2)
    rows = data.epoch(np.random.default_rng(1), hard_ratio=1.0)

    def is_hard(q, n):
        return any(n in data.cites.get(p, ()) for p in data.cites[q])

    assert np.mean([is_hard(q, n) for q, _, n in rows]) > 0.95
    easy = data.epoch(np.random.default_rng(1), hard_ratio=0.0)
    assert np.mean([is_hard(q, n) for q, _, n in easy]) < 0.3


def test_triplet_loss_is_zero_when_the_margin_is_met_and_positive_otherwise():
    q = torch.zeros(2, 4)
    near, far = torch.full((2, 4), 0.1), torch.full((2, 4), 2.0)
    assert float(triplet_margin_loss(q, near, far)) == pytest.approx(0.0)
    assert float(triplet_margin_loss(q, far, near)) > 1.0


def test_in_batch_loss_matches_a_softmax_over_the_batch_written_out():
    g = torch.Generator().manual_seed(0)
    q, p, n = (torch.randn(3, 5, generator=g) for _ in range(3))
    mask = torch.zeros(3, 6, dtype=torch.bool)
    mask[0, 1] = True  # row 0's query also cites row 1's positive: left out, not pushed away
    got = float(in_batch_loss(q, p, n, mask, temperature=0.1))
    unit = torch.nn.functional.normalize
    expected = 0.0
    for i in range(3):
        scores = [float(unit(q[i], dim=0) @ unit(c, dim=0)) / 0.1 for c in torch.cat([p, n])]
        kept = [s for j, s in enumerate(scores) if not mask[i, j]]
        expected += -(scores[i] - np.log(np.sum(np.exp(kept)))) / 3
    assert got == pytest.approx(expected, rel=1e-5)
    # a query pointing at its own positive and away from the rest has a near-zero loss
    eye = torch.eye(3, 6)
    assert float(in_batch_loss(eye[:, :3] * 5, eye[:, :3] * 5, -eye[:, :3], torch.zeros(3, 6, dtype=torch.bool),
                               temperature=0.05)) < 1e-6


def test_in_batch_mask_marks_what_a_query_also_cites_but_never_its_own_positive():
    ids, pairs = _graph()
    data = CitationData.build(ids, pairs, seed=0, fraction=0.2)
    rows = data.epoch(np.random.default_rng(2), hard_ratio=0.4)[:32]
    mask = data.cited_elsewhere(rows)
    candidates = np.concatenate([rows[:, 1], rows[:, 2]])
    assert mask.shape == (32, 64) and not mask[np.arange(32), np.arange(32)].any()
    for i, (q, _, _) in enumerate(rows):
        for j, c in enumerate(candidates):
            if j != i:
                assert mask[i, j] == (c == q or c in data.cites[q])
    same = rows.copy()
    same[1] = same[0]  # two rows with the same query and positive: each masks the other's copy
    both = data.cited_elsewhere(same)
    assert both[0, 1] and both[1, 0] and not both[0, 0]


def _cited_store(store):
    store.import_papers("toy", read_papers(FIXTURE), source="arxiv_150.jsonl")
    return store


def test_specter_needs_links_and_says_so(store, tiny_model_dir):
    add_corpus(store)
    with pytest.raises(TrainingError, match="needs citation links"):
        validate_config(store, tiny_config(tiny_model_dir, objective="specter"))


@pytest.mark.parametrize("objective,cite_loss", [("specter", "triplet"), ("cos+specter", "triplet"),
                                                ("specter", "in-batch")])
def test_a_tiny_specter_run_trains_and_records_the_split(store, tiny_model_dir, objective, cite_loss):
    _cited_store(store)
    name = f"t-{objective.replace('+', '-')}-{cite_loss}"
    cfg = tiny_config(tiny_model_dir, label="category", objective=objective, epochs=2, batch_size=8,
                      max_length=32, head_warmup_epochs=1, lr=1e-3, min_per_class=5, name=name, cite_loss=cite_loss)
    job = run_foreground(store, cfg)
    assert job["status"] == "completed", job.get("error")
    metrics = job["metrics"]
    assert metrics["cite_held_out_queries"] > 0 and metrics["cite_split_seed"] == 0
    assert 0 <= metrics["val_cite_map"] <= 1 and metrics["base_val_cite_map"] is not None
    frame = metrics_frame(store, job["id"])
    triplet = frame[(frame.split == "train") & (frame.name == "triplet_loss")]["value"].to_numpy()
    assert len(triplet) >= 2 and np.all(np.isfinite(triplet))
    assert triplet[-len(triplet) // 2:].mean() < triplet[: len(triplet) // 2].mean() + 0.05
    assert len(frame[(frame.split == "val") & (frame.name == "cite_map")]) >= 2
    meta = json.loads((Path(get_model(name, store).location) / META_FILE).read_text())
    assert meta["config"]["cite_split_seed"] == 0 and meta["config"]["cite_held_out_queries"] > 0
    assert meta["config"]["cite_loss"] == cite_loss


def test_an_unknown_cite_loss_is_one_sentence(store, tiny_model_dir):
    _cited_store(store)
    with pytest.raises(TrainingError, match="cite loss must be one of triplet, in-batch"):
        validate_config(store, tiny_config(tiny_model_dir, label="category", objective="specter", cite_loss="hinge"))


def test_train_takes_the_cite_loss_from_the_command_line(tmp_path, tiny_model_dir, capsys):
    from core.cli import main

    store = _cited_store(Store(tmp_path / "ws"))
    code = main(["--workspace", str(tmp_path / "ws"), "train", "--corpus", "toy", "--label", "category",
                 "--base", str(tiny_model_dir), "--objective", "specter", "--cite-loss", "in-batch", "--epochs", "0.3",
                 "--batch-size", "8", "--max-length", "32", "--min-per-class", "5", "--device", "cpu",
                 "--name", "cli-in-batch"])
    assert code == 0, capsys.readouterr().err
    meta = json.loads((Path(get_model("cli-in-batch", store).location) / META_FILE).read_text())
    assert meta["config"]["cite_loss"] == "in-batch" and meta["config"]["objective"] == "specter"
