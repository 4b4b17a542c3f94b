"""Files in and out: the safety checks every upload passes (size, gzip bombs, encodings, entities), one reader per
format (CSV/TSV, JSONL/JSON, Parquet, PubMed XML, JATS full text with figures, BibTeX, RIS), column detection,
validation into `Paper` records with per-row errors and warnings, and export. Imports nothing else of `core` but
records, labels and errors.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "ColumnMap": "columns",
    "FORMATS": "formats",
    "Figure": "jats",
    "FigureCollector": "jats",
    "bundle_files": "jats",
    "parse_article": "jats",
    "split_sentences": "jats",
    "RowWarning": "rows",
    "columns_of": "papers",
    "detect_columns": "columns",
    "detect_format": "formats",
    "export_papers": "export",
    "preview": "papers",
    "read_papers": "papers",
    "read_rows": "papers",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
