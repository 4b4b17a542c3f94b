"""Training configuration: the `TrainConfig` dataclass, its help texts and the range of each setting (the checks
against the workspace, and the new model's name, are in `core.training.prepare`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from core.errors import TrainingError
from core.training.citations import CITE_LOSSES

OBJECTIVES = ("ce", "cos", "ce+supcon", "supcon", "specter", "cos+specter")
COSINE_OBJECTIVES = ("cos", "cos+specter")  # heads over unit vectors: logits = cosine to class centres / temperature
CITATION_OBJECTIVES = ("specter", "cos+specter")  # need citation links in the corpus


@dataclass
class TrainConfig:
    """One fine-tuning run; every field has a default except the corpus and its label column."""

    corpus: str
    label: str
    base: str = "minilm"
    name: str = ""
    objective: str = "cos"  # best on held-out journals (docs/objectives.md)
    epochs: float = 1.0
    batch_size: int = 32
    grad_accum: int = 1
    lr: float = 2e-5
    head_lr: float = 1e-3
    head_warmup_epochs: float = 20.0  # passes over features computed once: cheap
    layer_decay: float = 1.0
    warmup_ratio: float = 0.1
    max_length: int = 128
    clip: float = 1.0
    seed: int = 0
    min_per_class: int | None = None
    max_per_class: int | None = None
    val_fraction: float = 0.1
    test_fraction: float = 0.2  # held out of training, early stopping and the head warm-up: the verdict's papers
    eval_every: int = 0
    max_papers: int | None = None
    supcon_weight: float = 0.5
    temperature: float = 0.05
    classes_per_batch: int = 0
    distill_weight: float = 0.0
    cite_weight: float = 1.0
    cite_loss: str = "in-batch"  # InfoNCE with in-batch negatives (measured: docs/citations.md), or SPECTER's "triplet"
    hard_ratio: float = 0.4  # SPECTER's 2 hard : 3 easy negatives
    cite_held_out: float = 0.2  # share of citing papers held out as query papers (never triplets)
    device: str = "auto"

    HELP: ClassVar[dict[str, str]] = {
        "corpus": "The corpus whose papers are used for training.",
        "label": "The column to predict; the MIReAD paper used the journal.",
        "base": "The encoder to start from; the new model keeps its pooling.",
        "name": "Name of the new model (default: base-label-corpus).",
        "objective": "ce: cross-entropy on the labels (MIReAD); ce+supcon: plus a contrastive term "
                     "pulling papers with the same label together; supcon: the encoder learns from the "
                     "contrastive term alone and the head is fitted beside it on the (detached) vectors; "
                     "cos: cross-entropy over cosine similarities to class centres (the unit vectors that "
                     "search and maps use), divided by the temperature; specter: citation triplets (a paper, a "
                     "paper it cites, one it does not) with the citation loss, the head fitted beside it; "
                     "cos+specter: cos plus the citation term times the cite weight. The specter objectives need "
                     "a corpus with citation links.",
        "epochs": "Passes over the training papers (fractions allowed).",
        "batch_size": "Papers per step; lower it if memory runs out.",
        "grad_accum": "Steps whose gradients are summed before one update (effective batch = batch x this).",
        "lr": "Peak learning rate of the encoder.",
        "head_lr": "Learning rate of the new classification head.",
        "head_warmup_epochs": "Epochs training the head alone on frozen-encoder features first (LP-FT); "
                              "features are computed once, so extra epochs are cheap; 0 = off.",
        "layer_decay": "Each lower encoder layer learns this many times slower (1.0 = off).",
        "warmup_ratio": "Share of steps with a rising learning rate before the linear decay.",
        "max_length": "Tokens per paper (title + abstract); longer papers are truncated.",
        "clip": "Gradient-norm clipping (0 = off).",
        "seed": "Random seed: the same seed and settings give the same run on CPU.",
        "min_per_class": "Classes with fewer papers are left out (default scales with the corpus, "
                         "100 for large ones as in the paper).",
        "max_per_class": "At most this many papers are sampled per class (default 300, as in the paper).",
        "val_fraction": "Share of the papers held out for validation, stratified by class.",
        "test_fraction": "Share of each class's papers held out as test papers (seeded, by paper): never trained on, "
                         "never used for the head warm-up or validation; the verdict against the base, its n and "
                         "95 % interval come from them (0 = judge on validation).",
        "eval_every": "Steps between validations (0 = about 10 over the run).",
        "max_papers": "Cap on the papers used, sampled evenly across classes (empty = all).",
        "supcon_weight": "Weight of the contrastive term (supcon objectives only).",
        "temperature": "Temperature of the supcon term and of the cos head's logits; lower is sharper.",
        "classes_per_batch": "Labels per batch for the supcon objectives, P of P x K (0 = batch size / 4).",
        "distill_weight": "Weight of a term keeping each batch's pairwise similarities close to the base "
                          "model's, so it forgets less of its geometry (0 = off).",
        "cite_weight": "Weight of the citation term in cos+specter.",
        "cite_loss": "in-batch (default): each paper's cited paper scored against all other papers of the batch "
                     "(cosine over the temperature, the loss the packaged MiniLM was trained with; it beat the base "
                     "on held-out citations where the triplet loss lost, docs/citations.md); triplet: SPECTER's "
                     "triplet margin loss (margin 1, L2 distance).",
        "hard_ratio": "Share of hard negatives (cited by a paper the query cites, not by the query) among the "
                      "triplets' negatives; the rest are random papers (SPECTER: 0.4, i.e. 2 hard : 3 easy).",
        "cite_held_out": "Share of citing papers held out as evaluation queries, split by paper with the seed: "
                         "their links never make triplets (the cite task uses the same split for the same seed).",
        "device": "auto uses a GPU when there is one.",
    }

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        """A config from a dict, ignoring unknown keys."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


# -- validation --------------------------------------------------------------------------------
def check_numbers(cfg: TrainConfig) -> None:
    """Refuse a setting out of its range with one TrainingError sentence (the workspace is checked in prepare.py)."""
    rules = [
        (cfg.objective in OBJECTIVES, f"objective must be one of {', '.join(OBJECTIVES)}"),
        (cfg.epochs > 0, "epochs must be above 0"),
        (cfg.batch_size >= 1, "batch size must be at least 1"),
        (cfg.grad_accum >= 1, "gradient accumulation must be at least 1"),
        (cfg.lr > 0 and cfg.head_lr > 0, "learning rates must be above 0"),
        (cfg.head_warmup_epochs >= 0, "head warm-up epochs cannot be negative"),
        (0 < cfg.layer_decay <= 1, "layer decay must be in (0, 1]"),
        (0 <= cfg.warmup_ratio < 1, "warmup ratio must be in [0, 1)"),
        (8 <= cfg.max_length <= 512, "max length must be between 8 and 512 tokens"),
        (cfg.clip >= 0, "gradient clipping cannot be negative"),
        (cfg.min_per_class is None or cfg.min_per_class >= 2, "minimum papers per class must be at least 2"),
        (cfg.max_per_class is None or cfg.max_per_class >= 2, "maximum papers per class must be at least 2"),
        (0 < cfg.val_fraction <= 0.5, "validation fraction must be in (0, 0.5]"),
        (0 <= cfg.test_fraction <= 0.5, "test fraction must be in [0, 0.5]"),
        (cfg.eval_every >= 0, "eval every cannot be negative"),
        (cfg.max_papers is None or cfg.max_papers >= 4, "max papers must be at least 4"),
        (cfg.supcon_weight >= 0 and cfg.temperature > 0, "supcon weight cannot be negative and temperature "
                                                         "must be above 0"),
        (cfg.distill_weight >= 0, "distill weight cannot be negative"),
        (cfg.cite_weight >= 0, "cite weight cannot be negative"),
        (cfg.cite_loss in CITE_LOSSES, f"cite loss must be one of {', '.join(CITE_LOSSES)}"),
        (0 <= cfg.hard_ratio <= 1, "hard ratio must be between 0 and 1"),
        (0 < cfg.cite_held_out < 1, "the held-out share of citing papers must be between 0 and 1"),
        ("supcon" not in cfg.objective or cfg.batch_size >= 4, f"{cfg.objective} needs a batch size of at least 4"),
        (cfg.classes_per_batch >= 0 and ("supcon" not in cfg.objective or cfg.classes_per_batch <= cfg.batch_size // 2),
         "classes per batch must leave at least 2 papers per class in a batch"),
        (cfg.device in ("auto", "cpu", "cuda") or cfg.device.startswith("cuda:"), "device must be auto, cpu or cuda"),
    ]
    rules.append((cfg.min_per_class is None or cfg.max_per_class is None or cfg.max_per_class >= cfg.min_per_class,
                  "maximum papers per class must not be below the minimum"))
    for ok, message in rules:
        if not ok:
            raise TrainingError(message)
