"""What each import into a corpus did, read back from the ``imports`` table: per file, when, records read = added +
merged + skipped, and the skipped rows with their reasons (the first ``STORED_ERRORS`` per file are stored)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.store import Store

STORED_ERRORS = 50  # core.store.import_run stores each file's report with its first 50 skipped rows
_ROW_PREFIX = re.compile(r"^(?:.*?, )?row \d+: ")  # "file, row 13: " / "row 13: ": the row has its own column


def import_history(store: Store, corpus: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The completed imports of `corpus`, oldest first (file, finished time, read, added, merged — of which "within
    the import" (into a paper of the same file or upload) and "into papers already there" (None for a report
    stored without that split) — skipped, rows kept of the skipped), and their skipped rows (file, row, reason).
    Splits of merged records are not imports."""
    with store.connect() as conn:
        rows = conn.execute("SELECT file, finished, report FROM imports WHERE corpus = ? AND status = 'completed' "
                            "ORDER BY id", (corpus,)).fetchall()
    files: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for file, finished, text in rows:
        report = json.loads(text or "{}")
        if "imported" not in report:  # a split record, or a report without counts
            continue
        errors = report.get("errors") or []
        n_skipped = int(report.get("skipped", len(errors)))
        into = report.get("merged_into") or {}
        files.append({"file": report.get("file") or file, "imported": finished,
                      "read": int(report.get("read", report["imported"] + n_skipped)),
                      "added": int(report.get("added", 0)), "merged": int(report.get("merged", 0)),
                      "within the import": int(into.get("this file", 0)) + int(into.get("earlier files", 0))
                      if into else None,
                      "into papers already there": int(into.get("corpus", 0)) if into else None,
                      "skipped": n_skipped, "reasons kept": min(len(errors), n_skipped)})
        skipped += [{"file": files[-1]["file"], "row": e.get("row"),
                     "reason": _ROW_PREFIX.sub("", str(e.get("reason", "")))} for e in errors]
    return files, skipped
