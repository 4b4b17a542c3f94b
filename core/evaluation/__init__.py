"""Measuring embeddings: the MIReAD protocols (linear probe, clustering purity, retrieval), the robustness probes of Singh & Singh (2022) with their text perturbations, the runner that wires them to the store with caching, and the report tables. Imports `core.embedding` and `core.store`.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "FAMILIES": "perturb",
    "METRIC_NAMES": "runner",
    "Result": "protocols",
    "TASKS": "protocols",
    "best_per_column": "protocols",
    "clustering_purity": "protocols",
    "evaluate_models": "runner",
    "knn_quality": "protocols",
    "label_values": "runner",
    "linear_probe": "protocols",
    "neighbours_summary": "protocols",
    "results_table": "protocols",
    "robustness_for_abstract": "runner",
    "run_protocols": "protocols",
    "sample_rows": "runner",
    "to_markdown": "protocols",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(import_module(f"{__name__}.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
