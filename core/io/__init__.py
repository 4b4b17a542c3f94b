"""Files in and out: the safety checks every upload passes (size, gzip bombs, encodings: UTF-8, UTF-16, Windows-1252
and Mac Roman detected; entities), one reader per format (CSV/TSV with preambles and any separator, Excel, JSONL/JSON
incl. CSL JSON, OpenAlex and Semantic Scholar, Parquet, PubMed XML with Bookshelf records, MEDLINE text, JATS / PMC
full text with figures, BibTeX, RIS, EndNote XML and tagged text, Web of Science and Cochrane text), column detection
by a vocabulary of the common tools' column names, the import preview, validation into `Paper` records with per-row
errors and warnings, and export. Imports nothing else of `core` but records, labels and errors.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "ColumnMap": "columns",
    "EXPORT_FORMATS": "reference_export",
    "FIELDS": "vocabulary",
    "FORMATS": "formats",
    "Figure": "jats",
    "FigureCollector": "jats",
    "bundle_files": "jats",
    "parse_article": "jats",
    "split_sentences": "jats",
    "FORMAT_NAMES": "formats",
    "ImportPlan": "plan",
    "ReadOptions": "formats",
    "RowWarning": "rows",
    "columns_of": "papers",
    "detect_columns": "columns",
    "detect_format": "formats",
    "export_papers": "export",
    "write_references": "reference_export",
    "known_export": "exports",
    "plan_import": "plan",
    "preview": "papers",
    "read_papers": "papers",
    "read_rows": "papers",
    "tools_table": "vocabulary",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
