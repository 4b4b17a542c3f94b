"""The figures task: its metrics on hand-computed cases, the pair-building heuristic, and the task end to end."""

from __future__ import annotations

import json

import numpy as np
import pytest

from core.cli import main
from core.evaluation.figures import figures_task, first_ranks, model_ranks, random_metrics, rank_metrics
from core.store import FigurePaper, is_held_out
from tests.helpers import register_tiny


def test_rank_metrics_on_a_hand_computed_case():
    # ranks 1, 2, 4: acc@1 = 1/3, acc@3 = 2/3, MRR = (1 + 1/2 + 1/4) / 3 = 0.58333
    got = rank_metrics([1, 2, 4])
    assert got["acc@1"] == pytest.approx(1 / 3) and got["acc@3"] == pytest.approx(2 / 3)
    assert got["mrr"] == pytest.approx(0.583333, abs=1e-6)


def test_random_baseline_is_the_expected_value():
    # 2 captions: acc@1 1/2, acc@3 1, MRR (1 + 1/2)/2 = .75; 4 captions: 1/4, 3/4, (1 + 1/2 + 1/3 + 1/4)/4 = .520833
    got = random_metrics([2, 4])
    assert got["acc@1"] == pytest.approx(0.375) and got["acc@3"] == pytest.approx(0.875)
    assert got["mrr"] == pytest.approx((0.75 + 0.5208333) / 2, abs=1e-6)


class KeywordEncoder:
    """Unit vectors from keyword counts: a stand-in model whose rankings can be worked out by hand."""

    WORDS = ("root", "leaf", "seed")

    def encode_texts(self, texts):
        vectors = np.array([[t.count(w) + 1e-3 for w in self.WORDS] for t in texts], dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_pick_first_and_model_ranks():
    paper = FigurePaper("p", ["Fig 1", "Fig 2", "Fig 3"], ["root growth", "leaf area", "seed weight"],
                        [("the root grew [FIG]", 0), ("seed data [FIG]", 2), ("leaf and leaf and root [FIG]", 0)])
    assert first_ranks([paper]) == [1, 3, 1]
    assert model_ranks(KeywordEncoder(), [paper]) == [1, 1, 2]


def test_pairs_leave_out_sentences_that_reference_several_figures(store):
    class Fig:
        def __init__(self, fid, position, masked):
            self.id, self.position, self.label, self.caption = fid, position, f"Figure {position + 1}", f"cap {fid}"
            self.references, self.masked, self.mentions, self.image = masked, masked, len(masked), None

    store.save_figures("c", {"p1": [Fig("a", 0, ["only a [FIG]", "a and b [FIG] [FIG]"]),
                                    Fig("b", 1, ["a and b [FIG] [FIG]", "b alone [FIG]"])],
                             "p2": [Fig("x", 0, ["single figure [FIG]"])]})
    papers = store.figure_papers("c")
    assert [p.pid for p in papers] == ["p1"]
    assert papers[0].pairs == [("only a [FIG]", 0), ("b alone [FIG]", 1)]


def test_the_split_by_paper_is_seeded_and_stable():
    ids = [f"PMC{i}" for i in range(2000)]
    held = [i for i in ids if is_held_out(i, seed=0)]
    assert 0.25 < len(held) / len(ids) < 0.35
    assert held == [i for i in ids if is_held_out(i, seed=0)] != [i for i in ids if is_held_out(i, seed=1)]




def test_figures_task_reports_models_beside_both_baselines(jats_store):
    from core.embedding import get_encoder, get_model

    register_tiny(jats_store, get_model("tiny", jats_store).location, name="tiny-2")
    results = figures_task(jats_store, "pmc", ["tiny", "tiny-2"], lambda spec: get_encoder(spec), fraction=1.0)
    table = {(r.model, r.metric): r.value for r in results}
    for model in ("random (baseline)", "pick-first (baseline)", "tiny", "tiny-2"):
        for metric in ("acc@1", "acc@3", "mrr"):
            assert 0 <= table[(model, metric)] <= 1
    assert table[("tiny-2", "top figure = tiny")] == 1.0  # the same weights pick the same top figure
    papers = jats_store.figure_papers("pmc")
    pairs = sum(len(p.pairs) for p in papers)
    assert {(r.n, r.pairs) for r in results if r.metric == "acc@1"} == {(len(papers), pairs)}
    assert table[("tiny", "acc@1")] == table[("tiny-2", "acc@1")]
    assert table[("pick-first (baseline)", "acc@1")] == pytest.approx(
        np.mean([i == 0 for p in jats_store.figure_papers("pmc") for _, i in p.pairs]))


def test_figures_cli_prints_each_papers_ranked_figures(jats_store, capsys):
    code = main(["--workspace", str(jats_store.root), "figures", "--corpus", "pmc", "--paper", "PMC6137811",
                 "--model", "tiny", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["corpus"] == "pmc" and doc["model"] == "tiny"
    (paper,) = doc["papers"]
    assert paper["id"] == "PMC6137811" and paper["title"].startswith("Does Late Maturity")
    assert sorted(f["rank"] for f in paper["figures"]) == [1, 2, 3]
    assert [f["rank"] for f in paper["figures"]] == [1, 2, 3]
    assert paper["figures"][0]["score"] >= paper["figures"][-1]["score"]
    assert all(f["label"] and f["caption"] for f in paper["figures"])
    assert main(["--workspace", str(jats_store.root), "figures", "--corpus", "pmc", "--paper", "nope"]) == 2
    assert "no paper" in capsys.readouterr().err


def test_figures_figures_carry_a_95_interval_over_papers(jats_store):
    """Each measured figures row (the models, pick-first and the top-figure agreement) says n papers and a 95 %
    interval never narrower than n papers allow (a bootstrap over papers: a paper's sentences are not independent);
    before, the rows had n = sentences and no interval at all. The random row is an expected value: no interval."""
    from core.embedding import get_encoder, get_model
    from core.evaluation.intervals import interval_of
    from core.evaluation.verdict import floor_half_width

    register_tiny(jats_store, get_model("tiny", jats_store).location, name="tiny-2")
    results = figures_task(jats_store, "pmc", ["tiny", "tiny-2"], lambda spec: get_encoder(spec), fraction=1.0)
    papers = len(jats_store.figure_papers("pmc"))
    for r in results:
        if r.model == "random (baseline)":
            continue
        low, high = interval_of(r)
        assert r.n == papers and low <= r.value <= high, r
        assert high - low >= min(floor_half_width(papers), r.value, 1 - r.value) - 1e-9, r


def test_the_figures_task_scores_a_figure_scorer_only_on_papers_it_never_trained_on(jats_store, tmp_path):
    """A figure scorer trained with another held-out share (or seed) than the evaluation's trained on some of the
    evaluation's papers; only a seed mismatch was noted. The papers are now those every scorer held out too."""
    import json
    import shutil

    from core.embedding import get_encoder, get_model
    from core.store import is_held_out

    pids = [p.pid for p in jats_store.figure_papers("pmc")]
    seed = next(s for s in range(200) if 0 < sum(is_held_out(pid, s, 0.5) for pid in pids) < len(pids))
    folder = tmp_path / "scorer"
    shutil.copytree(get_model("tiny", jats_store).location, folder)
    (folder / "mired.json").write_text(json.dumps({"task": "figures", "config": {
        "split_seed": seed, "held_out": 0.5}}), encoding="utf-8")
    register_tiny(jats_store, folder, name="scorer")
    results = figures_task(jats_store, "pmc", ["scorer"], lambda spec: get_encoder(spec), seed=seed, fraction=1.0)
    kept = sum(is_held_out(pid, seed, 0.5) for pid in pids)
    assert {r.n for r in results if r.metric == "acc@1"} == {kept}
