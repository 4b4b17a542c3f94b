"""The workspace on disk: the SQLite catalog (corpora, papers, embedding keys, models, jobs, metrics) and the array
files beside it. It owns all SQL; everything else asks it. Imports `core.io` to read files in: importing.py holds
`import_file`, the one way a file's papers, links and figures come in (one transaction), and its `ImportReport`.

`Store` (database.py: schema, connections, transactions) is assembled from one mixin per concern: corpora.py
(corpora and papers), collections.py (named selections of papers), vectors.py (embedding arrays, repair),
models.py, cache.py, jobs.py (jobs and metrics); files.py holds the helpers (safe names, atomic writes, process
liveness).

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "CacheMixin": "cache",
    "Collection": "collections",
    "CollectionsMixin": "collections",
    "CorporaMixin": "corpora",
    "CorpusInfo": "corpora",
    "FigurePaper": "figures",
    "FiguresMixin": "figures",
    "ImportReport": "importing",
    "JobsMixin": "jobs",
    "MultiImportReport": "multi_import",
    "LinksMixin": "links",
    "parse_references": "links",
    "ModelsMixin": "models",
    "Store": "database",
    "TopicsMixin": "topics",
    "TrashItem": "trash",
    "TrashMixin": "trash",
    "VectorsMixin": "vectors",
    "atomic_save_npy": "files",
    "atomic_write_text": "files",
    "check_name": "files",
    "export_corpus_file": "exporting",
    "import_file": "importing",
    "import_files": "multi_import",
    "is_held_out": "figures",
    "pid_alive": "files",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
