"""Embedding arrays: chunks of vectors keyed by text hash, the per-corpus matrices, derived array paths, repair."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from core.errors import NotEmbeddedError, StoreError
from core.store.files import atomic_save_npy, load_npy

if TYPE_CHECKING:  # numpy loads where arrays are used: an import of papers never needs it
    import numpy as np

_STALE_TEMP_S = 3600.0  # repair() removes leftover temporary/orphan array files older than this


class VectorsMixin:
    """The `Store` methods for embeddings and other arrays; they use its connections, `arrays` and corpora."""

    # -- embeddings --------------------------------------------------------------------------
    def missing_hashes(self, corpus: str, model_fp: str) -> list[str]:
        """Text hashes in the corpus that have no cached embedding for this model (corpus order)."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT DISTINCT p.hash FROM papers p LEFT JOIN emb_keys k "
                "ON k.model_fp = ? AND k.hash = p.hash WHERE p.corpus = ? AND k.hash IS NULL ORDER BY p.seq",
                (model_fp, corpus),
            ).fetchall()
        return [r[0] for r in rows]

    def is_embedded(self, corpus: str, model_fp: str) -> bool:
        """Whether every paper of the corpus has a vector of this model. A yes is kept in the workspace under the
        corpus version and the model's vectors revision, so a fresh process reads a file instead of probing every
        paper (7 s at 1M papers under load, BENCHMARKS §31z); a no is asked again each time."""
        from core.store.frame_file import frame_key

        version, revision = self.corpus_version(corpus), self.vectors_revision(model_fp)
        marker = self.kept_path(corpus, f"{frame_key('embedded', model_fp, revision)}-v{version}", "-embedded")
        if marker is not None and marker.exists():
            return True
        with self.connect() as conn:
            missing = conn.execute(
                "SELECT 1 FROM papers p WHERE p.corpus = ? AND NOT EXISTS (SELECT 1 FROM emb_keys k "
                "WHERE k.model_fp = ? AND k.hash = p.hash) LIMIT 1", (corpus, model_fp)).fetchone()
        same = (self.corpus_version(corpus), self.vectors_revision(model_fp)) == (version, revision)
        if missing is None and marker is not None and same:
            try:
                marker.touch()
            except OSError:  # a read-only workspace: asked again next time
                pass
        return missing is None

    def vectors_revision(self, model_fp: str) -> tuple[int, int]:
        """(chunks, newest chunk id) of a model's stored vectors: changes whenever vectors are added or dropped, so
        a page can cache "is this corpus embedded" on it (with the corpus's version)."""
        with self.connect() as conn:
            count, newest = conn.execute("SELECT count(*), coalesce(max(id), 0) FROM emb_chunks WHERE model_fp = ?",
                                         (model_fp,)).fetchone()
        return int(count), int(newest)

    def iter_missing_papers(self, corpus: str, model_fp: str,
                            size: int = 50_000) -> Iterator[list[tuple[str, str, str]]]:
        """(hash, title, abstract) of papers without a vector for this model, in slices of `size`, corpus order.

        The rows are read into memory slice by slice (a cluster job streams millions); a hash repeated by
        duplicate papers comes once.
        """
        seen: set[str] = set()
        with self.connect() as conn:
            cursor = conn.execute(
                "SELECT p.hash, p.title, p.abstract FROM papers p LEFT JOIN emb_keys k "
                "ON k.model_fp = ? AND k.hash = p.hash WHERE p.corpus = ? AND k.hash IS NULL ORDER BY p.seq",
                (model_fp, corpus),
            )
            while rows := cursor.fetchmany(size):
                fresh = [(r[0], r[1] or "", r[2] or "") for r in rows if r[0] not in seen]
                seen.update(r[0] for r in fresh)
                if fresh:
                    yield fresh

    def add_embeddings(self, model_fp: str, hashes: list[str], vectors: np.ndarray) -> None:
        """Store a chunk of embeddings: the array file first (atomic), then its keys in one transaction."""
        import numpy as np

        if len(hashes) != len(vectors):
            raise StoreError("embedding chunk has a different number of vectors and keys")
        if not hashes:
            return
        folder = self.arrays / "embeddings" / model_fp
        name = f"chunk-{time.time_ns()}-{os.getpid()}.npy"
        atomic_save_npy(folder / name, np.ascontiguousarray(vectors, dtype=np.float32))
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO emb_chunks(model_fp, file, n, dim) VALUES (?, ?, ?, ?)",
                (model_fp, name, len(hashes), int(vectors.shape[1])),
            )
            chunk = cur.lastrowid
            conn.executemany(
                "INSERT OR REPLACE INTO emb_keys(model_fp, hash, chunk, offset) VALUES (?, ?, ?, ?)",
                [(model_fp, h, chunk, i) for i, h in enumerate(hashes)],
            )

    def vectors_of(self, model_fp: str, hashes: list[str]) -> np.ndarray:
        """The stored vectors of these text hashes [len(hashes), d], in their order (an evaluation's sample, not the
        whole corpus); NotEmbeddedError if one has none."""
        import numpy as np

        found: dict[str, tuple[int, int, str]] = {}
        wanted = list(dict.fromkeys(hashes))
        with self.connect() as conn:
            for start in range(0, len(wanted), 500):
                part = wanted[start:start + 500]
                rows = conn.execute(
                    "SELECT k.hash, k.chunk, k.offset, c.file FROM emb_keys k JOIN emb_chunks c ON c.id = k.chunk "
                    f"WHERE k.model_fp = ? AND k.hash IN ({','.join('?' * len(part))})", (model_fp, *part),
                ).fetchall()
                found.update({r["hash"]: (r["chunk"], r["offset"], r["file"]) for r in rows})
        if missing := [h for h in wanted if h not in found]:
            raise NotEmbeddedError(f"{len(missing)} papers are not embedded with this model yet")
        if not hashes:
            return np.zeros((0, 0), dtype=np.float32)
        loaded = {cid: self._load_chunk(model_fp, cid, file) for cid, _, file in found.values()}
        return np.stack([np.asarray(loaded[found[h][0]][found[h][1]], dtype=np.float32) for h in hashes])

    def _load_chunk(self, model_fp: str, chunk_id: int, file: str) -> np.ndarray:
        path = self.arrays / "embeddings" / model_fp / file
        try:
            return load_npy(path, mmap_mode="r")
        except (OSError, ValueError, EOFError) as exc:
            raise StoreError(
                f"embedding file {path} is missing or damaged ({exc.__class__.__name__}); "
                "run `python -m core repair`, then embed the corpus again"
            ) from exc

    def embeddings(self, corpus: str, model_fp: str) -> np.ndarray:
        """The corpus's embedding matrix [n, d] in corpus order; StoreError if any paper is not embedded."""
        import numpy as np

        info = self.corpus(corpus)
        cached = self.arrays / "matrices" / f"{self.corpus_slug(corpus)}-{model_fp}-v{info.version}.npy"
        if cached.exists():
            try:
                matrix = load_npy(cached, mmap_mode="r")
                if matrix.shape[0] == info.papers:
                    return matrix
            except (OSError, ValueError, EOFError):
                pass
            cached.unlink(missing_ok=True)
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT k.chunk, k.offset, c.file, c.dim FROM papers p "
                "LEFT JOIN emb_keys k ON k.model_fp = ? AND k.hash = p.hash "
                "LEFT JOIN emb_chunks c ON c.id = k.chunk "
                "WHERE p.corpus = ? ORDER BY p.seq",
                (model_fp, corpus),
            ).fetchall()
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        if any(r["chunk"] is None for r in rows):
            missing = sum(r["chunk"] is None for r in rows)
            raise NotEmbeddedError(f"{missing} papers of corpus {corpus!r} are not embedded with this model yet")
        chunks = {r["chunk"]: r["file"] for r in rows}
        loaded = {cid: self._load_chunk(model_fp, cid, file) for cid, file in chunks.items()}
        dim = rows[0]["dim"]
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f"{cached.stem}-{os.getpid()}-{time.time_ns()}.npy.tmp")
        # assembled in a file, not in RAM: a matrix of millions of vectors may not fit (compressed search mmaps it)
        matrix = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float32, shape=(len(rows), dim))
        chunk_ids = np.fromiter((r["chunk"] for r in rows), dtype=np.int64, count=len(rows))
        offsets = np.fromiter((r["offset"] for r in rows), dtype=np.int64, count=len(rows))
        order = np.argsort(chunk_ids, kind="stable")  # rows grouped by chunk: one pass, not one scan per chunk
        ids, starts = np.unique(chunk_ids[order], return_index=True)
        try:
            for cid, where in zip(ids.tolist(), np.split(order, starts[1:])):
                arr = loaded[cid]
                if arr.shape[1:] != (dim,) or offsets[where].max(initial=-1) >= arr.shape[0]:
                    raise StoreError(
                        f"embedding chunk {chunks[cid]} does not match its catalog (damaged); "
                        "run `python -m core repair`, then embed the corpus again"
                    )
                matrix[where] = arr[offsets[where]]
        except BaseException:
            del matrix
            tmp.unlink(missing_ok=True)
            raise
        matrix.flush()
        del matrix
        # opened before it is renamed: a thread building the same matrix at once may replace the file, and one
        # building an older version deletes this one; the open map stays valid either way
        result = load_npy(tmp, mmap_mode="r")
        mine = re.compile(re.escape(f"{self.corpus_slug(corpus)}-{model_fp}-v") + r"\d+\.npy")  # not 'a-<fp>-v1-…'
        for stale in cached.parent.glob(f"{self.corpus_slug(corpus)}-{model_fp}-v*.npy"):
            if stale != cached and mine.fullmatch(stale.name):
                stale.unlink(missing_ok=True)
        os.replace(tmp, cached)
        return result

    def embedded_models(self, corpus: str) -> list[str]:
        """Model fingerprints that have embedded every paper of the corpus.

        Per model, each paper's key is looked up by the (model_fp, hash) primary key, stopping at the first missing
        one: a join on the hash alone scanned the corpus once per stored key (minutes at 50k papers, issue 32)."""
        with self.connect() as conn:
            if not self._count(conn, corpus):
                return []
            fps = [r[0] for r in conn.execute("SELECT DISTINCT model_fp FROM emb_keys ORDER BY model_fp")]
            return [fp for fp in fps if conn.execute(
                "SELECT NOT EXISTS (SELECT 1 FROM papers p WHERE p.corpus = ? AND NOT EXISTS "
                "(SELECT 1 FROM emb_keys k WHERE k.model_fp = ? AND k.hash = p.hash))", (corpus, fp)).fetchone()[0]]

    def repair(self) -> dict[str, int]:
        """Drop catalog entries whose array files are missing, unreadable or short; returns counts."""
        dropped = 0
        with self.connect() as conn:
            chunks = conn.execute("SELECT id, model_fp, file, n, dim FROM emb_chunks").fetchall()
        for chunk in chunks:
            try:
                array = self._load_chunk(chunk["model_fp"], chunk["id"], chunk["file"])
                healthy = array.ndim == 2 and array.shape[0] >= chunk["n"] and array.shape[1] == chunk["dim"]
            except StoreError:
                healthy = False
            if not healthy:
                with self.transaction() as conn:
                    conn.execute("DELETE FROM emb_keys WHERE chunk = ?", (chunk["id"],))
                    conn.execute("DELETE FROM emb_chunks WHERE id = ?", (chunk["id"],))
                dropped += 1
        for matrix in (self.arrays / "matrices").glob("*.npy"):
            try:
                load_npy(matrix, mmap_mode="r")
            except (OSError, ValueError, EOFError):
                matrix.unlink(missing_ok=True)
                dropped += 1
        return {"dropped_chunks": dropped, "removed_leftovers": self._remove_leftovers()}

    def _remove_leftovers(self) -> int:
        """Delete old temporary files and chunk files the catalog never recorded (a write killed mid-way)."""
        with self.connect() as conn:
            known = {(r["model_fp"], r["file"]) for r in conn.execute("SELECT model_fp, file FROM emb_chunks")}
        cutoff = time.time() - _STALE_TEMP_S
        removed = 0
        for path in self.arrays.rglob("*"):
            orphan = path.suffix == ".npy" and path.parent.parent.name == "embeddings" and (
                path.parent.name, path.name) not in known
            try:
                old = path.is_file() and path.stat().st_mtime < cutoff
            except OSError:
                continue
            if old and (path.suffix == ".tmp" or orphan):
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def array_path(self, kind: str, corpus: str, key: str, suffix: str = ".npy") -> Path:
        """Where a derived array (map coordinates, index) for a corpus lives."""
        folder = self.arrays / kind
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{self.corpus_slug(corpus)}-{key}{suffix}"
