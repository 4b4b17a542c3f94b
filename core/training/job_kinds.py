"""The kinds of background job, one entry each: the job table's kind, its config class, how a config is checked and
run, what the run raises when asked to stop, the slot it waits for and what makes two requests the same job.
`core.training.jobs` looks the kind up; a new kind is one entry (training, figure scorers, embedding a corpus,
fitting a UMAP/t-SNE map, an evaluation)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.embedding.job import EMBED_KIND, EmbedCancelled, EmbedConfig, embed_key, prepare_embed, run_embed
from core.errors import TrainingError
from core.evaluation.job import (
    EVALUATE_KIND,
    EvaluateConfig,
    EvaluationCancelled,
    evaluate_key,
    prepare_evaluate,
    run_evaluate,
)
from core.explore.maps.job import MAP_KIND, MapCancelled, MapConfig, map_key, prepare_map, run_map
from core.training.config import TrainConfig
from core.training.figures import (
    FIGURES_KIND,
    FigureCancelled,
    FigureTrainConfig,
    prepare_figure_config,
    run_figure_training,
)
from core.training.loop import run_training
from core.training.prepare import prepare_config
from core.training.run import Cancelled

if TYPE_CHECKING:
    from core.store import Store

# the config of some kind: to_dict() and from_dict()
Config = TrainConfig | FigureTrainConfig | EmbedConfig | MapConfig | EvaluateConfig


@dataclass(frozen=True)
class JobKind:
    """One kind of job: `name` is the job table's kind column and the job id's prefix."""

    name: str
    config: type  # its config class: `to_dict()` is stored with the job, `from_dict()` reads it back
    prepare: Callable[[Store, Any], Any]  # validate and fill in the model name; TrainingError with one sentence
    run: Callable[[Store, Any, str, Callable[[], bool]], dict[str, Any]]  # (store, cfg, job id, should_stop): result
    cancelled: type[Exception]  # what `run` raises when `should_stop()` says stop
    slot: str = "runner"  # jobs of one slot run one at a time (training shares one; embedding has its own)
    key: Callable[[Any], tuple] | None = None  # requests with the same key while one runs join it (None: never)
    named: bool = False  # a request naming its model joins only the run of that name (a blank name joins any)


def train_key(cfg: TrainConfig) -> tuple:
    """What makes two training requests one run: every setting but the model name (a double click on Start, or the
    same form sent from a second tab, while that run is queued or running joins it); the name is checked apart
    (`JobKind.named`): a blank name joins, another name is another run."""
    import json

    return tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in cfg.to_dict().items() if k != "name"))


KINDS = {kind.name: kind for kind in (
    JobKind("train", TrainConfig, prepare_config, run_training, Cancelled, key=train_key, named=True),
    JobKind(FIGURES_KIND, FigureTrainConfig, prepare_figure_config, run_figure_training, FigureCancelled),
    JobKind(EMBED_KIND, EmbedConfig, prepare_embed, run_embed, EmbedCancelled, slot="embed", key=embed_key),
    JobKind(MAP_KIND, MapConfig, prepare_map, run_map, MapCancelled, slot="map", key=map_key),
    JobKind(EVALUATE_KIND, EvaluateConfig, prepare_evaluate, run_evaluate, EvaluationCancelled, slot="evaluate",
            key=evaluate_key),
)}


def kind_of(cfg: Config) -> JobKind:
    """The kind whose config `cfg` is."""
    for kind in KINDS.values():
        if isinstance(cfg, kind.config):
            return kind
    raise TrainingError(f"no kind of job runs a {type(cfg).__name__}; kinds: {', '.join(KINDS)}")


def kind_named(name: str) -> JobKind:
    """The kind stored in a job row."""
    try:
        return KINDS[name]
    except KeyError:
        raise TrainingError(f"unknown kind of job {name!r}; kinds: {', '.join(KINDS)}") from None
