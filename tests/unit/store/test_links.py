"""Citation links: reference columns of CSV / JSONL / Parquet and JATS reference lists into the links table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.io import read_papers
from core.store import parse_references

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "citations" / "arxiv_150.jsonl"


def _rows(n: int = 4) -> list[dict]:
    return [{"id": f"p{i}", "title": f"Paper {i} on topic {i % 2}", "abstract": f"Abstract number {i} about things.",
             "category": "a" if i % 2 else "b"} for i in range(n)]


def _import(store, path: Path, corpus: str = "c"):
    return store.import_papers(corpus, read_papers(path), source=path.name)


def test_parse_references_accepts_lists_json_and_joined_text():
    assert parse_references(["a", "b"]) == (["a", "b"], [])
    assert parse_references('["a", "b"]') == (["a", "b"], [])
    assert parse_references("a; b|c") == (["a", "b", "c"], [])
    assert parse_references(None) == ([], [])
    good, bad = parse_references(["a", "", "with space", {"x": 1}, ["nested"], 12, "NA", True])
    assert good == ["a", "12"]
    assert len(bad) == 6


def test_jsonl_references_keep_only_links_inside_the_corpus(store, tmp_path):
    rows = _rows()
    rows[0]["references"] = ["p1", "p2", "missing", "p0", "p1", "bad id"]
    rows[1]["references"] = []
    rows[2]["references"] = ["p3"]
    path = tmp_path / "refs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    report = _import(store, path).to_dict()
    links = report["links"]
    assert (links["read"], links["kept"], links["dropped"]) == (7, 3, 4)
    assert links["reasons"] == {"not in corpus": 1, "malformed id": 1, "self-link": 1, "duplicate": 1}
    assert [r["row"] for r in links["rows"]] == [1]
    assert "missing" in links["rows"][0]["reason"]
    assert store.links("c") == [("p0", "p1"), ("p0", "p2"), ("p2", "p3")]
    assert store.references_of("c", "p0") == ["p1", "p2"] and store.cited_by("c", "p3") == ["p2"]
    assert store.corpus("c").links == 3 and "references" not in store.corpus("c").labels


def test_csv_and_tsv_references_joined_by_semicolon_or_pipe(store, tmp_path):
    path = tmp_path / "refs.csv"
    path.write_text("id,title,abstract,references\n"
                    "p0,Paper zero,Abstract zero here.,p1;p2\n"
                    "p1,Paper one,Abstract one here.,p2|p0\n"
                    "p2,Paper two,Abstract two here.,\n"
                    "p3,Paper three,Abstract three here.,\"[\"\"p0\"\"]\"\n")
    report = _import(store, path)
    assert report.links["kept"] == 5 and report.links["dropped"] == 0
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("id\ttitle\tabstract\treferences\nq0\tQ zero\tAbstract q zero.\tq1\nq1\tQ one\tAbstract q one.\t\n")
    assert _import(store, tsv, "t").links["kept"] == 1


def test_parquet_references_as_list_column(store, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rows = _rows(3)
    refs = [["p1", "p2"], ["p2", "nowhere"], None]
    table = pa.table({"id": [r["id"] for r in rows], "title": [r["title"] for r in rows],
                      "abstract": [r["abstract"] for r in rows], "references": refs})
    path = tmp_path / "refs.parquet"
    pq.write_table(table, path)
    report = _import(store, path)
    assert (report.links["read"], report.links["kept"]) == (4, 3)
    assert report.links["reasons"]["not in corpus"] == 1


def test_links_survive_reimport_and_arrive_with_later_imports(store, tmp_path):
    first = tmp_path / "first.jsonl"
    rows = _rows()
    rows[0]["references"] = ["p1", "later"]
    first.write_text("\n".join(json.dumps(r) for r in rows))
    assert _import(store, first).links["kept"] == 1
    again = _import(store, first)
    assert again.added == 0 and again.links["kept"] == 1 and again.links["new"] == 0
    assert store.link_count("c") == 1
    second = tmp_path / "second.jsonl"
    second.write_text(json.dumps({"id": "later", "title": "A later paper", "abstract": "It came later.",
                                  "references": ["p2"]}))
    report = _import(store, second)
    assert report.links["kept"] == 1 and report.links["added_from_earlier_imports"] == 1
    assert store.links("c") == [("later", "p2"), ("p0", "later"), ("p0", "p1")]
    store.delete_corpus("c")
    assert store.link_count("c") == 0


def test_jats_reference_lists_match_by_doi_pmid_and_pmcid(store, tmp_path):
    def article(pmcid: str, doi: str, pmid: str, refs: str) -> str:
        return (f'<article><front><article-meta><article-id pub-id-type="pmcid">{pmcid}</article-id>'
                f'<article-id pub-id-type="doi">{doi}</article-id><article-id pub-id-type="pmid">{pmid}</article-id>'
                f'<title-group><article-title>Title {pmcid}</article-title></title-group>'
                f'<abstract><p>Abstract of {pmcid}.</p></abstract></article-meta></front>'
                f'<back><ref-list>{refs}</ref-list></back></article>')

    def ref(kind: str, value: str) -> str:
        return f'<ref><element-citation><pub-id pub-id-type="{kind}">{value}</pub-id></element-citation></ref>'

    files = []
    for name, text in (
        ("a.xml", article("PMC1", "10.1/A", "11", ref("doi", "10.1/b") + ref("pmid", "33")
                          + "<ref><mixed-citation>Smith J. No ids at all.</mixed-citation></ref>")),
        ("b.xml", article("PMC2", "10.1/B", "22", ref("pmcid", "PMC1") + ref("doi", "10.9/elsewhere"))),
        ("c.xml", article("PMC3", "10.1/C", "33", "")),
    ):
        files.append(tmp_path / name)
        files[-1].write_text(text)
    workspace = tmp_path / "ws"
    assert main(["--workspace", str(workspace), "import", *map(str, files), "--corpus", "j", "--json"]) == 0
    from core.store import Store

    s = Store(workspace)
    assert s.links("j") == [("PMC1", "PMC2"), ("PMC1", "PMC3"), ("PMC2", "PMC1")]


def test_import_json_and_corpora_json_carry_links(tmp_path, capsys):
    workspace = str(tmp_path / "ws")
    assert main(["--workspace", workspace, "import", str(FIXTURE), "--corpus", "arxiv", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {k: doc["links"][k] for k in ("read", "kept", "dropped")} == {"read": 1026, "kept": 368, "dropped": 658}
    assert main(["--workspace", workspace, "corpora", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["corpora"]
    assert listed[0]["links"] == 368 and listed[0]["papers"] == 150
    expected = {(json.loads(line)["id"], ref) for line in FIXTURE.read_text().splitlines()
                for ref in json.loads(line)["references"]}
    ids = {json.loads(line)["id"] for line in FIXTURE.read_text().splitlines()}
    from core.store import Store

    assert set(Store(workspace).links("arxiv")) == {(s, d) for s, d in expected if d in ids}
