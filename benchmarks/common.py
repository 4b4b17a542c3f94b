"""Shared benchmark helpers: interleaved timing, machine facts, real abstracts, result files."""

from __future__ import annotations

import gzip
import json
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"  # caches (vectors) and results
RESULTS = OUT / "quick" if os.environ.get("MIREAD_BENCH_QUICK") else OUT
DATA = Path(os.environ.get("MIREAD_BENCH_DATA", ROOT.parent / "shared" / "data"))
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
THREADS = os.environ.get("MIREAD_BENCH_THREADS")  # e.g. 1 on an oversubscribed machine; default: all cores
if THREADS:
    os.environ["OMP_NUM_THREADS"] = THREADS


def machine() -> dict[str, Any]:
    """CPU, core count, load average and library versions, recorded beside every figure."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info = {"cpu": cpu, "cores": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2),
            "python": platform.python_version()}
    try:
        import torch

        if THREADS:
            torch.set_num_threads(int(THREADS))
        info["torch"] = torch.__version__
        info["torch_threads"] = torch.get_num_threads()
    except ImportError:
        pass
    return info


def interleave(cases: dict[str, Callable[[], Any]], reps: int) -> dict[str, list[float]]:
    """Wall seconds of each case over `reps` rounds, alternating the order every round (A,B,B,A,...)."""
    names = list(cases)
    times: dict[str, list[float]] = {name: [] for name in names}
    for rep in range(reps):
        for name in names if rep % 2 == 0 else names[::-1]:
            start = time.perf_counter()
            cases[name]()
            times[name].append(time.perf_counter() - start)
    return times


def median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    import numpy as np

    return float(np.percentile(values, q)) if values else float("nan")


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    """This process's current resident memory, in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def arxiv(n: int, offset: int = 0, file: str = "arxiv_journals.jsonl.gz") -> list[dict[str, Any]]:
    """`n` real records (id, title, abstract, labels) from the shared data, starting at `offset`."""
    rows: list[dict[str, Any]] = []
    with gzip.open(DATA / file, "rt", encoding="utf-8") as handle:
        for i, line in enumerate(handle):
            if i < offset:
                continue
            rows.append(json.loads(line))
            if len(rows) >= n:
                break
    return rows


def report(name: str, rows: list[dict[str, Any]], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Print a table of ours / baseline / ratio rows and save everything to benchmarks/out/<name>.json."""
    print(f"\n== {name} ==  ({json.dumps(machine())})")
    width = max([len(r["metric"]) for r in rows] + [10])
    print(f"{'metric':<{width}}  {'ours':>14}  {'baseline':>14}  {'ratio':>8}  unit / note")
    for r in rows:
        ours, base = r.get("ours"), r.get("baseline")
        ratio = r.get("ratio")
        print(f"{r['metric']:<{width}}  {_fmt(ours):>14}  {_fmt(base):>14}  {_fmt(ratio):>8}  "
              f"{r.get('unit', '')} {r.get('note', '')}".rstrip())
    payload = {"benchmark": name, "machine": machine(), "rows": rows, **(extra or {}),
               "command": " ".join([Path(sys.executable).name] + sys.argv)}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
    return payload


def row(metric: str, ours: Any, baseline: Any = None, unit: str = "", note: str = "",
        higher_is_better: bool = False) -> dict[str, Any]:
    """One result row; the ratio says how many times better ours is than the baseline (>1 = ours wins)."""
    ratio = None
    if isinstance(ours, (int, float)) and isinstance(baseline, (int, float)) and ours and baseline:
        ratio = ours / baseline if higher_is_better else baseline / ours
    return {"metric": metric, "ours": ours, "baseline": baseline, "ratio": ratio, "unit": unit, "note": note}


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e5 else f"{value:,.0f}"
    return str(value)
