"""Evaluate: the "Papers" choice (a random sample / the model's held-out test papers) was offered whatever the
protocols, but figures, cite / cocite and short queries pick their own papers (a walk): with only those chosen it
is hidden and the page says where their papers come from; beside a protocol it does apply to, it names the ones it
does not."""

from __future__ import annotations

from tests.app.test_evaluate_page import open_evaluate_page, workspace  # noqa: F401 (fixture)


def test_the_papers_choice_is_offered_only_for_the_protocols_it_applies_to(workspace, tiny_model_dir):  # noqa: F811
    from core.training import run_foreground
    from tests.unit.training.support import one_torch_thread, tiny_config

    with one_torch_thread():
        run_foreground(workspace, tiny_config(tiny_model_dir, corpus="c", name="tuned", epochs=1))
    at = open_evaluate_page()
    at.multiselect(key="eval_models").set_value(["tiny", "tuned"])
    at.multiselect(key="eval_tasks").set_value(["short"]).run()
    assert not at.exception and not at.radio  # nothing to choose: short queries draw their own papers
    said = " ".join(c.value for c in at.caption)
    assert "held-out test papers of **tuned** are not used" in said and "short" in said, said
    at.multiselect(key="eval_tasks").set_value(["knn", "short"]).run()
    assert at.radio(key="eval_papers").options == ["a random sample", "the model's held-out test papers"]
    [note] = [c.value for c in at.caption if c.value.startswith("Papers applies to")]
    assert note.startswith("Papers applies to **knn** only") and "**short**: its own queries" in note, note
