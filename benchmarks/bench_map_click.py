"""Issue 42 (BENCHMARKS §31p): the map's first click on a corpus and the click after it, on the real page at 1M papers,
before and after a change (two servers on one workspace, the corpus of bench_map_component.py), with a profile of
the server during the first click (py-spy, when given) and the other actions of bench_map_component.py after it.

    .venv/bin/python benchmarks/bench_map_click.py --papers 1000000 --before /tmp/map1m2-before \
        [--spy /tmp/spyenv/bin/py-spy] [--rounds 1] [--out benchmarks/results/bench_map_click_31p.json]

Per server, in order: open the map (server cold: the frame read, the map, the colour codes), open it again (warm),
click a paper (the first click on this corpus), close the panel, click another paper (second), then with --rounds
bench_map_component's actions but the topics (open warm, colour, highlight, year step, click, lasso). The servers alternate.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
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
from bench_map_component import READY, lasso, opened, pan_mode, point, widget_actions
from common import ROOT, machine


def server_pid(url: str) -> int | None:
    """The Streamlit server serving `url` (found by its --server.port in /proc)."""
    port = url.rsplit(":", 1)[1]
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(args) and port.encode() in args:
            return int(proc.name)
    return None


class Spy:
    """py-spy recording one server while an action runs (a no-op without py-spy's path)."""

    def __init__(self, spy: str, b: Bench, profile: Path | None) -> None:
        self.spy, self.b, self.profile, self.proc = spy, b, profile, None

    def __enter__(self) -> Spy:
        if self.spy and self.profile is not None:
            self.proc = subprocess.Popen([self.spy, "record", "-p", str(server_pid(self.b.url)), "-o",
                                          str(self.profile), "-f", "speedscope", "-r", "50", "--nonblocking"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
            time.sleep(1.0)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.send_signal(2)  # SIGINT: py-spy writes its profile
            self.proc.wait(timeout=120)


def click(b: Bench, row: int, name: str, spy: str = "", profile: Path | None = None) -> None:
    """Click the paper drawn at `row` (Pan mode, the mouse moved there first), then close its panel."""
    b.page.wait_for_function(READY, timeout=900_000)
    pan_mode(b)
    xy = point(b, row)
    if not xy:
        b.notes[name] = "no point"
        return
    b.page.mouse.move(*xy, steps=2)
    with Spy(spy, b, profile):
        b.measure(name, lambda: b.page.mouse.click(*xy))
    close = b.page.locator(".st-key-map_panel_close button").first
    if close.count():
        close.click()
        b.idle()


def round_actions(b: Bench, i: int, spy: str = "", profile: Path | None = None) -> None:
    """bench_map_component's actions without the topics (k-means of 1M papers is not this benchmark's): the open
    (warm), colour, highlight, year step, a click, a lasso."""
    opened(b, "open the map (warm, same tab)")
    b.idle()
    b.page.wait_for_function(READY, timeout=900_000)
    widget_actions(b, i)
    click(b, 50 + 13 * i, "click a paper (side panel)")
    with Spy(spy, b, profile):
        b.measure("lasso a region (list)", lambda: lasso(b, 0.1 + 0.05 * (i % 3), 0.1, 0.6, 0.7))
    pan_mode(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=1_000_000)
    parser.add_argument("--before", default="", help="a checkout of the revision before")
    parser.add_argument("--spy", default="", help="py-spy's path: profile each server during its first click")
    parser.add_argument("--rounds", type=int, default=0, help="rounds of bench_map_component's actions after")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "bench_map_click_31p.json"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    root = synthetic_map_workspace(args.papers)
    env = dict(SERVER_ENV)
    roots = before_and_after(args.before)
    results: dict[str, Any] = {"machine": machine(), "papers": args.papers, "command": " ".join(sys.argv)}
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        benches: dict[str, Bench] = {}
        for label, app_root in roots.items():
            benches[label] = bench_tab(stack, browser, app_root, root, env, "synthetic", 1.0)
        for label, b in benches.items():  # one after the other: two cold servers at once would share the CPU
            print(f"[{label}]", flush=True)
            opened(b, "open the map (server cold)")
            b.idle()
            opened(b, "open the map (warm, same tab)")
            b.idle()
            profile = Path(args.out).with_name(f"{Path(args.out).stem}_{label}_first_click.speedscope.json")
            click(b, 11, "click a paper: first on the corpus", args.spy, profile)
            click(b, 24, "click a paper: second")
            click(b, 37, "click a paper: third")
        for i in range(args.rounds):
            order = list(benches.items()) if i % 2 else list(benches.items())[::-1]
            for label, b in order:
                print(f"-- round {i + 1} [{label}]", flush=True)
                try:
                    round_actions(b, i, args.spy if i == 0 else "",
                                  Path(args.out).with_name(f"{Path(args.out).stem}_{label}_lasso.speedscope.json"))
                except Exception as exc:  # noqa: BLE001 - one failed round is reported, the others still run
                    b.notes[f"round{i}_failed"] = f"{type(exc).__name__}: {str(exc)[:300]}"
                    print(f"  failed: {exc}", flush=True)
        for label, b in benches.items():
            results[label] = {"notes": b.notes, "actions": {k: [s.__dict__ for s in v] for k, v in b.results.items()}}
    Path(args.out).write_text(json.dumps(results, indent=1))
    for label in roots:
        print(label, {k: [s["total_s"] for s in v] for k, v in results[label]["actions"].items()})


if __name__ == "__main__":
    sys.exit(main())
