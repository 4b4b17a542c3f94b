"""OpenAlex and Semantic Scholar JSON (issue 40 §2), read from real API answers (tests/fixtures/real/SOURCES.md) in
the three shapes each service gives: an API response object, a plain list, and JSON lines. Every record read is a
paper or a skipped row with its reason."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from core.io import plan_import, read_papers
from core.io.scholarly import abstract_from_index
from core.records import Paper, RowError

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
OPENALEX = REAL / "openalex_works_7.json"
S2 = REAL / "s2_batch_4.json"


def _works() -> list[dict]:
    return json.loads(OPENALEX.read_text(encoding="utf-8"))["results"]


def _shapes(tmp_path: Path, records: list, wrapper: str) -> dict[str, Path]:
    """The same records as an API response (pretty-printed, as a browser saves it; on one line, as curl does, saved as
    .txt), a list, JSON lines, and gzipped JSON lines named as the OpenAlex snapshot names them."""
    files = {"response": tmp_path / "response.json", "list": tmp_path / "list.json", "jsonl": tmp_path / "lines.jsonl",
             "curl": tmp_path / "curl.txt", "response_txt": tmp_path / "response.txt"}
    files["response"].write_text(json.dumps({"meta": {"count": len(records)}, wrapper: records}, indent=2), "utf-8")
    files["response_txt"].write_text(files["response"].read_text("utf-8"), "utf-8")
    files["curl"].write_text(json.dumps({"meta": {"count": len(records)}, wrapper: records}), "utf-8")
    files["list"].write_text(json.dumps(records, indent=2), "utf-8")
    files["jsonl"].write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    files["snapshot"] = tmp_path / "part_000.gz"  # the OpenAlex snapshot's gzipped JSON lines, no other extension
    with gzip.open(files["snapshot"], "wt", encoding="utf-8") as handle:
        handle.write(files["jsonl"].read_text("utf-8"))
    return files


def test_the_real_openalex_response_gives_its_works_with_rebuilt_abstracts() -> None:
    items = list(read_papers(OPENALEX))
    papers = [p for p in items if isinstance(p, Paper)]
    skipped = [p for p in items if isinstance(p, RowError)]
    assert (len(papers), len(skipped)) == (5, 2)  # two works have no abstract_inverted_index
    assert all("empty abstract" in s.reason for s in skipped)
    first = papers[0]
    assert first.id == "W2068311567"
    assert first.title.startswith("Redefining climate regions in the United States of America")
    assert first.abstract.startswith("Existing climate classification has not been designed")
    assert first.fields["doi"] == "10.4081/gh.2014.294"  # bare, not https://doi.org/…
    assert first.fields["journal"] == "Geospatial Health"
    assert first.fields["year"] == 2014
    assert first.fields["issn"] == ["1827-1987", "1970-7096"]  # the ISSN-L first
    assert first.fields["authors"] == ["Alexander Liss", "Magaly Koch", "Elena N. Naumova"]
    assert first.fields["openalex"] == "W2068311567" and first.fields["pmid"] == "25599636"
    assert papers[1].fields["pmcid"] == "PMC6258996"
    assert all(r.startswith("W") for r in first.fields["referenced_works"])
    assert "NULL AUTHOR_ID" not in papers[3].fields["authors"]  # OpenAlex's placeholder is no author


def test_openalex_abstract_positions_rebuild_the_text_in_order() -> None:
    assert abstract_from_index({"world": [1], "Hello": [0], "again": [3], "hello": [2]}) == "Hello world hello again"
    assert abstract_from_index({}) is None and abstract_from_index(None) is None


@pytest.mark.parametrize("shape", ["response", "list", "jsonl", "curl", "response_txt", "snapshot"])
def test_openalex_in_every_shape_gives_the_same_papers(tmp_path: Path, shape: str) -> None:
    path = _shapes(tmp_path, _works(), "results")[shape]
    papers = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert [p.id for p in papers] == [p.id for p in read_papers(OPENALEX) if isinstance(p, Paper)]
    plan = plan_import(path)
    assert (plan.records, plan.papers, len(plan.skipped)) == (7, 5, 2)  # read = imported + skipped
    assert plan.tool == "OpenAlex"
    titles_only = plan_import(path, title_only=True)
    assert titles_only.papers == 7 and titles_only.with_abstract == 5


def test_the_real_semantic_scholar_batch_answer_skips_its_null_with_a_reason() -> None:
    plan = plan_import(S2)
    assert (plan.records, plan.papers, len(plan.skipped)) == (4, 3, 1)
    assert "null" in plan.skipped[0]["reason"] and plan.tool == "Semantic Scholar"
    papers = [p for p in read_papers(S2) if isinstance(p, Paper)]
    first = papers[0]
    assert first.id == "c31c87c591a25c64fbaa82e8ac6a81831b6ac7ce"
    assert first.title == "How Much Should We Trust Differences-in-Differences Estimates?"
    assert first.abstract.startswith("Most Difference-in-Difference (DD) papers rely on many years")
    assert first.fields["doi"] == "10.2139/ssrn.288970"
    assert first.fields["year"] == 2001
    assert first.fields["authors"] == ["Marianne Bertrand", "E. Duflo", "S. Mullainathan"]
    assert first.fields["journal"] == "Experimental & Empirical Studies eJournal"
    assert first.fields["corpus_id"] == 470667


@pytest.mark.parametrize("shape", ["response", "list", "jsonl", "curl", "response_txt"])
def test_semantic_scholar_in_every_shape(tmp_path: Path, shape: str) -> None:
    records = [r for r in json.loads(S2.read_text(encoding="utf-8")) if r]
    path = _shapes(tmp_path, records, "data")[shape]
    papers = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert [p.fields["doi"] for p in papers] == ["10.2139/ssrn.288970", "10.2139/ssrn.2250500", "10.1257/rct.1355"]


def test_json_lines_whose_text_holds_unicode_line_breaks_are_json_lines(tmp_path) -> None:
    """U+0085 and U+2028 inside a string are not line ends of a JSON-lines file (found by the round-trip property
    test: the first line was cut there and the file read as one broken document)."""
    import json as _json

    from core.io import read_papers
    from core.records import Paper

    rows = [{"title": "A title with a next-line \x85 inside", "abstract": "Line\u2028separator text.", "\x85": []},
            {"title": "Second paper", "abstract": "Another abstract."}]
    path = tmp_path / "lines.jsonl"
    path.write_text("\n".join(_json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    papers = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert [p.title for p in papers] == ["A title with a next-line inside", "Second paper"]  # spaces folded
