"""The map's per-paper data as the browser gets it (the heavy instance of ui/map/component.py): positions in the map's
unit square, the year, and the hover card's plain text; and the key that names a corpus's map (corpus version + map)."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from core.display import author_text
from core.frames import derived
from core.labels import is_missing
from core.plots.map_data import UnitFrame


def _text(values: pd.Series | None, n: int, limit: int = 200) -> list[str] | pd.api.extensions.ExtensionArray:
    """A column as short plain strings ('' for missing)."""
    if values is None:
        return [""] * n
    plain = _plain_text(values, limit)
    if plain is not None:
        return plain
    return ["" if is_missing(v) else str(v)[:limit] for v in values.tolist()]


def _plain_text(values: pd.Series, limit: int) -> pd.api.extensions.ExtensionArray | None:
    """`_text`'s answer for a column of text and missing values only, by Arrow's string kernels (no loop in Python:
    1M titles ~0.1 s, BENCHMARKS §31m); None when a value is not text (numbers, lists: `_text` reads each)."""
    try:
        text = pa.array(values, type=pa.string(), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    blank = pc.fill_null(pc.equal(pc.utf8_trim_whitespace(text), ""), True)  # missing or blank: ''
    text = pc.if_else(blank, "", pc.utf8_slice_codeunits(text, 0, limit))
    return pd.arrays.ArrowExtensionArray(text)  # by position, as the list: a window's frame keeps its own index


def points_table(coords: np.ndarray, frame: pd.DataFrame, unit: UnitFrame) -> pd.DataFrame:
    """What the heavy instance keeps: x, y in [-1, 1] and the hover-card text, one row per paper (row i = frame
    row i)."""
    n = len(coords)
    xy = unit.to_unit(coords)
    table = pd.DataFrame({"x": xy[:, 0], "y": xy[:, 1]})
    table["title"] = _text(frame["title"] if "title" in frame else None, n)
    authors = frame["authors"].tolist() if "authors" in frame else [None] * n
    table["author"] = [author_text(a)[:160] for a in authors]  # the first three, then "et al."
    # a journal's name sent once (an Arrow dictionary: an index a paper), not once per paper
    table["journal"] = pd.Categorical(_text(frame["journal"] if "journal" in frame else None, n, 80))
    if "year" in frame:  # once, as a number: the Years window's, and the card's text made from it in the browser
        table["yearnum"] = pd.to_numeric(frame["year"], errors="coerce").to_numpy(dtype=np.float32)
    if "card_note" in frame:  # a page's own line on the card (Compare: how much the paper's neighbourhood changed)
        table["note"] = _text(frame["card_note"], n, 120)
    return table


def map_key(corpus: str, coords: np.ndarray, frame: pd.DataFrame) -> str:
    """Corpus + map version: a digest of the corpus's version (`_corpus_stamp`), the positions and ids (the same map
    of the same papers, the same key). The version counts: an edit (a title) keeps ids and positions, and under one
    key this server's cache and a browser that drew the map would keep the old hover text."""
    digest = hashlib.blake2b(np.ascontiguousarray(coords, dtype=np.float32).tobytes(), digest_size=8)
    digest.update(_corpus_stamp(corpus).encode("utf-8", "surrogatepass"))
    digest.update(derived(frame, "map_ids_digest", _ids_digest))  # once per corpus version's frame, not per run
    return f"{corpus}:{digest.hexdigest()}"


def _corpus_stamp(corpus: str) -> str:
    """Which corpus this is and its version: the workspace, when the corpus was made, its version (a corpus deleted
    and imported again under its name starts at version 1 again); "" for a name the workspace does not hold."""
    from core.errors import MireadError
    from ui.resources import store

    try:
        info = store().corpus(corpus)
    except MireadError:
        return ""
    return f"{store().root}|{info.created!r}|{info.version}"


def _ids_digest(frame: pd.DataFrame) -> bytes:
    """A digest of the papers' ids (and Compare's hover notes: the same map with another model B is other data): the
    texts joined by NUL and hashed once (0.1 s at 1M ids; pandas' per-row hash took 0.5-1 s, BENCHMARKS §31z)."""
    digest = hashlib.blake2b(digest_size=8)
    for column in ("id", "card_note"):
        if column in frame:
            digest.update("\x00".join(frame[column].astype(str).tolist()).encode("utf-8", "surrogatepass"))
            digest.update(b"\x01")  # the end of a column: ids ["a", "b"] and ids ["a"] + note ["b"] differ
    return digest.digest()
