"""MIREAD_TIMING=1: one line on stderr per fragment run on its own, as app.py writes one per page run, so a benchmark
can count a fragment's server time (benchmarks/bench_interactions.py reads both; a fragment inside a page run is
part of that run's line, never counted twice)."""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui.resources import settings

F = TypeVar("F", bound=Callable[..., Any])


def timed(name: str) -> Callable[[F], F]:
    """Wrap a fragment's body (put it under `@st.fragment`): its run time is logged as `page=fragment:<name>`."""

    def wrap(body: F) -> F:
        @functools.wraps(body)
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return body(*args, **kwargs)
            finally:
                ctx = get_script_run_ctx()
                if settings().timing and ctx is not None and ctx.fragment_ids_this_run:  # a fragment's own run
                    print(f"MIREAD_TIMING page=fragment:{name} run_s={time.perf_counter() - started:.4f} "
                          f"end={time.time():.4f}", file=sys.stderr, flush=True)

        return run  # type: ignore[return-value]

    return wrap
