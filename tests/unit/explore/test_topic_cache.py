"""The topic hierarchy is computed once per corpus version, model vectors and k, then read back from the workspace;
its labels nest (fine tags carry their coarse topic's letter) and are drawn as two levels on the map."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from core.embedding import embed_corpus
from core.explore.topics import cache as topic_cache
from core.explore.topics.hierarchy import Topics, letter_tag, tag_order, topic_tags
from core.explore.topics.labels import nested_names, paper_labels
from core.plots import add_topic_labels, narrow_screen_css
from core.records import Paper
from core.store import Store
from tests.helpers import make_papers, register_tiny


@pytest.fixture()
def embedded(tmp_path, tiny_model_dir):
    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(), source="test")
    spec = register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    return store, spec


@pytest.fixture()
def counted(monkeypatch):
    """Counts how often the hierarchy is really computed."""
    calls = []
    real = topic_cache.topic_hierarchy

    def hierarchy(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(topic_cache, "topic_hierarchy", hierarchy)
    return calls


def test_the_same_hierarchy_is_reused_and_a_new_corpus_version_recomputes(embedded, counted):
    store, spec = embedded
    first, key = topic_cache.corpus_topics(store, "c", spec, 6)
    again, key_again = topic_cache.corpus_topics(store, "c", spec, 6)
    assert counted == [6] and key == key_again
    assert np.array_equal(first.fine, again.fine) and np.array_equal(first.coarse, again.coarse)
    assert np.array_equal(first.parent, again.parent) and first.keywords == again.keywords
    assert len(first.fine) == 36 and set(first.keywords["fine"]) == set(range(6))

    topic_cache.corpus_topics(store, "c", spec, 8)  # another k is another clustering
    assert counted == [6, 8]

    new = [Paper("extra-1", "On galaxy clusters and lensing", "Weak lensing of galaxy clusters maps dark matter.",
                 {"journal": "J. Astro"})]
    store.import_papers("c", new, source="more")
    embed_corpus(store, "c", "tiny")
    grown, new_key = topic_cache.corpus_topics(store, "c", spec, 6)
    assert counted == [6, 8, 6] and new_key != key and len(grown.fine) == 37


def test_a_damaged_cache_file_is_recomputed(embedded, counted):
    store, spec = embedded
    topic_cache.corpus_topics(store, "c", spec, 6)
    labels_path, meta_path, _ = topic_cache.topics_files(store, "c", spec, 6)
    meta_path.write_text("{not json", encoding="utf-8")
    assert topic_cache.cached_topics(store, "c", spec, 6) is None
    topics, _ = topic_cache.corpus_topics(store, "c", spec, 6)
    assert counted == [6, 6] and len(topics.fine) == 36


def small_topics() -> Topics:
    fine = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 3])
    parent = np.array([1, 0, 1, 0])
    keywords = {"fine": {0: ["dark matter", "halo"], 1: ["tumour"], 2: ["galaxy", "lensing"], 3: ["heart"]},
                "coarse": {0: ["medicine", "patient"], 1: ["cosmology"]}}
    return Topics(fine=fine, coarse=parent[fine], parent=parent, keywords=keywords)


def test_fine_tags_carry_their_coarse_letter_ranked_by_size():
    assert [letter_tag(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]
    assert sorted(["A10", "B1", "A2", "AA1", "Z3"], key=tag_order) == ["A2", "A10", "B1", "Z3", "AA1"]
    tags = topic_tags(small_topics())
    assert tags["coarse"] == {0: "A", 1: "B"}
    assert tags["fine"] == {2: "B1", 0: "B2", 1: "A1", 3: "A2"}


def test_names_use_the_users_name_or_keywords_and_papers_get_their_levels_label():
    topics = small_topics()
    names = nested_names(topics, {"fine": {2: "Weak lensing"}, "coarse": {0: ""}})
    assert names["coarse"] == {0: "A: medicine, patient", 1: "B: cosmology"}
    assert names["fine"][2] == "B1: Weak lensing" and names["fine"][0] == "B2: dark matter, halo"
    assert paper_labels(topics, "coarse", names)[:4] == ["B: cosmology"] * 3 + ["A: medicine, patient"]
    assert paper_labels(topics, "fine", names)[-1] == "A2: heart"


def test_the_fine_level_draws_fine_labels_under_the_coarse_ones():
    topics = small_topics()
    names = nested_names(topics)
    coords = np.random.default_rng(0).standard_normal((10, 2))
    coarse_fig, fine_fig = go.Figure(), go.Figure()
    assert add_topic_labels(coarse_fig, coords, topics, "coarse", names) == ["A: medicine, patient", "B: cosmology"]
    drawn = add_topic_labels(fine_fig, coords, topics, "fine", names)
    assert drawn[:2] == ["A: medicine, patient", "B: cosmology"] and len(drawn) == 6
    coarse_sizes = {a.font.size for a in fine_fig.layout.annotations[:2]}
    fine_sizes = {a.font.size for a in fine_fig.layout.annotations[2:]}
    assert min(coarse_sizes) > max(fine_sizes)
    assert "B: cosmology › B1: galaxy, lensing" in [a.hovertext for a in fine_fig.layout.annotations]
    assert len(add_topic_labels(go.Figure(), coords, topics, "fine", names, max_fine=1)) == 3


def test_fine_legend_entries_are_grouped_under_their_coarse_topic_in_tag_order():
    from core.plots import map_figure

    topics = small_topics()
    names = nested_names(topics)
    coords = np.random.default_rng(0).standard_normal((10, 2))
    fig = map_figure(coords, color=paper_labels(topics, "fine", names), color_name="topics")
    add_topic_labels(fig, coords, topics, "fine", names)
    legend = sorted((t.legendrank, t.legendgroup, t.name) for t in fig.data)
    assert [(group, name.split(":")[0]) for _, group, name in legend] == [
        ("A", "A1"), ("A", "A2"), ("B", "B1"), ("B", "B2")]
    assert {t.legendgrouptitle.text for t in fig.data if t.legendgroup == "B"} == {"<b>B: cosmology</b>"}


def test_labels_that_would_overlap_are_nudged_apart():
    topics = small_topics()
    coords = np.zeros((10, 2))  # every topic's centre at the same place
    fig = go.Figure()
    add_topic_labels(fig, coords, topics, "fine", nested_names(topics))
    assert len({a.yshift for a in fig.layout.annotations}) == len(fig.layout.annotations)


def test_labels_that_fit_a_wide_map_but_not_a_phone_are_hidden_on_phones_only():
    topics = small_topics()
    names = nested_names(topics, {"coarse": {0: "x" * 60, 1: "y" * 60}})  # shown as 40 characters each
    coords = np.column_stack([topics.coarse, np.full(len(topics.fine), 0.5)]).astype(float)
    fig = go.Figure()
    add_topic_labels(fig, coords, topics, "coarse", names)
    assert [a.yshift for a in fig.layout.annotations] == [0, 0]  # side by side on a 1400-px window
    assert fig.layout.meta["narrow_hidden"] == [1]  # on a phone the second would cover the first
    css = narrow_screen_css(fig, "corpus_map")
    assert css.startswith("<style>@media (max-width: 640px)")
    assert ".st-key-corpus_map g.annotation[data-index='1'] { display: none; }" in css
    far = go.Figure()
    add_topic_labels(far, coords * [0.1, 1], topics, "coarse", nested_names(topics))
    assert far.layout.meta["narrow_hidden"] == [] and narrow_screen_css(far, "corpus_map") == ""


def test_an_edited_stop_word_list_recomputes_the_keywords(embedded, counted, monkeypatch, tmp_path):
    from core.explore.topics import keywords

    store, spec = embedded
    topic_cache.corpus_topics(store, "c", spec, 6)
    edited = tmp_path / "stopwords.txt"
    edited.write_text(keywords.STOP_FILE.read_text(encoding="utf-8") + "galaxy\n", encoding="utf-8")
    monkeypatch.setattr(keywords, "STOP_FILE", edited)
    topic_cache.labelling_key.cache_clear()
    keywords.stop_words.cache_clear()
    try:
        topics, _ = topic_cache.corpus_topics(store, "c", spec, 6)
    finally:
        topic_cache.labelling_key.cache_clear()
        keywords.stop_words.cache_clear()
    assert counted == [6, 6]
    assert not any("galaxy" in w for words in topics.keywords["fine"].values() for w in words)


def test_fine_labels_with_no_free_place_are_left_out_largest_first():
    fine = np.repeat(np.arange(12), np.arange(12, 0, -1))  # fine topic 0 largest
    parent = np.arange(12) % 2
    topics = Topics(fine=fine, coarse=parent[fine], parent=parent,
                    keywords={"fine": {f: [f"word{f}"] for f in range(12)}, "coarse": {0: ["even"], 1: ["odd"]}})
    names = nested_names(topics)
    drawn = add_topic_labels(go.Figure(), np.zeros((len(fine), 2)), topics, "fine", names)
    assert drawn[:2] == [names["coarse"][0], names["coarse"][1]]
    assert drawn[2:] == [names["fine"][f] for f in range(len(drawn) - 2)]  # the largest ones kept
    assert 2 < len(drawn) < 2 + 12
