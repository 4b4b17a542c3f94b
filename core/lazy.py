"""Lazy package exports (PEP 562): a package names its public API without importing its modules up front."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["exporter", "heavy"]


def exporter(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` that loads `name` from `package.<exports[name]>` on first use and keeps it."""

    def __getattr__(name: str) -> Any:
        if name in exports:
            module = import_module(package)
            value = getattr(import_module(f"{package}.{exports[name]}"), name)
            setattr(module, name, value)
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


_HEAVY_IMPORTS = threading.RLock()


def heavy(module: str) -> ModuleType:
    """Import a heavy library (sklearn, umap) under one process-wide lock.

    Background map threads and the page's own thread import these at the same moment on a fresh server; two threads
    inside sklearn's package initialisation at once fail with "partially initialized module" (seen in the browser
    tests). One lock makes the first import serial; later calls return the loaded module at once.
    """
    with _HEAVY_IMPORTS:
        return import_module(module)
