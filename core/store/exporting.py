"""A corpus, or some of its papers, written for a reference manager (RIS, BibTeX, CSL JSON) or a table (CSV,
JSONL): the store's side of `core.io.reference_export` and `core.io.export_papers`.

The corpus's field roles say which stored field is the journal and the year; `tags` adds keywords and notes per
paper (its topic, its collections). A path is written whole or not at all (a temporary file in the same folder,
then a rename); a binary stream gets the file's bytes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

from core.errors import CorpusError, NotFoundError
from core.io.export import export_papers
from core.io.reference_export import EXPORT_FORMATS, REFERENCE_FORMATS, write_references
from core.io.reference_fields import FieldRoles, text_list
from core.records import Paper
from core.store.database import Store

Tags = Mapping[str, Mapping[str, list[str]]]  # paper id -> {"keywords": [...], "notes": [...]}


def _chosen(papers: list[Paper], corpus: str, pids: Sequence[str]) -> list[Paper]:
    """The papers of `pids`, in the order given (search results in their rank order, a selection as listed); an id
    the corpus lacks is named."""
    wanted = list(dict.fromkeys(pids))
    chosen_ids = set(wanted)
    by_id = {paper.id: paper for paper in papers if paper.id in chosen_ids}
    chosen = [by_id[pid] for pid in wanted if pid in by_id]
    if len(chosen) < len(wanted):
        found = {paper.id for paper in chosen}
        missing = [pid for pid in dict.fromkeys(pids) if pid not in found]
        more = f" (nor {len(missing) - 1} other of the ids given)" if len(missing) > 1 else ""
        raise NotFoundError(f"corpus {corpus!r} has no paper with id {missing[0]!r}{more}; nothing was exported")
    return chosen


def _tagged(papers: Iterable[Paper], tags: Tags) -> Iterable[Paper]:
    """For CSV and JSONL: the tags' keywords joined to `keywords`, their notes to `notes`."""
    for paper in papers:
        extra = tags.get(paper.id)
        if not extra:
            yield paper
            continue
        fields = dict(paper.fields)
        for name in ("keywords", "notes"):
            added = text_list(extra.get(name))
            if added:
                fields[name] = list(dict.fromkeys([*text_list(fields.get(name)), *added]))
        yield Paper(paper.id, paper.title, paper.abstract, fields)


def _write(papers: list[Paper], path: Path, fmt: str, roles: FieldRoles, tags: Tags) -> int:
    if fmt in REFERENCE_FORMATS:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            return write_references(papers, handle, fmt, roles, tags)
    return export_papers(_tagged(papers, tags), path, fmt)


def export_corpus_file(store: Store, corpus: str, out: str | Path | BinaryIO, fmt: str, *,
                       pids: Sequence[str] | None = None, tags: Tags | None = None) -> int:
    """Write a corpus (or the papers `pids`, in that order) to `out`, a path or a binary stream, as `fmt`: ris,
    bibtex, csl, csv or jsonl (EXPORT_FORMATS); `tags` maps a paper id to {"keywords": [...], "notes": [...]} to
    add. Returns the number of papers written."""
    fmt = (fmt or "").strip().lower()
    if fmt not in EXPORT_FORMATS:
        raise CorpusError(f"export format {fmt!r} is unknown; use one of {', '.join(EXPORT_FORMATS)}")
    info = store.corpus(corpus)
    papers = store.papers(corpus)
    if pids is not None:
        papers = _chosen(papers, corpus, pids)
    roles = FieldRoles(journal=info.journal, year=info.year, roles=info.roles)
    extension = EXPORT_FORMATS[fmt][1]
    if isinstance(out, (str, Path)):
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".export-", suffix=extension)
        os.close(fd)
        try:
            count = _write(papers, Path(tmp), fmt, roles, tags or {})
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return count
    with tempfile.TemporaryDirectory(prefix="miread-export-") as folder:
        tmp_path = Path(folder) / f"export{extension}"
        count = _write(papers, tmp_path, fmt, roles, tags or {})
        with open(tmp_path, "rb") as handle:
            shutil.copyfileobj(handle, out)
    return count
