"""The map's widget actions broken down (issue 42, BENCHMARKS §31v): colour journal ↔ none, highlight a word (and
clear it, type it again), one step of the Years window (and back) with the highlight on and off, on the real map
page. Per action: the settle (bench_interactions'
harness: input → the page's last change), the server's script time, the websocket's bytes, the map's frames
(regl-scatterplot's draw events, counted until none has come for 1.5 s), the states applied and index.js's `applyMs`
(the last), a sampling CPU profile of the tab's main thread (CDP `Profiler`; SwiftShader's frames show as
`drawImage`), and with --py-spy a sampling profile of the server (py-spy, the run's own functions, top self time).

    nice -n 10 .venv/bin/python benchmarks/probe_map_actions.py --papers 1000000 --before /tmp/map1mact-before \
        --rounds 2 --out benchmarks/results/probe_map_actions_31v_1m.json

Two servers (before, after) on one workspace (the corpus of bench_map_click.py, synthetic seed 7), one tab each, the
actions alternating before/after within each round.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import (
    SERVER_ENV,
    Bench,
    before_and_after,
    bench_tab,
    synthetic_map_workspace,
)
from bench_map_component import READY, opened
from common import machine
from probe_map_click import quiet_frames
from profile_map_browser import summarise

DATA = "() => { const d = window.__mireadMaps.map.map.wrap.dataset; return {applied: Number(d.applied || 0), " \
       "applyMs: Number(d.applyMs || 0), answered: Number(d.answered || 0), pointDraws: Number(d.pointDraws || 0)}; }"
PY_SPY = os.environ.get("PY_SPY", "/tmp/pyspy/bin/py-spy")


def server_pid(url: str) -> int | None:
    """The pid of the Streamlit server listening on `url`'s port."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True).stdout
    found = re.search(r"pid=(\d+)", out)
    return int(found.group(1)) if found else None


def spy_top(raw: Path, top: int) -> list[tuple[str, int]]:
    """py-spy's raw (collapsed) stacks → the `top` functions by inclusive samples, the app's own and pyarrow/numpy."""
    counts: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        total += int(n)
        seen = set()
        for frame in stack.split(";"):
            name = frame.split(" (")[0] + " " + frame.split("/")[-1].rstrip(")")
            if any(k in frame for k in ("/ui/", "/core/", "/app_pages/", "app.py")) and name not in seen:
                seen.add(name)
                counts[name] += int(n)
    return [("samples", total)] + counts.most_common(top)


def one(b: Bench, name: str, act: Callable[[], None], pid: int | None, spy: bool, top: int,
        spy_dir: Path) -> dict[str, Any]:
    """Measure `act` with the map's frames, applies and profiles around it."""
    b.page.wait_for_function(READY, timeout=900_000)
    b.idle()
    f0 = quiet_frames(b, 1.5)
    d0 = b.page.evaluate(DATA)
    proc = None
    raw = spy_dir / f"{name.replace(' ', '_').replace(':', '')}-{pid}-{time.time():.0f}.txt"
    if spy and pid:
        proc = subprocess.Popen([PY_SPY, "record", "-p", str(pid), "-r", "200", "--format", "raw", "-o", str(raw),
                                 "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
    cdp = b.page.context.new_cdp_session(b.page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 500})
    cdp.send("Profiler.start")
    sample = b.measure(name, act)
    profile = cdp.send("Profiler.stop")["profile"]
    cdp.detach()
    f1 = quiet_frames(b, 1.5)
    d1 = b.page.evaluate(DATA)
    found: dict[str, Any] = {"action": name, "frames": f1 - f0, "applied": d1["applied"] - d0["applied"],
                             "answered": d1["answered"] - d0["answered"],
                             "point_draws": d1["pointDraws"] - d0["pointDraws"], "apply_ms": d1["applyMs"],
                             **sample.__dict__, "profile": summarise(profile, top)}
    if proc is not None:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        if raw.exists():
            found["server"] = spy_top(raw, top)
    return found


def actions(b: Bench, word: str) -> list[tuple[str, Callable[[], None]]]:
    """The widget actions, in the order made (each leaves the page as the next expects)."""
    def pick(option: str) -> Callable[[], None]:
        def act() -> None:
            b.open_options("Colour by")
            b.pick(option)
        return act

    high = b.page.locator("[data-testid=stSlider] input[aria-label='Years — end']").first

    def step(key: str) -> Callable[[], None]:
        def act() -> None:
            high.focus()
            high.press(key)
        return act

    def highlight(text: str) -> Callable[[], None]:
        return lambda: b.type_and_commit("Highlight papers matching", text)

    return [("colour: journal → none", pick("(none)")), ("colour: none → journal", pick("journal")),
            ("highlight a word", highlight(word)), ("year step, highlight on", step("ArrowLeft")),
            ("year step back, highlight on", step("ArrowRight")), ("highlight cleared", highlight("")),
            ("highlight the same word again", highlight(word)), ("highlight cleared again", highlight("")),
            ("year window (one step)", step("ArrowLeft")), ("year window (step back)", step("ArrowRight"))]


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--before", default="", help="a checkout of the revision before")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--py-spy", action="store_true", help="profile the server's run with py-spy")
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    root = synthetic_map_workspace(args.papers)
    env = dict(SERVER_ENV)
    roots = before_and_after(args.before)
    results: dict[str, Any] = {"machine": machine(), "papers": args.papers, "command": " ".join(sys.argv)}
    spy_dir = Path("/tmp/probe_map_actions")
    spy_dir.mkdir(exist_ok=True)
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        benches: dict[str, tuple[Bench, int | None]] = {}
        for label, app_root in roots.items():
            b = bench_tab(stack, browser, app_root, root, env, "synthetic", 1.0)
            print(f"[{label}]", flush=True)
            opened(b, "open the map")
            b.idle()
            benches[label] = (b, server_pid(b.url))
        for k in range(args.rounds):
            order = list(benches.items()) if k % 2 else list(benches.items())[::-1]
            for label, (b, pid) in order:
                for name, act in actions(b, ["galaxy", "protein", "market"][k % 3]):
                    found = one(b, name, act, pid, args.py_spy, args.top, spy_dir)
                    results.setdefault(label, []).append(found)
                    prof = found["profile"]
                    print(f"  [{label}] {name}: frames {found['frames']}, applied {found['applied']} "
                          f"(answered {found['answered']}, last applyMs {found['apply_ms']}), settled "
                          f"{found['total_s']} s, script {found['script_s']} s, map {found['map_s']} s, ws "
                          f"{found['ws_kb']} kB, busy {prof['busy_ms']} ms; top {prof['self'][:5]}"
                          + (f"\n      server {found['server'][:8]}" if found.get("server") else ""), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    sys.exit(main())
