"""Browser fixtures and page helpers for the Playwright tests (Debian chromium, one server per module)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, ROOT, streamlit_server, wait_idle

if TYPE_CHECKING:
    from core.store import Store

ARTIFACTS = ROOT / "test-artifacts"
FIXTURES = ROOT / "tests" / "fixtures" / "e2e"
VIEWPORT = {"width": 1400, "height": 1000}
PATIENCE_MS = int(os.environ.get("MIREAD_E2E_PATIENCE_MS", "240000"))  # generous: on two busy cores the first UMAP compile and model loads take minutes
T = TypeVar("T")


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """One headless Debian chromium for the whole run."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (run `make chromium`)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=PATIENCE_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


MAP = ".miread-map"  # the map component's root (inside its element's shadow root; Playwright pierces it)
TOOLS = ".miread-map-outer"  # the map with its tool row and legend


def map_js(hub: str = "map") -> str:
    """A JS expression for the map component drawn for registry entry `hub` (the Domain map's: "map")."""
    return f"(window.__mireadMaps && window.__mireadMaps[{hub!r}] && window.__mireadMaps[{hub!r}].map)"


def on_hub(hub: str | None) -> str:
    """A CSS attribute filter for the map of `hub` (none: the page's first map)."""
    return "" if hub is None else f"[data-hub={hub}]"


MAP_JS = map_js()


def draw_lasso(page, left: float, top: float, right: float, bottom: float, mode: str = "lasso",
               hub: str | None = None) -> None:
    """Drag a lasso (or with mode 'rectangle', a box) over a part of the page's map (the map of `hub`; fractions of
    its canvas)."""
    page.locator(f"{TOOLS}{on_hub(hub)} button[data-mode={mode}]").first.click()
    canvas = page.locator(f"{MAP}{on_hub(hub)} canvas").first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    assert box
    width, height = box["width"] - 6, box["height"] - 6
    x0, y0 = box["x"] + 3 + left * width, box["y"] + 3 + top * height
    x1, y1 = box["x"] + 3 + right * width, box["y"] + 3 + bottom * height
    mouse = page.mouse
    mouse.move(x0, y0)
    mouse.down()
    # a box is dragged from one corner to the other (its last point is its corner); a lasso goes round
    path = ((x1, y0), (x1, y1)) if mode == "rectangle" else ((x1, y0), (x1, y1), (x0, y1), (x0, y0 + 2))
    for x, y in path:
        mouse.move(x, y, steps=8)
    mouse.up()


class Tab:
    """A browser tab on the app that records dialogs and page errors, with Streamlit-aware actions."""

    def __init__(self, page, url: str):
        self.page, self.url = page, url
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.set_default_timeout(PATIENCE_MS)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(self) -> Tab:
        self.page.goto(self.url)
        self.idle()
        return self

    def idle(self) -> None:
        wait_idle(self.page, timeout=PATIENCE_MS)

    def eventually(self, check: Callable[[], T]) -> T:
        """Retry an assertion until it holds: the app reruns a moment after each action."""
        deadline = time.monotonic() + PATIENCE_MS / 1000
        while True:
            try:
                return check()
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
                self.page.wait_for_timeout(300)

    def go(self, title: str) -> None:
        """Open a page from the sidebar navigation."""
        self.page.locator("[data-testid=stSidebarNav]").get_by_role("link", name=title, exact=True).click()
        self.page.get_by_role("heading", name=title).first.wait_for()
        self.idle()

    def choose(self, label: str, option: str) -> None:
        """Pick an option of the select box with this label (its list opened again when a click did not open it:
        a rerun landing on the click swallows it)."""
        box = self.page.get_by_role("combobox", name=label, exact=True)
        wanted = self.page.get_by_role("option", name=option, exact=True)
        for _ in range(3):
            box.click()
            try:
                wanted.wait_for(timeout=5000)
                break
            except Exception:  # noqa: BLE001 - the list did not open (or not yet): click again
                self.page.keyboard.press("Escape")
        wanted.click()
        self.idle()

    def fill(self, label: str, text: str) -> None:
        """Type into the text input or text area with this label and commit it."""
        field = self.page.locator(f"[data-testid=stTextInput] input[aria-label='{label}'], "
                                  f"[data-testid=stTextArea] textarea[aria-label='{label}']").first
        field.fill(text)
        field.press("Tab")
        self.idle()

    def click(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()
        self.idle()

    def see(self, text: str | re.Pattern, where: str = "[data-testid=stAlert]") -> str:
        """Wait until an element (an alert by default) shows `text`; return that element's text."""
        element = self.page.locator(where).filter(has_text=text).first
        element.wait_for()
        return " ".join(element.inner_text().split())

    def map_drawn(self, embed: re.Pattern | None = None, hub: str | None = None):
        """The map's canvas (the map of `hub`) once the component has drawn every point. With `embed`, click that
        Embed button when the page offers it instead, again if a rerun swallowed the click; on time-out the
        assertion shows the page's text."""
        canvas = self.page.locator(f"{MAP}{on_hub(hub)}[data-ready='1'] canvas").first

        def drawn() -> None:
            self.idle()
            if embed is not None and not canvas.count():
                button = self.page.get_by_role("button", name=embed)
                if button.count():
                    button.first.click()
                    self.idle()
            assert canvas.count(), " ".join(self.page.locator("[data-testid=stMain]").inner_text().split())[-800:]
        self.eventually(drawn)
        return canvas

    def map_view(self, hub: str = "map") -> dict:
        """What the map component (of `hub`) shows: points drawn and shown, the legend, stars, the last events, its
        state, the highlighted (unfaded) rows, the selected rows, the row a linked map's hover rings here."""
        return self.page.evaluate(f"""() => {{ const m = {map_js(hub)}; if (!m) return null;
            const s = (m.state && m.state.state) || {{}};
            return {{drawn: m.n, shown: Number(m.wrap.dataset.shown || m.n), ready: m.wrap.dataset.ready,
                     key: m.key, mode: m.mode, stars: Number(m.wrap.dataset.stars || 0),
                     legend: [...m.legend.querySelectorAll('.miread-legend-entry')].map(e => ({{
                        text: e.textContent, hidden: e.dataset.hidden === '1'}})),
                     labels: (s.labels || []).map(l => l.text), lines: (s.lines || []).length,
                     rings: m.overlayState ? m.overlayState.rings.length : 0, years: s.years || null,
                     play: s.play || null, faded: Array.from(m.weight).filter(w => w < 1).length,
                     codes: Array.from(m.codes), titles: Array.from(m.text.title || []),
                     applied: Number(m.wrap.dataset.applied || 0), frame: m.wrap.dataset.frame || null,
                     frames: Number(m.wrap.dataset.frames || 0),
                     filtered: m.plot.get('isPointsFiltered') ? m.plot.get('filteredPoints').length : m.n,
                     starred: (m.overlayState ? [...m.overlayState.stars, ...(m.overlayState.star ?
                        [m.overlayState.star] : [])] : []).map(s => s.label),
                     highlighted: Array.from(m.weight).some(w => w < 1)
                        ? Array.from(m.weight).flatMap((w, i) => w < 1 ? [] : [i]) : [],
                     selection: Array.from(m.selection || []),
                     linked: m.wrap.dataset.linked ? Number(m.wrap.dataset.linked) : null,
                     card: m.card.style.display === 'block' ? m.card.textContent : null,
                     cardHtml: m.card.innerHTML}}; }}""")

    def map_point(self, row: int | None = None, title: str | None = None, hub: str = "map") -> tuple[float, float]:
        """Scroll a paper's point (by row, or the first title containing `title`) into view; its page position."""
        xy = self.page.evaluate(f"""([row, needle]) => {{ const m = {map_js(hub)};
            let i = row;
            if (i === null) i = Array.from(m.text.title).findIndex(t => String(t).includes(needle));
            if (i < 0) return null;
            m.wrap.scrollIntoView({{block: 'center'}});
            const xy = m.pageXY(i);  // not yet placed (a window loading, a camera mid-flight): none
            return xy.every(Number.isFinite) ? xy : null; }}""", [row, title])
        assert xy, f"no map point for {row if title is None else title!r}"
        return xy[0], xy[1]

    def hover_card(self, row: int | None = None, title: str | None = None, hub: str | None = None) -> str:
        """Move the mouse onto a paper's point (on the map of `hub`) and return its hover card's text (again if a
        rerun redrew the map, the background map replacing the preview, between finding the point and reaching
        it)."""
        card = self.page.locator(f"{MAP}{on_hub(hub)} .miread-card").first

        def shown() -> str:
            self.map_drawn(hub=hub)
            x, y = self.map_point(row, title, hub=hub or "map")
            self.page.mouse.move(0, 0)
            self.page.mouse.move(x, y, steps=3)
            try:
                card.wait_for(state="visible", timeout=3_000)
            except Exception as exc:  # a Playwright time-out: try again (eventually retries assertions)
                raise AssertionError(f"no hover card: {exc}") from None
            return card.text_content() or ""
        return self.eventually(shown)

    def click_point(self, row: int | None = None, title: str | None = None, hub: str | None = None) -> None:
        """Click a paper's point on the map (of `hub`; in Pan mode) and wait for the app."""
        self.map_drawn(hub=hub)
        self.page.locator(f"{TOOLS}{on_hub(hub)} button[data-mode=panZoom]").first.click()
        x, y = self.eventually(lambda: self.map_point(row, title, hub=hub or "map"))
        self.page.mouse.move(x, y, steps=2)
        self.page.mouse.click(x, y)
        self.idle()

    def expanders(self) -> list[str]:
        """The summary line of every expander on the page."""
        labels = self.page.locator("[data-testid=stExpander] summary [data-testid=stMarkdownContainer]")
        return [" ".join(s.split()) for s in labels.all_inner_texts()]

    def results(self) -> list[str]:
        """The similar-papers result lines ('1. title · 0.987')."""
        return [e for e in self.expanders() if e[:1].isdigit()]

    def cells(self) -> list[str]:
        """The text of every cell of the data tables on the page (from the grids' accessible DOM)."""
        return [c.strip() for c in self.page.locator("[data-testid=stDataFrame] [role=gridcell]").all_text_contents()]

    def charts(self) -> list[list[dict]]:
        """Each plotly chart's traces as {name, type, n, x (bars only)}, read from the live plotly DOM."""
        self.page.locator("[data-testid=stPlotlyChart] .js-plotly-plot").first.wait_for()
        return self.page.evaluate("""() => [...document.querySelectorAll('[data-testid=stPlotlyChart] .js-plotly-plot')]
            .map(gd => (gd._fullData || []).map(t => ({name: t.name, type: t.type, n: t.x ? t.x.length : 0,
                                                       x: t.type === 'bar' ? Array.from(t.x) : null})))""")

    def lasso(self, left: float = 0.0, top: float = 0.0, right: float = 1.0, bottom: float = 1.0,
              hub: str | None = None) -> None:
        """Draw a lasso over a part of the first map, or of the map of `hub` (fractions of its plot area)."""
        draw_lasso(self.page, left, top, right, bottom, hub=hub)
        self.idle()

    def snap(self, name: str) -> Path:
        """Screenshot the whole app (the viewport grows to the page's height) into test-artifacts/."""
        ARTIFACTS.mkdir(exist_ok=True)
        height = self.page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], [data-testid=stSidebarContent]')]"
            ".map(e => e.scrollHeight))")
        self.page.set_viewport_size({"width": VIEWPORT["width"], "height": max(VIEWPORT["height"], min(height, 6000))})
        self.page.wait_for_timeout(400)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        self.page.set_viewport_size(VIEWPORT)
        return path


def tiny_store(tmp_path_factory: pytest.TempPathFactory, name: str) -> Store:
    """An empty workspace that knows the tiny random model as 'tiny'."""
    from core.embedding import build_tiny_model
    from core.store import Store
    from tests.helpers import register_tiny

    root = tmp_path_factory.mktemp(name)
    store = Store(root / "ws")
    register_tiny(store, build_tiny_model(root / "tiny-model"))
    return store


def embedded_store(tmp_path_factory: pytest.TempPathFactory, name: str, corpus: str, papers: list,
                   source: str) -> Store:
    """A tiny_store holding `papers` as `corpus`, embedded with the tiny model."""
    from core.embedding import embed_corpus

    store = tiny_store(tmp_path_factory, name)
    store.import_papers(corpus, papers, source=source)
    embed_corpus(store, corpus, "tiny")
    return store


def open_final_map(tab: Tab) -> None:
    """The Domain map with the tiny model, once the UMAP map has replaced its PCA preview (the map that stays is the
    one zoomed, linked and tested)."""
    tab.go("Domain map")
    tab.choose("Model", "tiny")
    tab.eventually(lambda: _preview_gone(tab))
    tab.map_drawn()


def _preview_gone(tab: Tab) -> None:
    assert tab.page.get_by_text("Preview: PCA").count() == 0, "still the PCA preview"


@contextmanager
def app_tab(browser, store: Store, env: dict[str, str] | None = None) -> Iterator[Tab]:
    """One app server on `store` (background UMAP warm-up off: the flows reach the map seconds after start, where it
    would compile beside the map's own compile on two cores) and one browser tab on it."""
    with streamlit_server(store.root, env={"MIREAD_WARM_NUMBA": "0", **(env or {})}, timeout=240) as url:
        context = browser.new_context(viewport=VIEWPORT)
        yield Tab(context.new_page(), url).open()
        context.close()
