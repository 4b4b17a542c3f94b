"""Hostile strings in every field of a corpus, its label column's name, its collections and the trash: every page
renders them as text, never as a link, an image or raw HTML (issue 41, item 1). The oracle reads each Markdown
string the app sends (bodies, labels, help, radio options) as GitHub-flavoured Markdown would."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import embed_corpus
from core.records import doi_url, md_escape, safe_link
from core.store import Store
from tests.helpers import register_tiny
from tests.hostile import (
    EVIL,
    HOSTILE,
    HOSTILE_COLLECTIONS,
    HOSTILE_CORPUS,
    HOSTILE_DOI,
    HOSTILE_LABEL,
    ODD_DOI,
    hostile_papers,
    markdown_dangers,
    markdown_strings,
)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = ["app_pages/map.py", "app_pages/similar.py", "app_pages/journals.py", "app_pages/library.py",
         "app_pages/train.py", "app_pages/evaluate.py", "app_pages/compare.py"]


@pytest.fixture()
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """A workspace whose one corpus (named like a web address) is hostile in every field, embedded, with hostile
    collections and one of them in the trash."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    papers = hostile_papers()
    store.import_papers(HOSTILE_CORPUS, papers, source="hostile.ris")
    store.set_labels(HOSTILE_CORPUS, [HOSTILE_LABEL, "journal"])
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, HOSTILE_CORPUS, "tiny")
    ids = store.paper_ids(HOSTILE_CORPUS)
    assert len(ids) == len(papers)
    for name in HOSTILE_COLLECTIONS:
        store.save_collection(HOSTILE_CORPUS, name, ids[:4], note=HOSTILE)
    store.save_collection(HOSTILE_CORPUS, f"{HOSTILE_COLLECTIONS[0]} old", ids[4:6])
    store.delete_collection(HOSTILE_CORPUS, f"{HOSTILE_COLLECTIONS[0]} old")
    return store


def _nodes(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _nodes(child)


def _dangers(at: AppTest) -> list[str]:
    found = []
    for node in _nodes(at._tree):
        proto = getattr(node, "proto", None)
        if proto is None:
            continue
        for text in markdown_strings(proto):
            found += [f"{danger} in {text[:120]!r}" for danger in markdown_dangers(text)]
    return found


def _walk(page: str, **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["map_method"] = "pca"
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(page).run()
    at.selectbox(key="model").set_value("tiny").run()
    return at


def test_the_oracle_sees_what_unescaped_hostile_text_would_render():
    assert len(markdown_dangers(HOSTILE)) >= 5  # image, link, html, bare URL, www, e-mail
    assert markdown_dangers(f"[{HOSTILE_DOI}](https://doi.org/{HOSTILE_DOI})")
    assert markdown_dangers(md_escape(HOSTILE)) == []
    assert markdown_dangers(md_escape(HOSTILE_COLLECTIONS[1])) == []


def test_links_come_only_from_valid_dois_and_plain_web_urls():
    assert doi_url(HOSTILE_DOI) is None  # white space: not a DOI
    assert doi_url(ODD_DOI) == "https://doi.org/10.1000/a%28b%29c%3Cd%3E%5Be%5D"
    assert doi_url("http://dx.doi.org/10.5/XY") == "https://doi.org/10.5/XY"
    assert doi_url("10.x/y") is None and doi_url("11.1000/y") is None
    assert doi_url("https://doi.org/10.1038/nphys1170") == "https://doi.org/10.1038/nphys1170"
    assert safe_link(None, "javascript:alert(1)") is None
    assert safe_link(None, "data:text/html,x") is None
    assert safe_link(None, "http://x.org/a b") is None
    assert safe_link(None, "https://x.org/a_(b)") == "https://x.org/a_%28b%29"
    assert safe_link(None, "https:///nohost") is None


@pytest.mark.parametrize("page", PAGES)
def test_every_page_shows_hostile_data_as_text(hostile: Store, page: str):
    at = _walk(page)
    assert not at.exception, at.exception
    assert not _dangers(at)


def test_the_side_panel_and_the_collections_show_hostile_data_as_text(hostile: Store):
    pid = hostile_papers()[1].id
    at = _walk("app_pages/map.py", map_paper=pid)
    assert not at.exception, at.exception
    shown = "\n".join(str(m.value) for m in at.markdown)
    assert "evil" in shown  # the panel is open and shows the hostile title, escaped
    assert not _dangers(at)
    at = _walk("app_pages/map.py", map_paper=hostile_papers()[2].id)  # a paper with a linkable DOI
    assert "](https://doi.org/10.1000/a%28b%29c%3Cd%3E%5Be%5D2)" in "\n".join(str(m.value) for m in at.markdown)
    assert not _dangers(at)
    at = _walk("app_pages/library.py")
    labels = [b.label for b in at.button]
    assert any(label.startswith("Merge ") for label in labels)  # the merge, rename, delete labels are there
    assert not _dangers(at)
    assert all(EVIL not in str(v) or "\u2060" in str(v) or "\\" in str(v) for v in labels)


def test_search_results_and_journal_suggestions_show_hostile_data_as_text(hostile: Store):
    at = _walk("app_pages/similar.py")
    at.text_input(key="similar_title").set_value("galaxies stars telescope")
    at.text_area(key="similar_abstract").set_value("We study galaxies stars telescope in case 3.")
    next(b for b in at.button if b.label == "Find similar papers").click().run()
    assert not at.exception, at.exception
    assert any("evil" in e.label for e in at.expander)  # hostile titles listed as results, escaped
    assert not _dangers(at)
    at = _walk("app_pages/journals.py")
    at.text_input(key="journal_title").set_value("galaxies stars telescope")
    at.text_area(key="journal_abstract").set_value("We study galaxies stars telescope in case 3.")
    at.button(key="suggest_button").click().run()
    assert not at.exception, at.exception
    assert not _dangers(at)


def test_search_highlights_query_words_in_hostile_titles_and_abstracts_as_text(hostile: Store):
    at = _walk("app_pages/similar.py")
    at.text_input(key="similar_title").set_value("evil telescope bold link")  # words inside the hostile markup
    next(b for b in at.button if b.label == "Find similar papers").click().run()
    assert not at.exception, at.exception
    shown = "\n".join(str(m.value) for m in at.markdown)
    assert "**telescope**" in shown and "**evil**" in shown  # the words are highlighted...
    assert "\\*\\***bold**\\*\\*" in shown  # ...and the data's own **bold** stays literal text around the highlight
    assert not _dangers(at)
