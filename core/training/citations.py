"""SPECTER's citation triplets: (query paper, a paper it cites, a paper it does not cite), drawn per epoch.

Two losses over the same triplets: SPECTER's triplet margin loss, and "in-batch" (the InfoNCE loss the packaged
MiniLM was trained with): each query's cited paper against every other cited and negative paper of the batch, on
cosine similarities over a temperature, with the batch's other papers that the query also cites left out.
Negatives mix "hard" ones (cited by a paper the query cites, but not by the query; Cohan et al. 2020) and "easy"
random ones, in the ratio ``hard_ratio`` (the paper's 2 hard : 3 easy is 0.4). Query papers held out by the shared
split (`core.store.links.citation_split`) never give a triplet, so their links stay unseen for evaluation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from core.store.links import citation_graph, citation_split

MAX_POSITIVES = 5  # cited papers used per query and epoch (SciDocs ranks up to 5 too)
VAL_QUERIES = 40  # held-out queries scored at each validation (cite MAP on the live plot)


def triplet_margin_loss(query, positive, negative, margin: float = 1.0):
    """SPECTER's loss: torch's TripletMarginLoss on the L2 distance of the pooled vectors."""
    import torch

    return torch.nn.TripletMarginLoss(margin=margin, p=2)(query.float(), positive.float(), negative.float())


CITE_LOSSES = ("triplet", "in-batch")


def in_batch_loss(query, positive, negative, cited_elsewhere, temperature: float = 0.05):
    """InfoNCE with in-batch negatives: row i's positive is candidate i among the batch's positives then negatives
    (2B candidates); ``cited_elsewhere`` (B x 2B, bool) marks candidates that row i's query also cites (or is),
    which are left out rather than pushed away."""
    import torch

    q = torch.nn.functional.normalize(query.float(), dim=-1)
    candidates = torch.nn.functional.normalize(torch.cat([positive, negative]).float(), dim=-1)
    logits = (q @ candidates.T / temperature).masked_fill(cited_elsewhere, float("-inf"))
    return torch.nn.functional.cross_entropy(logits, torch.arange(len(q), device=q.device))


@dataclass
class CitationData:
    """The citation graph of a corpus (positions into its frame) split into training and held-out query papers."""

    cites: dict[int, list[int]]
    train: list[int]  # citing papers whose links make triplets
    held_out: list[int]  # query papers for evaluation: never a triplet's query
    n: int
    seed: int
    fraction: float

    @classmethod
    def build(cls, ids: list[str], pairs: list[tuple[str, str]], seed: int, fraction: float) -> CitationData:
        cites = citation_graph(ids, pairs)
        train, held = citation_split(ids, cites, seed, fraction)
        return cls(cites, train, held, len(ids), seed, fraction)

    @property
    def train_links(self) -> int:
        return sum(len(self.cites[q]) for q in self.train)

    def epoch(self, rng: np.random.Generator, hard_ratio: float) -> np.ndarray:
        """One epoch of (query, cited, negative) rows, shuffled: up to 5 cited papers per training query."""
        out = []
        for q in self.train:
            cited = self.cites[q]
            chosen = cited if len(cited) <= MAX_POSITIVES else rng.choice(cited, MAX_POSITIVES, replace=False)
            excluded = set(cited) | {q}
            hard = sorted({c for p in cited for c in self.cites.get(p, ()) if c not in excluded})
            for p in chosen:
                if hard and rng.random() < hard_ratio:
                    neg = int(hard[rng.integers(len(hard))])
                else:
                    neg = int(rng.integers(self.n))
                    tries = 0
                    while neg in excluded and tries < 50:
                        neg, tries = int(rng.integers(self.n)), tries + 1
                    if neg in excluded:
                        continue
                out.append((q, int(p), neg))
        rows = np.array(out, dtype=np.int64).reshape(-1, 3)
        return rows[rng.permutation(len(rows))]

    def cited_elsewhere(self, triplets: np.ndarray) -> np.ndarray:
        """For in-batch negatives: (B x 2B) whether candidate j (the batch's cited papers, then its negatives) is
        cited by row i's query or is that query, other than row i's own positive."""
        candidates = np.concatenate([triplets[:, 1], triplets[:, 2]]).tolist()
        mask = np.zeros((len(triplets), len(candidates)), dtype=bool)
        for i, q in enumerate(triplets[:, 0].tolist()):
            cited = set(self.cites.get(q, ())) | {q}
            mask[i] = [c in cited for c in candidates]
        mask[np.arange(len(triplets)), np.arange(len(triplets))] = False
        return mask

    def loss(self, pooled, triplets: np.ndarray, kind: str, temperature: float):
        """The citation loss of the pooled (queries; cited; negatives) vectors of ``triplets``: "triplet" or
        "in-batch" (CITE_LOSSES)."""
        import torch

        q, p, n = pooled.float().chunk(3)
        if kind == "in-batch":
            mask = torch.as_tensor(self.cited_elsewhere(triplets), device=q.device)
            return in_batch_loss(q, p, n, mask, temperature)
        return triplet_margin_loss(q, p, n, margin=1.0)

    def stream(self, rng: np.random.Generator, hard_ratio: float, batch: int) -> Iterator[tuple[float, np.ndarray]]:
        """Endless triplet batches with the (fractional) triplet epoch reached after each; a fresh draw per epoch."""
        epoch = 0
        while True:
            rows = self.epoch(rng, hard_ratio)
            if not len(rows):
                raise ValueError("no training triplets")
            parts = [rows[i:i + batch] for i in range(0, len(rows), batch)]
            for i, part in enumerate(parts):
                yield epoch + (i + 1) / len(parts), part
            epoch += 1

    def batches_per_epoch(self, batch: int) -> int:
        return max(1, -(-sum(min(len(self.cites[q]), MAX_POSITIVES) for q in self.train) // batch))

    def val_sets(self, seed: int, queries: int = VAL_QUERIES) -> list[tuple[int, np.ndarray, np.ndarray]]:
        """Fixed candidate sets (5 cited + 25 others) of up to ``queries`` held-out query papers."""
        from core.evaluation.citations import candidate_sets

        positives = {q: set(self.cites[q]) for q in self.held_out}
        chosen = list(self.held_out)
        if len(chosen) > queries:
            chosen = sorted(np.random.default_rng(seed).choice(chosen, size=queries, replace=False).tolist())
        return candidate_sets(positives, chosen, self.n, seed)
