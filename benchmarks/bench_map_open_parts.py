"""Issue 42 (BENCHMARKS §31m): the server's part of opening the Domain map, piece by piece, on the synthetic corpus of
bench_map_component.py (same workspace, PCA map): the frame read, the map key, the points table, its Arrow table and
packed bytes, the cheap colour options' codes and their packed bytes; the bytes each sends. `--root` runs the pieces
of another checkout (the revision before a change), so both are timed on one corpus.

    .venv/bin/python benchmarks/bench_map_open_parts.py --papers 1000000 --runs 2 [--root /tmp/map1m-before]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def timed(took: dict[str, list[float]], name: str, work: Any) -> Any:
    start = time.perf_counter()
    out = work()
    took.setdefault(name, []).append(time.perf_counter() - start)
    return out


def rss_gb() -> float:
    """This process's resident memory now, in GB."""
    import os

    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2 ** 30, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--root", default="", help="the checkout whose ui/ and core/ are timed (default: this one)")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    from bench_interactions import MODEL, OUT, synthetic_corpus

    if args.root:  # that checkout's core/ and ui/ first (bench_interactions put this one's on the path)
        sys.path.insert(0, str(Path(args.root).resolve()))

    import pyarrow as pa

    from core.embedding import get_model
    from core.explore.maps.cached import map_coordinates
    from core.store import Store
    from ui.map import colours as mc
    from ui.map import component as comp
    from ui.map.packing import pack

    root = OUT / f"ws-map-{args.papers}"
    store = Store(root)
    took: dict[str, list[float]] = {}
    timed(took, "corpus ready (import + vectors, once)", lambda: synthetic_corpus(store, "synthetic", args.papers, 7))
    spec = get_model(MODEL, store)
    coords, _ = timed(took, "PCA map (computed once, then read)", lambda: map_coordinates(store, "synthetic", spec,
                                                                                           "pca", {}))
    info = store.corpus("synthetic")
    sizes: dict[str, int] = {}
    for _ in range(args.runs):
        before = rss_gb()
        frame = timed(took, "papers frame read", lambda: store.papers_frame("synthetic"))
        sizes_rss = {"rss before the frame GB": before, "rss with the frame GB": rss_gb()}
        key = timed(took, "map key (positions + ids digest)", lambda: comp.map_key("synthetic", coords, frame))
        unit = comp.unit_frame(coords)
        table = timed(took, "points table (text columns)", lambda: comp.points_table(coords, frame, unit))
        arrow = timed(took, "Arrow table from it", lambda: pa.Table.from_pandas(table, preserve_index=False))
        meta = {"key": key, "n": len(coords), "hub": "map", "name": "synthetic", "unit": [unit.cx, unit.cy, unit.half]}
        packed = timed(took, "packed (IPC bytes)", lambda: pack(meta, arrow))
        options = mc.cheap_options(list(info.labels) + ([info.year] if info.year else []) + ["(none)"],
                                   list(info.labels), info.year)
        choices = timed(took, f"colour codes of {len(options)} options", lambda: mc.colour_choices(
            frame, options, 12, info.year))
        codes = timed(took, "colour options packed", lambda: mc.pack_choices(choices, len(frame), "map", key))
        sizes = {**sizes_rss, "points bytes": len(packed), "colour options bytes": len(codes),
                 **{f"column {c}": int(arrow.column(c).nbytes) for c in arrow.column_names}}
    import resource

    out = {"papers": args.papers, "root": args.root or str(here.parent), "sizes": sizes,
           "peak_rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20, 2),
           "seconds": {k: [round(v, 3) for v in vs] for k, vs in took.items()}}
    print(json.dumps(out, indent=1))
    (OUT / f"open-parts-{args.papers}{'-before' if args.root else ''}.json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
