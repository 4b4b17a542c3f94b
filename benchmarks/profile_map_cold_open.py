"""Issue 42 (BENCHMARKS §31z): the Domain map's COLD page run (the first of a fresh process) under cProfile, on the
synthetic workspace of bench_map_component.py: app.py run by Streamlit's AppTest with the link's corpus, model and
method, in this process (run each revision in its own process). Prints the run's time and the top functions.

    .venv/bin/python benchmarks/profile_map_cold_open.py --papers 1000000 [--root /tmp/x-before] [--runs 2] \
        [--top 40] [--no-profile]

The second and later runs are warm (the same process's caches). cpu_s: the process's CPU time in each run (all
threads), less moved by other sessions' load than the wall time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--root", default="", help="the checkout whose app is run (default: this one)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--no-profile", action="store_true")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent
    root = Path(args.root).resolve() if args.root else here.parent
    workspace = here / "out" / "interactions" / f"ws-map-{args.papers}"
    os.environ.update({"MIREAD_WORKSPACE": str(workspace), "HF_HUB_OFFLINE": "1", "MIREAD_WARM_NUMBA": "0",
                       "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "minilm"})
    os.chdir(root)
    sys.path.insert(0, str(root))
    started = time.perf_counter()
    from streamlit.testing.v1 import AppTest

    imported = time.perf_counter() - started
    from streamlit.runtime.scriptrunner import script_runner

    profiles: list[cProfile.Profile] = []
    plain = script_runner.ScriptRunner._run_script

    def profiled(self, rerun_data):  # the script runs in the runner's thread: profiled there
        if args.no_profile or profiles:
            return plain(self, rerun_data)
        profiles.append(cProfile.Profile())
        profiles[0].enable()
        try:
            return plain(self, rerun_data)
        finally:
            profiles[0].disable()

    script_runner.ScriptRunner._run_script = profiled
    at = AppTest.from_file(str(root / "app.py"), default_timeout=900)
    at.query_params.update({"corpus": "synthetic", "model": "minilm", "method": "pca"})
    took, cpu = [], []
    for k in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        profile = profiles[0] if (k == 0 and profiles) else None
        took.append(round(time.perf_counter() - t0, 3))
        cpu.append(round(time.process_time() - c0, 3))  # every thread's CPU: less moved by other sessions' load
        if at.exception:
            print("EXCEPTION", [e.value for e in at.exception][:1], flush=True)
        if profile:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
            print(out.getvalue())
    print(json.dumps({"root": str(root), "papers": args.papers, "import_s": round(imported, 3), "runs_s": took, "cpu_s": cpu,
                      "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
