"""Benchmark 8e: where an import's time goes, part by part, in one process (core-seconds, not wall time).

On the same CSV as bench_import.py (generated there): the product's CSV row reader (`csv` module, one dict per
row), Arrow's streaming CSV reader into Python lists (the compiled alternative, for comparison only), validating
rows into papers (`read_papers` in process), their stored form (hashes, duplicate key, JSON), SQLite inserts into
a fresh workspace's papers table (`add_batch`, one transaction), and the COMMIT with its WAL checkpoint. In a real
import the reading process and the importer split these parts between the two cores. The garbage collector is off:
this script holds all papers at once, which would add collector passes over them that a streamed import never makes.

    cd benchmarks && ../.venv/bin/python bench_import_parts.py --rows 200000
"""

from __future__ import annotations

import argparse
import gc
import shutil
import time
from array import array

from bench_import import BENCH_DIR, make_csv
from common import report, row


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    path = BENCH_DIR / f"papers-{args.rows}.csv"
    make_csv(path, args.rows)
    gc.disable()

    import pyarrow as pa
    import pyarrow.csv as pacsv

    from core.io.papers import read_papers
    from core.io.tabular import _delimited_rows
    from core.records import Paper
    from core.store import Store
    from core.store.batches import add_batch, stored_form
    from core.store.import_run import _IMPORT_CACHE_KIB

    def csv_rows() -> int:
        return sum(1 for _ in _delimited_rows(path, ","))

    def arrow_rows() -> int:
        reader = pacsv.open_csv(path, read_options=pacsv.ReadOptions(block_size=1 << 22, use_threads=False),
                                parse_options=pacsv.ParseOptions(newlines_in_values=True),
                                convert_options=pacsv.ConvertOptions(
                                    column_types=dict.fromkeys(["id", "title", "abstract", "journal", "year"],
                                                               pa.string())))
        return sum(len([batch.column(i).to_pylist() for i in range(batch.num_columns)][0]) for batch in reader)

    read_s, n_csv = timed(csv_rows)
    arrow_s, n_arrow = timed(arrow_rows)
    validate_s, papers = timed(lambda: [p for p in read_papers(path, background=False) if isinstance(p, Paper)])
    validate_s -= read_s  # read_papers reads the rows too
    prepare_s, forms = timed(lambda: [stored_form(p) for p in papers])
    workspace = BENCH_DIR / "ws-parts"
    shutil.rmtree(workspace, ignore_errors=True)
    store = Store(workspace)
    conn = store._connection()
    conn.execute(f"PRAGMA cache_size=-{_IMPORT_CACHE_KIB}")  # as the import sets it
    conn.execute("INSERT INTO corpora(name, created, source) VALUES ('parts', 0, 'x')")
    conn.execute("BEGIN IMMEDIATE")
    seqs: array = array("q")

    def insert() -> int:
        added = 0
        for start in range(0, len(forms), 2000):
            batch = [(start + i + 1, ("parts", f[3], 0, *f[4:])) for i, f in enumerate(forms[start:start + 2000])]
            added += add_batch(conn, "parts", batch, 0, seqs, [])
        return added

    insert_s, added = timed(insert)
    commit_s, _ = timed(lambda: conn.execute("COMMIT"))
    conn.close()
    shutil.rmtree(workspace, ignore_errors=True)
    assert n_csv == n_arrow == len(papers) == added == args.rows, (n_csv, n_arrow, len(papers), added)
    total = read_s + validate_s + prepare_s + insert_s + commit_s
    per = f"per {args.rows:,} rows, one process"
    rows = [
        row("read rows: csv module (the product) vs Arrow's CSV reader", read_s, arrow_s, "s",
            f"{per}; baseline = pyarrow.csv.open_csv into Python lists (compiled parsing)"),
        row("validate rows into papers", validate_s, None, "s", per),
        row("stored form (hashes, duplicate key, fields JSON)", prepare_s, None, "s", per),
        row("SQLite inserts (table + 3 indexes)", insert_s, None, "s", per),
        row("COMMIT with its WAL checkpoint", commit_s, None, "s", per),
        row("all parts (core-seconds)", total, None, "s", "split over two cores by the reading process"),
    ]
    report("import_parts", rows, {"csv": str(path)})


if __name__ == "__main__":
    main()
