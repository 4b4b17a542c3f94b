"""The device as a person reads it in the sidebar: the GPU's name, or the CPU's cores and its fast mode."""

from __future__ import annotations

import os

from core.embedding.quantize import fast_kind


def device_label(device: str) -> str:
    """A human-readable device name: the GPU's name or 'CPU (n cores)' with the fast CPU mode, if one is on."""
    if device.startswith("cuda"):
        import torch

        return f"GPU: {torch.cuda.get_device_name(0)}"
    kind = fast_kind(None, device)
    return f"CPU ({os.cpu_count()} cores)" + (f", fast {kind} mode" if kind else "")
