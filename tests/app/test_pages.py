"""The explorer pages (library, map, similar papers, journals) through the router, without a browser."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import embed_corpus, fast_kind, get_model, vectors_fingerprint
from core.records import Paper
from core.store import Store
from tests.app.background_jobs import wait_for_background
from tests.app.map_component import column, legend_names, map_sent
from tests.helpers import make_papers, register_tiny

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAPERS = make_papers()  # 36 papers: 12 each of astro, bio, econ in journals "J. Astro", "J. Bio", "J. Econ"


@pytest.fixture()
def empty_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")  # these maps use PCA; keep UMAP's compile off the two cores
    return tmp_path / "ws"


@pytest.fixture()
def workspace(empty_workspace: Path, tiny_model_dir: Path) -> Store:
    """Corpus 'c' (36 papers of three journals) embedded with the tiny model registered as 'tiny'."""
    store = Store(empty_workspace)
    store.import_papers("c", PAPERS, source="make_papers")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    return store


def open_app(page: str | None = None, model: str | None = "tiny") -> AppTest:
    """Run the router (optionally on another page) with the tiny model chosen in the sidebar."""
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["map_method"] = "pca"  # UMAP's first numba compile takes ~20 s; the e2e tests use it
    at.run()
    if page:
        at.switch_page(page).run()
    if model:
        at.selectbox(key="model").set_value(model).run()
    assert not at.exception
    return at


def decode(values) -> list:
    """A plotly JSON array: a plain list, or {'dtype', 'bdata'} as plotly writes numpy arrays."""
    if isinstance(values, dict) and "bdata" in values:
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return list(values)


def embedded_as(model: str) -> str:
    """How the library names a model's vectors: 'tiny', or 'tiny (bf16)' in the default fast CPU mode."""
    kind = fast_kind(None, "cpu")
    return f"{model} ({kind})" if kind else model


def chart(at: AppTest, index: int = 0) -> dict:
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


def widget(elements, label: str):
    return next(w for w in elements if w.label == label)


@pytest.mark.parametrize("page", ["app_pages/map.py", "app_pages/similar.py", "app_pages/journals.py"])
def test_an_empty_workspace_asks_to_import_a_corpus(empty_workspace, page):
    at = open_app(page, model=None)
    assert not at.exception and not at.error
    assert "Import a corpus on the **Library** page first." in texts(at.info)
    assert "No corpus yet" in texts(at.sidebar.info)


def test_the_library_of_an_empty_workspace_offers_upload_and_demo(empty_workspace):
    at = open_app("app_pages/library.py", model=None)
    assert not at.exception and not at.error
    assert "No corpus yet. Upload a file above or import the PubMed demo." in texts(at.info)
    assert at.radio[0].options == ["Upload a file", "PubMed demo corpus"]
    at.radio[0].set_value("PubMed demo corpus").run()
    assert [b.label for b in at.button] == ["Import the demo corpus"]


def test_the_library_lists_the_corpus_with_its_size_labels_and_models(workspace):
    at = open_app("app_pages/library.py")
    table = at.dataframe[0].value
    row = table.set_index("corpus").loc["c"]
    assert row["papers"] == len(PAPERS)
    assert row["label columns"].split(", ")[0] == "journal"
    assert row["embedded with"] == embedded_as("tiny")
    assert "0 papers of **c** still need embedding with **tiny**." in texts(at.caption)
    assert widget(at.button, "Embed with tiny").disabled
    # Streamlit's own table download is off app-wide (it wrote cells as live formulas): the table has its own
    assert any(b.proto.label == "Download this table (CSV)" for b in at.get("download_button"))
    shown = json.loads(at.dataframe[0].proto.columns)  # "2,999 papers" as the sidebar says it, not "2999"
    assert shown["papers"]["type_config"]["format"] == "localized", shown


def test_the_library_embeds_a_new_corpus_and_deletes_one_after_confirmation(workspace):
    fresh = [Paper(f"new-{p.id}", f"Revisited: {p.title}", p.abstract, p.fields) for p in make_papers(per_topic=2)]
    workspace.import_papers("more", fresh, source="make_papers")
    at = open_app("app_pages/library.py")
    at.selectbox(key="embed_target").set_value("more").run()
    assert "6 papers of **more** still need embedding with **tiny**." in texts(at.caption)
    wait_for_background(widget(at.button, "Embed with tiny").click().run())
    assert not at.exception and not at.error
    assert not workspace.missing_hashes("more", vectors_fingerprint(get_model("tiny", workspace)))
    assert "Embedded 6 new papers of **more** with **tiny**" in texts(at.success)
    assert "0 papers of **more** still need embedding with **tiny**." in texts(at.caption)
    assert at.dataframe[0].value.set_index("corpus").loc["more", "embedded with"] == embedded_as("tiny")

    at.selectbox(key="delete_target").set_value("more").run()
    assert widget(at.button, "Delete corpus more").disabled
    at.checkbox(key="delete_confirm:corpus:more").check().run()
    widget(at.button, "Delete corpus more").click().run()
    assert not at.exception
    assert [c.name for c in workspace.corpora()] == ["c"]
    assert at.dataframe[0].value["corpus"].tolist() == ["c"]


def test_the_map_draws_one_point_per_paper_coloured_by_journal(workspace):
    at = open_app()
    assert [t.value for t in at.title] == ["Domain map"]
    assert f"PCA: drawing all **{len(PAPERS)}** papers" in texts(at.caption)
    sent = map_sent(at)
    points = sent["points"]
    assert len(points) == len(PAPERS) and points["x"].dtype == np.float32
    assert points[["x", "y"]].abs().to_numpy().max() <= 1.0  # regl-scatterplot's space
    assert sorted(legend_names(at)) == ["J. Astro", "J. Bio", "J. Econ"]
    codes = column(sent["page"], "codes")
    assert len(codes) == len(PAPERS) and codes.dtype == np.uint8 and set(codes) == {0, 1, 2}
    assert any("On galaxy and stellar number 0" in t for t in points["title"])


def test_the_map_highlights_matching_papers_and_labels_clusters(workspace):
    at = open_app()
    widget(at.text_input, "Highlight papers matching").set_value("galaxy").run()
    assert not at.exception
    matching = sum("galaxy" in f"{p.title} {p.abstract}".lower() for p in PAPERS)
    assert f"{matching:,} papers match “galaxy” in title, abstract or another column." in texts(at.caption)
    bits = np.unpackbits(column(map_sent(at)["page"], "mask").astype(np.uint8))[:len(PAPERS)]
    assert int(bits.sum()) == matching

    widget(at.selectbox, "Colour by").set_value("topics").run()
    widget(at.number_input, "Clusters (k)").set_value(4).run()
    assert not at.exception
    labels = map_sent(at)["page"]["state"]["labels"]
    assert len([label for label in labels if label["level"] == "coarse"]) == 2  # a quarter of k, at least 2


def test_the_map_can_colour_papers_by_their_predicted_journal(workspace):
    at = open_app()
    widget(at.selectbox, "Colour by").set_value("predicted journal").run()
    assert not at.exception and not at.error
    assert len(map_sent(at)["points"]) == len(PAPERS)
    assert set(legend_names(at)) <= {"J. Astro", "J. Bio", "J. Econ"}


def test_similar_papers_finds_a_paper_from_its_own_text(workspace):
    at = open_app("app_pages/similar.py")
    target = PAPERS[15]
    at.text_input(key="similar_title").set_value(target.title)
    at.text_area(key="similar_abstract").set_value(target.abstract)
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception and not at.error
    results = at.dataframe[0].value
    assert results.iloc[0]["title"] == target.title
    assert results.iloc[0]["score"] == pytest.approx(1.0, abs=1e-3)
    assert list(results["rank"]) == list(range(1, 11))
    assert results["journal"].iloc[0] == target.fields["journal"]
    assert at.expander[1].label.startswith(f"1. {target.title}")

    at.switch_page("app_pages/map.py").run()
    assert not at.exception
    stars = map_sent(at)["page"]["state"]["stars"]
    assert len(stars) == 1 and stars[0]["label"] == target.title[:120]


def test_similar_papers_of_a_picked_corpus_paper_leave_the_paper_out(workspace):
    at = open_app("app_pages/similar.py")
    at.radio[0].set_value("Pick a paper from the corpus").run()
    widget(at.selectbox, "Paper").set_value(7).run()
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception and not at.error
    results = at.dataframe[0].value
    assert len(results) == 10 and PAPERS[7].title not in results["title"].tolist()
    assert results["score"].is_monotonic_decreasing


def test_similar_papers_answers_a_short_query_with_its_words(workspace):
    at = open_app("app_pages/similar.py")
    at.text_input(key="similar_title").set_value("protein")
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception and not at.warning  # answered, not warned about (issue 43)
    results = at.dataframe[0].value
    assert len(results) == 10 and results["why"].iloc[0].startswith("words: protein")
    assert "**protein**" in "\n".join(str(m.value) for m in at.markdown)  # the word in bold in the paper's text


def test_journals_shows_knn_probabilities_and_evidence(workspace):
    at = open_app("app_pages/journals.py")
    target = PAPERS[3]  # an astro paper of "J. Astro"
    at.text_input(key="journal_title").set_value(target.title)
    at.text_area(key="journal_abstract").set_value(target.abstract)
    widget(at.button, "Suggest journals").click().run()
    assert not at.exception and not at.error
    assert "no trained journal head" in texts(at.info) and "**journal**" in texts(at.info)
    bars = chart(at)["data"][0]
    labels, probs = decode(bars["y"]), decode(bars["x"])
    assert sorted(labels) == ["J. Astro", "J. Bio", "J. Econ"]
    assert sum(probs) == pytest.approx(1.0, abs=0.01) and all(0 <= p <= 1 for p in probs)
    astro = next(e for e in at.expander if e.label.startswith("J. Astro — "))
    evidence = astro.dataframe[0].value
    assert evidence.iloc[0]["title"] == target.title and evidence.iloc[0]["score"] == pytest.approx(1.0, abs=1e-3)
    # beside the suggestions: how often this method is right on held-out papers of the corpus (issue 17)
    measured = texts(at.success)
    assert measured.startswith("How often it is right") and "held-out papers of **c**" in measured and "top 5 suggestions" in measured and "BM25" in measured
    assert "95 % interval" in measured  # every verdict says how sure it is
    assert all("%" in e.label for e in at.expander if " — " in e.label)


def test_journals_warns_about_a_short_query_and_shows_the_evidence_per_journal(workspace):
    at = open_app("app_pages/journals.py")
    at.text_input(key="journal_title").set_value("galaxy redshift")
    widget(at.button, "Suggest journals").click().run()
    assert not at.exception and not at.error
    assert "retrieve poorly from a title or a few words" in texts(at.warning)
    assert "calibrated vote with a prior" in texts(at.caption).lower()
    labels = [e.label for e in at.expander if " — " in e.label]
    assert labels and all(" of 36 nearest papers (" in label for label in labels)
    counts = [int(label.split(" · ")[1].split(" of ")[0]) for label in labels]
    assert sum(counts) == 36  # three journals: every neighbour is counted once
    # the measured accuracy beside a query without an abstract is of held-out papers queried by their titles alone
    # (the journals-title task), not of title-and-abstract queries: the verdict is about the query asked
    measured = texts(at.success)
    assert "each queried by its title alone" in measured and "title and abstract" not in measured, measured
    assert "95 % interval" in measured and "top 5 suggestions" in measured
    at.text_area(key="journal_abstract").set_value("We measure the redshift of distant galaxies with a telescope.")
    widget(at.button, "Suggest journals").click().run()
    assert "each queried by its title and abstract" in texts(at.success), texts(at.success)


def test_journals_corpus_check_compares_predicted_and_true_counts(workspace):
    at = open_app("app_pages/journals.py")
    widget(at.button, "Run the check").click().run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert set(table["journal"]) == {"J. Astro", "J. Bio", "J. Econ"}
    assert len(at.get("plotly_chart")) == 1


def test_similar_papers_links_dois_and_web_urls_but_not_script_urls(workspace):
    papers = [Paper(p.id, p.title, p.abstract, dict(p.fields)) for p in PAPERS[:3]]
    papers[0].fields["doi"] = "10.1000/x1"
    papers[1].fields["url"] = "javascript:alert(1)"
    papers[2].fields["url"] = "https://example.org/p3"
    workspace.import_papers("linked", papers, source="make_papers")
    embed_corpus(workspace, "linked", "tiny")
    at = open_app("app_pages/similar.py")
    at.selectbox(key="corpus").set_value("linked").run()
    at.text_input(key="similar_title").set_value(papers[0].title)
    at.text_area(key="similar_abstract").set_value(papers[0].abstract)
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception
    links = dict(zip(at.dataframe[0].value["title"], at.dataframe[0].value["link"]))
    assert links[papers[0].title] == "https://doi.org/10.1000/x1"
    assert pd.isna(links[papers[1].title])
    assert links[papers[2].title] == "https://example.org/p3"


def test_the_map_shows_a_pca_preview_while_the_chosen_map_is_computed_in_the_background(workspace):
    at = open_app()
    at.selectbox(key="map_method").set_value("tsne").run()
    assert not at.exception
    captions = texts(at.caption)
    assert f"PCA preview: drawing all **{len(PAPERS)}** papers" in captions
    assert len(map_sent(at)["points"]) == len(PAPERS)
    deadline = time.time() + 120
    while time.time() < deadline:  # the page's fragment polls the same job; here the test does
        at.run()
        if "TSNE: drawing all" in texts(at.caption):
            break
        time.sleep(0.2)
    assert f"TSNE: drawing all **{len(PAPERS)}** papers" in texts(at.caption)
    assert not at.exception and len(map_sent(at)["points"]) == len(PAPERS)
