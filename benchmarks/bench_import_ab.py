"""Import speed of several revisions, interleaved (BENCHMARKS.md §25c): the whole ``python -m core import`` process.

Each revision is a checkout (a git worktree with ``.venv`` beside it). One round imports the same CSV once per
revision, each into a fresh workspace, in turn (A B C, A B C, ...), after one warm-up round that is not counted, so
a change in the machine's load falls on every revision alike. CPU is user + system time of the process and its
reading child (``os.wait4``'s rusage includes the children it waited for); wall is the elapsed time. The 1-minute
load average is recorded before every run. Prints medians with min–max and each revision's ratio to the first.
The runs may write ``.pyc`` files even where ``PYTHONDONTWRITEBYTECODE`` is set: otherwise both processes of every
import compile the checkout's sources again (~0.15–0.2 s each, more for a larger code base; BENCHMARKS.md §25d).

    python benchmarks/bench_import.py --rows 50000   # or any CSV; then
    python benchmarks/bench_import_ab.py --csv /tmp/miread-bench/import-50k.csv --rounds 5 \\
        base=/tmp/if-base point=/tmp/if-bp this=.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path


def one_import(tree: Path, csv: Path, workspace: Path) -> dict[str, float]:
    """CPU and wall seconds of one import of ``csv`` by the checkout ``tree`` into a fresh ``workspace``."""
    shutil.rmtree(workspace, ignore_errors=True)
    env = {**os.environ, "MIREAD_WORKSPACE": str(workspace), "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the warm-up writes each checkout's .pyc files, as an installed app has
    load = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen([str(tree / ".venv" / "bin" / "python"), "-m", "core", "import", str(csv),
                             "--corpus", "c50"], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"import by {tree} failed: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
    shutil.rmtree(workspace, ignore_errors=True)
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "load": load}


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="+", help="name=path of a checkout; the first is the baseline")
    parser.add_argument("--csv", type=Path, default=Path("/tmp/miread-bench/import-50k.csv"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workspace", type=Path, default=Path("/tmp/miread-bench/ws-ab"))
    parser.add_argument("--json", type=Path, default=None, help="write every run here")
    args = parser.parse_args()
    trees = [(name, Path(path).resolve()) for name, _, path in (t.partition("=") for t in args.trees)]
    for name, tree in trees:  # warm-up: file cache, .pyc files
        one_import(tree, args.csv, args.workspace)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
    for round_ in range(args.rounds):
        for name, tree in trees:
            runs[name].append(one_import(tree, args.csv, args.workspace))
            print(f"round {round_ + 1} {name}: cpu {runs[name][-1]['cpu']:.2f} s, wall {runs[name][-1]['wall']:.2f} s, "
                  f"load {runs[name][-1]['load']:.2f}", flush=True)
    base = trees[0][0]
    base_cpu = statistics.median(r["cpu"] for r in runs[base])
    base_wall = statistics.median(r["wall"] for r in runs[base])
    print(f"\n| revision | CPU s, median (min–max) | wall s, median (min–max) | CPU / {base} | wall / {base} | "
          "load (min–max) |\n|---|---|---|---:|---:|---|")
    for name, _ in trees:
        cpu, wall, load = ([r[k] for r in runs[name]] for k in ("cpu", "wall", "load"))
        print(f"| {name} | {_spread(cpu)} | {_spread(wall)} | {statistics.median(cpu) / base_cpu:.3f} | "
              f"{statistics.median(wall) / base_wall:.3f} | {min(load):.1f}–{max(load):.1f} |")
    if args.json:
        args.json.write_text(json.dumps({"trees": {n: str(t) for n, t in trees}, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
