"""Whether a Hugging Face hub model can be loaded here: from the local cache, or from a hub that is allowed and up."""

from __future__ import annotations

import socket

from core.embedding.models import ModelSpec, hub_offline

HUB_HOST = ("huggingface.co", 443)
NEEDS_HUB = "needs the Hugging Face hub"


def in_local_cache(repo_id: str) -> bool:
    """True when the model's files are in the local Hugging Face cache (loadable offline)."""
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)
    except Exception:  # a malformed id or an unreadable cache: not usable offline
        return False


def hub_reachable(timeout: float = 1.5) -> bool:
    """True when the hub is allowed (HF_HUB_OFFLINE unset) and its host answers within `timeout` seconds."""
    if hub_offline():
        return False
    try:
        with socket.create_connection(HUB_HOST, timeout=timeout):
            return True
    except OSError:
        return False


def needs_hub(spec: ModelSpec, reachable: bool) -> bool:
    """True for a hub model that cannot be loaded here: not in the local cache, and the hub offline or unreachable."""
    return spec.source == "hub" and not reachable and not in_local_cache(spec.location)
