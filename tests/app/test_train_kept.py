"""The Train page's settings are the user's: corpus, label, base model, epochs, batch size, learning rates, shares and
seed survive a visit to another page (Streamlit forgets a widget it did not draw)."""

from __future__ import annotations

from core.records import Paper
from tests.app.test_pages import PAPERS, empty_workspace, open_app, widget, workspace  # noqa: F401 (fixtures)

CHANGED = {"Epochs": 0.5, "Batch size": 4, "Encoder learning rate": 3e-5, "Head learning rate": 2e-3,
           "Max papers": 24, "Min papers per class": 3, "Validation share": 0.3, "Test share": 0.25, "Seed": 7,
           "Max length (tokens)": 64}


def test_train_settings_survive_a_visit_to_another_page(workspace):  # noqa: F811
    workspace.import_papers("other", PAPERS[:20], source="make_papers")
    at = open_app("app_pages/train.py")
    widget(at.main.selectbox, "Corpus").set_value("other").run()
    widget(at.selectbox, "Base model").set_value("tiny").run()
    widget(at.text_input, "New model name").set_value("my-model").run()
    for label, value in CHANGED.items():
        widget(at.number_input, label).set_value(value).run()
    assert not at.exception
    at.switch_page("app_pages/journals.py").run()
    at.switch_page("app_pages/train.py").run()
    assert not at.exception and not [w for w in at.warning if "Session State" in w.value]
    assert widget(at.main.selectbox, "Corpus").value == "other"
    assert widget(at.selectbox, "Base model").value == "tiny"
    assert widget(at.text_input, "New model name").value == "my-model"
    assert {label: widget(at.number_input, label).value for label in CHANGED} == CHANGED


def test_a_corpus_chosen_in_the_sidebar_is_followed_and_a_label_of_another_corpus_is_not_kept(workspace):  # noqa: F811
    venue = [Paper(p.id, p.title, p.abstract, {"venue": p.fields["journal"]}) for p in PAPERS[:20]]
    workspace.import_papers("other", venue, source="make_papers")
    workspace.set_labels("other", ["venue"])
    at = open_app("app_pages/train.py")
    at.sidebar.selectbox(key="corpus").set_value("c").run()
    assert widget(at.main.selectbox, "Corpus").value == "c"
    at.sidebar.selectbox(key="corpus").set_value("other").run()
    assert not at.exception
    assert widget(at.main.selectbox, "Corpus").value == "other"
    assert widget(at.main.selectbox, "Label column").value == "venue"
    widget(at.main.selectbox, "Corpus").set_value("c").run()
    assert widget(at.main.selectbox, "Label column").value == "journal" and not at.exception
