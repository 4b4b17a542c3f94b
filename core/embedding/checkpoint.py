"""The fine-tuned checkpoint format, in one place: a transformers folder + `head.safetensors` + `mired.json`.

Training writes it (`save_checkpoint`), the registry reads its metadata (`read_checkpoint_meta`) and the encoder
loads its journal head (`load_head`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import ModelError

if TYPE_CHECKING:
    import torch

__all__ = ["HEAD_FILE", "META_FILE", "load_head", "read_checkpoint_meta", "save_checkpoint"]

HEAD_FILE = "head.safetensors"  # {"weight": [classes, dim], "bias": [classes]}
META_FILE = "mired.json"  # labels, label column, pooling, head input, base, max length, config, metrics


def read_checkpoint_meta(folder: Path) -> dict[str, Any]:
    """The MIReAD metadata of a fine-tuned checkpoint folder ({} for a plain model folder)."""
    meta = Path(folder) / META_FILE
    if not meta.exists():
        return {}
    try:
        return json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"checkpoint metadata {meta} is unreadable: {exc}") from exc


def load_head(folder: Path, name: str) -> tuple[torch.nn.Linear, bool] | None:
    """The journal head of a checkpoint and whether it takes unit vectors (objective 'cos'); None without one."""
    import torch
    from safetensors.torch import load_file

    path = Path(folder) / HEAD_FILE
    if not path.exists():
        return None
    try:
        tensors = load_file(str(path))
        head = torch.nn.Linear(tensors["weight"].shape[1], tensors["weight"].shape[0])
        head.load_state_dict(tensors)
    except Exception as exc:  # safetensors raises its own error types for damaged files
        raise ModelError(f"the journal head {path} of model {name!r} is damaged: {exc}") from exc
    return head.eval(), read_checkpoint_meta(Path(folder)).get("head_input") == "unit"


def save_checkpoint(folder: Path, tmp: Path, model: Any, tokenizer: Any, weight: torch.Tensor, bias: torch.Tensor,
                    meta: dict[str, Any]) -> Path:
    """Write encoder, tokenizer, head and metadata into `tmp`, then move it to `folder` in one rename."""
    from safetensors.torch import save_file

    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    save_file({"weight": weight.contiguous(), "bias": bias.contiguous()}, str(tmp / HEAD_FILE))
    (tmp / META_FILE).write_text(json.dumps(meta, indent=2), encoding="utf-8")
    tmp.rename(folder)
    return folder
