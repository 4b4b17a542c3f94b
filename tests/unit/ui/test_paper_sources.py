"""A paper's 'Found in N sources' counts the exports it was found in: the same file imported again adds records
(each kept, each listed) but no source. One Web of Science record imported five times read 'Found in 5 sources'."""

from __future__ import annotations

from pathlib import Path

from core.store import Store, import_file, import_files
from core.store.provenance import paper_sources
from ui.paper_sources import sources_label

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _sources(store: Store, corpus: str, pid: str):
    with store.connect() as conn:
        return paper_sources(conn, corpus, pid)


def test_a_file_imported_again_is_one_source_imported_twice(tmp_path):
    store = Store(tmp_path / "ws")
    wos = REAL / "wos_plain_2025_3.txt"
    for _ in range(3):
        import_file(store, wos, "c")
    pid = str(store.papers_frame("c")["id"].iloc[0])
    sources = _sources(store, "c", pid)
    assert len(sources) == 3  # every record is kept and listed
    assert sources_label(sources) == "Found in 1 source, imported 3 times (Web of Science)"


def test_two_databases_are_two_sources(tmp_path):
    store = Store(tmp_path / "ws")
    import_files(store, [REAL / "wos_plain_2025_3.txt", REAL / "scopus_2025_15col_3.csv"], "c")
    frame = store.papers_frame("c")
    found = [sources_label(_sources(store, "c", str(pid))) for pid in frame["id"]]
    assert found.count("Found in 1 source (Web of Science)") + found.count("Found in 1 source (Scopus)") == len(found)
    import_file(store, REAL / "scopus_2025_15col_3.csv", "c")
    again = [sources_label(_sources(store, "c", str(pid))) for pid in frame["id"]]
    assert again.count("Found in 1 source, imported 2 times (Scopus)") == found.count("Found in 1 source (Scopus)")
