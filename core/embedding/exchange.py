"""A corpus and its vectors out to a Parquet dataset and back in, without re-embedding (`export` / `import`)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.config import resolve_device
from core.embedding.encoder import vectors_fingerprint
from core.embedding.models import fingerprint, get_model
from core.embedding.quantize import fast_fingerprint, fast_kind
from core.errors import ModelError
from core.io.vectors_parquet import read_vectors_parquet, write_vectors_parquet
from core.store import import_file

if TYPE_CHECKING:
    from core.store import Store

SAVE_ROWS = 100_000  # imported vectors written into the cache per chunk


def export_corpus(store: Store, corpus: str, model: str, out: str | Path, *, fast: bool | None = None,
                  tables: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Write a corpus's papers (fields and labels included) and its vectors for `model` as Parquet into `out`.

    `tables` (name -> pyarrow Table) are written beside the papers, e.g. the citation links table.
    """
    spec = get_model(model, store)
    fp = vectors_fingerprint(spec, fast)
    vectors = store.embeddings(corpus, fp)  # NotEmbeddedError (one sentence) when some papers lack a vector
    mode = fast_kind(fast, resolve_device("auto")) if fp != fingerprint(spec) else ""
    meta = {"corpus": corpus, "model": spec.name, "fingerprint": fp, "mode": mode or "exact",
            "spec": spec.to_dict()}
    info = write_vectors_parquet(out, store.papers(corpus), vectors, meta, tables=tables)
    return {"corpus": corpus, "model": spec.name, "out": str(out), **info}


def _target_fingerprint(store: Store, meta: Mapping[str, Any], model: str | None) -> tuple[str, str, str]:
    """(model name, vectors fingerprint here, warning): the export's model as this workspace knows it, if it does."""
    name = model or str(meta.get("model", ""))
    mode = "" if meta.get("mode", "exact") == "exact" else str(meta["mode"])
    known = {spec.name for spec in _known_models(store)}
    if name in known:
        return name, fast_fingerprint(fingerprint(get_model(name, store)), mode), ""
    if model:
        raise ModelError(f"model {model!r} is not registered in this workspace; the vectors cannot be filed under it")
    return name, str(meta["fingerprint"]), (f"model {name!r} is not registered in this workspace: its vectors are "
                                            f"kept under fingerprint {meta['fingerprint']}")


def _known_models(store: Store) -> list[Any]:
    from core.embedding.models import list_models

    try:
        return list_models(store)
    except ModelError:  # the packaged model missing: only the workspace's own models
        return []


def import_corpus(store: Store, path: str | Path, corpus: str, model: str | None = None) -> dict[str, Any]:
    """Import a vectors Parquet export into `corpus`: papers through the usual import, vectors into the cache."""
    hashes: list[str] = []
    with tempfile.NamedTemporaryFile(dir=store.root, prefix="import-", suffix=".f32.tmp") as spill:

        def sink(text_hash: str, vector: np.ndarray) -> None:
            hashes.append(text_hash)
            spill.write(vector.tobytes())

        opened = read_vectors_parquet(path, sink)
        name, fp, warning = _target_fingerprint(store, opened.meta, model)
        report = import_file(store, opened.records, corpus, source=Path(path).name)
        spill.flush()
        dim = int(opened.meta["dim"])
        if hashes:
            vectors = np.memmap(spill.name, dtype=np.float32, mode="r", shape=(len(hashes), dim))
            for start in range(0, len(hashes), SAVE_ROWS):
                store.add_embeddings(fp, hashes[start : start + SAVE_ROWS], vectors[start : start + SAVE_ROWS])
    doc = report.to_dict()
    doc.update({"vectors": len(hashes), "model": name, "fingerprint": fp, "tables": opened.tables})
    if warning:
        doc["warning"] = warning
    return doc
