"""The Evaluate page: comparing models (one unloadable) on a tiny corpus, and probing one pasted abstract."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import embed_corpus
from core.store import Store
from tests.app.background_jobs import wait_for_background
from tests.helpers import make_papers, register_tiny

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "evaluate.py")


@pytest.fixture()
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """A workspace whose corpus 'c' (three journals) is embedded with the tiny model 'tiny'."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    store = Store(tmp_path / "ws")
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", make_papers(12))
    embed_corpus(store, "c", "tiny")
    return store


def open_evaluate_page() -> AppTest:
    """The page with corpus 'c' and model 'tiny' chosen, as the sidebar of app.py would leave them."""
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["corpus"] = "c"
    at.session_state["model"] = "tiny"
    return at.run()


def test_comparing_models_shows_the_table_charts_and_the_model_that_could_not_load(workspace):
    at = open_evaluate_page()
    assert not at.exception
    assert at.multiselect(key="eval_models").value == ["tiny"]
    at.multiselect(key="eval_models").set_value(["tiny", "scibert"])
    at.multiselect(key="eval_tasks").set_value(["probe", "purity", "knn"])
    at.number_input(key="eval_sample").set_value(30)
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    assert any("scibert" in w.value and "Hugging Face hub" in w.value for w in at.warning)
    table = at.dataframe[0].value
    assert list(table.columns) == ["tiny", "n"]  # measures as rows: as wide as the models compared
    assert {"Linear probe macro-F1", "Cluster purity (k = 10)", "kNN accuracy (k = 10 vote)"} <= set(table.index)
    f1 = table.loc["Linear probe macro-F1", "tiny"]
    assert re.fullmatch(r"\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)", f1)  # the figure and its 95 % interval
    assert table.loc["kNN accuracy (k = 10 vote)", "n"] == "30"
    assert "font-weight: bold" not in at.dataframe[0].proto.arrow_data.styler.styles  # one model beats nobody
    [chart] = at.get("plotly_chart")
    assert [t["name"] for t in json.loads(chart.proto.spec)["data"]] == ["tiny"]
    assert [d.proto.label for d in at.get("download_button")] == ["Export CSV", "Export markdown"]

    at.run()  # a rerun keeps the results, and the second run of the same request is served from the cache
    assert list(at.dataframe[0].value.columns) == ["tiny", "n"]


def test_the_journals_task_shows_each_method_and_marks_the_lowest_mean_rank(workspace):
    at = open_evaluate_page()
    at.multiselect(key="eval_tasks").set_value(["journals"])
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert {f"Journal finder, {m}: {k} (%)" for m in ("neighbour vote", "BM25") for k in ("top-1", "top-5")} <= set(
        table.index)
    rank = table.loc["Journal finder, neighbour vote: mean rank", "tiny"]  # '1.9 (1.0–2.7)': with its interval
    assert re.fullmatch(r"\d\.\d \(\d\.\d–\d\.\d\)", rank) and 1 <= float(rank.split()[0]) <= 3  # three journals


def test_the_robustness_tab_lists_each_perturbation_and_its_overlap(workspace):
    at = open_evaluate_page()
    paper = workspace.papers("c")[3]
    at.text_input(key="robust_title").set_value(paper.title)
    at.text_area(key="robust_abstract").set_value(paper.abstract)
    at.button(key="robust_run").click()
    at.run()
    assert not at.exception and not at.error
    summary = next(d.value for d in at.dataframe if "perturbation" in d.value.columns)
    assert summary["perturbation"].iloc[0] == "original" and summary["overlap"].iloc[0] == 1.0
    assert {"word_shuffle", "swap_abstract", "title_only"} <= set(summary["perturbation"])
    assert set(summary.loc[summary["category"] == "LO-DS", "should"]) == {"lose"}
    # every perturbation says what it does to the text, in words (the names alone, drop_q1 or LL-HS, said nothing)
    what = dict(zip(summary["perturbation"], summary["what it does"]))
    assert what["drop_q1"] == "the abstract's first quarter left out"
    assert what["original"] == "your text as pasted" and all(what.values())


def test_an_empty_query_is_one_sentence(workspace):
    at = open_evaluate_page()
    at.button(key="robust_run").click()
    at.run()
    assert [e.value for e in at.error] == ["paste a title or an abstract to probe"]


def test_the_cite_task_ranks_cited_papers_of_held_out_queries(tmp_path, monkeypatch, tiny_model_dir):
    from core.io import read_papers

    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    store = Store(tmp_path / "ws")
    register_tiny(store, tiny_model_dir)
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "citations" / "arxiv_150.jsonl"
    store.import_papers("c", read_papers(fixture))
    at = open_evaluate_page()
    assert not at.exception
    assert any(o.startswith("Citations") for o in at.multiselect(key="eval_tasks").options)
    at.multiselect(key="eval_tasks").set_value(["cite"])
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert {"Citations MAP", "Citations nDCG", "Citations recall@10", "Citations nDCG@10"} <= set(table.index)
    assert {"tiny", "random (baseline)"} <= set(table.columns)
    assert any("held-out query papers" in c.value for c in at.caption)


def test_a_fine_tuned_model_is_evaluated_on_its_held_out_test_papers_beside_its_verdict(workspace, tiny_model_dir):
    from core.training import run_foreground
    from tests.unit.training.support import one_torch_thread, tiny_config

    with one_torch_thread():
        job = run_foreground(workspace, tiny_config(tiny_model_dir, corpus="c", name="tuned", epochs=1))
    at = open_evaluate_page()
    assert not at.radio  # the base alone has no held-out test papers
    at.multiselect(key="eval_models").set_value(["tiny", "tuned"])
    at.multiselect(key="eval_tasks").set_value(["knn"]).run()
    assert at.radio(key="eval_papers").options == ["a random sample", "the model's held-out test papers"]
    # the default: papers the fine-tuned model never trained on (a random sample holds its training papers)
    assert at.radio(key="eval_papers").value == "the model's held-out test papers"
    at.radio(key="eval_papers").set_value("the model's held-out test papers").run()
    said = [c.value for c in at.caption if "held-out test papers of" in c.value]
    assert said == ["6 held-out test papers of **tuned**: all of them are used."]  # no 'the sample size caps them'
    at.number_input(key="eval_sample").set_value(4).run()
    said = [c.value for c in at.caption if "held-out test papers of" in c.value]
    assert said == ["6 held-out test papers of **tuned**: the sample size takes 4 of them."]
    at.number_input(key="eval_sample").set_value(36).run()  # the box's most: the corpus's 36 papers
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert list(table.columns) == ["tiny", "tuned", "n"] and table.loc["kNN accuracy (k = 10 vote)", "n"] == "6"
    assert any("all of them held-out test papers" in c.value for c in at.caption)
    sentence = job["metrics"]["verdict"]
    assert any(f"too few test papers to judge ({sentence['n']} in" in i.value and "tuned" in i.value for i in at.info)


def test_the_short_query_task_compares_dense_words_and_fused(workspace):
    at = open_evaluate_page()
    at.multiselect(key="eval_tasks").set_value(["short"])
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    rows = {f"Short queries, {m}: title recall@1" for m in ("meaning (dense)", "words (BM25)", "words + meaning")}
    assert rows <= set(table.index)
    assert all("(" in table.loc[r, "tiny"] and table.loc[r, "n"] == "36" for r in rows)  # Wilson interval, n


def test_pair_retrieval_shows_its_interval_and_its_papers_and_pairs(workspace):
    """AP and ROC-AUC were bare figures with the pairs as n: now a bootstrap over papers gives their interval."""
    at = open_evaluate_page()
    at.multiselect(key="eval_tasks").set_value(["retrieval"])
    at.number_input(key="eval_sample").set_value(30)
    next(b for b in at.button if b.label == "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    for measure in ("Pair retrieval average precision", "Pair retrieval ROC-AUC"):
        assert re.fullmatch(r"\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)", table.loc[measure, "tiny"])
        assert table.loc[measure, "n"] == "30 papers, 435 pairs"
    assert any("bootstrap over papers" in c.value for c in at.caption)
