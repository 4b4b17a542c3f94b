"""Export to reference managers (RIS, BibTeX, CSL JSON, and CSV/JSONL through the same entry): real exports imported,
exported, imported again give the same papers with the same text; the files meet Zotero's and EndNote's readers'
expectations (RIS TY first / ER last, one AU "Family, Given" and one KW per line; BibTeX unique keys, escaped
specials, balanced braces; CSL items with family/given and date-parts); escaping, duplicate keys, papers with no
authors or year, extra keywords and notes per paper."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from core.errors import CorpusError, NotFoundError
from core.io import export_papers, read_papers
from core.io.reference_export import EXPORT_FORMATS, write_references
from core.io.reference_fields import split_name
from core.records import Paper
from core.store import export_corpus_file, import_file

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
EXPORTS = Path("/work/shared/data/exports")
SHARED = [EXPORTS / "RIS/_baseline_zotero.ris", EXPORTS / "RIS/_baseline_endnote.ris",
          EXPORTS / "CSV/_baseline_scopus.csv"]
SOURCES = [*(p for p in SHARED if p.exists()), REAL / "zotero_3.bib", REAL / "scopus_3.bib", REAL / "endnote_3.ris",
           REAL / "wos_3.ris"]
EXT = {fmt: ext for fmt, (_, ext, _) in EXPORT_FORMATS.items()}


def _papers(path: Path) -> list[Paper]:
    return [p for p in read_papers(path) if isinstance(p, Paper)]


def _authors(paper: Paper) -> list[tuple[str, str]]:
    value = paper.fields.get("authors") or []
    return [split_name(name) for name in (value if isinstance(value, list) else [value])]


def _write(papers: list[Paper], fmt: str, tmp_path: Path, **kwargs) -> Path:
    path = tmp_path / f"out{EXT[fmt]}"
    with open(path, "w", encoding="utf-8", newline="") as out:
        assert write_references(papers, out, fmt, **kwargs) == len(papers)
    return path


@pytest.mark.parametrize("fmt", list(EXPORT_FORMATS))
@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_real_export_round_trips_with_the_same_papers_and_text(source, fmt, store, tmp_path):
    import_file(store, source, "orig")
    before = {p.title: p for p in store.papers("orig")}
    out = tmp_path / f"export{EXT[fmt]}"
    assert export_corpus_file(store, "orig", out, fmt) == len(before)
    import_file(store, out, "again")
    after = {p.title: p for p in store.papers("again")}
    assert set(after) == set(before)
    for title, paper in before.items():
        again = after[title]
        assert again.abstract == paper.abstract  # line breaks included (RIS: tests/unit/io/test_ris_paragraphs.py)
        for name in ("journal", "year", "doi"):
            assert again.fields.get(name) == paper.fields.get(name), (title, name)
        assert _authors(again) == _authors(paper)


def test_ris_records_are_as_zotero_and_endnote_read_them(store, tmp_path):
    import_file(store, REAL / "endnote_3.ris", "c")
    papers = store.papers("c")
    tags = {papers[0].id: {"keywords": ["topic: Dinosaurs"], "notes": ["collection: To read"]}}
    out = tmp_path / "c.ris"
    export_corpus_file(store, "c", out, "ris", tags=tags)
    raw = out.read_bytes().decode("utf-8")
    assert "\r\n" in raw and "\n" not in raw.replace("\r\n", "")
    records = [r.strip("\r\n").split("\r\n") for r in raw.split("ER  - ") if r.strip()]
    assert len(records) == len(papers)
    for lines, paper in zip(records, papers, strict=True):
        assert lines[0].startswith("TY  - ")
        assert all(line[2:6] == "  - " for line in lines)
        authors = [line[6:] for line in lines if line.startswith("AU  - ")]
        assert authors == [f"{f}, {g}" if g else f for f, g in _authors(paper)]
        keywords = [line[6:] for line in lines if line.startswith("KW  - ")]
        assert keywords[:len(paper.fields.get("keywords") or [])] == (paper.fields.get("keywords") or [])
        assert f"TI  - {paper.title}" in lines and f"PY  - {paper.fields['year']}" in lines
        assert f"T2  - {paper.fields['journal']}" in lines and f"ID  - {paper.id}" in lines
    assert raw.rstrip().endswith("ER  -")
    assert "KW  - topic: Dinosaurs" in records[0] and "N1  - collection: To read" in records[0]
    assert "KW  - topic: Dinosaurs" not in records[1]


def test_bibtex_has_unique_keys_escaped_specials_and_protected_capitals(tmp_path):
    import bibtexparser

    papers = [
        Paper("a", "Use of DNA in 50% of R&D_cases", "One.", {"authors": ["Müller, Jürgen", "Wilson L.N."],
                                                               "year": 2020, "journal": "J. A&B"}),
        Paper("b", "Use of mice", "Two.", {"authors": "Müller, J.", "year": 2020}),
        Paper("c", "Use of rats", "Three.", {"authors": "Müller, J.", "year": 2020}),
    ]
    path = _write(papers, "bibtex", tmp_path)
    text = path.read_text(encoding="utf-8")
    library = bibtexparser.parse_string(text)
    assert [e.key for e in library.entries] == ["muller_use_2020", "muller_use_2020-1", "muller_use_2020-2"]
    assert not library.failed_blocks and all(e.entry_type == "article" for e in library.entries)
    first = library.entries[0]
    assert first["author"] == "Müller, Jürgen and Wilson, L.N."  # UTF-8 as is; Scopus's "Wilson L.N." split
    assert first["title"] == r"Use of {DNA} in 50\% of {R\&D\_cases}"
    assert first["journal"] == r"J. A\&B"
    assert text.count("{") == text.count("}")


ODD_TITLES = [
    r"The $\alpha$-helix in {DNA} and \emph{E. coli}: 100% of a_b & c # d ~ e ^ f",
    "Ünïcödé — naïve café, 東京 and Ελληνικά",
    "Braces } first { then unbalanced {{ and a backslash \\",
]


@pytest.mark.parametrize("fmt", ["ris", "bibtex", "csl"])
def test_special_characters_and_latex_looking_text_come_back_as_written(fmt, tmp_path):
    papers = [Paper(f"p{i}", title, f"Abstract {i}: 5% & 6_7 {{x}} \\y $z$ ü.", {"year": 2001 + i})
              for i, title in enumerate(ODD_TITLES)]
    again = _papers(_write(papers, fmt, tmp_path))
    assert [p.title for p in again] == ODD_TITLES
    assert [p.abstract for p in again] == [p.abstract for p in papers]


def test_a_line_that_looks_like_a_new_record_stays_in_its_abstract(tmp_path):
    abstract = "First paragraph.\n@article{evil,\ntitle = {x}}\nER  - not the end\nTY  - JOUR\nPMID- 1"
    paper = Paper("p", "Odd abstract", abstract, {"authors": ["Doe, J."]})
    for fmt in ("bibtex", "csl"):
        (again,) = _papers(_write([paper], fmt, tmp_path))
        assert again.abstract == abstract
    (again,) = _papers(_write([paper], "ris", tmp_path))  # one record still, its line breaks kept
    assert again.abstract == abstract


@pytest.mark.parametrize("fmt", ["ris", "bibtex", "csl"])
def test_papers_without_authors_year_or_journal_export_and_read_back(fmt, tmp_path):
    papers = [Paper("x1", "Same title", "First abstract.", {}), Paper("x2", "Same title", "Second abstract.", {})]
    again = _papers(_write(papers, fmt, tmp_path))
    assert [(p.title, p.abstract) for p in again] == [(p.title, p.abstract) for p in papers]
    assert all(not p.fields.get("authors") and p.fields.get("year") is None for p in again)


def test_csl_json_items_follow_the_schema(tmp_path):
    paper = Paper("10.1/x", "A title", "An abstract.", {
        "authors": "Doe, Jane; Roe R.; World Health Organization", "journal": "Nature", "year": 2019,
        "keywords": ["a", "b"], "volume": "5", "issue": "2", "start_page": "10", "end_page": "20"})
    path = _write([paper], "csl", tmp_path, tags={"10.1/x": {"keywords": ["topic: x"], "notes": ["in: reading"]}})
    (item,) = json.loads(path.read_text(encoding="utf-8"))
    assert item["id"] == "10.1/x" and item["type"] == "article-journal" and item["DOI"] == "10.1/x"
    assert item["author"] == [{"family": "Doe", "given": "Jane"}, {"family": "Roe", "given": "R."},
                              {"literal": "World Health Organization"}]
    assert item["container-title"] == "Nature" and item["issued"] == {"date-parts": [[2019]]}
    assert item["keyword"] == "a, b, topic: x" and item["note"] == "in: reading"
    assert (item["volume"], item["issue"], item["page"]) == ("5", "2", "10-20")


@pytest.mark.parametrize(("suffix", "first"), [(".ris", "TY  - JOUR"), (".bib", "@article{"), (".json", "[")])
def test_export_papers_picks_the_reference_format_by_extension(suffix, first, tmp_path):
    path = tmp_path / f"x{suffix}"
    assert export_papers([Paper("p", "T", "A.", {})], path) == 1
    assert path.read_text(encoding="utf-8").startswith(first)


def test_corpus_export_of_some_papers_to_a_stream_with_tags_in_csv(store, tmp_path):
    import_file(store, REAL / "zotero_3.bib", "c")
    ids = [p.id for p in store.papers("c")]
    stream = io.BytesIO()
    chosen = [ids[2], ids[0]]
    tags = {ids[0]: {"keywords": ["topic: blood"], "notes": ["collection: ICU"]}}
    assert export_corpus_file(store, "c", stream, "csv", pids=chosen, tags=tags) == 2
    path = tmp_path / "again.csv"
    path.write_bytes(stream.getvalue())
    again = _papers(path)
    # the order given: search results exported in their rank order (they came out in corpus order)
    assert [p.id for p in again] == [ids[2], ids[0]]
    assert "topic: blood" in again[1].fields["keywords"] and again[1].fields["notes"] == ["collection: ICU"]


def test_unknown_ids_or_format_are_refused_and_nothing_is_written(store, tmp_path):
    import_file(store, REAL / "zotero_3.bib", "c")
    out = tmp_path / "out" / "x.ris"
    with pytest.raises(NotFoundError, match="has no paper with id 'nope'"):
        export_corpus_file(store, "c", out, "ris", pids=["nope"])
    with pytest.raises(CorpusError, match="export format 'docx' is unknown"):
        export_corpus_file(store, "c", out, "docx")
    assert not out.parent.exists() or list(out.parent.iterdir()) == []


# Issue 40: authors are a list everywhere and an export keeps the fullest form read; keywords round-trip whole
ROUND_TRIP = [REAL / "wos_bibtex_4.bib", REAL / "pubmed_3.txt", REAL / "medline" / "zotero_medline_chapter.nbib",
              REAL / "scopus_3.bib"]


def _exported_keywords(store, corpus: str) -> dict[str, list[str]]:
    from core.io.reference_fields import FieldRoles, reference

    info = store.corpus(corpus)
    roles = FieldRoles(journal=info.journal, year=info.year, roles=info.roles)
    return {p.title: reference(p, roles).keywords for p in store.papers(corpus)}


@pytest.mark.parametrize("fmt", ["ris", "bibtex", "csl"])
@pytest.mark.parametrize("source", ROUND_TRIP, ids=[p.name for p in ROUND_TRIP])
def test_authors_and_keywords_come_back_as_a_list_after_export_and_reimport(source, fmt, store, tmp_path):
    import_file(store, source, "orig")
    before = {p.title: p for p in store.papers("orig")}
    out = tmp_path / f"export{EXT[fmt]}"
    export_corpus_file(store, "orig", out, fmt)
    import_file(store, out, "again")
    after = {p.title: p for p in store.papers("again")}
    assert set(after) == set(before)
    keywords_before, keywords_after = _exported_keywords(store, "orig"), _exported_keywords(store, "again")
    for title, paper in before.items():
        assert isinstance(paper.fields.get("authors"), list), title
        assert _authors(after[title]) == _authors(paper), title
        assert keywords_after[title] == keywords_before[title], title
    assert any(len(p.fields["authors"]) > 1 for p in before.values())


def test_web_of_science_bibtex_authors_are_exported_one_by_one(store, tmp_path):
    import_file(store, REAL / "wos_bibtex_4.bib", "wos")
    out = tmp_path / "wos.ris"
    export_corpus_file(store, "wos", out, "ris")
    lines = out.read_text(encoding="utf-8").splitlines()
    authors = [line[6:] for line in lines if line.startswith("AU  - ")]
    assert authors[:3] == ["Figueira, Jose Rui", "Greco, Salvatore", "Roy, Bernard"] and len(authors) == 3 + 3 + 3 + 5


def test_medline_full_author_names_are_kept_and_exported(store, tmp_path):
    (first, *_) = _papers(REAL / "pubmed_3.txt")
    assert first.fields["authors"][:2] == ["Neilen, Amanda D", "Chen, Chengrong R"]  # FAU, not AU's "Neilen AD"
    import_file(store, REAL / "pubmed_3.txt", "pm")
    out = tmp_path / "pm.bib"
    export_corpus_file(store, "pm", out, "bibtex")
    assert "author = {Neilen, Amanda D and Chen, Chengrong R and" in out.read_text(encoding="utf-8")


def test_a_keyword_with_a_comma_stays_one_keyword_through_bibtex(tmp_path):
    terms = ["Carcinoma, Non-Small-Cell Lung", "Lung Neoplasms/diagnosis", "Humans"]
    paper = Paper("p", "Lung cancer", "An abstract.", {"keywords": terms, "authors": ["Doe, Jane"]})
    (again,) = _papers(_write([paper], "bibtex", tmp_path))
    assert again.fields["keywords"] == terms
