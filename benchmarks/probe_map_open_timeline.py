"""The open of the Domain map in the browser, on one clock (issue 42, BENCHMARKS §31aa): navigation → the document →
Streamlit's scripts → the websocket open → each message (size, arrival) → blob URLs made (Streamlit's inline component
scripts) → the map's bundle fetched by path → the WebGL context (and how long getContext took) → the hover index
worker → the heavy instance mounted → its first frame (openParts.readyAt) → coloured; and the CPU the page spent by
script (a CDP profile's self time: Streamlit, the map's bundle as a blob or by path, GC, the rest). With --floor the
bare Streamlit app (streamlit_floor_app.py) opens too, to its caption.

    .venv/bin/python benchmarks/probe_map_open_timeline.py --papers 3000 [--before /tmp/x-before] [--floor] \
        [--opens 4] [--profile] [--out benchmarks/results/x.json]

Each server's first open is cold (a fresh server and tab); the later ones are warm navigations of the same tab.
The servers alternate per open (A B C, C B A, ...).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_interactions import PROBE, SERVER_ENV, Bench, before_and_after, serve, synthetic_map_workspace
from bench_map_component import floor_root
from common import ROOT

sys.path.insert(0, str(ROOT))

HOOKS = """(() => { const T = window.__open = {ws: [], blobs: [], gl: [], workers: [], wsOpen: null};
    const W = window.WebSocket;
    window.WebSocket = class extends W { constructor(...a) { super(...a);
        this.addEventListener('open', () => { T.wsOpen = T.wsOpen || performance.now(); });
        this.addEventListener('message', (e) => { const d = e.data;
            T.ws.push([performance.now(), d.byteLength ?? d.size ?? d.length]); }); } };
    const make = URL.createObjectURL;
    URL.createObjectURL = function (b) { const t = performance.now(), u = make.call(URL, b);
        T.blobs.push([t, performance.now() - t, b && b.size || 0, (b && b.type) || '']); return u; };
    const ctx = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) { const t = performance.now();
        const c = ctx.call(this, kind, ...rest);
        if (String(kind).startsWith('webgl')) T.gl.push([t, performance.now() - t, kind, !!c]); return c; };
    const Wk = window.Worker;
    window.Worker = class extends Wk { constructor(...a) { super(...a); T.workers.push([performance.now(),
        (a[1] && a[1].name) || '']); } };
    const look = () => { const e = window.__mireadMaps && window.__mireadMaps.map;
        if (e && e.map && !T.mounted) T.mounted = performance.now();
        if (!T.floor && document.body && document.body.textContent.includes('characters highlighted'))
            T.floor = performance.now();
        if (!T.floor && !(e && e.map && e.map.wrap && e.map.wrap.dataset.applied)) requestAnimationFrame(look);
        else T.done = performance.now(); };
    requestAnimationFrame(look);
    T.tasks = []; new PerformanceObserver((l) => { for (const t of l.getEntries()) T.tasks.push([t.startTime,
        t.duration]); }).observe({type: 'longtask', buffered: true});
    T.first = {}; new MutationObserver(() => { for (const [k, sel] of [['element', '[data-testid^=stBidiComponent]'],
        ['sidebar', '[data-testid=stSidebar]'], ['main', '[data-testid=stMainBlockContainer] h1, .stHeading'],
        ['canvas', 'canvas']]) if (!T.first[k] && document.querySelector(sel)) T.first[k] = performance.now(); })
        .observe(document, {subtree: true, childList: true}); })();"""
READY = """() => { const T = window.__open || {}; if (T.floor) return {floor: T.floor};
    const m = window.__mireadMaps && window.__mireadMaps.map && window.__mireadMaps.map.map;
    if (!m) return null; const d = m.wrap.dataset;
    return {ready: d.ready || null, applied: d.applied || null, parts: d.openParts ? JSON.parse(d.openParts) : null}; }"""
TIMING = """() => { const n = performance.getEntriesByType('navigation')[0] || {};
    const res = performance.getEntriesByType('resource');
    const js = res.filter(r => r.initiatorType === 'script' || r.name.endsWith('.js'));
    const bundle = res.filter(r => r.name.includes('bidi-components'));
    return {responseEnd: n.responseEnd, domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd,
            scriptsEnd: js.length ? Math.max(...js.filter(r => !r.name.includes('bidi-components'))
                .map(r => r.responseEnd)) : null, scripts: js.length,
            bundle: bundle.map(r => [r.startTime, r.responseEnd, r.transferSize, r.decodedBodySize]),
            open: window.__open}; }"""


def cpu_by_script(profile: dict[str, Any]) -> dict[str, float]:
    """A CDP CPU profile's self time (ms) by where it ran: the map's bundle (blob or path), Streamlit, GC, idle..."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    times = profile.get("timeDeltas", [])
    out: dict[str, float] = {}
    for sample, dt in zip(profile.get("samples", []), times):
        frame = nodes[sample]["callFrame"]
        url, name = frame.get("url", ""), frame.get("functionName", "")
        if "bidi-components" in url or url.startswith("blob:") or "st-bidi-miread_map" in url:
            key = "map bundle"
        elif url.startswith("blob:") or "st-bidi" in url:
            key = "other components"
        elif "/static/js/" in url:
            key = "streamlit"
        elif name.startswith("("):
            key = name
        elif url:
            key = "other scripts"
        else:
            key = "native"
        out[key] = out.get(key, 0.0) + dt / 1000.0
    return {k: round(v, 1) for k, v in sorted(out.items(), key=lambda kv: -kv[1])}


def top_functions(profile: dict[str, Any], n: int = 25) -> list[list[Any]]:
    """A CDP CPU profile's `n` costliest functions by self time (ms): name, script file, line."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    out: dict[tuple, float] = {}
    for sample, dt in zip(profile.get("samples", []), profile.get("timeDeltas", [])):
        f = nodes[sample]["callFrame"]
        up, caller = sample, ""
        while not f.get("url") and up in parent and not caller:  # a native call: the script that made it
            up = parent[up]
            g = nodes[up]["callFrame"]
            if g.get("url"):
                caller = f"{g.get('functionName') or '?'}@{g['url'].rsplit('/', 1)[-1][:30]}:{g.get('lineNumber')}"
        key = (f.get("functionName") or "(anonymous)", f.get("url", "").rsplit("/", 1)[-1][:40] or caller,
               f.get("lineNumber"))
        out[key] = out.get(key, 0.0) + dt / 1000.0
    return [[*k, round(v, 1)] for k, v in sorted(out.items(), key=lambda kv: -kv[1])[:n]]


def summary(raw: dict[str, Any], ready: dict[str, Any] | None, wall: float | None) -> dict[str, Any]:
    """The open's marks in seconds on the document's clock."""
    o = raw.get("open") or {}
    ws = o.get("ws", [])
    s = lambda ms: None if ms is None else round(ms / 1000, 3)  # noqa: E731
    parts = (ready or {}).get("parts") or {}
    return {
        "wall_s": wall, "doc_s": s(raw.get("responseEnd")), "scripts_s": s(raw.get("scriptsEnd")),
        "dom_s": s(raw.get("domContentLoaded")), "ws_open_s": s(o.get("wsOpen")),
        "ws_kb": round(sum(b for _, b in ws) / 1e3, 1), "ws_messages": len(ws),
        "ws_big": [[s(t), round(b / 1e3)] for t, b in ws if b > 20_000],
        "ws_last_s": s(ws[-1][0]) if ws else None,
        "blobs": [[s(t), round(d, 1), round(b / 1e3), kind] for t, d, b, kind in o.get("blobs", [])],
        "bundle": [[s(a), s(b), round(t / 1e3), round(d / 1e3)] for a, b, t, d in raw.get("bundle", [])],
        "webgl": [[s(t), round(d, 1)] for t, d, *_ in o.get("gl", [])],
        "workers": [[s(t), n] for t, n in o.get("workers", [])],
        "mounted_s": s(o.get("mounted")), "ready_s": s(parts.get("readyAt")),
        "draw_ms": parts.get("drawMs"), "done_s": s(o.get("done") or o.get("floor")),
        "first_s": {k: s(v) for k, v in (o.get("first") or {}).items()},
        "long_tasks": [[s(t), round(d)] for t, d in o.get("tasks", [])],
    }


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=3000)
    parser.add_argument("--before", default="")
    parser.add_argument("--floor", action="store_true")
    parser.add_argument("--opens", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--profile", action="store_true", help="a CDP CPU profile of each open (adds overhead)")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    root = synthetic_map_workspace(args.papers)
    roots = {**before_and_after(args.before), **({"floor": floor_root()} if args.floor else {})}
    found: dict[str, list] = {}
    with sync_playwright() as pw, ExitStack() as stack:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        served = {label: stack.enter_context(serve(app_root, root, dict(SERVER_ENV))) for label, app_root in
                  roots.items()}
        tabs: dict[str, Any] = {}
        for k in range(args.opens):
            for label in (list(served) if k % 2 == 0 else list(served)[::-1]):
                url, log = served[label]
                if label not in tabs:
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    context.add_init_script(PROBE)
                    context.add_init_script(HOOKS)
                    tabs[label] = context.new_page()
                page = tabs[label]
                cdp = page.context.new_cdp_session(page)
                if args.profile:
                    cdp.send("Profiler.enable")
                    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                    cdp.send("Profiler.start")
                t0 = time.perf_counter()
                page.goto(Bench(page, url, log, "synthetic", 1.0).link() if label != "floor" else url)
                deadline = t0 + (300 if k == 0 else args.seconds)
                ready, wall = None, None
                while time.perf_counter() < deadline:
                    try:
                        ready = page.evaluate(READY)
                    except Exception:  # noqa: BLE001 - navigating
                        ready = None
                    if ready and (ready.get("floor") or (ready.get("ready") == "1" and ready.get("applied"))):
                        wall = round(time.perf_counter() - t0, 3)
                        break
                    time.sleep(0.05)
                profile = cdp.send("Profiler.stop")["profile"] if args.profile else None
                cpu = cpu_by_script(profile) if profile else None
                time.sleep(1.0)
                one = summary(page.evaluate(TIMING), ready, wall)
                one["cold"] = k == 0
                if cpu is not None:
                    one["cpu_ms"] = cpu
                    one["top_ms"] = top_functions(profile)
                cdp.detach()
                found.setdefault(label, []).append(one)
                print(label, k, json.dumps(one), flush=True)
    for label, opens in found.items():
        warm = [o for o in opens if not o["cold"]]
        for key in ("wall_s", "done_s", "ws_kb", "ready_s", "mounted_s"):
            vals = [o[key] for o in warm if o.get(key) is not None]
            if vals:
                print(f"{label:7s} warm {key:10s} median {statistics.median(vals):8.3f}  {vals}")
    if args.out:
        Path(args.out).write_text(json.dumps({"papers": args.papers, "opens": found}, indent=1))


if __name__ == "__main__":
    main()
