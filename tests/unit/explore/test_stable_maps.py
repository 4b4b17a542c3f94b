"""Maps that stay put (issue 31): papers added to a mapped corpus are placed on the map and marked new, the old ones
keep their coordinates exactly; "re-fit" is explicit, aligned onto the old map, reports how far papers moved and can
be undone; a map whose papers were deleted or whose corpus was imported again is fitted afresh, with the reason."""

from __future__ import annotations

import json
import shutil
import time

import numpy as np
import pytest

from core.cli import main
from core.embedding import embed_corpus, get_model, vectors_fingerprint
from core.explore import (
    place_points,
    refit_job,
    refit_map,
    stable_coordinates,
    stable_map,
    start_refit,
    undo_refit,
)
from core.explore.maps.refit import movement
from core.explore.maps.stable import record_paths
from core.store import Store
from tests.helpers import make_papers, register_tiny


@pytest.fixture()
def mapped(store: Store, tiny_model_dir) -> Store:
    """Corpus 'c': 24 papers of three topics embedded with the tiny model."""
    register_tiny(store, tiny_model_dir)
    store.import_papers("c", make_papers(8))
    embed_corpus(store, "c", "tiny")
    return store


def add_papers(store: Store) -> list[str]:
    """Import 12 papers per topic (the first 8 are already there: merged) and embed; the ids added."""
    before = set(store.paper_ids("c"))
    store.import_papers("c", make_papers(12))
    embed_corpus(store, "c", "tiny")
    return [pid for pid in store.paper_ids("c") if pid not in before]


def vectors(store: Store) -> np.ndarray:
    return np.asarray(store.embeddings("c", vectors_fingerprint(get_model("tiny", store))))


def by_id(store: Store, coords: np.ndarray) -> dict[str, tuple[float, float]]:
    return {pid: (float(x), float(y)) for pid, (x, y) in zip(store.paper_ids("c"), coords)}


def test_adding_papers_keeps_the_old_coordinates_and_places_the_new_ones_from_their_neighbours(mapped: Store):
    first, was_there = stable_coordinates(mapped, "c", "tiny", "tsne")
    assert not was_there and first.added == 0 and first.fitted == 24 and first.reason == ""
    old = by_id(mapped, first.coords)
    added = add_papers(mapped)
    assert len(added) == 12
    kept = stable_map(mapped, "c", "tiny", "tsne")  # no fit: the new papers are placed on the map
    assert kept is not None and kept.added == 12 and kept.fitted == 24
    now = by_id(mapped, kept.coords)
    assert all(now[pid] == xy for pid, xy in old.items())  # exactly, not approximately
    ids = mapped.paper_ids("c")
    assert sorted(np.array(ids)[kept.new]) == sorted(added)
    x, rows_old = vectors(mapped), np.flatnonzero(~kept.new)
    expected = place_points(kept.coords[rows_old], x[rows_old], x[kept.new])
    assert np.allclose(kept.coords[kept.new], expected, atol=1e-5)
    # each new paper lands among its ten most similar mapped papers (inside the box they span on the map)
    unit = x / np.linalg.norm(x, axis=1, keepdims=True)
    for row in np.flatnonzero(kept.new):
        nearest = rows_old[np.argsort(-(unit[rows_old] @ unit[row]))[:10]]
        box = kept.coords[nearest]
        assert (box.min(axis=0) - 1e-4 <= kept.coords[row]).all() and (kept.coords[row] <= box.max(axis=0) + 1e-4).all()
    again, was_there = stable_coordinates(mapped, "c", "tiny", "tsne")
    assert was_there and np.array_equal(again.coords, kept.coords) and again.added == 12


def test_a_pca_map_places_new_papers_through_its_own_projection(mapped: Store):
    from sklearn.decomposition import PCA

    first, _ = stable_coordinates(mapped, "c", "tiny", "pca")
    x_old = vectors(mapped).copy()
    add_papers(mapped)
    kept = stable_map(mapped, "c", "tiny", "pca")
    assert kept is not None and kept.added == 12 and kept.placement == "by the PCA's projection"
    assert np.array_equal(kept.coords[~kept.new], first.coords)
    x = vectors(mapped)
    expected = PCA(n_components=2, svd_solver="full").fit(x_old).transform(x[kept.new])
    assert np.allclose(kept.coords[kept.new], expected, atol=1e-3 * np.abs(expected).max())


def test_refitting_an_unchanged_corpus_with_the_same_seed_moves_nothing(mapped: Store):
    first, _ = stable_coordinates(mapped, "c", "tiny", "tsne")
    refitted = refit_map(mapped, "c", "tiny", "tsne")
    assert refitted.movement is not None and refitted.movement.moved == 0 and refitted.movement.p90 < 1e-4
    assert np.allclose(refitted.coords, first.coords, atol=1e-3)
    assert refitted.previous.startswith("the TSNE map fitted on 24 papers on ")


def test_a_refit_is_aligned_onto_the_old_map_reports_the_movement_and_can_be_undone(mapped: Store):
    stable_coordinates(mapped, "c", "tiny", "tsne")
    add_papers(mapped)
    before = stable_map(mapped, "c", "tiny", "tsne")
    assert before is not None
    refitted = refit_map(mapped, "c", "tiny", "tsne")
    assert refitted.added == 0 and refitted.fitted == 36 and refitted.previous.endswith(", 12 placed since")
    moved = refitted.movement
    assert moved is not None and moved.papers == 36
    assert moved == movement(before.coords, refitted.coords)
    assert 0 <= moved.median <= moved.p90 and "of the map's width" in moved.describe()
    # aligned: closer to the old map than the raw fresh fit is
    from core.explore import cached_map

    raw = cached_map(mapped, "c", get_model("tiny", mapped), "tsne")
    assert ((refitted.coords - before.coords) ** 2).sum() <= ((raw - before.coords) ** 2).sum() + 1e-6
    restored = undo_refit(mapped, "c", "tiny", "tsne")
    assert np.array_equal(restored.coords, before.coords) and np.array_equal(restored.new, before.new)
    assert restored.previous == "" and stable_map(mapped, "c", "tiny", "tsne").added == 12
    with pytest.raises(Exception, match="no re-fit to undo"):
        undo_refit(mapped, "c", "tiny", "tsne")


def test_a_background_refit_reports_once_when_done(mapped: Store):
    stable_coordinates(mapped, "c", "tiny", "pca")
    job = start_refit(mapped, "c", "tiny", "pca")
    for _ in range(600):
        if job.done:
            break
        time.sleep(0.05)
    assert job.done and job.error is None
    assert refit_job(mapped, "c", "tiny", "pca") is job and refit_job(mapped, "c", "tiny", "pca") is None
    assert stable_map(mapped, "c", "tiny", "pca").movement is not None


def test_a_map_whose_papers_were_deleted_is_fitted_afresh_with_the_reason(mapped: Store):
    stable_coordinates(mapped, "c", "tiny", "tsne")
    with mapped.transaction() as conn:
        conn.execute("DELETE FROM papers WHERE corpus = 'c' AND pid IN ('bio-1', 'bio-2')")
    assert stable_map(mapped, "c", "tiny", "tsne") is None  # not reused: nothing of this corpus state is fitted
    fresh, was_there = stable_coordinates(mapped, "c", "tiny", "tsne")
    assert not was_there and fresh.reason == "2 papers of the previous map were deleted from the corpus"
    assert len(fresh.coords) == 22 and fresh.added == 0 and fresh.fitted == 22


def test_a_corpus_imported_again_from_scratch_is_fitted_afresh_with_the_reason(mapped: Store):
    spec = get_model("tiny", mapped)
    stable_coordinates(mapped, "c", spec, "tsne")
    path = record_paths(mapped, "c", spec, "tsne", None, 0)[0]
    kept = path.with_name("kept.npz")
    shutil.copyfile(path, kept)
    mapped.delete_corpus("c")
    assert not path.exists()  # the trash took the map with the corpus
    mapped.import_papers("c", make_papers(8))
    embed_corpus(mapped, "c", "tiny")
    first, _ = stable_coordinates(mapped, "c", spec, "tsne")
    assert first.reason == ""  # the corpus's first map: nothing to keep
    shutil.copyfile(kept, path)  # a map of the corpus as it was before (a copied workspace, a restored backup)
    mapped.import_papers("c", make_papers(12))
    embed_corpus(mapped, "c", "tiny")
    fresh, was_there = stable_coordinates(mapped, "c", spec, "tsne")
    assert not was_there and fresh.added == 0 and fresh.fitted == 36
    assert fresh.reason == "corpus 'c' was imported again from scratch after the previous map was fitted"


def test_the_map_command_keeps_the_map_and_refits_on_request(mapped: Store, capsys):
    def run(*extra: str) -> dict:
        assert main(["--workspace", str(mapped.root), "map", "--corpus", "c", "--model", "tiny", "--method", "pca",
                     "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)

    first = run()
    assert first["points"] == 24 and first["new"] == 0 and not first["cached"]
    add_papers(mapped)
    second = run()
    assert second["points"] == 36 and second["new"] == 12 and second["cached"]
    refitted = run("--refit")
    assert refitted["new"] == 0 and refitted["refit"]["papers"] == 36 and "restores" in refitted


def test_the_map_figure_rings_the_new_papers():
    from core.plots import map_figure

    coords = np.random.default_rng(0).random((300, 2)).astype(np.float32)
    marked = np.arange(300) >= 280
    ring = [t for t in map_figure(coords, marked=marked).data if t.name == "new since the map was fitted"]
    assert len(ring) == 1 and sorted(ring[0].customdata) == list(range(280, 300))
    assert ring[0].marker.symbol == "circle-open"
    sampled = map_figure(coords, marked=marked, max_points=100)  # a drawn sample keeps the rings' corpus rows
    ring = [t for t in sampled.data if t.name == "new since the map was fitted"][0]
    assert set(ring.customdata) <= set(range(280, 300)) and len(ring.customdata) > 0
    assert all(t.name != "new since the map was fitted" for t in map_figure(coords, marked=marked < 0).data)


def test_the_page_and_the_cli_share_one_tsne_map(mapped: Store):
    """The page's perplexity slider gives 30 where the default is 30.0: one map, not two that disagree."""
    from core.explore import params_key

    assert params_key("tsne", {"perplexity": 30}) == params_key("tsne", None)
    cli, _ = stable_coordinates(mapped, "c", "tiny", "tsne")
    page = stable_map(mapped, "c", "tiny", "tsne", {"perplexity": 30})
    assert page is not None and np.array_equal(page.coords, cli.coords)


def test_a_record_keeps_any_paper_id(tmp_path):
    from core.explore.maps.stable import Record, load_record, save_record

    ids = np.array(["10.1000/xyz;1", "café ünïcode", "with space", "a~2", "x" * 300], dtype=str)
    record = Record(ids, np.arange(10, dtype=np.float32).reshape(5, 2), np.array([0, 1, 0, 0, 1], dtype=bool),
                    {"version": 3, "created": 1.5, "fitted": 3, "fitted_at": 2.0})
    save_record(tmp_path / "m.npz", record)
    back = load_record(tmp_path / "m.npz")
    assert back is not None and list(back.ids) == list(ids) and np.array_equal(back.coords, record.coords)
    assert back.meta == record.meta and list(back.new) == [False, True, False, False, True]
    (tmp_path / "bad.npz").write_bytes(b"not a map")
    assert load_record(tmp_path / "bad.npz") is None  # unreadable: fitted afresh, never an error on the page
