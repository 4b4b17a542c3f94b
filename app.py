"""MIReAD Explorer: the router. Routes live in app_pages/, their shared pieces in ui/; all logic lives in core/."""

import sys
import threading
import time

import streamlit as st

from ui.history import one_entry_per_page
from ui.kept_choices import keep_choices
from ui.resources import begin_run
from ui.shared_view import apply_link, carry_selection, show_link_problems
from ui.sidebar import sidebar

st.set_page_config(page_title="MIReAD Explorer", page_icon="assets/icon.svg", layout="wide")

PAGES = [
    st.Page("app_pages/map.py", title="Domain map", icon=":material/scatter_plot:", default=True),
    st.Page("app_pages/similar.py", title="Similar papers", icon=":material/search:"),
    st.Page("app_pages/journals.py", title="Journals", icon=":material/menu_book:"),
    st.Page("app_pages/library.py", title="Library", icon=":material/library_books:"),
    st.Page("app_pages/train.py", title="Train", icon=":material/model_training:"),
    st.Page("app_pages/evaluate.py", title="Evaluate", icon=":material/analytics:"),
    st.Page("app_pages/compare.py", title="Compare models", icon=":material/compare:", url_path="compare"),
]


@st.cache_resource(show_spinner=False)
def warm_maps_in_background(enabled: bool) -> threading.Thread | None:
    """Compile UMAP's numba kernels (~30 s) once per server in a daemon thread (MIREAD_WARM_NUMBA=0: off).

    Started after the first page has rendered: started before, it competed with that page and made the
    first render 2-3 s slower (benchmarks/bench_cold_start.py).
    """
    if not enabled:
        return None
    from core.explore import warm_numba

    thread = threading.Thread(target=warm_numba, name="warm-numba", daemon=True)
    thread.start()
    return thread


started = time.perf_counter()
page = st.navigation(PAGES)
settings = begin_run()  # this run's settings, built once here; the pages read them through ui.resources.settings()
try:
    if apply_link() and page.url_path != "compare":  # a shared link's view, once per session, before the sidebar
        st.switch_page("app_pages/compare.py", query_params=st.query_params.to_dict())  # ?compare=B: the compare view
    keep_choices()  # the map's colour, topic level, years… as the user left them on another page
    sidebar()
    one_entry_per_page()  # Back leaves a page in one press (ui/history.py)
    carry_selection()  # the corpus and model in the URL on every page: a reload keeps them
    show_link_problems(page.url_path)  # the map and Compare show them in their own place
    page.run()
finally:
    warm_maps_in_background(settings.warm_numba)
    if settings.timing:  # MIREAD_TIMING=1: one line per script run on stderr (benchmarks/bench_interactions.py)
        print(f"MIREAD_TIMING page={page.url_path or 'map'} run_s={time.perf_counter() - started:.4f} "
              f"end={time.time():.4f}", file=sys.stderr, flush=True)
