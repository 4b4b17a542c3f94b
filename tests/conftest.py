"""Shared fixtures: temporary workspaces, a tiny random BERT, small labelled corpora."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session", autouse=True)
def _few_threads():
    import torch

    torch.set_num_threads(2)


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory) -> Path:
    from core.embedding import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture()
def store(tmp_path):
    from core.store import Store

    return Store(tmp_path / "ws")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return SHARED_DATA
