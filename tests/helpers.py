"""Small builders used by several test modules."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from core.embedding import ModelSpec
from core.records import Paper

TOPICS = {
    "astro": ["galaxy", "stellar", "redshift", "telescope", "cosmic", "dark matter", "supernova", "orbit"],
    "bio": ["protein", "gene", "cell", "enzyme", "mutation", "genome", "tissue", "receptor"],
    "econ": ["market", "price", "inflation", "monetary", "labour", "trade", "tax", "wage"],
}


def make_papers(per_topic: int = 12, label: str = "journal") -> list[Paper]:
    """Distinct synthetic papers of three topics, with a label column."""
    papers = []
    for topic, words in TOPICS.items():
        for i in range(per_topic):
            w = [words[(i + j) % len(words)] for j in range(4)]
            title = f"On {w[0]} and {w[1]} number {i}"
            abstract = (f"We study the {w[0]} {w[1]} problem in {topic}. The {w[2]} shows that {w[3]} matters; "
                        f"experiment {i} on {w[1]} confirms it with {w[0]} data.")
            papers.append(Paper(id=f"{topic}-{i}", title=title, abstract=abstract,
                                fields={label: f"J. {topic.title()}", "year": 2000 + i % 5}))
    return papers


def register_tiny(store, folder, name: str = "tiny") -> ModelSpec:
    spec = ModelSpec(name=name, source="checkpoint", location=str(folder), pooling="mean", max_length=128)
    store.save_model(name, spec.to_dict())
    return spec


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 120.0, every: float = 0.05) -> Any:
    """Poll `condition` until it returns something truthy; fail naming `what` after `timeout` s."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def add_fine_tuned_twin(store, folder, corpus: str = "c", name: str = "tiny-ft") -> ModelSpec:
    """Another tiny model (seed 7, built in `folder`) registered as `name`, fine-tuned 'from' tiny, with `corpus`
    embedded by it: the second model the Compare tests set beside 'tiny'."""
    from core.embedding import build_tiny_model, embed_corpus

    spec = register_tiny(store, build_tiny_model(folder, seed=7), name=name)
    store.save_model(name, {**spec.to_dict(), "base": "tiny"})
    embed_corpus(store, corpus, name)
    return spec
