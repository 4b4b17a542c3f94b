"""Benchmark 8: importing a 1M-row CSV with bounded memory (peak RSS and time).

The CSV (id, title, abstract, journal, year; real arXiv titles and abstracts, cycled and numbered so every
row is distinct) is generated once under /tmp. Ours: `python -m core import FILE --corpus csv1m` into a
fresh workspace, which streams rows into SQLite. Baseline: `pandas.read_csv(FILE)`, the obvious way to load
a table, which holds it all in memory. Each runs in its own process; peak RSS comes from wait4's rusage.
The workspace is kept (default /tmp/miread-bench/ws-1m) for bench_search.py's end-to-end query at 1M.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, arxiv, report, row

BENCH_DIR = Path(os.environ.get("MIREAD_BENCH_TMP", "/tmp/miread-bench"))


def make_csv(path: Path, rows: int) -> None:
    """Write `rows` distinct papers built from the real arXiv records."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    records = arxiv(42_252)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "title", "abstract", "journal", "year"])
        for i in range(rows):
            r = records[i % len(records)]
            writer.writerow([f"p{i}", f"{r['title']} ({i})", r["abstract"], r["journal"], r["year"]])
    tmp.replace(path)


def measured(cmd: list[str], cwd: Path = ROOT) -> dict[str, float]:
    """Wall seconds and peak RSS (MiB) of one child process (run in ``cwd``, which is also its PYTHONPATH)."""
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env={**os.environ, "PYTHONPATH": str(cwd)}, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed: {err.read().decode()[-2000:]}")
        return {"seconds": seconds, "peak_rss_mib": usage.ru_maxrss / 1024, "stdout": out.read().decode()[-500:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--workspace", type=Path, default=BENCH_DIR / "ws-1m")
    parser.add_argument("--before", default=None,
                        help="also time the import of this git revision (a worktree under the bench folder)")
    args = parser.parse_args()

    path = BENCH_DIR / f"papers-{args.rows}.csv"
    start = time.perf_counter()
    make_csv(path, args.rows)
    made = time.perf_counter() - start
    baseline = measured([sys.executable, "-c", f"import pandas; df = pandas.read_csv({str(path)!r}); print(len(df))"])
    shutil.rmtree(args.workspace, ignore_errors=True)
    ours = measured([sys.executable, "-m", "core", "--workspace", str(args.workspace), "import", str(path),
                     "--corpus", "csv1m", "--json"])
    before = None
    if args.before:
        tree = BENCH_DIR / f"before-{args.before}"
        if not tree.exists():
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.before], cwd=ROOT, check=True)
        old_ws = BENCH_DIR / "ws-before"
        shutil.rmtree(old_ws, ignore_errors=True)
        before = measured([sys.executable, "-m", "core", "--workspace", str(old_ws), "import", str(path),
                           "--corpus", "before", "--json"], cwd=tree)
        shutil.rmtree(old_ws, ignore_errors=True)
    db = args.workspace / "catalog.sqlite"
    size = path.stat().st_size / 2**20
    rows = [
        row(f"import {args.rows:,}-row CSV ({size:.0f} MiB): peak RSS", ours["peak_rss_mib"],
            baseline["peak_rss_mib"], "MiB", "baseline = pandas.read_csv of the same file"),
        row(f"import {args.rows:,}-row CSV: time", ours["seconds"], baseline["seconds"], "s",
            f"{args.rows / ours['seconds']:,.0f} rows/s into SQLite ({db.stat().st_size / 2**20:.0f} MiB catalog); "
            "baseline only parses into memory"),
    ]
    if before:
        rows.append(row(f"import {args.rows:,}-row CSV: time, this revision vs {args.before}", ours["seconds"],
                        before["seconds"], "s", f"{args.before}: {args.rows / before['seconds']:,.0f} rows/s, peak "
                        f"{before['peak_rss_mib']:.0f} MiB"))
    report("import", rows, {"csv": str(path), "csv_mib": size, "csv_generation_s": made, "ours": ours,
                            "baseline": baseline, "before": before})


if __name__ == "__main__":
    main()
