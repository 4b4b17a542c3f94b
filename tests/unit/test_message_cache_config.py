"""Coming back to the map from another page sends a reference, not the points again (issue 42, BENCHMARKS §30h):
Streamlit reads the repository's `global.maxCachedMessageAge` (its default, 2 runs, forgot the map's 5.5 MB of points
at 50k papers during one visit to another page)."""

from __future__ import annotations

from tests.unit.repo_config import repo_option


def test_streamlit_keeps_large_messages_in_the_browser_for_a_visit_elsewhere():
    assert repo_option("global.maxCachedMessageAge") >= 10


def test_streamlit_does_not_collect_the_whole_heap_after_every_run():
    """Streamlit's default `runner.postScriptGC` runs gc.collect(2) after each script and fragment run, holding the
    GIL 0.2–0.5 s with the model loaded, so the run's last messages (a highlight's bits) waited for it (§31o)."""
    assert repo_option("runner.postScriptGC") is False


def test_streamlit_compiles_pages_without_magic():
    """Magic parsed each page into Python AST objects, which CPython 3.11 does not do safely beside another thread
    (gh-106905): CI once saw "SystemError: AST constructor recursion depth mismatch" when a map job restarted from the
    sidebar ran beside the page's first run. No page writes a bare expression."""
    assert repo_option("runner.magicEnabled") is False
