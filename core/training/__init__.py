"""The side loop: training configuration and validation, the class and paper selection, objectives, the fine-tuning
loop, and the background jobs that run it in a child process (`python -m core.training.worker`). Imports
`core.embedding` and `core.store`.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "CITATION_OBJECTIVES": "config",
    "CITE_LOSSES": "citations",
    "Cancelled": "run",
    "FigureTrainConfig": "figures",
    "prepare_figure_config": "figures",
    "run_figure_training": "figures",
    "training_papers": "figures",
    "LOST": "jobs",
    "OBJECTIVES": "config",
    "PROBE_SPLIT": "data",
    "STALE_S": "jobs",
    "TrainConfig": "config",
    "WEIGHT_DECAY": "objectives",
    "base_comparison": "comparison",
    "cancel": "jobs",
    "class_limits": "data",
    "class_preview": "data",
    "epoch_batches": "objectives",
    "execute": "jobs",
    "get_job": "jobs",
    "launch": "jobs",
    "list_jobs": "jobs",
    "metrics_frame": "jobs",
    "param_groups": "objectives",
    "pk_batches": "objectives",
    "prepare_config": "prepare",
    "refresh": "jobs",
    "run_foreground": "jobs",
    "run_training": "loop",
    "select": "data",
    "select_classes": "data",
    "similarity_distill_loss": "objectives",
    "supcon_loss": "objectives",
    "validate_config": "prepare",
    "verdict_outlook": "heldout",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
