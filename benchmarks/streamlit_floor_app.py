"""The floor of a map action (benchmark 31d): a bare Streamlit app with the map page's widgets and labels and
nothing behind them — "Colour by" (a page run), "Highlight papers matching" and "Years" in a fragment, a second page
to switch to. `bench_map_component.py --floor` copies it to a folder as app.py and times the same actions on it, so
what a map action costs above Streamlit's own round trip on this machine is measured in the same run."""

from __future__ import annotations

import streamlit as st


def domain_map() -> None:
    st.title("Domain map")
    colour = st.selectbox("Colour by", ["journal", "(none)"])
    st.caption(f"Coloured by {colour}.")

    @st.fragment
    def quick() -> None:
        text = st.text_input("Highlight papers matching")
        st.slider("Years", 1990, 2024, (1990, 2024))
        st.caption(f"{len(text)} characters highlighted.")

    quick()


def similar() -> None:
    st.title("Similar papers")
    st.caption("Another page.")


st.navigation([st.Page(domain_map, title="Domain map", default=True),
               st.Page(similar, title="Similar papers", url_path="similar")]).run()
