"""The fast CPU modes of the encoder: bfloat16 weights where the CPU has native bf16 (the default), else int8."""

from __future__ import annotations

import functools
import hashlib
import warnings
from pathlib import Path
from typing import Any

FAST_ENV = "MIREAD_FAST_CPU"  # read by core.config.Settings.fast_cpu; default auto: bf16 where native (BENCHMARKS.md)
_ON = {"1", "true", "yes", "on"}
KINDS = ("bf16", "int8")


@functools.lru_cache(maxsize=1)
def cpu_supports_bf16() -> bool:
    """True when the CPU runs bfloat16 matrix products natively (AVX512-BF16 or AMX).

    Read from /proc/cpuinfo where there is one, so that choosing the mode does not import torch.
    """
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace").split()
        return "avx512_bf16" in flags or "amx_bf16" in flags
    except OSError:
        pass
    import torch

    try:
        return bool(torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False


def fast_setting() -> str:
    """The MIREAD_FAST_CPU setting normalised to 'on', 'off' or 'auto'."""
    from core.config import Settings

    value = Settings().fast_cpu
    if value in _ON:
        return "on"
    return "auto" if value == "auto" else "off"


def fast_kind(fast: bool | None, device: str) -> str:
    """The fast mode an encoder on `device` runs in: '' (exact float32), 'bf16' or 'int8'.

    `fast=None` follows MIREAD_FAST_CPU. GPUs already use bf16 autocast, so the fast modes are CPU-only.
    """
    if not device.startswith("cpu"):
        return ""
    setting = fast_setting() if fast is None else ("on" if fast else "off")
    if setting == "off":
        return ""
    native = cpu_supports_bf16()
    if setting == "auto":
        return "bf16" if native else ""
    return "bf16" if native else "int8"


def fast_fingerprint(fingerprint: str, kind: str) -> str:
    """The cache key of vectors made in a fast mode: a different 16-hex key per mode, unchanged when exact."""
    if not kind:
        return fingerprint
    return hashlib.blake2b(f"{fingerprint}|{kind}".encode(), digest_size=8).hexdigest()


def make_fast(model: Any, kind: str) -> Any:
    """The model converted for a fast mode: bf16 weights, or int8 per-channel dynamic Linear layers."""
    import torch

    if kind == "bf16":
        return model.to(torch.bfloat16)
    if kind == "int8":
        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return quantize_dynamic(model, {torch.nn.Linear: per_channel_dynamic_qconfig}, dtype=torch.qint8)
    return model
