"""Instructions an import spends a row, part by part, for several revisions (BENCHMARKS.md §25d): exact counts that
a loaded machine does not blur, where CPU seconds of two checkouts of one code differ by 5–8 %.

Each part is one in-process run under ``valgrind --tool=cachegrind`` (no reading process) that goes up to a phase:
``none`` (start-up and an empty workspace), ``read`` (`read_papers`), ``form`` (+ `stored_form`), ``insert``
(+ `add_batch` in one transaction, as the import calls it, and the COMMIT) and, where the revision has match keys,
``keys`` (+ `match_keys` once more) and ``nokeys`` (``insert`` without writing the ``paper_keys`` rows); ``import``
is the whole in-process import (`Store.import_papers` of `read_papers`, the import's own loop, its report and links
included; BENCHMARKS.md §25g). A part's cost is the difference of two phases of one checkout. Each checkout needs ``.venv`` and its ``.pyc`` files (run an
import once with bytecode writing on, or ``python -m compileall core``). About 40 s a run on 5,000 rows. The runs get
``PYTHONHASHSEED=0`` and ``OPENBLAS_NUM_THREADS=1``: with them a count repeats to within a few hundred instructions
(without, set layouts and numpy's idle BLAS threads moved a run by up to ~50 M; BENCHMARKS.md §25d, §25e).

    python benchmarks/bench_import_instructions.py --csv /tmp/isp/import-5k.csv base=/tmp/if-base point=/tmp/if-point
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

_PHASES = ("none", "read", "form", "keys", "insert", "nokeys", "import")


def run_phase(csv: str, phase: str) -> None:
    """The child: one pass of the import's parts up to ``phase`` (the checkout is on PYTHONPATH)."""
    import inspect
    import shutil
    from array import array

    os.environ["MIREAD_READ_PROCESS_ABOVE"] = "off"
    from core.io.papers import read_papers
    from core.records import Paper
    from core.store import Store, batches
    from core.store.field_stats import FieldTally
    from core.store.import_run import _IMPORT_CACHE_KIB

    workspace = Path(f"/tmp/miread-bench/ws-instructions-{os.getpid()}")
    shutil.rmtree(workspace, ignore_errors=True)
    store = Store(workspace)
    if phase == "import":  # the whole import in this process, as `python -m core import` runs it for a small file
        store.import_papers("c", read_papers(Path(csv)), source=csv)
        shutil.rmtree(workspace, ignore_errors=True)
        return
    papers = [p for p in read_papers(Path(csv)) if isinstance(p, Paper)] if phase != "none" else []
    forms = [batches.stored_form(p) for p in papers] if phase not in ("none", "read") else []
    if phase == "keys":
        [batches.match_keys(p.title, p.fields, p.id) for p in papers]
    if phase == "nokeys":
        batches._insert_keys = lambda *args, **kwargs: None
    if phase in ("insert", "nokeys"):
        conn = store._connection()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"PRAGMA cache_size=-{_IMPORT_CACHE_KIB}")
        conn.execute("INSERT INTO corpora(name, created, source) VALUES ('c', 0, 'x')")
        extra = {"stored": batches.StoredKeys()} if "stored" in inspect.signature(batches.add_batch).parameters else {}
        rows, tally = array("q"), FieldTally()
        for start in range(0, len(forms), 2000):
            batch = [(start + j + 1, ("c", f[3], 0, *f[4:])) for j, f in enumerate(forms[start:start + 2000])]
            batches.add_batch(conn, "c", batch, 0, rows, [], tally, [], {}, **extra)
        conn.execute("COMMIT")
        conn.close()
    shutil.rmtree(workspace, ignore_errors=True)


def instructions(tree: Path, csv: str, phase: str) -> int:
    """Instructions of one run of ``phase`` by the checkout ``tree``."""
    # one hash seed and one BLAS thread: set layouts and numpy's idle threads no longer move a run's count (§25e)
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          str(tree / ".venv" / "bin" / "python"), str(Path(__file__).resolve()), "--phase", phase,
                          "--csv", csv], cwd=tree, env=env, capture_output=True, text=True, check=True).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="*", help="name=path of a checkout")
    parser.add_argument("--csv", default="/tmp/miread-bench/import-5k.csv")
    parser.add_argument("--parts", default="all", help="'import': only the start-up and the whole import")
    parser.add_argument("--phase", choices=_PHASES, help=argparse.SUPPRESS)  # the child under valgrind
    args = parser.parse_args()
    if args.phase:
        run_phase(args.csv, args.phase)
        return
    rows = sum(1 for _ in open(args.csv, encoding="utf-8")) - 1  # the bench CSV has one line a row
    for name, _, path in (t.partition("=") for t in args.trees):
        tree = Path(path).resolve()
        keyed = (tree / "core" / "store" / "identity.py").exists()
        if args.parts == "import":
            counts = {p: instructions(tree, args.csv, p) for p in ("none", "import")}
            print(name, f"import {(counts['import'] - counts['none']) / rows / 1000:.1f}k instructions a row, start-up "
                        f"{counts['none'] / 1e6:.0f}M", flush=True)
            continue
        counts = {p: instructions(tree, args.csv, p) for p in _PHASES if keyed or p not in ("keys", "nokeys")}
        per = {"read": counts["read"] - counts["none"], "form": counts["form"] - counts["read"],
               "insert": counts["insert"] - counts["form"]}
        if keyed:
            per |= {"match_keys": counts["keys"] - counts["form"], "paper_keys": counts["insert"] - counts["nokeys"]}
        per["all"] = counts["insert"] - counts["none"]
        per["import"] = counts["import"] - counts["none"]
        print(name, " ".join(f"{k} {v / rows / 1000:.1f}k" for k, v in per.items()), "instructions a row", flush=True)


if __name__ == "__main__":
    sys.exit(main())
