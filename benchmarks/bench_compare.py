"""Benchmark: the Compare models view's load time in headless Chromium (issue 17).

A workspace holds `--papers` real arXiv papers (titles and journals for the hover cards) with vectors of two
"models": A, paper-like clustered unit vectors, and B, A blended with other clustered vectors (a fine-tuned model
keeps most but not all of its base's neighbourhoods). Both models' UMAP maps are computed once beforehand, as a
user who has opened each model's Domain map would have them.

Each rep opens a fresh browser context on a running server and times from navigation until the script is idle
and every map is drawn:
- baseline: the Domain map page of model A (one map), same corpus, colour and method;
- compare, warm: /compare with A and B (two maps, Procrustes alignment, scores read from their cache);
- compare, first visit: the same with the neighbourhood scores' cache deleted first (both kNN searches run).
Runs alternate their order every rep.

    python benchmarks/bench_compare.py --papers 5000 --reps 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np
from common import ROOT, arxiv, median, report, row
from synthetic import clustered_unit_vectors

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
ENV = {"MIREAD_FAST_CPU": "off", "MIREAD_DEVICE": "cpu", "MIREAD_WARM_NUMBA": "0", "HF_HUB_OFFLINE": "1"}
PARAMS = {"n_neighbors": 15, "min_dist": 0.1}


def build_workspace(root: Path, papers: int) -> Path:
    """Corpus 'arxiv' with vectors of models 'base' and 'tuned' and both UMAP maps cached."""
    os.environ.update(ENV)
    from core.embedding import ModelSpec, vectors_fingerprint
    from core.explore import map_coordinates
    from core.records import Paper
    from core.store import Store

    ws = root / "ws"
    store = Store(ws)
    store.import_papers("arxiv", [Paper(r["id"], r["title"], r["abstract"], {"journal": r["journal"],
                                        "field": r["field"], "year": r["year"]}) for r in arxiv(papers)])
    hashes = [p.hash for p in store.papers("arxiv")]
    base = clustered_unit_vectors(len(hashes), seed=0)
    other = clustered_unit_vectors(len(hashes), seed=1)
    tuned = 0.8 * base + 0.45 * other
    tuned /= np.linalg.norm(tuned, axis=1, keepdims=True)
    for name, vectors in (("base", base), ("tuned", tuned)):
        spec = ModelSpec(name=name, source="checkpoint", location=str(root / name), base="base" * (name == "tuned"))
        store.save_model(name, spec.to_dict())
        store.add_embeddings(vectors_fingerprint(spec), hashes, vectors.astype(np.float32))
        started = time.perf_counter()
        map_coordinates(store, "arxiv", spec, "umap", PARAMS)
        print(f"UMAP map of {name}: {time.perf_counter() - started:.1f} s", flush=True)
    return ws


def serve(ws: Path) -> tuple[subprocess.Popen, str]:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address",
         "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none"],
        cwd=ROOT, env={**os.environ, **ENV, "MIREAD_WORKSPACE": str(ws), "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("streamlit did not start")


def load(browser, url: str, charts: int) -> float:
    """Seconds from navigation to the script idle with `charts` plotly maps drawn, in a fresh context."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url, timeout=600_000)
    page.wait_for_function(
        "n => [...document.querySelectorAll('[data-testid=stPlotlyChart] .js-plotly-plot')]"
        ".filter(gd => gd._fullData && gd._fullData.length).length >= n", arg=charts, timeout=600_000)
    page.wait_for_selector(IDLE, timeout=600_000)
    seconds = time.perf_counter() - started
    context.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="miread-compare-") as tmp:
        ws = build_workspace(Path(tmp), args.papers)
        proc, url = serve(ws)
        query = "corpus=arxiv&model=base&method=umap&colour=journal&n_neighbors=15&min_dist=0.1"
        cases = {
            "map page (baseline)": (f"{url}/?{query}", 1, False),
            "compare, warm": (f"{url}/compare?{query}&compare=tuned", 2, False),
            "compare, first visit": (f"{url}/compare?{query}&compare=tuned", 2, True),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                load(browser, cases["compare, warm"][0], 2)  # server warm-up: imports, caches, scores
                for rep in range(args.reps):
                    for name in cases if rep % 2 == 0 else list(cases)[::-1]:
                        link, charts, cold = cases[name]
                        if cold:
                            for cached in (ws / "arrays" / "compare").glob("*.npy"):
                                cached.unlink()
                        times[name].append(load(browser, link, charts))
                    print({k: [round(v, 2) for v in t] for k, t in times.items()}, flush=True)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    baseline = median(times["map page (baseline)"])
    rows = [row(f"{name}, {args.papers:,} papers", median(t), baseline, "s",
                "baseline = the Domain map page (one map) in the same run") for name, t in times.items()]
    report("compare", rows, {"papers": args.papers, "reps": args.reps, "times": times})


if __name__ == "__main__":
    main()
