"""Measuring embeddings: the MIReAD protocols (linear probe, clustering purity, retrieval), the robustness probes of
Singh & Singh (2022) with their text perturbations, the runner that wires them to the store with caching, and the
report tables. Imports `core.embedding` and `core.store`.

Modules: `arrays` (input checks, shared helpers), `protocols` (probe, purity, retrieval, kNN; the table of tasks,
`PROTOCOLS`, one `Task` class each, and `run_protocols`), `robustness` (alternative self, textual neighbours, one
pasted abstract), `perturb` (the text perturbations),
`report` (Result, tables, JSON, markdown), `runner` (store wiring, sampling, cache, `evaluate_models`),
`journal_finder` (the journals task: how often kNN, BM25 and a trained head name the right journal), `verdict`
(whether a model beats another on the same papers: paired bootstrap, 95 % interval, one sentence), `calibration`
(log-loss, ECE, temperature scaling). Dependencies
run one way: arrays, perturb <- robustness, report <- protocols <- runner.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "FAMILIES": "perturb",
    "METHOD_NAMES": "head_vote",
    "METRIC_NAMES": "report",
    "QUICK_SAMPLE": "runner",
    "QUICK_TASKS": "protocols",
    "Result": "report",
    "TASKS": "protocols",
    "Verdict": "verdict",
    "best_per_column": "report",
    "winners": "report",
    "calibration_figures": "calibration",
    "expected_calibration_error": "calibration",
    "fit_temperature": "calibration",
    "head_and_vote": "head_vote",
    "held_out_papers": "runner",
    "head_temperature": "head_vote",
    "method_summary": "head_vote",
    "measurably_better": "head_vote",
    "papers_measured": "head_vote",
    "interval_text": "verdict",
    "log_loss": "calibration",
    "paired_verdict": "verdict",
    "enough_papers": "verdict",
    "proportion_interval": "verdict",
    "softmax": "calibration",
    "clustering_purity": "protocols",
    "evaluate_models": "runner",
    "figures_task": "figures",
    "random_metrics": "figures",
    "rank_metrics": "figures",
    "journal_accuracy": "runner",
    "journal_finder": "journal_finder",
    "knn_quality": "protocols",
    "label_values": "runner",
    "linear_probe": "protocols",
    "neighbours_summary": "robustness",
    "results_table": "report",
    "robustness_for_abstract": "robustness",
    "run_protocols": "protocols",
    "sample_rows": "runner",
    "stored_results": "stored",
    "stored_runs": "stored",
    "shared_sample": "stored",
    "common_sample": "stored",
    "SharedSample": "stored",
    "evaluation_figures": "stored",
    "to_markdown": "report",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
