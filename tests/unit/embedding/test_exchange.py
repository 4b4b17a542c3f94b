"""Parquet export with vectors -> import: papers, labels and vectors come back exactly, nothing is re-embedded."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from core.cli import main
from core.embedding import corpus_embeddings, get_model, vectors_fingerprint
from core.embedding.exchange import export_corpus, import_corpus
from core.io import export_papers
from core.io.vectors_parquet import vectors_meta, write_vectors_parquet
from core.store import Store
from tests.helpers import register_tiny


def test_export_then_import_round_trips_papers_labels_and_vectors(embedded, tmp_path, tiny_model_dir, capsys):
    out = tmp_path / "export"
    assert main(["--workspace", str(embedded.root), "export", "--corpus", "c", "--model", "tiny", "--out", str(out),
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["papers"] == 15 and doc["files"] == ["papers/part-00000.parquet"]
    table = pq.read_table(out / "papers")
    assert table.column_names[:3] == ["id", "title", "abstract"] and "journal" in table.column_names
    assert table.schema.field("vector").type == pa.list_(pa.float32())

    other = Store(tmp_path / "other")
    register_tiny(other, tiny_model_dir)
    assert main(["--workspace", str(other.root), "import", str(out), "--corpus", "copy", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["imported"], doc["vectors"], doc["model"]) == (15, 15, "tiny") and "warning" not in doc
    assert [(p.id, p.title, p.abstract, p.fields) for p in other.papers("copy")] == \
        [(p.id, p.title, p.abstract, p.fields) for p in embedded.papers("c")]
    fp = vectors_fingerprint(get_model("tiny", other), None)
    assert other.missing_hashes("copy", fp) == []  # filed under the model: nothing left to embed
    assert np.array_equal(np.asarray(corpus_embeddings(other, "copy", "tiny")),
                          np.asarray(corpus_embeddings(embedded, "c", "tiny")))


def test_a_large_export_is_split_into_files_of_row_groups_with_extra_tables(embedded, tmp_path):
    papers = embedded.papers("c")
    vectors = np.arange(15 * 3, dtype=np.float32).reshape(15, 3)
    links = pa.table({"citing": ["astro-0"], "cited": ["bio-1"]})
    info = write_vectors_parquet(tmp_path / "x", papers, vectors, {"model": "m", "fingerprint": "f"},
                                 row_group=4, rows_per_file=8, tables={"links": links})
    assert info["files"] == ["papers/part-00000.parquet", "papers/part-00001.parquet"] and info["tables"] == ["links"]
    assert pq.ParquetFile(tmp_path / "x" / "papers" / "part-00000.parquet").metadata.num_row_groups == 2
    assert vectors_meta(tmp_path / "x")["dim"] == 3
    back = np.array(pq.read_table(tmp_path / "x" / "papers", columns=["vector"]).column("vector").to_pylist(), dtype=np.float32)
    assert np.array_equal(back, vectors)

    fresh = Store(tmp_path / "fresh")
    doc = import_corpus(fresh, tmp_path / "x", "y")
    assert doc["tables"] == ["links.parquet"] and doc["vectors"] == 15
    assert "not registered" in doc["warning"]  # model m is unknown here: the vectors keep their fingerprint
    assert np.array_equal(np.asarray(fresh.embeddings("y", "f")), vectors)


def test_a_plain_parquet_file_is_not_taken_for_a_vectors_export(embedded, tmp_path):
    export_papers(embedded.papers("c"), tmp_path / "plain.parquet")
    assert vectors_meta(tmp_path / "plain.parquet") is None
    assert vectors_meta(tmp_path) is None


def test_exporting_an_unembedded_model_is_refused_in_one_sentence(embedded, tmp_path, capsys):
    code = main(["--workspace", str(embedded.root), "export", "--corpus", "c", "--model", "minilm",
                 "--out", str(tmp_path / "o")])
    assert code == 2 and "not embedded" in capsys.readouterr().err
    assert export_corpus is not None
