"""The Evaluate page's results belong to the settings on screen: its label, models, protocols, sample size and seed
survive a visit to another page (they came back as the defaults under the old run's figures), and results of other
settings say which ones differ until the user runs again."""

from __future__ import annotations

from tests.app.background_jobs import wait_for_background
from tests.app.test_evaluate_page import open_evaluate_page, workspace  # noqa: F401 (fixture)
from tests.app.test_pages import open_app
from tests.helpers import make_papers


def run_at(at, sample: int, seed: int):
    at.multiselect(key="eval_tasks").set_value(["purity", "knn"])
    at.number_input(key="eval_sample").set_value(sample)
    at.number_input(key="eval_seed").set_value(seed)
    next(b for b in at.button if b.label == "Run evaluation").click()
    return wait_for_background(at.run())


def stale_notes(at) -> list[str]:
    return [w.value for w in at.warning if "not these settings" in w.value]


def test_results_of_other_settings_say_what_differs_until_run_again(workspace):  # noqa: F811
    at = run_at(open_evaluate_page(), 30, 2)
    assert not at.exception and at.dataframe and not stale_notes(at)
    at.number_input(key="eval_sample").set_value(20).run()
    at.number_input(key="eval_seed").set_value(0).run()
    [note] = stale_notes(at)
    assert "sample size 30 (not 20)" in note and "seed 2 (not 0)" in note
    at.number_input(key="eval_sample").set_value(30).run()
    at.number_input(key="eval_seed").set_value(2).run()
    assert not stale_notes(at)
    at.multiselect(key="eval_tasks").set_value(["purity"]).run()
    [note] = stale_notes(at)
    assert "protocols" in note


def test_the_settings_and_their_results_survive_a_visit_to_another_page(workspace):  # noqa: F811
    at = open_app("app_pages/evaluate.py")
    at = run_at(at, 30, 2)
    assert at.dataframe and not at.exception
    at.switch_page("app_pages/journals.py").run()
    at.switch_page("app_pages/evaluate.py").run()
    assert not at.exception
    assert at.multiselect(key="eval_tasks").value == ["purity", "knn"]
    assert (at.number_input(key="eval_sample").value, at.number_input(key="eval_seed").value) == (30, 2)
    assert at.dataframe and not stale_notes(at)


def test_a_kept_sample_size_above_a_smaller_corpus_becomes_that_corpus_size(workspace):  # noqa: F811
    workspace.import_papers("small", make_papers(3))  # 9 papers
    at = open_app("app_pages/evaluate.py")
    at.sidebar.selectbox(key="corpus").set_value("c").run()
    at.number_input(key="eval_sample").set_value(36).run()
    at.sidebar.selectbox(key="corpus").set_value("small").run()
    assert not at.exception and at.number_input(key="eval_sample").value == 9
