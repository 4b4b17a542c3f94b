"""Models and vectors: the model registry (packaged, hub, fine-tuned), the checkpoint format, the `Encoder` (pair
encoding, pooling, length-sorted batches, the fast CPU modes) and embedding a corpus into the store's cache. Imports
`core.store`.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "CHARS_PER_TOKEN_LIMIT": "encoder",
    "Encoder": "encoder",
    "HEAD_FILE": "checkpoint",
    "KINDS": "quantize",
    "META_FILE": "checkpoint",
    "ModelSpec": "models",
    "PRESETS": "models",
    "ParallelTokenizer": "tokens",
    "RayOptions": "distributed",
    "autocast_context": "encoder",
    "build_tiny_model": "tiny",
    "clip_text": "encoder",
    "corpus_embeddings": "encoder",
    "default_batch_size": "encoder",
    "cpu_supports_bf16": "quantize",
    "embed_corpus": "encoder",
    "embed_corpus_ray": "distributed",
    "fast_fingerprint": "quantize",
    "device_label": "device",
    "fast_kind": "quantize",
    "fast_setting": "quantize",
    "fingerprint": "models",
    "get_encoder": "encoder",
    "get_model": "models",
    "list_models": "models",
    "load_backbone": "models",
    "make_fast": "quantize",
    "model_names_by_vectors_fingerprint": "encoder",
    "pool": "encoder",
    "read_checkpoint_meta": "checkpoint",
    "save_checkpoint": "checkpoint",
    "load_head": "checkpoint",
    "collate": "tokens",
    "vectors_fingerprint": "encoder",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
