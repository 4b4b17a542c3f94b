"""A tiny random BERT with a character-level WordPiece tokenizer: for tests, no downloads."""

from __future__ import annotations

import string
from pathlib import Path


def tiny_vocab() -> list[str]:
    """Special tokens, single characters and their '##' continuations (~110 entries)."""
    chars = list(string.ascii_lowercase + string.digits)
    punct = list(".,;:-()[]'\"/%+=<>")
    return ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + chars + punct + ["##" + c for c in chars]


def build_tiny_model(folder: str | Path, hidden: int = 32, layers: int = 2, seed: int = 0) -> Path:
    """Write a random BertModel + tokenizer (safetensors) to `folder` and return it."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab_file = folder / "vocab.txt"
    vocab_file.write_text("\n".join(tiny_vocab()) + "\n", encoding="utf-8")
    vocab = {token: i for i, token in enumerate(tiny_vocab())}
    tokenizer = BertTokenizerFast(vocab=vocab, do_lower_case=True)
    tokenizer.save_pretrained(folder)
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=len(tiny_vocab()), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=2,
        intermediate_size=hidden * 2, max_position_embeddings=512,
    )
    BertModel(config).save_pretrained(folder, safe_serialization=True)
    return folder
