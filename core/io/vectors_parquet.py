"""Papers with their vectors as a Parquet dataset (a folder of part files in row groups), and reading them back.

The layout a cluster job can read from shared storage (`ray.data.read_parquet("OUT/papers")`, Spark, DuckDB, pandas):
- `papers/part-00000.parquet`, ...: `id`, `title`, `abstract`, every field column (labels included) as `export_papers`
  writes them, and `vector`, a list<float32> column; each file holds at most `rows_per_file` rows in row groups
  of `row_group` rows. The schema's `miread.vectors` metadata names the model, its fingerprint, mode and dim.
- `NAME.parquet` beside the `papers` folder is an extra table (the hook for the citation links table: pass
  `tables={"links": table}`); reading returns their paths and does not interpret them.
Reading reuses `read_papers`, so the papers go through the same validation as any other import.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import CorpusError
from core.io.export import export_papers
from core.records import Paper, RowError

if TYPE_CHECKING:  # numpy loads where arrays are used: an import of papers never needs it
    import numpy as np

META_KEY = b"miread.vectors"
VECTOR_COLUMN = "vector"
PART_GLOB = "part-*.parquet"
PAPERS = "papers"  # the folder of part files inside an export


def vectors_meta(path: str | Path) -> dict[str, Any] | None:
    """The `miread.vectors` metadata of a vectors Parquet file or folder, or None where it is something else."""
    parts = _parts(Path(path))
    if not parts:
        return None
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_schema(parts[0]).metadata or {}
    except (OSError, ValueError):
        return None
    return json.loads(metadata[META_KEY]) if META_KEY in metadata else None


def _parts(path: Path) -> list[Path]:
    if (path / PAPERS).is_dir():
        path = path / PAPERS
    if path.is_dir():
        return sorted(path.glob(PART_GLOB))
    return [path] if path.suffix.lower() == ".parquet" and path.is_file() else []


def write_vectors_parquet(
    out: str | Path, papers: Iterable[Paper], vectors: np.ndarray, meta: Mapping[str, Any], *,
    row_group: int = 50_000, rows_per_file: int = 1_000_000, tables: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write papers (in the order of `vectors`' rows) and their vectors into folder `out`; returns what was written."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out)
    parts_dir = out / PAPERS
    parts_dir.mkdir(parents=True, exist_ok=True)
    if any(parts_dir.glob(PART_GLOB)):
        raise CorpusError(f"folder {out} already holds an export; choose an empty folder")
    vectors = np.asarray(vectors, dtype=np.float32)
    meta = {**meta, "dim": int(vectors.shape[1]) if vectors.ndim == 2 else 0, "format": 1}
    files: list[str] = []
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        staged = Path(tmp) / "papers.parquet"
        count = export_papers(papers, staged, "parquet")
        if count != len(vectors):
            raise CorpusError(f"{count} papers but {len(vectors)} vectors: the export would not line up")
        source = pq.ParquetFile(staged)
        schema = source.schema_arrow
        schema = schema.append(pa.field(VECTOR_COLUMN, pa.list_(pa.float32())))
        schema = schema.with_metadata({**(schema.metadata or {}), META_KEY: json.dumps(meta).encode()})
        writer, start = None, 0
        try:
            for batch in source.iter_batches(batch_size=row_group):
                if writer is None or start % rows_per_file == 0 and start:
                    if writer is not None:
                        writer.close()
                    files.append(f"{PAPERS}/part-{len(files):05d}.parquet")
                    writer = pq.ParquetWriter(out / files[-1], schema)
                flat = pa.array(vectors[start : start + batch.num_rows].reshape(-1))
                offsets = pa.array(np.arange(0, batch.num_rows + 1, dtype=np.int32) * meta["dim"])
                column = pa.ListArray.from_arrays(offsets, flat)
                writer.write_table(pa.Table.from_batches([batch]).append_column(schema.field(VECTOR_COLUMN), column),
                                   row_group_size=row_group)
                start += batch.num_rows
        finally:
            if writer is not None:
                writer.close()
    for name, table in (tables or {}).items():
        pq.write_table(table, out / f"{name}.parquet", row_group_size=row_group)
    return {"papers": count, "files": files, "tables": sorted(tables or {}), "dim": meta["dim"]}


@dataclass
class VectorsImport:
    """A vectors Parquet export opened for import: its metadata, extra tables and the paper stream."""

    meta: dict[str, Any]
    tables: list[str] = field(default_factory=list)
    records: Iterator[Any] = iter(())


def read_vectors_parquet(path: str | Path, sink: Callable[[str, np.ndarray], None]) -> VectorsImport:
    """Stream the papers of a vectors Parquet file or folder; `sink(text hash, vector)` gets each Paper's vector."""
    import numpy as np

    from core.io.papers import read_papers

    path = Path(path)
    meta = vectors_meta(path)
    if meta is None:
        raise CorpusError(f"{path} is not a papers-with-vectors Parquet export (no {META_KEY.decode()} metadata)")
    result = VectorsImport(meta=meta)
    if path.is_dir():
        result.tables = sorted(p.name for p in path.glob("*.parquet") if not p.match(PART_GLOB))  # the hook

    def records() -> Iterator[Any]:
        for part in _parts(path):
            for record in read_papers(part, id_column="id"):
                if isinstance(record, Paper):
                    vector = record.fields.pop(VECTOR_COLUMN, None)
                    if not isinstance(vector, list) or len(vector) != meta["dim"]:
                        yield RowError(0, f"paper {record.id!r} has no vector of {meta['dim']} numbers")
                        continue
                    sink(record.hash, np.asarray(vector, dtype=np.float32))
                yield record

    result.records = records()
    return result
