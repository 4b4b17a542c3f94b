"""Bad input: every nasty file, and hypothesis-generated ones, either imports with a report or is refused
with one sentence naming the file, leaving the store exactly as it was. Never another exception."""

from __future__ import annotations

import csv
import gzip
import io
import itertools
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import CorpusError
from core.io import export_papers, read_papers, tabular
from tests.helpers import make_papers
from tests.reliability.support import FIXTURES, TALLY, check_one_sentence, import_or_refuse, snapshot

NASTY = FIXTURES / "nasty"
GOOD = FIXTURES / "corpus"
EXAMPLES = int(os.environ.get("MIREAD_FUZZ_EXAMPLES", "60"))  # per property; raise it for a deeper run
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
EXTENSIONS = [".csv", ".tsv", ".jsonl", ".json", ".parquet", ".xml", ".bib", ".ris", ".enw", ".txt"]

# name -> "imports" or "refused" (and, for refusals, a pattern the sentence must match)
EXPECTED: dict[str, tuple[str, str]] = {
    "bibtex_oddities.bib": ("imports", ""),
    "billion_laughs.xml": ("refused", "entities"),
    "billion_laughs_utf16.xml": ("refused", "entities"),
    "bom_inside.csv": ("imports", ""),
    "broken_quotes.csv": ("imports", ""),
    "cr_line_endings.csv": ("imports", ""),
    "deep_nesting.jsonl": ("refused", "not valid JSON"),
    "duplicate_ids.jsonl": ("imports", ""),
    "empty.csv": ("refused", "empty"),
    "empty_titles.csv": ("refused", "no usable papers"),
    "external_dtd.xml": ("imports", ""),
    "external_entity.xml": ("imports", ""),
    "gzip_bomb.csv.gz": ("refused", "expands to more than"),
    "header_only.csv": ("refused", "no rows"),
    "html_and_scripts.csv": ("imports", ""),
    "jsonl_named_csv.csv": ("imports", ""),  # recognised by its content (issue 19)
    "late_laughs.xml": ("refused", "entities"),
    "latin1.csv": ("imports", ""),  # read as Windows-1252, which Latin-1 text is (issue 40)
    "lone_surrogates.jsonl": ("imports", ""),
    "malformed.xml": ("refused", "ends before its XML is closed"),  # it is cut inside a record
    "mixed_encoding.csv": ("imports", ""),  # UTF-8 with a Latin-1 byte: read as both, named so (session 9)
    "nan_and_big_numbers.jsonl": ("imports", ""),
    "nested_gzip.csv.gz": ("refused", "not UTF-8"),
    "no_articles.xml": ("refused", "no records"),
    "not_gzip.csv.gz": ("imports", ""),
    "not_objects.json": ("refused", "not a JSON object"),
    "nul_bytes.csv": ("imports", ""),
    "nul_only.csv": ("refused", "no rows"),
    "parameter_entity.xml": ("imports", ""),
    "ragged_rows.csv": ("imports", ""),
    "random_bytes.bib": ("refused", "not UTF-8"),
    "random_bytes.csv": ("refused", "not UTF-8"),
    "random_bytes.parquet": ("refused", "not a valid Parquet"),
    "ris_oddities.ris": ("imports", ""),
    "semicolons.csv": ("imports", ""),  # the separator is sniffed (issue 19)
    "some_empty.csv": ("imports", ""),
    "tabs_named_csv.csv": ("imports", ""),  # the separator is sniffed (issue 19)
    "truncated.csv.gz": ("refused", "truncated or not valid gzip"),
    "truncated.jsonl": ("refused", r"ends before its JSON is closed \(line 3\): it looks cut short"),
    "unicode_oddities.jsonl": ("imports", ""),
    "unknown_format.xyz": ("refused", "unknown format"),
    "utf16_bom.csv": ("imports", ""),
    "utf16_no_bom.csv": ("refused", "no title column"),
    "utf8_bom.jsonl": ("imports", ""),
    "whitespace_only.jsonl": ("refused", "empty"),
    "wrong_types.jsonl": ("imports", ""),
    "xinclude.xml": ("imports", ""),
}


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    """One store for the module, holding a corpus 'base' that fuzzed imports try to append to."""
    from core.store import Store

    root = tmp_path_factory.mktemp("fuzz")
    store = Store(root / "ws")
    store.import_papers("base", make_papers(3), source="base.jsonl")
    parquet = root / "papers.parquet"
    export_papers(read_papers(GOOD / "papers.jsonl"), parquet)
    return {"store": store, "root": root, "count": itertools.count(), "parquet": parquet}


def _target(fuzz, append: bool) -> str:
    return "base" if append else f"fuzz-{next(fuzz['count'])}"


def _write(fuzz, stem: str, suffix: str, data: bytes) -> Path:
    path = fuzz["root"] / f"{stem}-{next(fuzz['count'])}{suffix}"
    path.write_bytes(data)
    return path


# -- the corpus of nasty files ----------------------------------------------------------------
def test_every_nasty_file_has_an_expected_outcome():
    present = {p.name for p in NASTY.iterdir() if p.suffix not in (".py", ".md")}
    assert present == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_nasty_file_imports_with_a_report_or_is_refused_with_one_sentence(name, fuzz, monkeypatch):
    monkeypatch.setenv("MIREAD_MAX_EXPANDED_BYTES", str(2**20))
    store = fuzz["store"]
    outcome, pattern = EXPECTED[name]
    path = NASTY / name
    before = snapshot(store)
    report = import_or_refuse(store, path, f"nasty-{next(fuzz['count'])}", f"nasty file ({path.suffix})")
    if outcome == "refused":
        assert report is None, f"{name} was imported"
        with pytest.raises(CorpusError, match=pattern):
            store.import_papers("never-created", read_papers(path), source=name)
        assert snapshot(store) == before
    else:
        assert report is not None, f"{name} was refused"
        text = json.dumps([p.__dict__ for p in store.papers(report.corpus)], ensure_ascii=False)
        assert "root:x:0:0" not in text  # no external entity was read
        assert path.suffix != ".xml" or "aaaaaaaaaaaaaaaaaaaa" not in text  # no internal entity was expanded


def test_entities_are_kept_as_text_never_expanded_or_fetched(fuzz):
    store = fuzz["store"]
    for name in ("external_entity.xml", "parameter_entity.xml", "external_dtd.xml", "xinclude.xml"):
        report = store.import_papers(f"xml-{next(fuzz['count'])}", read_papers(NASTY / name), source=name)
        titles = [p.title for p in store.papers(report.corpus)]
        assert titles and not any("root:" in t for t in titles), titles
    TALLY["bad input: XML entity/XInclude/DTD tricks"] += 4


def test_a_gzip_that_expands_past_the_limit_is_refused_in_every_format(fuzz, monkeypatch):
    monkeypatch.setenv("MIREAD_MAX_EXPANDED_BYTES", str(2**20))
    store = fuzz["store"]
    row = {"title": "A title", "abstract": "An abstract " * 20, "journal": "J"}
    xml = (GOOD / "pubmed.xml").read_bytes()
    article = xml[xml.index(b"<PubmedArticle>"): xml.index(b"</PubmedArticle>") + 16]
    bodies = {
        ".csv": b"title,abstract\n" + b"A title,An abstract\n" * 200_000,
        ".tsv": b"title\tabstract\n" + b"A title\tAn abstract\n" * 200_000,
        ".jsonl": (json.dumps(row) + "\n").encode() * 20_000,
        ".ris": b"TY  - JOUR\nTI  - A title\nAB  - An abstract\nER  - \n" * 100_000,
        ".bib": b"@article{k, title={A title}, abstract={An abstract}}\n" * 100_000,
        ".xml": b"<PubmedArticleSet>" + article * 1500 + b"</PubmedArticleSet>",
    }
    bodies[".parquet"] = (fuzz["parquet"].read_bytes() + b"\0" * 4 * 2**20)
    for suffix, body in bodies.items():
        path = _write(fuzz, "bomb", suffix + ".gz", gzip.compress(body, compresslevel=9))
        before = snapshot(store)
        with pytest.raises(CorpusError, match="expands to more than 1,048,576 bytes") as refused:
            store.import_papers(f"bomb-{suffix[1:]}", read_papers(path), source=path.name)
        check_one_sentence(str(refused.value), path.name)
        assert snapshot(store) == before
        TALLY["bad input: gzip past the expansion limit"] += 1


def test_fields_and_lines_over_the_size_limits_are_refused_and_big_ones_under_them_import(fuzz, monkeypatch):
    store = fuzz["store"]
    big = "x" * 300_000
    huge_csv = _write(fuzz, "huge", ".csv", f"title,abstract\nT,{big}\n".encode())
    huge_jsonl = _write(fuzz, "huge", ".jsonl", json.dumps({"title": "T", "abstract": big}).encode() + b"\n")
    report = store.import_papers("big-fields", read_papers(huge_csv), source=huge_csv.name)
    assert report.added == 1 and len(store.papers("big-fields")[0].abstract) == 300_000
    monkeypatch.setattr(tabular, "MAX_FIELD_CHARS", 100_000)
    monkeypatch.setattr(tabular, "MAX_LINE_CHARS", 200_000)
    for path, pattern in ((huge_csv, "longer than 100,000 characters"), (huge_jsonl, "longer than 200,000")):
        before = snapshot(store)
        with pytest.raises(CorpusError, match=pattern) as refused:
            store.import_papers("big-fields", read_papers(path), source=path.name)
        check_one_sentence(str(refused.value), path.name)
        assert snapshot(store) == before
        TALLY["bad input: field or line over the size limit"] += 1


def test_files_that_are_not_regular_files_or_have_odd_names_are_refused_by_name(fuzz, tmp_path):
    odd = tmp_path / "new\nline\tname.csv"
    odd.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CorpusError) as refused:
        read_papers(odd)
    check_one_sentence(str(refused.value), "new\\nline\\tname.csv")
    for path, pattern in ((tmp_path, "is a folder"), (Path("/dev/null.csv"), "not found"),
                          (Path("/dev/zero"), "not a regular file"), (Path("/dev/stdin"), "not a regular file")):
        with pytest.raises(CorpusError, match=pattern):
            read_papers(path, fmt="csv")
    TALLY["bad input: odd file names and special files"] += 5


# -- property-based fuzzing -------------------------------------------------------------------
@FUZZ
@given(data=st.binary(max_size=3000), suffix=st.sampled_from(EXTENSIONS), gz=st.booleans(), append=st.booleans())
def test_random_bytes_never_crash_the_importer(fuzz, data, suffix, gz, append):
    body = gzip.compress(data, mtime=0) if gz else data
    path = _write(fuzz, "random", suffix + (".gz" if gz else ""), body)
    import_or_refuse(fuzz["store"], path, _target(fuzz, append), "random bytes")


MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(["truncate", "insert", "delete", "flip", "nul", "latin1", "utf16", "bom", "delimiter",
                         "crlf", "gzip", "cut_gzip", "entity", "quote"]),
        st.integers(min_value=0, max_value=2**20),
        st.binary(max_size=16),
    ),
    min_size=1, max_size=4,
)
SOURCES = ["papers.csv", "papers.tsv", "papers.jsonl", "pubmed.xml", "refs.bib", "refs.ris", "parquet"]


def mutate(data: bytes, ops: list[tuple[str, int, bytes]]) -> bytes:
    """Apply byte-level and encoding-level damage to a valid file."""
    for op, at, blob in ops:
        at = at % (len(data) + 1)
        if op == "truncate":
            data = data[:at]
        elif op == "insert":
            data = data[:at] + blob + data[at:]
        elif op == "delete":
            data = data[:at] + data[at + 1 + len(blob):]
        elif op == "flip" and data:
            data = data[:at] + bytes([(data[at % len(data)] ^ 0xFF)]) + data[at + 1:]
        elif op == "nul":
            data = data[:at] + b"\x00" + data[at:]
        elif op == "latin1":
            data = data.decode("utf-8", "replace").encode("latin-1", "replace")
        elif op == "utf16":
            data = data.decode("utf-8", "replace").encode("utf-16")
        elif op == "bom":
            data = b"\xef\xbb\xbf" + data
        elif op == "delimiter":
            data = data.replace(b",", b";").replace(b"\t", b",")
        elif op == "crlf":
            data = data.replace(b"\n", b"\r\n" if at % 2 else b"\r")
        elif op == "gzip":
            data = gzip.compress(data, mtime=0)
        elif op == "cut_gzip":
            data = gzip.compress(data, mtime=0)[: max(1, at % 200)]
        elif op == "entity":
            data = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "' + blob.replace(b'"', b"") + b'">]>' + data
        elif op == "quote":
            data = data[:at] + b'"' + data[at:]
    return data


@FUZZ
@given(source=st.sampled_from(SOURCES), ops=MUTATIONS, append=st.booleans())
def test_damaged_valid_files_never_crash_the_importer(fuzz, source, ops, append):
    original = fuzz["parquet"] if source == "parquet" else GOOD / source
    data = mutate(original.read_bytes(), ops)
    gz = data[:2] == b"\x1f\x8b"
    path = _write(fuzz, "damaged", original.suffix + (".gz" if gz else ""), data)
    import_or_refuse(fuzz["store"], path, _target(fuzz, append), f"damaged {original.suffix[1:]}")


NASTY_STRINGS = ["", " ", "\t", "\x00", "\r\n", '"', '""', "'", ",", ";", "\\", "{", "}", "[1, 2]", '{"a": 1}',
                 "NaN", "null", "<script>alert(1)</script>", "\u202e", "\ufeff", "\U0001F9EC", "e\u0301",
                 "\ud800", "a\udcffb", "x" * 5000, "\u4e2d\u6587", "\u0627\u0644", "TY  - JOUR", "ER  - ", "@article{"]
TEXT = st.one_of(st.text(max_size=30), st.sampled_from(NASTY_STRINGS),
                 st.text(alphabet=st.characters(exclude_categories=()), max_size=10))
VALUE = st.one_of(TEXT, st.integers(min_value=-(2**70), max_value=2**70), st.floats(), st.booleans(), st.none(),
                  st.lists(st.one_of(TEXT, st.integers(), st.floats()), max_size=3),
                  st.dictionaries(st.text(max_size=4), st.one_of(TEXT, st.floats()), max_size=2))
KEYS = st.one_of(st.sampled_from(["journal", "year", "doi", "Title", "ID", "", " ", "a,b", 'q"t', "new\nline",
                                  "\x00", "abstract ", "pmid"]), st.text(max_size=8))
ROWS = st.lists(
    st.fixed_dictionaries(
        {"title": VALUE, "abstract": VALUE},
        optional={"id": st.one_of(st.sampled_from(["1", "1", "2", "", " "]), VALUE), "extra": VALUE},
    ).flatmap(lambda row: st.dictionaries(KEYS, VALUE, max_size=3).map(lambda more: {**more, **row})),
    max_size=8,
)


def _cell(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def write_rows(rows: list[dict], fmt: str, quoting: int, broken: bool) -> bytes:
    """Rows as CSV/TSV (any quoting, or none at all), JSONL or a JSON array; text may hold surrogates."""
    keys = list(dict.fromkeys(k for row in rows for k in row)) or ["title", "abstract"]
    if fmt in ("csv", "tsv"):
        delimiter = "," if fmt == "csv" else "\t"
        out = io.StringIO()
        if broken:
            out.write(delimiter.join(keys) + "\n")
            for row in rows:
                out.write(delimiter.join(_cell(row.get(k, "")) for k in keys) + "\n")
        else:
            writer = csv.writer(out, delimiter=delimiter, quoting=quoting, escapechar="\\")
            writer.writerow(keys)
            writer.writerows([[_cell(row.get(k, "")) for k in keys] for row in rows])
        return out.getvalue().encode("utf-8", "surrogatepass")
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=broken).encode("utf-8", "surrogatepass")
    return "\n".join(json.dumps(row, ensure_ascii=broken) for row in rows).encode("utf-8", "surrogatepass")


@FUZZ
@given(rows=ROWS, fmt=st.sampled_from(["csv", "tsv", "jsonl", "json"]),
       quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC, csv.QUOTE_NONE]),
       broken=st.booleans(), append=st.booleans())
def test_generated_rows_with_wrong_types_and_odd_text_never_crash_the_importer(fuzz, rows, fmt, quoting, broken,
                                                                                append):
    try:
        data = write_rows(rows, fmt, quoting, broken)
    except csv.Error:  # QUOTE_NONE cannot write some cells; write them unquoted instead
        data = write_rows(rows, fmt, quoting, True)
    path = _write(fuzz, "rows", f".{fmt}", data)
    import_or_refuse(fuzz["store"], path, _target(fuzz, append), f"generated {fmt} rows")


BIB_VALUE = st.one_of(
    TEXT.map(lambda t: "{" + t + "}"), TEXT.map(lambda t: '"' + t + '"'), st.integers().map(str),
    st.sampled_from(["jml", "a # b", "{unbalanced", "unbalanced}", '{{"}}', "{\\\"u}", "$x^2$", "\\emph{x}",
                     "jan", "{}", '""']),
)
BIB_ENTRY = st.builds(
    lambda kind, key, fields, junk: f"@{kind}{{{key},\n" + ",\n".join(f"  {k} = {v}" for k, v in fields)
    + ("\n" if junk else ",\n") + "}\n" + junk,
    st.sampled_from(["article", "ARTICLE", "inproceedings", "misc", "comment", "string", "preamble", "", "x y"]),
    st.one_of(st.text(max_size=8), st.sampled_from(["k1", "k1", "k2", ""])),
    st.lists(st.tuples(st.sampled_from(["title", "abstract", "Title", "journal", "year", "author", "", "doi"]),
                       BIB_VALUE), max_size=6),
    st.one_of(st.just(""), TEXT),
)
RIS_LINE = st.builds(
    lambda tag, sep, value: f"{tag}{sep}{value}",
    st.sampled_from(["TY", "TI", "T1", "AB", "N2", "AU", "KW", "PY", "ER", "ID", "DO", "XX", "ti", "", "T"]),
    st.sampled_from(["  - ", "  -", " - ", "-", "   - ", ""]),
    TEXT,
)


@FUZZ
@given(entries=st.lists(BIB_ENTRY, max_size=6), ris=st.lists(RIS_LINE, max_size=30),
       newline=st.sampled_from(["\n", "\r\n", "\r"]), append=st.booleans())
def test_bibtex_and_ris_oddities_never_crash_the_importer(fuzz, entries, ris, newline, append):
    bib = "".join(entries).replace("\n", newline).encode("utf-8", "surrogatepass")
    path = _write(fuzz, "odd", ".bib", bib)
    import_or_refuse(fuzz["store"], path, _target(fuzz, append), "generated BibTeX")
    lines = (["TY  - JOUR"] if ris and ris[0][:2] != "TY" else []) + ris
    path = _write(fuzz, "odd", ".ris", newline.join(lines).encode("utf-8", "surrogatepass"))
    import_or_refuse(fuzz["store"], path, _target(fuzz, not append), "generated RIS")


REFER_LINE = st.one_of(
    st.builds(lambda tag, value: f"%{tag} {value}",
              st.sampled_from(list("0TXAKJBDR@E") + ["", "%", "x", "t"]), TEXT),
    TEXT, st.just(""))


@FUZZ
@given(lines=st.lists(REFER_LINE, max_size=30), newline=st.sampled_from(["\n", "\r\n", "\r"]),
       append=st.booleans())
def test_endnote_tagged_oddities_never_crash_the_importer(fuzz, lines, newline, append):
    head = ["%0 Journal Article", "%T A title"] if not lines or not lines[0].startswith("%") else []
    path = _write(fuzz, "odd", ".enw", newline.join(head + lines).encode("utf-8", "surrogatepass"))
    import_or_refuse(fuzz["store"], path, _target(fuzz, append), "generated Refer")


def test_refusals_and_imports_named_the_file_and_left_no_partial_corpus(fuzz):
    """Every corpus the fuzzing created holds only complete imports: its papers match its completed imports."""
    store = fuzz["store"]
    with store.connect() as conn:
        finished = {r[0] for r in conn.execute("SELECT DISTINCT corpus FROM imports WHERE status = 'completed'")}
        running = conn.execute("SELECT COUNT(*) FROM imports WHERE status = 'running'").fetchone()[0]
    assert {c.name for c in store.corpora()} <= finished
    assert running == 0 and store.unfinished_imports() == []
    assert all(c.papers > 0 for c in store.corpora())
    assert re.fullmatch(r"[0-9a-f]{32}", snapshot(store))
