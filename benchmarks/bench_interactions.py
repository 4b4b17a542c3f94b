"""Benchmark 22 (issue 32): how long each user action takes in Chromium, from the click to the settled page.

Playwright drives Debian Chromium against a Streamlit server this script starts (tests/e2e/server.py) on two
workspaces: the demo corpus (`python -m core demo --limit 3000 --embed --map pca`, real PubMed records embedded with
the packaged MiniLM) and a 50k-paper synthetic corpus whose vectors are stored under MiniLM's fingerprint
(bench_mcp.prepare), so no embedding is needed. Each workspace also holds a small second synthetic corpus to switch
to. Maps are PCA (`?method=pca` in the link the tab opens).

An action is timed from the browser's own input event (the last pointerup/keydown, or the navigation start of a
link) to the settled page: the app's `data-test-script-state` has left "running" and the DOM has not changed for
`--quiet` seconds; the end is the last DOM change (or the end of the last run). A MutationObserver installed before
the app loads records both. Server side, the app logs each script run's duration when MIREAD_TIMING=1 (app.py); the
runs that ended inside the action's window are summed as `script`, so `browser = total - script` is transfer +
draw. Fragment reruns (the zoom watcher) do not pass through app.py and count as browser time. `ws_kb` is what the
websocket brought in (the figure's payload, mostly).

Hand-written rather than Playwright's tracing: the traces time network and screenshots, not Streamlit's reruns.

    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/bench_interactions.py --runs 5
    .venv/bin/python benchmarks/bench_interactions.py --quick --runs 2      # a tiny corpus: checks the harness
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from common import DATA, ROOT, machine, median, percentile
from synthetic import clustered_unit_vectors

from tests.e2e.conftest import draw_lasso
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

OUT = ROOT / "benchmarks" / "out" / "interactions"
BUDGET_S = 1.0
DEBUG = bool(os.environ.get("BENCH_DEBUG"))
MODEL = "minilm"
# the benchmarks' app servers: no background UMAP warm-up, one timing line a run, the CPU, the packaged model
SERVER_ENV = {"MIREAD_WARM_NUMBA": "0", "MIREAD_TIMING": "1", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": MODEL}
OTHER = "synthetic-small"
PAGES = ["Similar papers", "Journals", "Library", "Train", "Evaluate", "Compare models", "Domain map"]
WORDS = ("galaxy", "protein", "market", "lattice", "neuron", "quantum", "climate", "enzyme", "graph", "plasma",
         "vaccine", "network", "crystal", "genome", "tensor", "orbit", "soil", "catalyst", "algorithm", "tumour")

PROBE = """(() => {
    const t = window.__t = {mut: 0, runStart: -1, runEnd: 0, input: -1, runs: 0, map: [], answer: []};
    const busy = v => v === 'running' || v === 'rerunRequested';
    // react-aria's live announcer (a visually hidden log at the body's end) clears a select box's "…, selected"
    // ~6 s after the choice: no one sees it, and it made 5-6 s "settles" of colour picks (BENCHMARKS §31ac)
    const unseen = n => { const e = n.nodeType === 1 ? n : n.parentElement; return !!(e && e.closest('[data-live-announcer]')); };
    new MutationObserver(records => {
        const now = performance.now();
        for (const r of records) {
            if (r.type === 'attributes' && r.attributeName === 'data-test-script-state') {
                const v = r.target.getAttribute('data-test-script-state');
                if (busy(v)) { t.runStart = now; t.runs += 1; } else { t.runEnd = now; }
            } else if (!unseen(r.target)) {
                t.mut = now;
            }
        }
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    // the map component draws in a shadow root, out of the document observer's sight: its own element is observed
    // (found again each animation frame if replaced) for its marks — data-applied: a state applied and drawn;
    // data-followed: a year window followed; data-picked: a click or lasso drawn selected
    let watched = null;
    const look = () => {
        const m = window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map;
        if (m && m.wrap && m.wrap !== watched) {
            watched = m.wrap;
            new MutationObserver(() => { t.map.push(performance.now()); if (t.map.length > 50) t.map.shift(); })
                .observe(m.wrap, {attributes: true, attributeFilter: ['data-applied', 'data-followed', 'data-picked']});
            // data-answered: the browser's own answer (a colour it knows drawn, a clicked paper's card pinned)
            new MutationObserver(() => { t.answer.push(performance.now()); if (t.answer.length > 50) t.answer.shift(); })
                .observe(m.wrap, {attributes: true, attributeFilter: ['data-answered']});
        }
        requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
    for (const kind of ['pointerup', 'keydown']) {
        document.addEventListener(kind, () => { t.input = performance.now(); }, true);
    }
})();"""
STATE = """() => ({now: performance.now(), ...window.__t,
    cur: (document.querySelector('[data-testid=stApp]') || {getAttribute: () => 'none'})
         .getAttribute('data-test-script-state')})"""
POINT = """row => {
    const gd = document.querySelector('.st-key-corpus_map .js-plotly-plot');
    if (!gd || !gd._fullLayout) return null;
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    for (const t of gd._fullData) {
        const i = (t.customdata || []).findIndex(c => Number(Array.isArray(c) ? c[0] : c) === row);
        if (i < 0 || t.name === 'your paper') continue;
        const x = xa._offset + xa.d2p(t.x[i]), y = ya._offset + ya.d2p(t.y[i]);
        const r = gd.getBoundingClientRect();
        if (x < xa._offset || x > xa._offset + xa._length || y < ya._offset || y > ya._offset + ya._length) continue;
        return [r.left + x, r.top + y];
    }
    return null; }"""
FIGURE_BYTES = """() => { const gd = document.querySelector('.st-key-corpus_map .js-plotly-plot');
    return gd && gd.data ? JSON.stringify({data: gd.data, layout: gd.layout}).length : 0; }"""


@dataclass
class Sample:
    total_s: float
    script_s: float
    runs: int
    ws_kb: float
    map_s: float | None = None  # input → the map component's first redraw (a state applied, a year window followed)
    answer_s: float | None = None  # input → the browser's own answer (a colour drawn, a clicked card pinned)


@dataclass
class Bench:
    """One browser tab on one server: the probe, the websocket byte counter, the server's timing log."""

    page: Any
    url: str
    log: Path
    corpus: str
    quiet: float
    ws_bytes: list[int] = field(default_factory=lambda: [0])
    results: dict[str, list[Sample]] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        def on_socket(ws: Any) -> None:
            ws.on("framereceived", lambda payload: self.ws_bytes.__setitem__(0, self.ws_bytes[0] + len(payload)))

        self.page.on("websocket", on_socket)

    def link(self, **extra: str) -> str:
        query = {"corpus": self.corpus, "model": MODEL, "method": "pca", **extra}
        return self.url + "/?" + "&".join(f"{k}={quote(str(v))}" for k, v in query.items())

    def idle(self) -> None:
        wait_idle(self.page, timeout=600_000)

    def measure(self, name: str, act: Callable[[], None], expect_run: bool = True, navigation: bool = False) -> Sample:
        """Run `act` and time it from its input event to the settled page; keep the sample under `name`."""
        self.ws_bytes[0] = 0
        wall = time.time()
        t0 = 0.0 if navigation else self.page.evaluate("() => performance.now()")
        act()
        sample = self._settle(t0, wall, expect_run, navigation)
        self.results.setdefault(name, []).append(sample)
        print(f"  {name:<34} {sample.total_s:7.3f} s  script {sample.script_s:6.3f} s  runs {sample.runs}  "
              f"ws {sample.ws_kb:8.1f} kB" + ("" if sample.map_s is None else f"  map {sample.map_s:6.3f} s")
              + ("" if sample.answer_s is None else f"  answer {sample.answer_s:6.3f} s"), flush=True)
        return sample

    def _settle(self, t0: float, wall: float, expect_run: bool, navigation: bool) -> Sample:
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            try:
                s = self.page.evaluate(STATE)
            except Exception:  # noqa: BLE001 - the page is navigating: ask again
                time.sleep(0.05)
                continue
            start = t0 if navigation else max(t0, s["input"])
            # a run that brought nothing (a widget echo) is not the answer yet: wait for bytes, or 3 s
            started = (s["runStart"] > start or navigation and s["runs"] > 0) and (
                self.ws_bytes[0] > 0 or s["now"] - start > 3000)
            busy = s["cur"] in ("running", "rerunRequested", "none")
            waited = s["now"] - start
            last = max(s["mut"], s["runEnd"])
            if not busy and (started or waited > (10_000 if expect_run else 1500)) and s["now"] - last > self.quiet * 1000:
                end = last if last > start else start
                total = (end - start) / 1000
                script, runs = self._script_time(wall, time.time())
                if DEBUG:
                    print("    settle:", {k: round(v - t0) if isinstance(v, (int, float)) else v for k, v in s.items()})
                drawn = [m for m in s.get("map", []) if m > start]
                map_s = round((drawn[0] - start) / 1000, 4) if drawn else None
                answered = [m for m in s.get("answer", []) if m > start]
                answer_s = round((answered[0] - start) / 1000, 4) if answered else None
                return Sample(round(total, 4), round(script, 4), runs, round(self.ws_bytes[0] / 1024, 1), map_s,
                              answer_s)
            time.sleep(0.03)
        raise TimeoutError("the page did not settle within 15 minutes")

    def _script_time(self, since: float, until: float) -> tuple[float, int]:
        total, runs = 0.0, 0
        for line in self.log.read_text(errors="replace").splitlines():
            m = re.search(r"MIREAD_TIMING page=\S+ run_s=([\d.]+) end=([\d.]+)", line)
            if m and since <= float(m.group(2)) <= until + 0.2:
                total, runs = total + float(m.group(1)), runs + 1
        return total, runs

    # -- page helpers (as in tests/e2e/conftest.py's Tab) --------------------------------------------------------

    def go(self, title: str) -> None:
        self.page.locator("[data-testid=stSidebarNav]").get_by_role("link", name=title, exact=True).click()

    def open_options(self, label: str, where: str = "body") -> None:
        box = self.page.locator(where).get_by_role("combobox", name=label, exact=True)
        for _ in range(3):
            box.click()
            try:
                self.page.get_by_role("option").first.wait_for(timeout=3000)
                return
            except Exception:  # noqa: BLE001 - the list did not open: click again
                self.page.keyboard.press("Escape")
        raise RuntimeError(f"the select box {label!r} did not open")

    def options(self) -> list[str]:
        return [" ".join(t.split()) for t in self.page.get_by_role("option").all_inner_texts()]

    def pick(self, option: str) -> None:
        self.page.get_by_role("option", name=option, exact=True).click()

    def field(self, label: str) -> Any:
        return self.page.locator(f"[data-testid=stTextInput] input[aria-label='{label}'], "
                                 f"[data-testid=stTextArea] textarea[aria-label='{label}']").first

    def type_and_commit(self, label: str, text: str) -> None:
        box = self.field(label)
        box.fill(text)
        box.press("Tab")

    def point(self, row: int) -> tuple[float, float] | None:
        self.page.locator(".st-key-corpus_map .js-plotly-plot").first.scroll_into_view_if_needed()
        xy = self.page.evaluate(POINT, row)
        return (float(xy[0]), float(xy[1])) if xy else None


# -- the actions -----------------------------------------------------------------------------------------------


def map_actions(b: Bench, runs: int, titles: list[str], colours: tuple[str, str]) -> None:
    """Colour, highlight, hover, lasso, zoom, click a paper, find a paper on the map page."""
    b.page.goto(b.link())
    b.idle()
    b.notes["figure_json_kb"] = round(b.page.evaluate(FIGURE_BYTES) / 1024, 1)
    for i in range(runs):
        b.open_options("Colour by")
        b.measure("change the map colour", lambda i=i: b.pick(colours[(i + 1) % 2]))
    b.open_options("Colour by")
    b.pick(colours[0])
    b.idle()
    for i in range(runs):
        b.measure("highlight a word", lambda i=i: b.type_and_commit("Highlight papers matching", WORDS[i]))
    b.type_and_commit("Highlight papers matching", "")
    b.idle()
    for i in range(runs):
        xy = b.point(i * 7)
        if xy is None:
            continue
        b.page.mouse.move(5, 5)
        b.page.wait_for_timeout(300)
        b.measure("hover a point", lambda xy=xy: b.page.mouse.move(*xy, steps=1), expect_run=False)
    for i in range(runs):
        b.measure("lasso a region", lambda i=i: lasso(b, 0.1 + 0.05 * (i % 3), 0.1, 0.6, 0.7))
    zoom = b.page.locator('.st-key-corpus_map button[data-title="Zoom in"]').first
    for _ in range(runs):
        b.page.locator(".st-key-corpus_map .js-plotly-plot").first.hover()
        b.measure("zoom in (modebar)", lambda: zoom.click())
    b.page.goto(b.link())  # the whole map again, no selection
    b.idle()
    for i in range(runs):
        xy = b.point(11 + i * 13)
        if xy is None:
            continue
        b.measure("click a paper (side panel)", lambda xy=xy: b.page.mouse.click(*xy))
        close = b.page.locator(".st-key-map_panel_close button").first
        if close.count():
            close.click()
            b.idle()
    for i in range(runs):
        b.measure("find a paper", lambda i=i: b.type_and_commit("Find a paper", titles[i]))
        b.type_and_commit("Find a paper", "")
        b.idle()
        close = b.page.locator(".st-key-map_panel_close button").first
        if close.count():
            close.click()
            b.idle()


def lasso(b: Bench, left: float, top: float, right: float, bottom: float) -> None:
    draw_lasso(b.page, left, top, right, bottom)


def page_actions(b: Bench, runs: int) -> None:
    """Open each page from the sidebar, round after round (each from the page before it)."""
    b.page.goto(b.link())
    b.idle()
    for _ in range(runs):
        for title in PAGES:
            b.measure(f"open {title}", lambda title=title: b.go(title))


def query_actions(b: Bench, runs: int, queries: list[tuple[str, str]]) -> None:
    """Paste a title and abstract → similar papers; the same → suggest journals."""
    b.go("Similar papers")
    b.idle()
    for i in range(runs):
        b.type_and_commit("Title", queries[i][0])
        b.type_and_commit("Abstract", queries[i][1])
        b.idle()
        b.measure("paste → similar papers", lambda: b.page.get_by_role("button", name="Find similar papers").click())
    b.go("Journals")
    b.idle()
    for i in range(runs):
        b.type_and_commit("Title", queries[i][0])
        b.type_and_commit("Abstract", queries[i][1])
        b.idle()
        b.measure("suggest journals", lambda: b.page.locator(".st-key-suggest_button button").first.click())


def switch_actions(b: Bench, runs: int) -> None:
    """Switch the corpus (to the small one and back) and the model on the map page; open a shared link."""
    b.page.goto(b.link())
    b.idle()
    for _ in range(runs):
        for name in (OTHER, b.corpus):
            b.open_options("Corpus", "[data-testid=stSidebar]")
            option = next(o for o in b.options() if o.startswith(name + " ("))
            b.measure(f"switch corpus → {'small' if name == OTHER else 'main'}", lambda o=option: b.pick(o))
    b.open_options("Model", "[data-testid=stSidebar]")
    models = [o.split(" (")[0] for o in b.options()]
    b.page.keyboard.press("Escape")
    other = next((m for m in models if m != MODEL), None)
    b.notes["models"] = models
    if other:
        for _ in range(runs):
            for name in (other, MODEL):
                b.open_options("Model", "[data-testid=stSidebar]")
                option = next(o for o in b.options() if o.split(" (")[0] == name)
                b.measure(f"switch model → {'other' if name == other else MODEL}", lambda o=option: b.pick(o))
    for i in range(runs):
        link = b.link(highlight=WORDS[i], colour="(none)")
        b.measure("open a shared link", lambda link=link: b.page.goto(link), navigation=True)


def export_files(out: Path) -> list[tuple[str, Path]]:
    """A real 98-record RIS export (shared/data/exports) and a ~10 MB CSV of real arXiv records."""
    import gzip

    import pandas as pd

    big = out / "arxiv_10mb.csv"
    if not big.exists():
        frame = pd.read_json(gzip.open(DATA / "arxiv_journals.jsonl.gz", "rt"), lines=True, dtype=False)
        cols = ["id", "title", "abstract", "journal", "year", "doi"]
        frame = frame[[c for c in cols if c in frame]]
        rows = int(len(frame) * 10e6 / len(frame.to_csv(index=False).encode()))
        frame.head(rows).to_csv(big, index=False)
    return [("100-record RIS", DATA / "exports" / "RIS" / "_baseline.ris"), ("10 MB CSV", big)]


def library_actions(b: Bench, run: int, files: list[tuple[str, Path]]) -> None:
    """On the Library page: choose an export (to its preview), then Import it into a new corpus (to the report)."""
    for label, path in files:
        b.page.goto(b.link())
        b.idle()
        b.go("Library")
        b.idle()
        upload = b.page.locator("[data-testid=stFileUploader] input[type=file]").first

        def preview(upload: Any = upload, path: Path = path) -> None:
            upload.set_input_files(str(path))
            b.page.get_by_text(f"Preview of {path.name}").first.wait_for(timeout=600_000)

        def import_it() -> None:
            b.page.get_by_role("button", name="Import", exact=True).click()
            b.page.get_by_text(re.compile(r"Imported [\d,]+ rows? into")).first.wait_for(timeout=600_000)

        b.measure(f"preview {label} ({path.stat().st_size / 1e6:.1f} MB)", preview)
        b.type_and_commit("Corpus name", f"bench-{run}-{label.split()[0].lower()}")
        b.idle()
        b.measure(f"import {label}", import_it)


def heavy_umap(b: Bench) -> None:
    """Choose UMAP in the map settings: the time to the progress bar, and to the UMAP map on screen."""
    b.page.goto(b.link())
    b.idle()
    b.page.get_by_role("button", name=re.compile("Map settings")).click()
    b.open_options("Method")
    t0 = time.perf_counter()
    b.pick("UMAP")
    b.page.locator("[data-testid=stProgress]").first.wait_for(timeout=600_000)
    shown = time.perf_counter() - t0
    b.page.get_by_text(re.compile(r"^UMAP( fitted)?")).first.wait_for(timeout=1_800_000)
    b.page.locator("[data-testid=stCaptionContainer]").filter(has_text=re.compile(r"^UMAP: drawing")).first.wait_for(
        timeout=1_800_000)
    b.idle()
    b.notes["umap"] = {"progress_visible_s": round(shown, 3), "map_on_screen_s": round(time.perf_counter() - t0, 2)}
    print(f"  UMAP: progress after {shown:.2f} s, map after {b.notes['umap']['map_on_screen_s']} s", flush=True)


def map_parts(root: Path, corpus: str, reps: int = 3) -> dict[str, float]:
    """The map page's own pieces in this process, median of `reps` (seconds, MB): what one rerun rebuilds."""
    import numpy as np

    from core.embedding import get_model, vectors_fingerprint
    from core.explore import hover_frame, map_coordinates
    from core.plots import export_html, map_figure
    from core.store import Store

    store = Store(root)
    spec = get_model(MODEL, store)
    info = store.corpus(corpus)
    timed: dict[str, list[float]] = {}

    def clock(name: str, fn: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        value = fn()
        timed.setdefault(name, []).append(time.perf_counter() - start)
        return value

    for _ in range(reps):
        frame = clock("papers_frame_s", lambda: store.papers_frame(corpus))
        clock("is_embedded_s (missing_hashes)", lambda: store.missing_hashes(corpus, vectors_fingerprint(spec)))
        clock("embeddings_s", lambda: np.asarray(store.embeddings(corpus, vectors_fingerprint(spec))))
        coords = clock("pca_map_cached_s", lambda: map_coordinates(store, corpus, spec, "pca", {})[0])
        colour = frame[info.labels[0]].tolist() if info.labels else None
        hover = hover_frame(frame).drop(columns=[info.labels[0]] if info.labels else [], errors="ignore")
        fig = clock("map_figure_s", lambda: map_figure(coords, color=colour, color_name=info.labels[0] if
                                                       info.labels else "", hover=hover))
        payload = clock("figure_to_json_s", fig.to_json)
        clock("export_html_s", lambda: export_html(fig))
    out = {name: round(median(values), 3) for name, values in timed.items()}
    out["figure_json_mb"] = round(len(payload) / 2**20, 2)
    out["hovertext_share_of_json"] = round(sum(len(json.dumps(list(t.hovertext if t.hovertext is not None else []))) for t in fig.data)
                                           / len(payload), 2)
    return out


# -- workspaces ------------------------------------------------------------------------------------------------


def synthetic_corpus(store: Any, name: str, n: int, seed: int) -> None:
    """`n` generated papers with topic-structured vectors stored under MiniLM's fingerprint (as bench_mcp)."""
    from bench_mcp import synthetic_papers

    from core.embedding import get_model, vectors_fingerprint

    if not store.has_corpus(name):
        papers = list(synthetic_papers(n))
        for p in papers:  # distinct ids and titles from the big corpus, so the small one is its own corpus
            p.id, p.title = f"{name}-{p.id}", p.title.replace("study", f"{name} study")
        store.import_papers(name, papers, source="bench_interactions")
    fp = vectors_fingerprint(get_model(MODEL, store))
    missing = store.missing_hashes(name, fp)
    for offset in range(0, len(missing), 50_000):
        part = missing[offset: offset + 50_000]
        store.add_embeddings(fp, part, clustered_unit_vectors(len(part), seed=seed + offset))


def prepare(kind: str, papers: int) -> tuple[Path, str]:
    """The workspace of `kind` (demo, big or quick) and its main corpus; made once, reused by later runs."""
    from core.store import Store

    root = OUT / f"ws-{kind}"
    if kind == "demo":
        store = Store(root)
        if not store.has_corpus("pubmed-demo"):
            subprocess.run([sys.executable, "-m", "core", "--workspace", str(root), "demo", "--limit", "3000",
                            "--embed", "--map", "pca"], cwd=ROOT, check=True)
        main = "pubmed-demo"
    else:
        store = Store(root)
        main = "synthetic"
        synthetic_corpus(store, main, papers if kind == "big" else 400, seed=7)
    synthetic_corpus(Store(root), OTHER, 2000 if kind != "quick" else 200, seed=99)
    return root, main


def queries(n: int) -> list[tuple[str, str]]:
    from common import arxiv

    return [(r["title"], r["abstract"]) for r in arxiv(n, offset=1000)]


def synthetic_map_workspace(papers: int) -> Path:
    """The map probes' workspace: `synthetic_corpus` of `papers` (seed 7) with its map, built once under OUT."""
    from core.store import Store

    root = OUT / f"ws-map-{papers}"
    synthetic_corpus(Store(root), "synthetic", papers, seed=7)
    return root


def before_and_after(before: str) -> dict[str, Path]:
    """The checkouts a probe serves, by label: the revision before a change (`--before`, when given) and this one."""
    return {**({"before": Path(before)} if before else {}), "after": ROOT}


@contextmanager
def serve(app_root: Path, workspace: Path, env: dict[str, str]) -> Iterator[tuple[str, Path]]:
    """`streamlit run app.py` of the checkout at `app_root` (this one, or the revision before a change) on
    `workspace`; yields its URL and log."""
    log_path = workspace.parent / f"streamlit-{app_root.name}-{time.time_ns()}.log"
    with streamlit_server(workspace, env=env, timeout=240, app_root=app_root, log_path=log_path) as url:
        yield url, log_path


def bench_tab(stack: ExitStack, browser: Any, app_root: Path, workspace: Path, env: dict[str, str], corpus: str,
              quiet: float) -> Bench:
    """A server of the checkout at `app_root` on `workspace` (closed with `stack`) and a 1400 × 1000 browser tab on it
    with the timing probe: the Bench the benchmarks drive."""
    url, log = stack.enter_context(serve(app_root, workspace, env))
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    stack.callback(context.close)
    context.add_init_script(PROBE)
    return Bench(context.new_page(), url, log, corpus, quiet)


def run_corpus(browser: Any, kind: str, args: argparse.Namespace) -> dict[str, Any]:
    """Every wanted step on this corpus, round after round; with --before, the steps in --before-steps also on the
    revision before (a second server), the two revisions alternating within each round (A B, B A, ...)."""
    root, corpus = prepare(kind, args.papers)
    from core.store import Store

    store = Store(root)
    frame = store.papers_frame(corpus)
    titles = [str(frame["title"].iloc[r % len(frame)]) for r in (5, 50, 500, 1500, 2500, 77, 777)]
    info = store.corpus(corpus)
    colours = ((info.labels or ["(none)"])[0], "(none)")
    env = dict(SERVER_ENV)
    print(f"\n== {kind}: {corpus} ({len(frame):,} papers) ==", flush=True)
    parts = map_parts(root, corpus) if "parts" in args.actions.split(",") else {}
    if parts:
        print(f"  map page pieces in-process: {parts}", flush=True)
    roots = {"after": ROOT, **({"before": Path(args.before)} if args.before else {})}
    wanted = [s for s in ("pages", "map", "query", "switch", "library", "umap") if s in args.actions.split(",")]
    files = export_files(OUT) if "library" in wanted else []
    both = set(args.before_steps.split(","))
    with ExitStack() as stack:
        benches: dict[str, Bench] = {}
        for label, app_root in roots.items():
            bench = benches[label] = bench_tab(stack, browser, app_root, root, env, corpus, args.quiet)
            start = time.perf_counter()
            bench.page.goto(bench.link())
            bench.idle()
            bench.notes["first_page_s"] = round(time.perf_counter() - start, 2)
        for i in range(args.runs):
            print(f"-- round {i + 1}", flush=True)
            order = list(benches.items()) if i % 2 == 0 else list(benches.items())[::-1]
            for label, bench in order:
                for name in wanted:
                    if label == "before" and name not in both or name == "umap" and i > 0:
                        continue
                    print(f" [{label}] {name}", flush=True)
                    try:
                        {"pages": lambda b: page_actions(b, 1),
                         "map": lambda b: map_actions(b, 1, titles[i:], colours),
                         "query": lambda b: query_actions(b, 1, queries(args.runs)[i:]),
                         "switch": lambda b: switch_actions(b, 1),
                         "library": lambda b: library_actions(b, i, files),
                         "umap": heavy_umap}[name](bench)
                    except Exception as exc:  # noqa: BLE001 - one failed step is reported, the others still run
                        bench.notes[f"{name}_failed"] = f"{type(exc).__name__}: {str(exc)[:300]}"
                        print(f"  step {name} failed: {exc}", flush=True)
                        bench.page.screenshot(path=str(OUT / f"failed-{kind}-{label}-{name}.png"))
    return {label: {"corpus": corpus, "papers": len(frame), "revision": label, "notes": bench.notes,
                    "map_parts_in_process": parts,
                    "actions": {name: [s.__dict__ for s in samples] for name, samples in bench.results.items()}}
            for label, bench in benches.items()}


def table(result: dict[str, Any]) -> str:
    lines = [f"**{result['corpus']}** ({result['papers']:,} papers), revision {result['revision']}", "",
             "| action | p50 s | p95 s | script p50 s | browser p50 s | runs | ws kB p50 | over 1 s |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, samples in result["actions"].items():
        total = [s["total_s"] for s in samples]
        script = [s["script_s"] for s in samples]
        p50, p95, s50 = median(total), percentile(total, 95), median(script)
        lines.append(f"| {name} | {p50:.2f} | {p95:.2f} | {s50:.2f} | {p50 - s50:.2f} | "
                     f"{median([s['runs'] for s in samples]):.0f} | {median([s['ws_kb'] for s in samples]):.0f} | "
                     f"{'**yes**' if p50 > BUDGET_S else ''} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpora", default="demo,big", help="demo, big (--papers synthetic papers), quick")
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--actions", default="parts,pages,map,query,switch",
                        help="parts (the map page's pieces in-process), pages, map, query, switch, library "
                        "(preview and import a 98-record RIS and a 10 MB CSV), umap")
    parser.add_argument("--quiet", type=float, default=0.3, help="seconds without DOM change that count as settled")
    parser.add_argument("--before", default="", help="a checkout of the revision before a change (git worktree)")
    parser.add_argument("--before-steps", default="map", help="the steps also timed on --before, interleaved")
    parser.add_argument("--quick", action="store_true", help="the quick corpus only (checks the harness)")
    args = parser.parse_args()
    if args.quick:
        args.corpora = "quick"
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"machine": machine(), "command": " ".join([Path(sys.executable).name] + sys.argv),
                               "runs": args.runs, "quiet_s": args.quiet, "corpora": {}}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for kind in args.corpora.split(","):
            for label, result in run_corpus(browser, kind, args).items():
                results["corpora"][f"{kind} ({label})"] = result
        browser.close()
    results["machine_after"] = machine()
    name = "interactions" + ("-quick" if args.quick else "")
    (OUT / f"{name}.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    text = "\n\n".join(table(r) for r in results["corpora"].values())
    notes = "\n".join(f"- {k}: {json.dumps(r['notes'])} map pieces: {json.dumps(r['map_parts_in_process'])}"
                      for k, r in results["corpora"].items())
    (OUT / f"{name}.md").write_text(f"{text}\n\n{notes}\n", encoding="utf-8")
    print("\n" + text + "\n\n" + notes)


if __name__ == "__main__":
    main()
