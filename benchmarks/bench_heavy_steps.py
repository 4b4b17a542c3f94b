"""Benchmark 23 (issue 32): the heavy steps in Chromium: time to the first progress indicator, time to the result,
the duration the page itself reports, and whether the page stays usable while the step runs.

The steps a user starts from the pages: embed ~100 new papers (a real 98-record RIS export, its titles tagged per run
so its papers are new, imported into a new corpus on the Library page, then "Embed with minilm"), a UMAP map (Domain
map settings), a training job (Train page, small settings), an evaluation (Evaluate page, the default protocols,
another seed per run so that no result comes from the cache) and the quick evaluation of the Compare models page
("Evaluate <model>", once per model without a stored evaluation).

Each is timed from the browser's own input event (the last pointerup, bench_interactions' PROBE) to:
- **progress**: the first DOM change inside a progress bar or spinner (`stProgress`, `stSpinner`) of the page;
- **status**: the first change of Streamlit's own "Running…" widget (`stStatusWidget`);
- **finished**: the step's result on screen (a success sentence, a results caption, "completed", the UMAP map);
- **reported**: the duration the page states for the step, where it states one.
The last run of each step is the **usable** run: one second after its progress shows, the sidebar link to Journals is
clicked (the time until that page's title shows is **answer**), then the link back; the step **survived** when its
result still arrives (or its progress still shows) on the way back, and was lost when the page came back without
either. Heavy steps must show progress within 0.5 s, keep the page usable and report their true duration.

Each revision (this checkout, and with --before a `git worktree` of the revision before a change) gets its own
server and its own copy of the workspace (so caches do not cross); the two alternate run by run (A B, B A, ...).
The workspace is bench_interactions' demo corpus (2,999 PubMed papers, MiniLM) plus, made once here, a small
fine-tuned model (`demo-tuned`, 16 s of training) embedded over the corpus, so that Compare models has two models.

    git worktree add --detach /tmp/heavy-before <rev>; git worktree add --detach /tmp/heavy-after <rev>
    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/bench_heavy_steps.py --before /tmp/heavy-before \
        --after /tmp/heavy-after
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import PROBE, Bench, prepare, serve
from common import DATA, ROOT, machine, median

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

OUT = ROOT / "benchmarks" / "out" / "heavy"
EXPORT = DATA / "exports" / "RIS" / "_baseline.ris"  # 98 real records (EXPECTED.tsv)
TUNED = "demo-tuned"
PROGRESS_BUDGET_S = 0.5
HEAVY_PROBE = """(() => {
    const h = window.__h = {seen: {}};
    const kinds = {progress: '[data-testid=stProgress], [data-testid=stSpinner]',
                   status: '[data-testid=stStatusWidget]'};
    new MutationObserver(records => {
        const now = performance.now();
        for (const r of records) {
            const nodes = [r.target, ...r.addedNodes];
            for (const [kind, sel] of Object.entries(kinds)) {
                if (h.seen[kind]) continue;
                for (const n of nodes) {
                    const el = n.nodeType === 1 ? n : n.parentElement;
                    if (el && (el.closest(sel) || el.querySelector && el.querySelector(sel))) { h.seen[kind] = now; break; }
                }
            }
        }
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();"""
LOOK = """() => ({now: performance.now(), input: window.__t.input, seen: window.__h.seen,
    text: (document.querySelector('[data-testid=stMain]') || document.body).innerText,
    busy: !!document.querySelector('[data-testid=stProgress], [data-testid=stSpinner]')})"""


def base_workspace() -> Path:
    """The demo workspace plus a small fine-tuned model embedded over the corpus; made once."""
    demo, _ = prepare("demo", 0)
    base = OUT / "ws-base"
    if (base / "ready").exists():
        return base
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    for part in ("arrays", "catalog.sqlite", "jobs", "models"):
        src = demo / part
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, base / part)
    core = [sys.executable, "-m", "core", "--workspace", str(base)]
    subprocess.run([*core, "train", "--corpus", "pubmed-demo", "--label", "journal", "--name", TUNED, "--epochs",
                    "0.2", "--max-papers", "200", "--batch-size", "16", "--max-length", "64", "--head-warmup-epochs",
                    "0.5", "--device", "cpu"], cwd=ROOT, check=True)
    subprocess.run([*core, "embed", "--corpus", "pubmed-demo", "--model", TUNED], cwd=ROOT, check=True)
    (base / "ready").write_text("ok")
    return base


def tagged_export(tag: str) -> Path:
    """The 98-record export with every title tagged, so that its papers are new to the workspace's vectors."""
    text = EXPORT.read_text(encoding="utf-8")
    path = OUT / f"heavy-{tag}.ris"
    path.write_text(re.sub(r"^TI  - ", f"TI  - [{tag}] ", text, flags=re.M), encoding="utf-8")
    return path


class Heavy:
    """Times heavy steps on one Bench (one server, one tab)."""

    def __init__(self, bench: Bench, label: str):
        self.b, self.label = bench, label
        self.results: dict[str, list[dict[str, Any]]] = {}

    def look(self) -> dict[str, Any]:
        return self.b.page.evaluate(LOOK)

    def timed(self, name: str, click: Callable[[], None], done: Callable[[str], bool],
              reported: Callable[[str], float | None], page_title: str, usable: bool,
              timeout: float = 900) -> dict[str, Any]:
        """Click, then watch the page until `done(text)`; with `usable`, leave for Journals and come back."""
        page = self.b.page
        page.evaluate("() => { window.__h.seen = {}; window.__t.input = -1; }")
        click()
        row: dict[str, Any] = {"progress_s": None, "status_s": None, "finished_s": None, "reported_s": None}
        deadline, left, start = time.monotonic() + timeout, False, -1.0
        while time.monotonic() < deadline:
            s = self.look()
            if start < 0:  # the click's own input event (the sidebar clicks of the usable run come later)
                start = s["input"]
                time.sleep(0.03)
                continue
            for kind in ("progress", "status"):
                if s["seen"].get(kind) and row[f"{kind}_s"] is None and s["seen"][kind] >= start:
                    row[f"{kind}_s"] = round((s["seen"][kind] - start) / 1000, 3)
            if done(s["text"]):
                row["finished_s"] = round((s["now"] - start) / 1000, 2)
                self.b.idle()  # the sentence that reports the duration may come at the end of the rerun
                row["reported_s"] = reported(self.look()["text"])
                break
            if usable and not left and row["progress_s"] is not None and s["now"] - start > row["progress_s"] * 1000 + 1000:
                left = True
                row.update(self.leave_and_return(page_title, start))
                if not self.still_there(done):  # back without its progress or its result: lost
                    row["survived"] = False
                    break
            time.sleep(0.05)
        self.results.setdefault(name, []).append(row)
        print(f"  [{self.label}] {name:<24} {json.dumps(row)}", flush=True)
        return row

    def still_there(self, done: Callable[[str], bool], wait: float = 5.0) -> bool:
        """Whether the page, back, shows the step's progress or its result within `wait` seconds."""
        until = time.monotonic() + wait
        while time.monotonic() < until:
            s = self.look()
            if s["busy"] or done(s["text"]):
                return True
            time.sleep(0.1)
        return False

    def leave_and_return(self, page_title: str, start: float) -> dict[str, Any]:
        """Open Journals from the sidebar while the step runs (time to its title), then come back: did it survive?"""
        page = self.b.page
        t0 = page.evaluate("() => performance.now()")
        self.b.go("Journals")
        page.locator("h1").filter(has_text="Journals").first.wait_for(timeout=120_000)
        answer = (page.evaluate("() => performance.now()") - t0) / 1000
        self.b.go(page_title)
        page.locator("h1").filter(has_text=page_title).first.wait_for(timeout=120_000)
        self.b.idle()
        return {"left_after_s": round((t0 - start) / 1000, 2), "answer_s": round(answer, 2), "survived": True}

    # -- the steps -------------------------------------------------------------------------------------------

    def embed(self, run: int, usable: bool) -> None:
        b, page = self.b, self.b.page
        page.goto(b.link())
        b.idle()
        b.go("Library")
        b.idle()
        path = tagged_export(f"{self.label}-{run}")
        page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(path))
        page.get_by_text(f"Preview of {path.name}").first.wait_for(timeout=120_000)
        b.idle()
        corpus = f"heavy-{self.label}-{run}"
        b.type_and_commit("Corpus name", corpus)
        b.idle()
        page.get_by_role("button", name="Import", exact=True).click()
        page.get_by_text(re.compile(r"Imported \d+ rows")).first.wait_for(timeout=300_000)
        b.idle()
        button = page.get_by_role("button", name=re.compile(r"^Embed with "))
        self.timed("embed 98 new papers", button.click,
                   lambda text: bool(re.search(r"Embedded \d+ new papers of", text)),
                   lambda text: _float(re.search(r"Embedded \d+ new papers of .*? in ([\d.]+) s", text)),
                   "Library", usable)

    def umap(self, run: int, usable: bool) -> None:
        b, page = self.b, self.b.page
        page.goto(b.link())
        b.idle()
        page.get_by_role("button", name=re.compile("Map settings")).click()
        b.open_options("Method")
        self.timed("UMAP map (first)", lambda: b.pick("UMAP"),
                   lambda text: bool(re.search(r"(?m)^UMAP: drawing", text)), lambda text: None, "Domain map", usable)

    def train(self, run: int, usable: bool) -> None:
        b, page = self.b, self.b.page
        page.goto(b.link())
        b.idle()
        b.go("Train")
        b.idle()
        before = set(re.findall(r"train-\d{8}-\d{6}-[0-9a-f]+", self.look()["text"]))
        for label, value in (("Epochs", "0.2"), ("Batch size", "16"), ("Max length (tokens)", "64"),
                             ("Max papers", "200"), ("Head warm-up epochs", "0.5")):
            box = page.locator(f"[data-testid=stNumberInput] input[aria-label='{label}']").first
            box.fill(value)
            box.press("Tab")
            b.idle()
        button = page.get_by_role("button", name="Start training")

        def done(text: str) -> bool:
            return any(job not in before for job in re.findall(r"Job (train-\S+) → [^\n]*— completed", text))

        self.timed("training job (small)", button.click, done, lambda text: None, "Train", usable)

    def evaluate(self, run: int, usable: bool) -> None:
        b, page = self.b, self.b.page
        page.goto(b.link())
        b.idle()
        b.go("Evaluate")
        b.idle()
        box = page.locator("[data-testid=stNumberInput] input[aria-label='Seed']").first
        box.fill(str(11 + run))
        box.press("Tab")
        b.idle()
        button = page.get_by_role("button", name="Run evaluation")
        self.timed("Evaluate (default)", button.click,
                   lambda text: f"(seed {11 + run})" in text and "results from the cache" in text,
                   lambda text: _float(re.search(r"results from the cache; ([\d.]+) s", text)), "Evaluate", usable)

    def compare(self, run: int, usable: bool) -> None:
        b, page = self.b, self.b.page
        page.goto(b.link(compare=TUNED))
        b.idle()
        b.go("Compare models")
        page.locator("h1").filter(has_text="Compare models").first.wait_for(timeout=120_000)
        b.idle()
        buttons = page.get_by_role("button", name=re.compile(r"^Evaluate "))
        if not buttons.count():
            print(f"  [{self.label}] Compare: no model left without a stored evaluation", flush=True)
            return
        button = buttons.first
        model = re.search(r"Evaluate (\S+)\s*$", button.inner_text()).group(1)  # after the icon's ligature text
        self.timed("Compare: evaluate a model", button.click,
                   lambda text: f"Evaluated {model} in" in text or (
                       f"No stored evaluation of {model}" not in text and "Mean overlap" in text),
                   lambda text: _float(re.search(rf"Evaluated {re.escape(model)} .*?in ([\d.]+) s", text)),
                   "Compare models", usable)


def _float(match: re.Match | None) -> float | None:
    return float(match.group(1)) if match else None


STEPS = {"embed": 3, "umap": 1, "train": 1, "compare": 2, "evaluate": 3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default=",".join(STEPS), help=f"of {', '.join(STEPS)}")
    parser.add_argument("--before", default="", help="a checkout of the revision before a change (git worktree)")
    parser.add_argument("--after", default=str(ROOT), help="the checkout to time as 'after' (default: this one)")
    parser.add_argument("--runs", type=int, default=0, help="runs per step (default: embed/evaluate 3, others 1-2)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    base = base_workspace()
    roots = {"after": Path(args.after), **({"before": Path(args.before)} if args.before else {})}
    env = {"MIREAD_WARM_NUMBA": "0", "MIREAD_TIMING": "1", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "minilm"}
    results: dict[str, Any] = {"machine": machine(), "command": " ".join([Path(sys.executable).name] + sys.argv),
                               "revisions": {}}
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        heavies: dict[str, Heavy] = {}
        for label, app_root in roots.items():
            workspace = OUT / f"ws-{label}"
            shutil.rmtree(workspace, ignore_errors=True)
            shutil.copytree(base, workspace)
            for cached in (workspace / "arrays" / "maps").glob("*umap*"):  # the UMAP step computes its map
                cached.unlink()
            url, log = stack.enter_context(serve(app_root, workspace, env))
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            stack.callback(context.close)
            context.add_init_script(PROBE)
            context.add_init_script(HEAVY_PROBE)
            bench = Bench(context.new_page(), url, log, "pubmed-demo", 0.3)
            bench.page.goto(bench.link())
            bench.idle()
            heavies[label] = Heavy(bench, label)
        for step in args.steps.split(","):
            runs = args.runs or STEPS[step]
            for run in range(runs):
                order = list(heavies.values()) if run % 2 == 0 else list(heavies.values())[::-1]
                for heavy in order:
                    try:
                        getattr(heavy, step)(run, usable=run == runs - 1)
                    except Exception as exc:  # noqa: BLE001 - one failed step is reported, the others still run
                        print(f"  [{heavy.label}] step {step} failed: {type(exc).__name__}: {str(exc)[:300]}",
                              flush=True)
                        heavy.results.setdefault(f"{step} (failed)", []).append({"error": str(exc)[:300]})
                        heavy.b.page.screenshot(path=str(OUT / f"failed-{heavy.label}-{step}-{run}.png"))
        for label, heavy in heavies.items():
            results["revisions"][label] = heavy.results
    results["machine_after"] = machine()
    (OUT / "heavy.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    text = table(results)
    (OUT / "heavy.md").write_text(text + "\n", encoding="utf-8")
    print("\n" + text)


def table(results: dict[str, Any]) -> str:
    """One row per step and revision: medians over the plain runs, the usable run's answer and survival."""
    lines = ["| step | revision | runs | progress p50 s | status p50 s | finished p50 s | reported p50 s | "
             "answer while running s | survived | progress ≤ 0.5 s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for label, steps in results["revisions"].items():
        for name, rows in steps.items():
            def mid(key: str, rows: list[dict] = rows) -> str:
                values = [r[key] for r in rows if r.get(key) is not None]
                return f"{median(values):.2f}" if values else "–"
            used = [r for r in rows if "answer_s" in r]
            survived = "–" if not used else ("yes" if used[-1]["survived"] and used[-1].get("finished_s") else "**no**")
            answer = f"{used[-1]['answer_s']:.2f}" if used else "–"
            progress = [r["progress_s"] for r in rows if r.get("progress_s") is not None]
            ok = "yes" if progress and max(progress) <= PROGRESS_BUDGET_S else "**no**"
            lines.append(f"| {name} | {label} | {len(rows)} | {mid('progress_s')} | {mid('status_s')} | "
                         f"{mid('finished_s')} | {mid('reported_s')} | {answer} | {survived} | {ok} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
