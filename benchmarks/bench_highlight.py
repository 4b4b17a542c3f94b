"""Issue 32: a map highlight in process, per-column test (the revision before) vs the kept case-folded text (after),
on the interaction benchmark's synthetic 50k corpus and on 50,983 real PubMed records (the demo corpus x17). Needs the
workspaces bench_interactions.py prepares (benchmarks/out/interactions/ws-big, ws-demo)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.explore import highlight_mask, highlight_text  # noqa: E402
from core.store import Store  # noqa: E402


def per_column(frame: pd.DataFrame, needle: str) -> np.ndarray:
    """The revision before: every column converted and case-folded again for each query."""
    mask = np.zeros(len(frame), dtype=bool)
    for column in frame.columns:
        values = frame[column]
        if values.dtype == object:
            values = values.map(lambda v: v if isinstance(v, str) else ("" if v is None else str(v)))
        text = values.astype("string").fillna("")
        mask |= text.str.contains(needle, case=False, regex=False).to_numpy(dtype=bool, na_value=False)
    return mask


def clock(fn, *args) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn(*args)
    return time.perf_counter() - start, value


def compare(name: str, frame: pd.DataFrame, words: tuple[str, ...]) -> None:
    build, text = clock(highlight_text, frame)
    before = [clock(per_column, frame, w)[0] for w in words]
    after = [clock(highlight_mask, frame, w, text)[0] for w in words]
    print(f"{name}: {len(frame):,} papers, mean abstract {int(frame['abstract'].fillna('').str.len().mean())} chars; "
          f"per query before {np.median(before):.3f} s, after {np.median(after):.3f} s (median of {len(words)}); "
          f"the kept text built once in {build:.3f} s")


def main() -> None:
    out = ROOT / "benchmarks" / "out" / "interactions"
    big = Store(out / "ws-big").papers_frame("synthetic")
    compare("synthetic", big, ("galaxy", "protein", "market", "lattice", "neuron"))
    demo = Store(out / "ws-demo").papers_frame("pubmed-demo")
    compare("real PubMed x17", pd.concat([demo] * 17, ignore_index=True),
            ("malaria", "protein", "cells", "kinase", "children"))


if __name__ == "__main__":
    main()
