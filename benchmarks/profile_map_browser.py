"""Where the browser's time goes for the map at N papers (issue 42, BENCHMARKS §31r): the first draw and a lasso's
let-go, profiled with Chrome's sampling CPU profiler over CDP (`Profiler.start`) in GPU-less Chromium (SwiftShader).

No server: the standalone export page, with N synthetic clustered points handed to the component as
bench_map_fps.py does. For readable names profile an unminified build of the same sources:

    (cd frontend/map && node build.mjs /tmp/map_dev.js --dev)   # esbuild, minify off
    .venv/bin/python benchmarks/profile_map_browser.py --points 1000000 --bundle /tmp/map_dev.js

Prints, per step, the wall time, the main thread's busy time and the functions with the most self time (and the
most total time), and writes each profile (a .cpuprofile, DevTools' format) under --out when given. SwiftShader's
work (rasterising a frame, in the GPU process) shows on the main thread as regl-scatterplot's `drawImage` (its
renderer's canvas copied to the map's: the copy waits for the frame), so `drawImage` is the frames' cost.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench_map_fps import LOAD, MAP, export_page
from common import ROOT

sys.path.insert(0, str(ROOT))

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# A lasso: a circle of a few moves, then let go; resolves when the selection is drawn (the map's "picked" mark and a
# frame after it), with the time from let go.
LASSO = """async () => { const m = window.__mireadMaps.bench.map; let draws = 0;
    m.setMode('lasso');
    m.plot.subscribe('draw', () => { draws += 1; });
    const r = m.canvas.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const rad = 0.35 * Math.min(r.width, r.height);
    const fire = (type, x, y) => m.canvas.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, bubbles: true,
        cancelable: true, composed: true, button: 0, buttons: type === 'mouseup' ? 0 : 1, view: window}));
    const wait = (ms) => new Promise((r) => setTimeout(r, ms));
    await wait(300); fire('mousemove', cx + rad, cy); await wait(300); fire('mousedown', cx + rad, cy);
    for (let k = 1; k < 60; k++) { const a = 2 * Math.PI * k / 60;  // one move an animation frame, as a hand
        await new Promise((r) => requestAnimationFrame(r));
        fire('mousemove', cx + rad * Math.cos(a), cy + rad * Math.sin(a)); }
    await new Promise((r) => setTimeout(r, 200));
    const picked = Number(m.wrap.dataset.picked || 0), during = draws, t1 = performance.now();
    fire('mouseup', cx + rad, cy - 1);
    const letGo = performance.now() - t1;
    while (!(Number(m.wrap.dataset.picked || 0) > picked && draws > during) && performance.now() - t1 < 120000)
        await new Promise((r) => setTimeout(r, 2));
    const drawnAt = performance.now() - t1;
    await new Promise((r) => setTimeout(r, 300));
    m.setMode('panZoom');
    return {letGoMs: letGo, drawnMs: drawnAt, draws: draws - during, selected: m.selection.length,
            frames: Number(m.wrap.dataset.frames || 0)}; }"""


def summarise(profile: dict, top: int) -> dict:
    """Self and total time per function (name + line) of a CDP CPU profile, in ms."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent: dict[int, int] = {}
    for n in profile["nodes"]:
        for c in n.get("children", []):
            parent[c] = n["id"]
    samples, deltas = profile.get("samples", []), profile.get("timeDeltas", [])
    self_ms: dict[str, float] = defaultdict(float)
    total_ms: dict[str, float] = defaultdict(float)
    busy = 0.0
    for sample, delta in zip(samples[1:], deltas[1:], strict=False):  # a sample's time is the next delta
        ms = delta / 1000
        node = nodes[sample]
        frame = node["callFrame"]
        name = f"{frame['functionName'] or '(anonymous)'}:{frame['lineNumber'] + 1}"
        self_ms[name] += ms
        if frame["functionName"] not in ("(idle)", "(program)", "(garbage collector)"):
            busy += ms
        seen: set[str] = set()
        walk: int | None = sample
        while walk is not None:
            f = nodes[walk]["callFrame"]
            key = f"{f['functionName'] or '(anonymous)'}:{f['lineNumber'] + 1}"
            if key not in seen:
                total_ms[key] += ms
                seen.add(key)
            walk = parent.get(walk)
    wall = (profile["endTime"] - profile["startTime"]) / 1000
    rank = lambda d: [[k, round(v, 1)] for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]]  # noqa: E731
    return {"wall_ms": round(wall, 1), "busy_ms": round(busy, 1), "self": rank(self_ms), "total": rank(total_ms)}


def profiled(cdp: Any, page: Any, script: str, arg: Any = None) -> tuple[Any, dict]:
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 500})
    cdp.send("Profiler.start")
    found = page.evaluate(script, arg) if arg is not None else page.evaluate(script)
    profile = cdp.send("Profiler.stop")["profile"]
    return found, profile


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--bundle", type=Path, default=None, help="a bundle to inline (default: the committed one)")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--out", type=Path, default=None, help="a folder for the .cpuprofile files")
    parser.add_argument("--screenshot", type=Path, default=None, help="a PNG of the map after the lasso")
    args = parser.parse_args()
    report: dict[str, Any] = {"points": args.points, "bundle": str(args.bundle or "committed")}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        page_file = export_page(Path(tmp), args.bundle)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        page.goto(page_file.as_uri())
        page.wait_for_function(f"() => window.__mireadMaps && {MAP} && {MAP}.wrap.dataset.ready === '1'",
                               timeout=60_000)
        load_ms, load_profile = profiled(cdp, page, LOAD, args.points)
        parts = page.evaluate("() => window.__mireadMaps.bench.map.wrap.dataset.openParts")
        report["load"] = {"ms": load_ms, "openParts": json.loads(parts or "{}"), **summarise(load_profile, args.top)}
        page.wait_for_timeout(500)
        lasso, lasso_profile = profiled(cdp, page, LASSO)
        if args.screenshot:
            page.screenshot(path=str(args.screenshot))
        report["lasso"] = {**lasso, **summarise(lasso_profile, args.top)}
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"load_{args.points}.cpuprofile").write_text(json.dumps(load_profile))
            (args.out / f"lasso_{args.points}.cpuprofile").write_text(json.dumps(lasso_profile))
        context.close()
        browser.close()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
