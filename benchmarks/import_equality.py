"""Same import, checked: what one revision reads and stores, saved, and compared by another (BENCHMARKS.md §25e).

Two checks, both run in the checkout that is the working directory (PYTHONPATH=.; revisions with ``paper_keys`` and
the papers' ``import_id``, i.e. since the match keys):
- records: every record `read_papers` gives (Paper fields, RowError, RowWarning) and each paper's `stored_form`, for
  every file under tests/fixtures/ and the shared exports, and the import benchmark's CSV;
- tables: `python -m core import` of the CSV, then of the first 40 shared export files into the same corpus (their
  merges), then of the CSV into a second corpus, and the rows of ``papers``, ``paper_keys``, ``merged_records`` and
  the corpora's columns, labels and roles afterwards.

    export MIREAD_BENCH_DATA=/work/shared/data
    cd <other checkout> && PYTHONPATH=. python <this checkout>/benchmarks/import_equality.py --save /tmp/import-ref.pkl
    PYTHONPATH=. python benchmarks/import_equality.py --against /tmp/import-ref.pkl   # exit 1 and the files that differ
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

if os.environ.get("PYTHONHASHSEED") != "0":  # one set order: a record's ids come from a set intersection, whose order
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})  # follows the seed
os.environ["MIREAD_READ_PROCESS_ABOVE"] = "off"  # the records check reads in process
DATA = Path(os.environ.get("MIREAD_BENCH_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
_SKIP = (".json", ".md", ".tsv", ".py", ".txt")


def _files() -> list[Path]:
    found = sorted({*Path("tests/fixtures").rglob("*"), *(DATA / "exports").rglob("*")})
    return [f for f in found if f.is_file() and (not f.name.endswith(_SKIP) or f.name == "papers.json")]


def records(csv: Path) -> dict[str, object]:
    """Every file's records and stored forms, as text."""
    from core.io.papers import read_papers
    from core.records import Paper
    from core.store.batches import stored_form

    out: dict[str, object] = {}
    for path in [*_files(), csv]:
        try:
            out[str(path)] = [  # with the spreadsheet row of a paper or of a skipped row (BENCHMARKS.md §25g)
                (p.id, p.title, p.abstract, repr(p.fields), repr(stored_form(p)), getattr(p, "line", None))
                if isinstance(p, Paper) else (repr(p), getattr(getattr(p, "row", None), "line", None))
                for p in read_papers(path)]
        except Exception as exc:  # noqa: BLE001 - a refusal is an outcome to compare too
            out[str(path)] = (type(exc).__name__, str(exc))
    return out


def tables(csv: Path) -> list[tuple]:
    """The rows an import writes, after the imports listed in the module's docstring."""
    workspace = Path(tempfile.mkdtemp(prefix="import-equality-"))
    env = {**os.environ, "MIREAD_WORKSPACE": str(workspace), "PYTHONPATH": os.getcwd()}
    exports = sorted(f for f in (DATA / "exports").rglob("*") if f.is_file() and not f.name.endswith(_SKIP))[:40]
    for path, corpus in [(csv, "c"), *((f, "c") for f in exports), (csv, "d")]:
        subprocess.run([sys.executable, "-m", "core", "import", str(path), "--corpus", corpus], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    conn = sqlite3.connect(workspace / "catalog.sqlite")
    rows = [*conn.execute("SELECT corpus, pid, seq, title, abstract, fields, hash, dkey, doi, import_id, srow "
                          "FROM papers ORDER BY corpus, seq"),
            *conn.execute("SELECT * FROM paper_keys ORDER BY corpus, key, seq"),
            *conn.execute("SELECT name, columns, labels, roles FROM corpora ORDER BY name"),
            *conn.execute("SELECT * FROM merged_records ORDER BY 1, 2")]
    conn.close()
    shutil.rmtree(workspace, ignore_errors=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--save", default=None, help="write this revision's outputs here")
    parser.add_argument("--against", default=None, help="compare with outputs saved by another revision")
    parser.add_argument("--csv", type=Path, default=Path("/tmp/miread-bench/import-5k.csv"))
    args = parser.parse_args()
    mine = {"records": records(args.csv), "tables": tables(args.csv)}
    count = sum(len(v) for v in mine["records"].values() if isinstance(v, list))
    print(f"{len(mine['records'])} files, {count:,} records; {len(mine['tables']):,} table rows")
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(mine))
    if args.against:
        other = pickle.loads(Path(args.against).read_bytes())
        files = [f for f in {*other["records"], *mine["records"]} if other["records"].get(f) != mine["records"].get(f)]
        print(f"files differing: {len(files)}, tables {'differ' if other['tables'] != mine['tables'] else 'equal'}")
        for name in sorted(files)[:20]:
            print("differs:", name)
        if files or other["tables"] != mine["tables"]:
            sys.exit(1)


if __name__ == "__main__":
    main()
