"""MIReAD Explorer: the router. Pages live in pages/; all logic lives in core/."""

import os
import threading

import streamlit as st

from pages.common import sidebar

st.set_page_config(page_title="MIReAD Explorer", page_icon="assets/icon.svg", layout="wide")

PAGES = [
    st.Page("pages/map.py", title="Domain map", icon=":material/scatter_plot:", default=True),
    st.Page("pages/similar.py", title="Similar papers", icon=":material/search:"),
    st.Page("pages/journals.py", title="Journals", icon=":material/menu_book:"),
    st.Page("pages/library.py", title="Library", icon=":material/library_books:"),
    st.Page("pages/train.py", title="Train", icon=":material/model_training:"),
    st.Page("pages/evaluate.py", title="Evaluate", icon=":material/analytics:"),
]


@st.cache_resource(show_spinner=False)
def warm_maps_in_background() -> threading.Thread | None:
    """Compile UMAP's numba kernels once per server in a daemon thread (MIREAD_WARM_NUMBA=0 turns it off)."""
    if os.environ.get("MIREAD_WARM_NUMBA", "1") == "0":
        return None
    from core.projection import warm_numba

    thread = threading.Thread(target=warm_numba, name="warm-numba", daemon=True)
    thread.start()
    return thread


warm_maps_in_background()
page = st.navigation(PAGES)
sidebar()
page.run()
