"""Export 100,000 papers to RIS and to BibTeX: our writers (core.io.reference_export) vs plain library writers of
the same records, in one run.

Records: the real papers of tests/fixtures/real (Zotero and Scopus BibTeX, EndNote, Web of Science and Scopus RIS)
and of the shared RIS/CSV exports when present, replicated to `--papers` with a numbered title and DOI, so each has
real authors, journal, year, DOI, keywords and abstract (and real special characters: "&", "%", accents).

- ours: `write_references(papers, StringIO, "ris" | "bibtex")`: fields by role, names split, escaping, unique keys.
- baseline RIS: each paper mapped to rispy's dict (title, authors, secondary_title, year, doi, keywords, abstract,
  id) and `rispy.dumps` of the list.
- baseline BibTeX: each paper a bibtexparser 2.1 `Entry` (title, author "A and B", journal, year, doi, keywords,
  abstract; key = the paper's id made safe) in a `Library`, then `bibtexparser.write_string` with the in-place
  unparse stack it recommends for large libraries; values unescaped (it escapes nothing).

Both outputs of each format are then read back and must give `--papers` papers: RIS with `core.io.read_papers`
(the importer's reader); BibTeX split into entries by bibtexparser (the importer's first step: no failed block), and
the first `--decode` entries read whole with `core.io.read_papers` (its LaTeX decoding takes ~20 ms an entry, so all
100,000 would take half an hour per file).
Timing: median of `--reps` interleaved rounds (A, B, B, A ...), writing to memory.

Prediction (written before measuring): ours RIS 1.5-3x faster than rispy.dumps (rispy formats each line through
str.format, looks up each key's tag and walks the whole list twice); ours BibTeX 3-6x faster than bibtexparser's
writer (which builds a block model and formats every field through its middleware), even with our escaping.

    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/bench_export.py --papers 100000 --reps 3
"""

from __future__ import annotations

import argparse
import io
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from common import DATA, ROOT, interleave, median, report, row

REAL = ROOT / "tests" / "fixtures" / "real"
SOURCES = [REAL / "zotero_3.bib", REAL / "scopus_3.bib", REAL / "endnote_3.ris", REAL / "wos_3.ris",
           REAL / "scopus_3.ris", DATA / "exports" / "RIS" / "_baseline_zotero.ris",
           DATA / "exports" / "RIS" / "_baseline_endnote.ris", DATA / "exports" / "CSV" / "_baseline_scopus.csv"]


def records(n: int) -> list[Any]:
    """`n` papers replicated from the real ones, each with its own title, id and DOI."""
    from core.io import read_papers
    from core.records import Paper

    real = [p for path in SOURCES if path.exists() for p in read_papers(path) if isinstance(p, Paper)]
    out = []
    for i in range(n):
        p = real[i % len(real)]
        fields = dict(p.fields)
        fields["doi"] = f"{fields.get('doi') or '10.5555/x'}.{i}"
        out.append(Paper(f"{p.id}-{i}", f"{p.title} ({i})", p.abstract, fields))
    return out


def _list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)] if value else []


def rispy_baseline(papers: list[Any]) -> str:
    import rispy

    entries = [{"type_of_reference": "JOUR", "title": p.title, "authors": _list(p.fields.get("authors")),
                "secondary_title": p.fields.get("journal") or "", "year": str(p.fields.get("year") or ""),
                "doi": p.fields.get("doi") or "", "keywords": _list(p.fields.get("keywords")),
                "abstract": p.abstract, "id": p.id} for p in papers]
    return rispy.dumps(entries)


def bibtexparser_baseline(papers: list[Any]) -> str:
    import bibtexparser
    from bibtexparser.model import Entry, Field

    library = bibtexparser.Library()
    for p in papers:
        values = {"title": p.title, "author": " and ".join(_list(p.fields.get("authors"))),
                  "journal": p.fields.get("journal"), "year": p.fields.get("year"), "doi": p.fields.get("doi"),
                  "keywords": ", ".join(_list(p.fields.get("keywords"))), "abstract": p.abstract}
        fields = [Field(k, str(v)) for k, v in values.items() if v]  # its writer adds the braces
        library.add(Entry("article", re.sub(r"[^\w:./-]", "_", p.id), fields))
    # the in-place unparse stack bibtexparser recommends for large libraries (its default deep-copies every block)
    stack = bibtexparser.middlewares.default_unparse_stack(allow_inplace_modification=True)
    return bibtexparser.write_string(library, unparse_stack=stack)


def ours(papers: list[Any], fmt: str) -> str:
    from core.io.reference_export import write_references

    buffer = io.StringIO(newline="")
    write_references(papers, buffer, fmt)
    return buffer.getvalue()


def read_back(text: str, suffix: str) -> int:
    """The papers the importer's reader gets from `text`."""
    from core.io import read_papers
    from core.records import Paper

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"export{suffix}"
        path.write_text(text, encoding="utf-8", newline="")
        return sum(isinstance(p, Paper) for p in read_papers(path))


def bibtex_entries(text: str, decode: int) -> tuple[int, int]:
    """(entries bibtexparser splits `text` into, failed blocks included as a refusal), and the papers the importer
    reads from its first `decode` entries."""
    import bibtexparser

    library = bibtexparser.parse_string(text)
    entries = len(library.entries) if not library.failed_blocks else -len(library.failed_blocks)
    head = "\n@".join(text.split("\n@")[:decode])
    return entries, read_back(head, ".bib")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--decode", type=int, default=5000, help="BibTeX entries read whole by the importer")
    args = parser.parse_args()
    papers = records(args.papers)
    outputs: dict[str, str] = {}
    writers = {
        "ours_ris": lambda: ours(papers, "ris"), "rispy": lambda: rispy_baseline(papers),
        "ours_bibtex": lambda: ours(papers, "bibtex"), "bibtexparser": lambda: bibtexparser_baseline(papers),
    }
    cases = {name: (lambda name=name, fn=fn: outputs.__setitem__(name, fn())) for name, fn in writers.items()}
    times = interleave(cases, args.reps)
    started = time.perf_counter()
    counts = {name: read_back(outputs[name], ".ris") for name in ("ours_ris", "rispy")}
    decoded = {}
    for name in ("ours_bibtex", "bibtexparser"):
        counts[name], decoded[name] = bibtex_entries(outputs[name], args.decode)
    read_s = time.perf_counter() - started
    n = args.papers
    rows = [
        row(f"RIS: write {n:,} papers (s)", median(times["ours_ris"]), median(times["rispy"]), "s",
            "baseline: rispy.dumps"),
        row(f"BibTeX: write {n:,} papers (s)", median(times["ours_bibtex"]), median(times["bibtexparser"]), "s",
            "baseline: bibtexparser.write_string"),
        row("RIS: papers read back", counts["ours_ris"], counts["rispy"], "papers"),
        row("BibTeX: entries read back", counts["ours_bibtex"], counts["bibtexparser"], "entries",
            "bibtexparser's split, no failed block"),
        row(f"BibTeX: of the first {args.decode:,}, papers the importer reads", decoded["ours_bibtex"],
            decoded["bibtexparser"], "papers"),
        row("RIS: file size (MB)", len(outputs["ours_ris"].encode()) / 1e6, len(outputs["rispy"].encode()) / 1e6,
            "MB"),
        row("BibTeX: file size (MB)", len(outputs["ours_bibtex"].encode()) / 1e6,
            len(outputs["bibtexparser"].encode()) / 1e6, "MB"),
    ]
    report("export", rows, {"times": times, "read_back_s": read_s, "papers": n})
    assert all(count == n for count in counts.values()), counts
    assert all(count == min(n, args.decode) for count in decoded.values()), decoded


if __name__ == "__main__":
    main()
