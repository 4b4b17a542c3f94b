"""Maps that stay put: papers added to a mapped corpus are placed on the map the user knows, not refitted.

The ordinary map cache (`cached`) is keyed by the corpus version, so every import used to bring a new fit where every
paper moved. A stable map is one record per (corpus, vectors, method, parameters, seed) holding the ids of its papers
and their coordinates. Papers added later are placed on it and marked new; the papers already there keep their
coordinates exactly. PCA places them through its own linear projection (recovered from the fitted papers by least
squares, which is exact for a linear map); UMAP and t-SNE at the weighted mean of their most similar mapped papers,
as `place_points` places a pasted paper (a saved UMAP reducer would keep its whole neighbour graph on disk; the
placement needs only the vectors and the map; BENCHMARKS.md section 21 measures it against a refit).

A fresh fit happens only when the user asks (`refit_map`: fitted afresh, turned and scaled onto the old map by
orthogonal Procrustes, how far papers moved reported, the old map kept for one undo), or when the record cannot be
trusted (papers of the map deleted, the corpus imported again from scratch): then a new fit, with the reason.

The record is an .npz beside the cached maps, named `<corpus>-<vectors>-v0-stable-...` so that the trash moves it
with its corpus (`core.store.trash` moves every `<slug>-<fingerprint>-v<n>...` file).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.display import plural
from core.embedding import ModelSpec, get_model
from core.errors import MireadError
from core.store.files import load_npz

if TYPE_CHECKING:
    from core.store import CorpusInfo, Store

PLACE_BASE = 200_000  # at most this many mapped papers (a seeded sample) are searched for a new paper's neighbours
LINEAR_SAMPLE = 20_000  # papers the PCA projection is recovered from
WRITE_LOCK = threading.RLock()  # one writer of the records at a time in this process (pages and background re-fits)
log = logging.getLogger(__name__)
Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class Movement:
    """How far papers moved when a map was re-fitted, as shares of the old map's width."""

    papers: int
    median: float
    p90: float
    moved: int  # papers that moved more than `share`
    share: float = 0.10

    def describe(self) -> str:
        return (f"the median paper moved {self.median:.1%} of the map's width and 90 % moved less than "
                f"{self.p90:.1%}; {plural(self.moved, 'paper')} of {self.papers:,} moved more than {self.share:.0%}")


@dataclass(frozen=True)
class StableMap:
    """A corpus map that stays put: coordinates in corpus order and which papers were placed since it was fitted."""

    coords: np.ndarray
    new: np.ndarray
    method: str
    fitted: int  # papers the map was fitted on
    fitted_at: float
    reason: str = ""  # why the map was fitted afresh instead of kept ('' when it was kept or is the first)
    movement: Movement | None = None  # how far papers moved at the re-fit that made this map
    previous: str = ""  # the map "undo re-fit" restores, in words ('' when there is none)

    @property
    def added(self) -> int:
        return int(self.new.sum())

    @property
    def placement(self) -> str:
        """How new papers are placed on this map."""
        return "by the PCA's projection" if self.method == "pca" else "from their nearest mapped papers"


@dataclass
class Record:
    """A stable map on disk: its papers' ids and coordinates (in corpus order when saved), which are new, its story."""

    ids: np.ndarray
    coords: np.ndarray
    new: np.ndarray
    meta: dict[str, Any]
    linear: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # PCA: (mean, weights, offset)


# ---------------------------------------------------------------- the record on disk


def record_paths(store: Store, corpus: str, spec: ModelSpec, method: str, params: dict | None,
           seed: int) -> tuple[Path, Path]:
    """(the record, the previous record kept for undo)."""
    from core.embedding import vectors_fingerprint
    from core.explore.maps.projection import params_key

    key = f"{vectors_fingerprint(spec)}-v0-stable-{params_key(method, params)}-s{seed}"
    return (store.array_path("maps", corpus, key, suffix=".npz"),
            store.array_path("maps", corpus, key, suffix="-previous.npz"))


def load_record(path: Path, ids: bool = True) -> Record | None:
    """The record at `path`, or None when there is none or it cannot be read; `ids=False` leaves its ids unread."""
    if not path.exists():
        return None
    try:
        with load_npz(path) as data:
            linear = (data["mean"], data["weights"], data["offset"]) if "weights" in data else None
            names = _split_ids(data["ids"]) if ids else np.empty(0, dtype=str)
            return Record(names, data["coords"], data["new"], json.loads(str(data["meta"])), linear)
    except (OSError, ValueError, KeyError, EOFError, UnicodeDecodeError) as exc:
        log.warning("stable map %s unreadable (%s): fitting afresh", path.name, exc)
        return None


def _join_ids(ids: np.ndarray) -> np.ndarray:
    """Ids as one NUL-separated UTF-8 byte array (a fixed-width string array costs 4 bytes per character)."""
    return np.frombuffer("\0".join(map(str, ids)).encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _split_ids(blob: np.ndarray) -> np.ndarray:
    return np.asarray(blob.tobytes().decode("utf-8", "surrogatepass").split("\0") if blob.size else [], dtype=str)


def save_record(path: Path, record: Record) -> None:
    """Write a record atomically (temporary file, then rename)."""
    arrays: dict[str, np.ndarray] = {"ids": _join_ids(record.ids), "coords": record.coords, "new": record.new,
                                     "meta": np.array(json.dumps(record.meta))}
    if record.linear is not None:
        arrays.update(zip(("mean", "weights", "offset"), record.linear))
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, **arrays)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _describe(meta: dict[str, Any], method: str, added: int) -> str:
    when = time.strftime("%d %b %Y %H:%M", time.localtime(meta["fitted_at"]))
    return (f"the {method.upper()} map fitted on {plural(meta['fitted'], 'paper')} on {when}"
            + (f", {added:,} placed since" if added else ""))


def as_map(record: Record, method: str, previous: Record | None) -> StableMap:
    moved = record.meta.get("movement")
    return StableMap(record.coords, record.new.astype(bool), method, int(record.meta["fitted"]),
                     float(record.meta["fitted_at"]), record.meta.get("reason", ""),
                     Movement(**moved) if moved else None,
                     _describe(previous.meta, method, int(previous.new.sum())) if previous is not None else "")


# ---------------------------------------------------------------- keeping, placing, adopting


def _not_kept(record: Record, info: CorpusInfo, ids: np.ndarray) -> str:
    """Why a record cannot be kept for the corpus as it is now ('' when it can)."""
    if record.meta.get("created") != info.created:
        return f"corpus {info.name!r} was imported again from scratch after the previous map was fitted"
    gone = int((~np.isin(record.ids, ids)).sum())
    if gone:
        return (f"{plural(gone, 'paper')} of the previous map {'was' if gone == 1 else 'were'} deleted from the "
                "corpus")
    return ""


def _linear(matrix: np.ndarray, coords: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, weights, offset) with coords ~ (x - mean) @ weights + offset: a linear map's own projection.

    Minimum-norm least squares on centred vectors recovers PCA's components exactly (they lie in the span of the
    centred vectors), from a seeded sample of at most LINEAR_SAMPLE papers."""
    from core.explore.maps.sampled import fit_sample

    rows = fit_sample(len(matrix), LINEAR_SAMPLE, seed)
    x = np.asarray(matrix[rows], dtype=np.float64)
    y = np.asarray(coords[rows], dtype=np.float64)
    mean, offset = x.mean(axis=0), y.mean(axis=0)
    weights = np.linalg.lstsq(x - mean, y - offset, rcond=None)[0]
    return mean, weights, offset


def _place(record: Record, matrix: np.ndarray, known: np.ndarray, added: np.ndarray, coords: np.ndarray,
           seed: int) -> np.ndarray:
    """2-D positions of the papers at rows `added`, placed on the map of the papers at rows `known`."""
    from core.explore.maps.projection import place_points
    from core.explore.maps.sampled import fit_sample

    new = np.asarray(matrix[added], dtype=np.float32)
    if record.linear is not None:
        mean, weights, offset = record.linear
        return ((new - mean) @ weights + offset).astype(np.float32)
    base = known[fit_sample(len(known), PLACE_BASE, seed)]
    return place_points(coords[base], np.asarray(matrix[base], dtype=np.float32), new)


def _extend(store: Store, corpus: str, spec: ModelSpec, record: Record, ids: np.ndarray, info: CorpusInfo,
            seed: int) -> Record:
    """The record in today's corpus order, the papers it lacks placed on it and marked new."""
    from core.embedding import vectors_fingerprint

    sorter = np.argsort(record.ids)
    at = sorter[np.clip(np.searchsorted(record.ids, ids, sorter=sorter), 0, len(sorter) - 1)]
    found = record.ids[at] == ids
    coords = np.zeros((len(ids), 2), dtype=np.float32)
    new = np.zeros(len(ids), dtype=bool)
    coords[found], new[found] = record.coords[at[found]], record.new[at[found]]
    added = np.flatnonzero(~found)
    if len(added):
        matrix = store.embeddings(corpus, vectors_fingerprint(spec))
        coords[added] = _place(record, matrix, np.flatnonzero(found), added, coords, seed)
        new[added] = True
    meta = {**record.meta, "version": info.version}
    return Record(ids, coords, new, meta, record.linear)


def adopt_fit(store: Store, corpus: str, spec: ModelSpec, method: str, coords: np.ndarray, ids: np.ndarray,
           info: CorpusInfo, seed: int, **meta: Any) -> Record:
    """A record of a fresh fit of every paper."""
    from core.embedding import vectors_fingerprint

    linear = None
    if method == "pca" and len(coords):
        linear = _linear(store.embeddings(corpus, vectors_fingerprint(spec)), coords, seed)
    return Record(ids, np.asarray(coords, dtype=np.float32), np.zeros(len(ids), dtype=bool),
                   {"version": info.version, "created": info.created, "fitted": len(ids), "fitted_at": time.time(),
                    "reason": "", "movement": None, **meta}, linear)


def resolve_spec(store: Store, spec: ModelSpec | str) -> ModelSpec:
    """A model spec, looked up by name when given one."""
    return spec if isinstance(spec, ModelSpec) else get_model(spec, store)


def stable_map(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
               params: dict[str, Any] | None = None, seed: int = 0) -> StableMap | None:
    """The corpus's map as the user knows it, papers added since placed on it and marked new; fits nothing.

    None when there is no map to keep yet (or the old one cannot be kept: `not_kept_reason` says why) and no fresh
    fit of this corpus version is cached: the caller fits one (`start_map` / `map_coordinates`), and the next call
    takes it up.
    """
    from core.explore.maps.cached import cached_map

    spec = resolve_spec(store, spec)
    path, previous_path = record_paths(store, corpus, spec, method, params, seed)
    info = store.corpus(corpus)
    record = load_record(path, ids=False)
    if (record is not None and record.meta.get("version") == info.version
            and record.meta.get("created") == info.created and len(record.coords) == info.papers):
        return as_map(record, method, load_record(previous_path, ids=False))  # as saved: nothing added since
    with WRITE_LOCK:
        record = load_record(path)
        ids = np.asarray(store.paper_ids(corpus), dtype=str)
        reason = _not_kept(record, info, ids) if record is not None else ""
        if record is not None and not reason:
            record = _extend(store, corpus, spec, record, ids, info, seed)
        else:
            fresh = cached_map(store, corpus, spec, method, params, seed)
            if fresh is None or len(fresh) != len(ids):
                return None
            record = adopt_fit(store, corpus, spec, method, fresh, ids, info, seed, reason=reason)
            previous_path.unlink(missing_ok=True)  # an undo back to a map that no longer fits: none
        save_record(path, record)
        return as_map(record, method, load_record(previous_path, ids=False))


def not_kept_reason(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
                    params: dict[str, Any] | None = None, seed: int = 0) -> str:
    """Why the corpus's previous map cannot be kept and is being fitted afresh ('' when it can, or there is none)."""
    spec = resolve_spec(store, spec)
    record = load_record(record_paths(store, corpus, spec, method, params, seed)[0])
    if record is None:
        return ""
    return _not_kept(record, store.corpus(corpus), np.asarray(store.paper_ids(corpus), dtype=str))


def stable_coordinates(store: Store, corpus: str, spec: ModelSpec | str, method: str = "umap",
                       params: dict[str, Any] | None = None, progress: Progress | None = None,
                       seed: int = 0) -> tuple[StableMap, bool]:
    """(the stable map, whether it was there without a fit): fits the corpus when no map can be kept."""
    from core.explore.maps.cached import map_coordinates

    spec = resolve_spec(store, spec)
    kept = stable_map(store, corpus, spec, method, params, seed)
    if kept is not None:
        return kept, True
    map_coordinates(store, corpus, spec, method, params, progress, seed)
    fitted = stable_map(store, corpus, spec, method, params, seed)
    if fitted is None:
        raise MireadError(f"corpus {corpus!r} changed while its map was computed; ask for the map again")
    return fitted, False
