"""What the page still changes after a colour change (and a click, a lasso) on the Domain map (BENCHMARKS §31f's leftover): every DOM
mutation from the input to the settled page, grouped by the Streamlit element it lands in (its data-testid and key
class), with the time of its last change. One server on bench_map_component's synthetic workspace.

    cd benchmarks && ../.venv/bin/python probe_colour_settle.py --papers 3000 --rounds 3
    cd benchmarks && ../.venv/bin/python probe_colour_settle.py --papers 3000 --rounds 2 --profile   # + where the
        # browser's main thread spends the colour change (a DevTools CPU profile, self time by function; §31h)
"""

from __future__ import annotations

import argparse
import re
import time

from bench_interactions import MODEL, OUT, PROBE, Bench, serve, synthetic_corpus
from bench_map_component import lasso, pan_mode, point

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS

WATCH = """() => { window.__muts = []; const t0 = performance.now();
  const name = n => { let e = n.nodeType === 1 ? n : n.parentElement; const parts = [];
    while (e && parts.length < 40) { const id = e.getAttribute && e.getAttribute('data-testid');
      const key = e.className && typeof e.className === 'string' && (e.className.match(/st-key-[\\w-]+/) || [])[0];
      if (key) { parts.push(key); break; } if (id && /^st(Element|Vertical|Horizontal|Column|Main|Sidebar)/.test(id) === false) parts.push(id);
      e = e.parentElement; } return parts.slice(0, 3).reverse().join(' > ') || '?'; };
  window.__mo = new MutationObserver(rs => { const now = performance.now();
    for (const r of rs) window.__muts.push([now, r.type, name(r.target), r.attributeName || '']); });
  window.__mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); }"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hover-ms", type=int, default=0, help="wait this long on the point before clicking")
    parser.add_argument("--profile", action="store_true", help="a CPU profile of each colour change: self time by "
                                                                "function, from the input to the settled page")
    args = parser.parse_args()
    from common import ROOT
    from playwright.sync_api import sync_playwright

    from core.store import Store

    root = OUT / f"ws-map-{args.papers}"
    synthetic_corpus(Store(root), "synthetic", args.papers, seed=7)
    env = {"MIREAD_WARM_NUMBA": "0", "MIREAD_TIMING": "1", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": MODEL}
    with sync_playwright() as pw, serve(ROOT, root, env) as (url, log):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.add_init_script(PROBE)
        bench = Bench(context.new_page(), url, log, "synthetic", 0.3)
        bench.page.goto(bench.link())
        bench.idle()
        cdp = bench.page.context.new_cdp_session(bench.page) if args.profile else None
        if cdp is not None:
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        for r in range(args.rounds):
            for option in ("(none)", "journal", "click", "lasso"):
                if option == "lasso":  # a lasso (the side panel's selection list), as bench_map_component
                    bench.page.evaluate(WATCH)
                    sample = bench.measure("lasso", lambda r=r: lasso(bench, 0.1 + 0.05 * (r % 3), 0.1, 0.6, 0.7))
                    pan_mode(bench)
                elif option == "click":  # a click on a paper (the side panel's fragment run), as bench_map_component
                    bench.page.locator(".miread-map-outer button[data-mode=panZoom]").first.click()
                    xy = point(bench, 11 + 13 * r)
                    bench.page.mouse.move(*xy, steps=2)
                    bench.page.wait_for_timeout(args.hover_ms)  # the hover's own frame drawn before the click
                    bench.page.evaluate(WATCH)
                    sample = bench.measure("click", lambda xy=xy: bench.page.mouse.click(*xy))
                else:
                    bench.open_options("Colour by")
                    bench.page.evaluate(WATCH)
                    if cdp is not None:
                        cdp.send("Profiler.start")
                    sample = bench.measure(f"colour → {option}", lambda o=option: bench.pick(o))
                    if cdp is not None:
                        print_profile(cdp.send("Profiler.stop")["profile"])
                muts = bench.page.evaluate("() => { window.__mo.disconnect(); return window.__muts; }")
                start = bench.page.evaluate("() => window.__t.input")
                groups: dict[str, list[float]] = {}
                for at, kind, where, attr in muts:
                    if at >= start:
                        groups.setdefault(f"{kind}{'/' + attr if attr else ''} @ {where}", []).append(at - start)
                print(f"round {r + 1} → {option}: settled {sample.total_s:.3f} s, answer {sample.answer_s}")
                # the server's own run against the browser's view of it (one clock: the same machine)
                origin = bench.page.evaluate("() => performance.timeOrigin")
                t = bench.page.evaluate("() => window.__t")
                # the page's run, or (a colour the browser knows, §31n) the quick controls' fragment run
                runs = [m.groups() for m in re.finditer(
                    r"MIREAD_TIMING page=(map|fragment:quick_controls) run_s=([\d.]+) end=([\d.]+)",
                    log.read_text(errors="replace"))]
                if runs and option in ("(none)", "journal"):
                    kind, run_s, end = runs[-1][0], float(runs[-1][1]), float(runs[-1][2])
                    at = lambda ms: (origin + ms) / 1000  # noqa: E731 - a page time as wall-clock seconds
                    print(f"   server ({kind}): script {1000 * (end - run_s - at(start)):.0f} → {1000 * (end - at(start)):.0f} ms"
                          f" after the input; browser: running {t['runStart'] - start:.0f} → {t['runEnd'] - start:.0f} ms")
                for key, times in sorted(groups.items(), key=lambda kv: -max(kv[1]))[:14]:
                    print(f"   last {max(times):7.0f} ms  first {min(times):7.0f} ms  n {len(times):4d}  {key[:110]}")
                time.sleep(0.5)
                if option == "click":
                    close = bench.page.locator(".st-key-map_panel_close button").first
                    if close.count():
                        close.click()
                        bench.idle()
        browser.close()


def print_profile(profile: dict, top: int = 14) -> None:
    """Self time of the sampled functions (name, file, line), the largest first, and the idle share."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    deltas = profile.get("timeDeltas", [])
    self_ms: dict[str, float] = {}
    for node_id, delta in zip(profile.get("samples", []), deltas[1:] + [0]):
        frame = nodes[node_id]["callFrame"]
        url = frame.get("url", "").rsplit("/", 1)[-1][:40]
        name = f"{frame.get('functionName') or '(anonymous)'} {url}:{frame.get('lineNumber', 0) + 1}"
        self_ms[name] = self_ms.get(name, 0.0) + delta / 1000
    total = sum(self_ms.values())
    print(f"   profile: {total:.0f} ms sampled, (idle) {self_ms.get('(idle) :0', 0.0):.0f} ms, "
          f"(program) {self_ms.get('(program) :0', 0.0):.0f} ms, (garbage collector) "
          f"{self_ms.get('(garbage collector) :0', 0.0):.0f} ms")
    for name, ms in sorted(self_ms.items(), key=lambda kv: -kv[1])[:top]:
        print(f"   {ms:7.1f} ms  {name[:110]}")


if __name__ == "__main__":
    main()
