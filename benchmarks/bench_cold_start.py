"""Benchmark 6: app cold start, `streamlit run app.py` to the first page rendered in headless Chromium.

Baseline: a one-line Streamlit app (`st.title("hello")`) started and loaded the same way: the floor set by
Streamlit itself. Runs alternate ours / baseline. Three workspaces: empty; a 2,000-paper corpus whose map is
cached; the same corpus with no cached map (the first page computes it). Also lists what importing the app's
modules costs (`python -X importtime`) and checks that torch, transformers, umap, sklearn and faiss are not
among them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from common import ROOT, median, report, row

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
HEAVY = ("torch", "transformers", "umap", "sklearn", "faiss", "numba", "sentence_transformers")
APP_MODULES = ("ui.resources", "ui.sidebar", "core.explore.maps.cached", "core.plots.maps", "core.explore.maps.projection", "core.explore.topics.clusters",
               "core.explore.search.similar",
               "core.explore.journals", "core.demo", "core.training.jobs")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_and_load(script: Path, workspace: Path, ready_text: str, env: dict[str, str],
                   chart: bool = False) -> dict[str, float]:
    """Seconds from launching streamlit to /_stcore/health answering, and to the page's script finishing
    (with `chart`, also to the map being drawn: the PCA preview when the map is not cached)."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    full_env = {**os.environ, "MIREAD_WORKSPACE": str(workspace), "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT),
                **env}
    log = open(workspace.parent / f"streamlit-{port}.log", "w")
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port), "--server.address",
         "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                if time.perf_counter() - started > 180:
                    raise RuntimeError(f"streamlit did not start; see {log.name}")
                time.sleep(0.05)
        health = time.perf_counter() - started
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            asked = time.perf_counter()
            page.goto(url)
            page.get_by_text(ready_text).first.wait_for(timeout=600_000)
            if chart:
                page.wait_for_selector("[data-testid=stPlotlyChart] .js-plotly-plot .scatterlayer, "
                                       "[data-testid=stPlotlyChart] .js-plotly-plot canvas", timeout=600_000)
            page.wait_for_selector(IDLE, timeout=600_000)
            loaded = time.perf_counter()
            browser.close()
        return {"health": health, "page": loaded - started, "page_after_health": loaded - asked}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def import_costs() -> tuple[float, list[tuple[str, float]], list[str]]:
    """(total seconds, top 8 modules by cumulative import time, heavy modules imported) for the app's modules."""
    code = "import streamlit; " + "; ".join(f"import {m}" for m in APP_MODULES)
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    rows = []
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m:
            rows.append((m.group(4), int(m.group(2)) / 1e6, len(m.group(3))))
    top = sorted(((name, cum) for name, cum, depth in rows if depth <= 1), key=lambda r: -r[1])[:8]
    total = sum(cum for name, cum, depth in rows if depth == 1)
    heavy = sorted({name.split(".")[0] for name, _, _ in rows if name.split(".")[0] in HEAVY})
    return total, top, heavy


def corpus_workspace(root: Path, papers: int, cache_map: bool) -> Path:
    """A workspace with `papers` real arXiv papers embedded (vectors from the benchmark cache)."""
    from common import arxiv
    from vectors import real_vectors

    from core.embedding import get_model, vectors_fingerprint
    from core.explore import map_coordinates
    from core.records import Paper
    from core.store import Store

    ws = root / f"ws-{papers}-{'map' if cache_map else 'nomap'}"
    store = Store(ws)
    records = arxiv(papers)
    store.import_papers("arxiv", [Paper(r["id"], r["title"], r["abstract"], {"journal": r["journal"],
                                        "field": r["field"], "year": r["year"]}) for r in records])
    spec = get_model("minilm")
    vectors = real_vectors(papers)
    hashes = [p.hash for p in store.papers("arxiv")]
    store.add_embeddings(vectors_fingerprint(spec), hashes, vectors)
    if cache_map:
        map_coordinates(store, "arxiv", spec, "umap", {"n_neighbors": 15, "min_dist": 0.1})
    return ws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--papers", type=int, default=2000)
    args = parser.parse_args()

    rows: list[dict] = []
    extra: dict = {}
    total, top, heavy = import_costs()
    extra["import_top"] = top
    rows.append(row("importing the app's modules", total, None, "s",
                    f"heavy modules imported: {', '.join(heavy) or 'none'}; top: "
                    + ", ".join(f"{n} {s:.2f}s" for n, s in top[:4])))
    with tempfile.TemporaryDirectory(prefix="miread-cold-") as tmp:
        root = Path(tmp)
        hello = root / "hello.py"
        hello.write_text('import streamlit as st\n\nst.title("hello")\n')
        spaces = {"empty workspace": root / "ws-empty"}
        if args.papers:
            spaces[f"{args.papers:,} papers, map cached"] = corpus_workspace(root, args.papers, True)
            spaces[f"{args.papers:,} papers, map not cached"] = corpus_workspace(root, args.papers, False)
        (root / "ws-empty").mkdir()
        base = [start_and_load(hello, root / "ws-hello", "hello", {}) for _ in range(1)]
        for label, ws in spaces.items():
            runs = [(name, app_run(ws, env, label != "empty workspace")) for name, env in VARIANTS.items()] + [("hello", hello_run(hello, root))]
            results: dict[str, list[dict[str, float]]] = {name: [] for name, _ in runs}
            for rep in range(args.reps):
                for name, fn in runs if rep % 2 == 0 else runs[::-1]:
                    if "not cached" in label and name.startswith("ours"):
                        for stale in (ws / "arrays" / "maps").glob("*.npy"):
                            stale.unlink()
                    results[name].append(fn())
                print(label, {k: [round(v["page"], 1) for v in r] for k, r in results.items()}, flush=True)
            hello_page = median([r["page"] for r in results["hello"]])
            rows.append(row(f"{label}: health answers", median([r["health"] for r in results["ours"]]),
                            median([r["health"] for r in results["hello"]]), "s"))
            for name in VARIANTS:
                drawn = " with its map drawn" if label != "empty workspace" else ""
                rows.append(row(f"{label}: first page rendered{drawn}, {name}", median([r["page"] for r in results[name]]),
                                hello_page, "s", "baseline = one-line Streamlit app; target < 5 s"))
            extra[label] = results
        extra["hello_first"] = base
    report("cold_start", rows, extra)


VARIANTS = {
    "ours": {},
    "ours, no numba warm-up": {"MIREAD_WARM_NUMBA": "0"},
    "ours, MIREAD_DEVICE=cpu": {"MIREAD_DEVICE": "cpu"},
}


def app_run(ws: Path, env: dict[str, str], chart: bool):
    return lambda: start_and_load(ROOT / "app.py", ws, "Domain map", env, chart)


def hello_run(hello: Path, root: Path):
    return lambda: start_and_load(hello, root / "ws-hello", "hello", {})


if __name__ == "__main__":
    main()
