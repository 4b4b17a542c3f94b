"""One journal, one name (issue 40 §3, BENCHMARKS §24d): the name rules alone, without the ISSNs' safety net.

    .venv/bin/python benchmarks/journal_names_only.py --out names.json      # ~20 s

Every record of every real fixture (tests/fixtures/real) and of every shared export (../shared/data/exports), read
without a store, its ISSN fields dropped, grouped by `core.journal_identity`: any join here is made by names alone
(normalised names, abbreviation pairs, subtitles, NLM's forms, a saved page's "journal year volume:issue"). Run it on
two revisions (`git archive REV core benchmarks tests/fixtures/real` into a scratch folder) and compare the --out
files: every group that changed is a name rule's doing, to be read by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import common  # noqa: F401  (puts this worktree first on the path)
from journal_identity import export_files, fixture_records

from core.errors import MireadError
from core.io import read_papers
from core.journal_identity import _field_kind, journal_identities
from core.records import Paper


def export_records() -> list[tuple[str, dict[str, Any]]]:
    """Every paper of every shared export, as read (Titles only where a file has no abstracts)."""
    records: list[tuple[str, dict[str, Any]]] = []
    for path in export_files():
        for title_only in (False, True):
            try:
                papers = [p for p in read_papers(path, title_only=title_only) if isinstance(p, Paper)]
                break
            except MireadError:
                papers = []
        records += [(f"{path.name}/{i}", dict(p.fields)) for i, p in enumerate(papers)]
    return records


def groups_of(records: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The journals of `records` with their ISSN fields dropped: count, groups (sorted ids), spellings."""
    found = journal_identities([(pid, {k: v for k, v in f.items() if _field_kind(k) != "issn"}) for pid, f in records])
    groups: dict[str, list[str]] = {}
    for pid, name in found.names.items():
        groups.setdefault(name, []).append(pid)
    return {"journals": len(groups), "groups": {name: sorted(ids) for name, ids in sorted(groups.items())},
            "spellings": found.spellings}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="write the groups of both sets to this JSON file")
    args = parser.parse_args()
    result = {}
    for label, records in (("fixtures", fixture_records()), ("exports", export_records())):
        result[label] = groups_of(records)
        print(f"{label}: {len(records)} records, {result[label]['journals']} journals (names only)")
    if args.out:
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"groups written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
