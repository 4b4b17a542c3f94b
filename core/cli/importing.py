"""The ``import`` command: its arguments (format, sheet, header row, separator, encoding, a column for every field,
title-only, dry run) and its handler, which prints the import report or, with ``--dry-run``, the import preview.
Several files are either one JATS full-text bundle (articles and their images) or one upload of several exports
(``core.store.import_files``: one transaction, duplicates merged across the files, a line per file)."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from core.cli.output import Emit
from core.display import plural
from core.errors import MireadError
from core.io.rows import shown_row
from core.io.warning_kinds import by_kind
from core.io.warning_kinds import sentence as warning_sentence
from core.store import Store

_FIELD_FLAGS = ("title", "abstract", "id", "journal", "year", "doi", "authors", "keywords")


def add_import_arguments(p: argparse.ArgumentParser) -> None:
    """The import command's arguments."""
    p.add_argument("file", nargs="+",
                   help="a file; or several exports of one search (PubMed, Scopus, Web of Science...) into one corpus, "
                        "duplicates merged by DOI or title+abstract; or several JATS .xml/.nxml articles and images")
    p.add_argument("--corpus", required=False, default=None, help="corpus to import into (not needed with --dry-run)")
    p.add_argument("--format", default=None,
                   help="csv, tsv, excel, jsonl, parquet, pubmed, jats, medline, bibtex, ris, endnote, refer, wos, "
                        "cochrane, ovid, refworks, zotero, noteexpress, dspace, arxiv, mods, marcxml, citavi, scopus "
                        "or embase (default: by content, then extension)")
    for name in _FIELD_FLAGS:
        p.add_argument(f"--{name}-column", default=None,
                       help=f"the column holding the {name} (default: found by name; '' for none)")
    p.add_argument("--sheet", default=None, help="Excel: the sheet to read, by name or number (default: the first)")
    p.add_argument("--header-row", type=int, default=None,
                   help="tables: the 1-based row of the header (default: the first row naming a title column)")
    p.add_argument("--separator", default=None, help="CSV: comma, semicolon, tab or pipe (default: sniffed)")
    p.add_argument("--encoding", default=None,
                   help="text files: utf-8, cp1252 (Windows-1252), latin-1, mac-roman, ... (default: detected)")
    p.add_argument("--title-only", action="store_true",
                   help="also import rows without an abstract (marked title-only)")
    p.add_argument("--dry-run", action="store_true", help="show how the file would be imported; store nothing")


def _reading_lines(doc: dict[str, Any]) -> list[str]:
    from core.io.plan import describe_reading, field_sources

    where = describe_reading(doc, doc.get("tool"))
    label, sources = field_sources(doc)  # a table's columns; a record format's fields (no column 'journal' in RIS)
    mapping = ", ".join(f"{k} <- '{v}'" if v else k for k, v in sources)
    return ["; ".join(where), f"{label}: {mapping}" + ("; title-only rows kept" if doc.get("title_only") else "")]


def cmd_import(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    """Import a file (or, with --dry-run, preview it) and print what happened; several JATS files import as one; a
    Parquet export with vectors files its vectors too."""
    from core.cli.exchange import cmd_import_vectors, is_vectors_export

    files = [args.file] if isinstance(args.file, str) else list(args.file)
    if len(files) == 1 and Path(files[0]).exists() and is_vectors_export(Path(files[0])):
        if not args.corpus:
            raise MireadError("import needs --corpus NAME")
        args.file = files[0]
        return cmd_import_vectors(store, args, emit)
    return _import_files(store, args, emit)


def _is_jats_bundle(files: list[str]) -> bool:
    """Several files that are JATS articles and their images (one bundle), not several exports."""
    from core.io import detect_format
    from core.io.jats import IMAGE_TYPES

    paths = [Path(f) for f in files]
    if any(p.suffix.lower() in IMAGE_TYPES for p in paths):
        return True
    return all(p.suffix.lower() in (".xml", ".nxml") and detect_format(p) == "jats" for p in paths)


def _import_files(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    files = [args.file] if isinstance(args.file, str) else list(args.file)
    for name in files:
        if not Path(name).exists():
            raise MireadError(f"file {name!r} does not exist")
    if len(files) > 1 and not _is_jats_bundle(files):
        return _import_several(store, args, emit, [Path(f) for f in files])
    with tempfile.TemporaryDirectory() as folder:
        from core.io import bundle_files

        path = Path(files[0]) if len(files) == 1 else bundle_files([Path(f) for f in files], Path(folder))
        return _import(store, args, emit, path, ", ".join(Path(f).name for f in files))


def _choices(args: argparse.Namespace) -> tuple[dict[str, str], Any]:
    """The columns and reading options the flags give."""
    from core.io import ReadOptions

    columns = {name: getattr(args, f"{name}_column") for name in _FIELD_FLAGS
               if getattr(args, f"{name}_column") is not None}
    return columns, ReadOptions(sheet=args.sheet, header_row=args.header_row, separator=args.separator,
                                encoding=args.encoding)


def _import_several(store: Store, args: argparse.Namespace, emit: Emit, paths: list[Path]) -> dict[str, Any]:
    """Several exports into one corpus in one transaction: a line per file, then the totals (--json: ``files``)."""
    from core.io import plan_import
    from core.store import import_files

    columns, options = _choices(args)
    if args.dry_run:
        plans = [plan_import(p, fmt=args.format, columns=columns, options=options, title_only=args.title_only)
                 for p in paths]
        doc = {"files": [plan.to_dict() for plan in plans]}
        emit(doc, "\n".join(f"{plan.file}: {plan.summary()} (nothing stored)" for plan in plans))
        return doc
    if not args.corpus:
        raise MireadError("import needs --corpus NAME (or --dry-run to preview the files)")
    report = import_files(store, paths, args.corpus, fmt=args.format, columns=columns, options=options,
                          title_only=args.title_only)
    doc = report.to_dict()
    lines = []
    for row in report.file_rows():
        merged = plural(row["merged"], "merged duplicate")
        if row["merged"]:
            merged += (f" ({row['merged within the file']} within the file, {row['merged into earlier files']} "
                       f"into earlier files, {row['merged into the corpus']} into the corpus)")
        lines.append(f"{row['file']} ({row['reader']}): {plural(row['rows'], 'record')} read: "
                     f"{plural(row['added'], 'new paper')}, {merged}, {plural(row['skipped'], 'skipped record')}")
    lines.append(f"corpus {report.corpus}: read {plural(report.imported + report.skipped, 'record')} from "
                 f"{plural(len(report.files), 'file')}: {plural(report.added, 'new paper')}, "
                 f"{plural(report.merged, 'merged duplicate')}, {plural(report.skipped, 'skipped record')}")
    if doc["merge_rules"]:
        lines.append("merged by rule: " + ", ".join(f"{n} {rule}" for rule, n in doc["merge_rules"].items())
                     + " (--json: every merge in 'merges')")
    lines += [f"  {e['reason']}" for e in doc["errors"][:20]]
    if report.skipped > 20:
        lines.append(f"  ... and {report.skipped - 20} more (use --json for all)")
    lines += _conflict_lines(doc["conflicts"])
    emit(doc, "\n".join(lines))
    return doc


def _conflict_lines(conflicts: list[dict[str, Any]]) -> list[str]:
    """The report's id conflicts and shared ids, a sentence each kind and up to 20 rows each."""
    lines: list[str] = []
    shared = [c for c in conflicts if c.get("kind") == "shared id"]
    reused = [c for c in conflicts if c.get("kind") != "shared id"]
    if shared:
        lines.append(f"{plural(len(shared), 'record')} carried the DOI or PMID of a paper with another title: "
                     "both kept as different papers")
        lines += [f"  {c['reason']}" for c in shared[:20]]
    if reused:
        lines.append(f"{plural(len(reused), 'id conflict')}: an id already used by a paper with another "
                     "title and abstract (each was kept as a separate paper)")
        lines += [f"  {c['reason']}" for c in reused[:20]]
    return lines


def _import(store: Store, args: argparse.Namespace, emit: Emit, path: Path, source: str) -> dict[str, Any]:
    from core.io import plan_import
    from core.store import import_file

    columns, options = _choices(args)
    if args.dry_run:
        plan = plan_import(path, fmt=args.format, columns=columns, options=options, title_only=args.title_only)
        doc = plan.to_dict()
        lines = [f"{plan.file}: {plan.summary()} (nothing stored)", *_reading_lines(doc)]
        if plan.id_note:
            lines.append(f"ids: {plan.id_note}")
        lines += [f"  {s['reason']}" for s in plan.skipped[:20]]
        if len(plan.skipped) > 20:
            lines.append(f"  ... and {len(plan.skipped) - 20} more (use --json for all)")
        emit(doc, "\n".join(lines))
        return doc
    if not args.corpus:
        raise MireadError("import needs --corpus NAME (or --dry-run to preview the file)")
    report = import_file(store, path, args.corpus, source=source, fmt=args.format, columns=columns, options=options,
                         title_only=args.title_only)
    doc = report.to_dict()  # with "figures" when the file was JATS full text
    lines = [f"corpus {report.corpus}: imported {plural(report.imported, 'row')} "
             f"({plural(report.added, 'new paper')}, {plural(report.merged, 'merged duplicate')}), skipped "
             f"{plural(report.skipped, 'row')}"
             + (f"; {plural(doc['figures'], 'figure')}" if "figures" in doc else ""), *_reading_lines(doc)]
    lines += [f"  {e.reason if e.reason.startswith(f'row {at}') else f'row {at}: {e.reason}'}"
              for e in report.errors[:20] for at in (shown_row(e.row),)]
    if report.skipped > 20:
        lines.append(f"  ... and {report.skipped - 20} more (use --json for all)")
    for kind, warnings in by_kind(report.warnings):  # each kind under its own heading (core.io.warning_kinds)
        lines.append(warning_sentence(kind, len(warnings)))
        lines += [f"  row {w.row}, {w.column}: {w.reason}" for w in warnings[:20]]
        if len(warnings) > 20:
            lines.append(f"  ... and {len(warnings) - 20} more (use --json for all)")
    links = report.links
    if (links.get("free_text") or {}).get("sentence"):
        lines.append(links["free_text"]["sentence"])
    if links.get("read"):
        reasons = ", ".join(f"{n} {r}" for r, n in (links.get("reasons") or {}).items() if n)
        lines.append(f"links: read {links['read']}, kept {links['kept']}, dropped {links['dropped']}"
                     + (f" ({reasons})" if reasons else ""))
        lines += [f"  {r['reason']}" for r in report.link_rows[:10]]
        if len(report.link_rows) > 10:
            lines.append(f"  ... and {len(report.link_rows) - 10} more rows with dropped links (use --json for all)")
    if report.id_note:
        lines.append(f"ids: {report.id_note}")
    elif report.id_column:
        lines.append(f"ids: column '{report.id_column}'")
    if report.conflicts:
        count = len(report.conflicts)
        lines.append(f"{count} id conflict{'s' if count != 1 else ''}: an id already used by a paper with another "
                     "title and abstract (each was kept as a separate paper)")
        lines += [f"  {c['reason']}" for c in report.conflicts[:20]]
        if count > 20:
            lines.append(f"  ... and {count - 20} more (use --json for all)")
    emit(doc, "\n".join(lines))
    return doc
