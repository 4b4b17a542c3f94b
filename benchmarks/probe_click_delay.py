"""Where a click on a paper waits before the map answers it (BENCHMARKS §31i): the time from the click's pointerup to
the canvas's click event, to the map's own handler (the pinned card: `data-answered`), and the animation frames the
browser drew in between; the same for a hover (the mouse onto a paper → its hover card shown). Against a running app
(any workspace), Domain map, headless Chromium at 1400 × 1000.

    cd benchmarks && ../.venv/bin/python probe_click_delay.py --url http://127.0.0.1:8712 --rounds 12
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, wait_idle  # noqa: E402

MAP = "window.__mireadMaps.map.map"
MARKS = """() => { const m = MAP, t = window.__click = {frames: 0};
  for (const kind of ['pointerup', 'click']) document.addEventListener(kind, () => { t[kind] = performance.now();
    t.framesAt = t.framesAt || {}; t.framesAt[kind] = t.frames; }, true);
  const tick = () => { t.frames += 1; requestAnimationFrame(tick); }; requestAnimationFrame(tick);
  new MutationObserver(() => { t.answer = performance.now(); t.framesAnswer = t.frames; })
    .observe(m.wrap, {attributes: true, attributeFilter: ['data-answered']});
  new MutationObserver(() => { if (m.card.style.display === 'block' && !t.card) t.card = performance.now(); })
    .observe(m.card, {attributes: true, attributeFilter: ['style']}); }""".replace("MAP", MAP, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the running app's address")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--hover-ms", type=int, default=0, help="rest this long on the paper before clicking")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    rows: list[dict] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.goto(args.url)
        wait_idle(page)
        page.wait_for_function("() => window.__mireadMaps?.map?.map?.wrap.dataset.ready === '1'", timeout=240_000)
        page.wait_for_timeout(1500)
        page.evaluate(MARKS)
        n = page.evaluate(f"() => {MAP}.n")
        for k in range(args.rounds):
            row = (37 + 211 * k) % n
            xy = page.evaluate(f"row => {{ {MAP}.wrap.scrollIntoView({{block: 'center'}}); return {MAP}.pageXY(row); }}",
                               row)
            page.mouse.move(5, 5)
            page.wait_for_timeout(300)
            page.evaluate("() => { const t = window.__click; t.card = 0; t.moved = performance.now(); }")
            page.mouse.move(*xy)
            page.wait_for_timeout(max(args.hover_ms, 250))
            t0 = page.evaluate("() => { const t = window.__click; t.answer = 0; return t.card ? t.card - t.moved : null; }")
            page.mouse.click(*xy)
            page.wait_for_timeout(400)
            t = page.evaluate("() => window.__click")
            if not t.get("answer"):
                print(f"round {k + 1}: row {row} not answered (a miss)")
                continue
            rows.append({"hover_card_ms": t0, "up_to_click_ms": t["click"] - t["pointerup"],
                         "click_to_answer_ms": t["answer"] - t["click"], "up_to_answer_ms": t["answer"] - t["pointerup"],
                         "frames_between": t["framesAnswer"] - t["framesAt"]["click"]})
            print(f"round {k + 1}: " + json.dumps({key: None if v is None else round(v, 1) for key, v in rows[-1].items()}))
            wait_idle(page)
        browser.close()
    for key in rows[0] if rows else []:
        got = [r[key] for r in rows if r[key] is not None]
        if got:
            print(f"{key:>20}: median {statistics.median(got):7.1f}  min {min(got):7.1f}  max {max(got):7.1f}  n {len(got)}")


if __name__ == "__main__":
    main()
