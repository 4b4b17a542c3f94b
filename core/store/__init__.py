"""The workspace on disk: the SQLite catalog (corpora, papers, embedding keys, models, jobs, metrics) and the array files beside it. It owns all SQL; everything else asks it. Imports `core.io` only for import reports.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "ImportReport": "database",
    "Store": "database",
    "atomic_save_npy": "database",
    "check_name": "database",
    "pid_alive": "database",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(import_module(f"{__name__}.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
