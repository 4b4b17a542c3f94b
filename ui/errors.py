"""The one way a page shows an error: one red sentence, never a traceback."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.errors import MireadError
from core.records import md_escape


def show_error(message: Any) -> None:
    """The one way a page shows an error: one red sentence, escaped (user text never becomes markdown)."""
    st.error(md_escape(message))


def guarded(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run `fn`; show a MireadError as one red sentence instead of a traceback."""
    try:
        return fn(*args, **kwargs)
    except MireadError as exc:
        show_error(exc)
        return None
