"""Benchmark 30c (issue 42): the Domain map page's server time per action, two revisions interleaved.

Each map action (colour, highlight, years) is still a page run; its cost on the server is measured here with
Streamlit's AppTest (the script run only: no browser, no network), on one workspace of synthetic papers with
MiniLM-fingerprinted vectors (bench_interactions.synthetic_corpus), PCA map. Each revision runs in its own process
from its own checkout, alternating round by round, so both see the same machine load.

    .venv/bin/python benchmarks/bench_map_server.py --before /tmp/map-before --papers 50000 --rounds 3 --reps 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, machine, median

DRIVER = r"""
import json, os, sys, time
root, bench = sys.argv[1], sys.argv[2]
sys.path.insert(0, root)
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(os.path.join(root, "app.py"), default_timeout=600)
at.session_state["map_method"] = "pca"
at.run()
at.selectbox(key="corpus").set_value("synthetic").run()
at.selectbox(key="model").set_value("minilm").run()
at.switch_page("app_pages/map.py").run()
assert not at.exception, at.exception
first = at.selectbox(key="map_colour").options[0]
bounds = at.slider(key="map_years").value
actions = {
    "rerun (nothing changed)": lambda: at.run(),
    "colour -> none": lambda: at.selectbox(key="map_colour").set_value("(none)").run(),
    "colour -> journal": lambda: at.selectbox(key="map_colour").set_value(first).run(),
    "highlight a word": lambda: at.text_input(key="map_highlight").set_value("galaxy").run(),
    "highlight cleared": lambda: at.text_input(key="map_highlight").set_value("").run(),
    "years window": lambda: at.slider(key="map_years").set_value((bounds[0] + 2, bounds[1])).run(),
    "years whole": lambda: at.slider(key="map_years").set_value(tuple(bounds)).run(),
}
times = {name: [] for name in actions}
for _ in range(int(sys.argv[3])):
    for name, act in actions.items():
        started = time.perf_counter()
        act()
        times[name].append(time.perf_counter() - started)
        assert not at.exception, (name, at.exception)
print(json.dumps(times))
"""


def run(root: Path, workspace: Path, reps: int) -> dict[str, list[float]]:
    env = {**os.environ, "MIREAD_WORKSPACE": str(workspace), "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", DRIVER, str(root), str(ROOT / "benchmarks"), str(reps)], env=env,
                         cwd=root, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the baseline revision")
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=3, help="each action this many times per process")
    parser.add_argument("--workspace", type=Path, default=Path("/tmp/miread-bench/map-server"))
    args = parser.parse_args()
    from bench_interactions import synthetic_corpus

    from core.store import Store

    synthetic_corpus(Store(args.workspace), "synthetic", args.papers, seed=7)
    sides = {"before": args.before.resolve(), "after": ROOT}
    times: dict[str, dict[str, list[float]]] = {side: {} for side in sides}
    for round_ in range(args.rounds):
        for side, root in (sides.items() if round_ % 2 == 0 else reversed(list(sides.items()))):
            started = time.time()
            for name, values in run(root, args.workspace, args.reps).items():
                times[side].setdefault(name, []).extend(values[1:] if args.reps > 1 else values)  # first: warm-up
            print(f"round {round_ + 1} {side}: {time.time() - started:.0f} s", flush=True)
    print(json.dumps({"machine": machine(), "papers": args.papers, "times": times}), flush=True)
    print(f"\n| action ({args.papers:,} papers) | before s (median) | after s (median) | after / before |")
    print("|---|---|---|---|")
    for name in times["after"]:
        b, a = median(times["before"][name]), median(times["after"][name])
        print(f"| {name} | {b:.3f} | {a:.3f} | {a / b:.2f}× |")


if __name__ == "__main__":
    main()
