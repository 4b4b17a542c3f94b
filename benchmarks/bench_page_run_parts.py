"""Two parts of the map page's run, before and after (BENCHMARKS §31a), on synthetic papers:

- mounting the heavy map component: Streamlit's serialization of a dict holding the points' Arrow table (before)
  vs the bytes packed once per map and copied into the element (after, `ui.map.component._packed`);
- the Topics-over-time digest: every paper's year and group hashed as objects (before, 9d5aa30) vs years as numbers
  and groups as codes (after, `ui.map.time._digest`).

Usage: .venv/bin/python benchmarks/bench_page_run_parts.py --papers 50000,1000000 [--runs 5]
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
logging.getLogger("streamlit").setLevel(logging.ERROR)

from streamlit.components.v2.bidi_component.serialization import serialize_mixed_data  # noqa: E402
from streamlit.proto.BidiComponent_pb2 import BidiComponent  # noqa: E402

from core.plots.map_data import unit_frame  # noqa: E402
from ui.map.component import _packed, points_table  # noqa: E402
from ui.map.time import _digest  # noqa: E402


def digest_before(years: pd.Series, groups: list, group_name: str) -> str:
    """The digest as it was (9d5aa30): each paper's year and group hashed as Python objects."""
    digest = hashlib.blake2b(group_name.encode(), digest_size=16)
    for column in (pd.Series(years, dtype=object), pd.Series(list(groups), dtype=object)):
        digest.update(pd.util.hash_pandas_object(column, index=False).to_numpy().tobytes())
        digest.update(column.isna().to_numpy().tobytes())
    return digest.hexdigest()


def papers(n: int, seed: int = 0) -> tuple[np.ndarray, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    coords = rng.normal(size=(n, 2)).astype(np.float32)
    journals = np.array([f"Journal of topic {i}" for i in range(400)], dtype=object)
    frame = pd.DataFrame({
        "id": [f"p{i}" for i in range(n)],
        "title": [f"A scientific paper, number {i}, on a subject as long as titles are" for i in range(n)],
        "authors": ["Smith, J.; Doe, A."] * n,
        "journal": journals[rng.integers(0, len(journals), n)],
        "year": np.where(rng.random(n) < 0.02, np.nan, rng.integers(1990, 2025, n)).astype(float)})
    return coords, frame


def timed(call: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", default="50000,1000000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| papers | part | before ms (p50) | after ms (p50) | before / after |")
    print("|---|---|---|---|---|")
    for n in (int(v) for v in args.papers.split(",")):
        coords, frame = papers(n)
        table = pa.Table.from_pandas(points_table(coords, frame, unit_frame(coords)), preserve_index=False)
        meta = {"key": f"bench:{n}", "n": n, "hub": "map", "name": "bench", "unit": [0, 0, 1], "zoom": True}
        meta_text = __import__("json").dumps(meta, sort_keys=True)
        _packed(f"bench:{n}", meta_text, table)  # packed once per map, as on the first page run

        def before_mount() -> None:
            serialize_mixed_data({"points": table, "meta": meta}, BidiComponent())

        def after_mount() -> None:
            BidiComponent().bytes = _packed(f"bench:{n}", meta_text, table)

        groups = frame["journal"].tolist()
        rows = [("mount the map component", before_mount, after_mount),
                ("Topics-over-time digest", lambda: digest_before(frame["year"], groups, "journal"),
                 lambda: _digest(frame["year"], groups, "journal"))]
        for name, before, after in rows:
            b, a = timed(before, args.runs), timed(after, args.runs)
            print(f"| {n:,} | {name} | {b:.1f} | {a:.1f} | {b / a:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
