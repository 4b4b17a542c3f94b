"""The checkpoint format: written once by training, read by the registry and the encoder."""

from __future__ import annotations

import pytest
import torch

from core.embedding.checkpoint import HEAD_FILE, META_FILE, load_head, read_checkpoint_meta, save_checkpoint
from core.embedding.models import load_backbone, spec_from_dict
from core.errors import ModelError
from tests.helpers import register_tiny


def test_a_saved_checkpoint_reads_back_its_metadata_and_head(tmp_path, tiny_model_dir, store):
    spec = register_tiny(store, tiny_model_dir)
    tokenizer, model = load_backbone(spec)
    weight, bias = torch.randn(3, model.config.hidden_size), torch.zeros(3)
    meta = {"labels": ["a", "b", "c"], "label_column": "journal", "pooling": "mean", "head_input": "unit"}
    folder = save_checkpoint(tmp_path / "ckpt", tmp_path / ".tmp", model, tokenizer, weight, bias, meta)
    assert not (tmp_path / ".tmp").exists() and (folder / HEAD_FILE).exists() and (folder / "config.json").exists()
    assert read_checkpoint_meta(folder) == meta
    head, unit = load_head(folder, "ckpt")
    assert unit is True and torch.equal(head.weight.detach(), weight) and head.out_features == 3


def test_a_plain_model_folder_has_no_metadata_and_no_head(tiny_model_dir):
    assert read_checkpoint_meta(tiny_model_dir) == {}
    assert load_head(tiny_model_dir, "tiny") is None


def test_damaged_checkpoint_files_are_one_sentence(tmp_path):
    (tmp_path / META_FILE).write_text("{not json")
    with pytest.raises(ModelError, match="checkpoint metadata .* is unreadable"):
        read_checkpoint_meta(tmp_path)
    (tmp_path / HEAD_FILE).write_bytes(b"\x00" * 40)
    with pytest.raises(ModelError, match="the journal head .* of model 'broken' is damaged"):
        load_head(tmp_path, "broken")


def test_the_registry_reads_a_checkpoint_folder_through_the_same_metadata(tmp_path, tiny_model_dir, store):
    spec = register_tiny(store, tiny_model_dir)
    tokenizer, model = load_backbone(spec)
    meta = {"labels": ["x", "y"], "label_column": "venue", "pooling": "mean", "max_length": 64, "base": "tiny"}
    folder = save_checkpoint(tmp_path / "m", tmp_path / ".t", model, tokenizer, torch.zeros(2, model.config.hidden_size),
                             torch.zeros(2), meta)
    from core.embedding import get_model

    loaded = get_model(str(folder))
    assert (loaded.labels, loaded.label_column, loaded.max_length, loaded.has_head) == (["x", "y"], "venue", 64, True)
    assert spec_from_dict(loaded.to_dict()) == loaded
