"""One journal, one name (issue 40 §3): distinct journals before and after `core.journal_identity` on real exports.

    .venv/bin/python benchmarks/journal_identity.py                       # the 43 shared exports, ~1-2 min
    .venv/bin/python benchmarks/journal_identity.py --groups out.txt      # also every joined group, to check by eye

Three corpora from ../shared/data/exports (the same search exported by 20+ tools and databases):
  all    every file imported into one corpus, as `python -m core import FILE --corpus all` does file by file (the
         importer merges duplicates, so a merged paper keeps its first record's journal spelling);
  pooled every record of every file, each file its own corpus, pooled without merging (the hardest case: every
         spelling every database wrote);
  multi  one search from ten databases (Lens, PubMed, Scopus, Web of Science, Embase, CINAHL, PsycInfo, ERIC,
         OpenAlex, MDPI) imported together with core.store.multi_import;
and two more of other searches: fixtures, every record of the repository's real exports (tests/fixtures/real: Web of
Science, Scopus, PubMed, Embase, Lens, CINAHL, EndNote, Ovid, Zotero, CSL, ...), read and pooled without merging; and
fixmulti, the real exports of the bibliographic databases among them (PubMed/MEDLINE, Scopus, Web of Science, Embase,
Lens, CINAHL, OpenAlex, Ovid, EBSCO, ProQuest, Dimensions, Europe PMC, Crossref, ASySD's multi-database test files)
imported file by file into one corpus, duplicates merged, as a librarian's multi-database library; and scholar, the
multi search plus Google Scholar's exports of it (no abstracts: imported Titles only, as the Library offers), which
name journals as publishers do ("Biological Reviews") beside PubMed's NLM titles.
For each: papers with a journal; distinct stored spellings (what the map, legend and vote showed before); distinct
names after folding case and punctuation alone (the naive baseline); distinct journals after; the joined groups.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Mapping
from math import comb
from pathlib import Path
from typing import Any

from common import report, row

from core.errors import MireadError
from core.io import read_papers
from core.journal_identity import JournalIdentities, journal_identities, name_key
from core.records import Paper
from core.store import Store
from core.store.multi_import import import_files

EXPORTS = Path("/work/shared/data/exports")
FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "real"
SCHOLAR = ["RIS/_baseline_googlescholar.ris", "CSV/_baseline_googlescholar.csv"]
MULTI = ["RIS/_baseline.ris", "RIS/_baseline_pubmed.ris", "CSV/_baseline_scopus.csv", "RIS/_baseline_webofscience.ris",
         "RIS/_baseline_embase.ris", "RIS/_baseline_cinahl.ris", "RIS/_baseline_psychInfo_ovid.ris",
         "RIS/_baseline_eric_ovid.ris", "RIS/_baseline_openalex.ris", "RIS/_baseline_mdpi.ris"]


def export_files() -> list[Path]:
    return sorted(p for p in EXPORTS.rglob("*") if p.suffix.lower() in (".ris", ".csv", ".tsv", ".xlsx")
                  and p.name != "EXPECTED.tsv")


def fixture_records() -> list[tuple[str, dict[str, Any]]]:
    """Every paper of every readable real fixture, as read (no store, no merging)."""
    records: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(p for p in FIXTURES.rglob("*")
                       if p.is_file() and p.suffix not in (".md", ".py") and p.name != "EXPECTED.json"):
        try:
            papers = [p for p in read_papers(path) if isinstance(p, Paper)]
        except MireadError:
            continue  # an export without abstracts
        records += [(f"{path.relative_to(FIXTURES)}/{i}", dict(p.fields)) for i, p in enumerate(papers)]
    return records


DATABASES = ("pubmed", "medline", "scopus", "wos", "embase", "lens", "cinahl", "openalex", "ovid", "ebsco",
             "proquest", "dimensions", "eupmc", "crossref", "asysd", "tethne", "refsplitr", "pybibx")


def fixture_databases() -> list[Path]:
    """The real fixtures exported from a bibliographic database (by the name's first part), sorted."""
    return sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix not in (".md", ".py", ".json")
                  and p.name.split("_")[0].lower().startswith(DATABASES)) + sorted(
        p for p in FIXTURES.rglob("*.json") if p.name.split("_")[0].lower().startswith(DATABASES)
        and p.name != "EXPECTED.json")


def _import(store: Store, files: list[Path], corpus: str) -> int:
    """Import `files` one by one into `corpus`; files refused (no abstract column) are counted and passed over."""
    refused = 0
    for path in files:
        try:
            import_files(store, [path], corpus)
        except MireadError:
            refused += 1
    return refused


def _records(store: Store, corpus: str, prefix: str = "") -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """(id, fields) of a corpus with its journal field read as 'journal', and its alias fields."""
    info = store.corpus(corpus)
    records = []
    for paper in store.papers(corpus):
        fields = dict(paper.fields)
        if info.journal and info.journal != "journal":
            fields["journal"] = fields.pop(info.journal, None)
        records.append((prefix + paper.id, fields))
    return records, [name for name, role in info.roles.items() if role == "alias"]


def measure(label: str, records: list[tuple[str, Mapping[str, Any]]], aliases: list[str],
            groups_out: list[str]) -> list[dict[str, Any]]:
    """The rows of one corpus, and its joined groups appended to `groups_out`."""
    journals = [f["journal"].strip() for _, f in records if isinstance(f.get("journal"), str) and f["journal"].strip()]
    started = time.perf_counter()
    found: JournalIdentities = journal_identities(records, "journal", aliases)
    seconds = time.perf_counter() - started
    stored, folded, after = len(set(journals)), len({name_key(j) for j in journals}), len(set(found.names.values()))
    stored_of: dict[str, set[str]] = {}
    for pid, fields in records:
        if pid in found.names:
            stored_of.setdefault(found.names[pid], set()).add(fields["journal"].strip())
    joined = {name: sorted(s) for name, s in stored_of.items() if len({name_key(x) for x in s}) > 1}
    pairs = sum(comb(len({name_key(x) for x in s}), 2) for s in joined.values())
    # every journal read under several spellings, abbreviations included (joined() counts the journal fields' only)
    spelled = {name: spellings for name, spellings in found.spellings.items() if len(spellings) > 1}
    spelled_pairs = sum(comb(len(s), 2) for s in spelled.values())
    groups_out.append(f"== {label}: {len(joined)} groups joining papers' journal names that differ after folding "
                      f"({pairs} pairs); {len(spelled)} journals read under several spellings ({spelled_pairs} pairs)")
    for name in sorted(spelled, key=str.casefold):
        mark = "*" if name in joined else " "
        groups_out.append(f"{mark} {name}  <-  {' | '.join(spelled[name])}  [ISSN {', '.join(found.issns[name]) or '-'}]")
    return [
        row(f"{label}: papers with a journal", len(journals), unit="papers"),
        row(f"{label}: distinct journals", after, stored, unit="journals",
            note="ours: one name per journal; baseline: the stored spellings (before)"),
        row(f"{label}: distinct after folding case and punctuation only", folded, unit="journals",
            note="the naive baseline"),
        row(f"{label}: groups joining names that differ after folding", len(joined), unit="groups",
            note=f"{pairs} joined pairs, listed with --groups for checking by eye"),
        row(f"{label}: journals read under several spellings", len(spelled), unit="groups",
            note=f"{spelled_pairs} spelling pairs, abbreviations the records carry included"),
        row(f"{label}: time to compute", round(seconds * 1000, 1), unit="ms"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workspace", default=None, help="a workspace folder to keep (default: a temporary one)")
    parser.add_argument("--groups", default=None, help="write every joined group to this text file")
    args = parser.parse_args()
    files = export_files()
    groups: list[str] = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.workspace or tmp)
        started = time.perf_counter()
        refused = _import(store, files, "all")
        records, aliases = _records(store, "all")
        rows += [row("files read", len(files) - refused, len(files), unit="files", note="ours: imported; "
                     "baseline: all (the rest have no abstract column)")]
        rows += measure("all", records, aliases, groups)
        pooled: list[tuple[str, dict[str, Any]]] = []
        pooled_aliases: set[str] = set()
        for i, path in enumerate(files):
            corpus = f"file{i:02d}"
            if _import(store, [path], corpus) == 0 and store.has_corpus(corpus):
                part, names = _records(store, corpus, prefix=f"{i:02d}/")
                pooled += part
                pooled_aliases.update(names)
        rows += measure("pooled", pooled, sorted(pooled_aliases), groups)
        import_files(store, [EXPORTS / name for name in MULTI], "multi")
        records, aliases = _records(store, "multi")
        rows += measure("multi", records, aliases, groups)
        import_files(store, [EXPORTS / name for name in MULTI + SCHOLAR], "scholar",
                     title_only=[False] * len(MULTI) + [True] * len(SCHOLAR))
        records, aliases = _records(store, "scholar")
        rows += measure("scholar", records, aliases, groups)
        rows += measure("fixtures", fixture_records(), [], groups)
        databases = fixture_databases()
        refused = _import(store, databases, "fixmulti")
        rows.append(row("fixmulti: files read", len(databases) - refused, len(databases), unit="files"))
        records, aliases = _records(store, "fixmulti")
        rows += measure("fixmulti", records, aliases, groups)
        rows.append(row("import and measure, all six", round(time.perf_counter() - started, 1), unit="s"))
    report("journal_identity", rows, {"groups": groups})
    if args.groups:
        Path(args.groups).write_text("\n".join(groups) + "\n", encoding="utf-8")
        print(f"joined groups written to {args.groups}")


if __name__ == "__main__":
    main()
