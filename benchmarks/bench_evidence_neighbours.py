"""Measurement: does leaving publisher boilerplate out of the encoder's input change a paper's nearest neighbours?

Issue 40: copyright lines ("© 2021 Elsevier Ltd. All rights reserved.") and structured-abstract labels
("BACKGROUND:", "Methods:") stay in the stored text; the topic keywords read `core.text_evidence.evidence_text`. This
script embeds the same papers twice with the packaged MiniLM on the CPU, (title, abstract) as the encoder reads them
today and (title, evidence_text(abstract)), and compares each paper's 10 nearest neighbours (cosine, itself left out):
overlap@10 and same top-1, over all papers and over those whose text changed; on the labelled medical abstracts also
the share of neighbours with the paper's own disease class (a quality proxy: higher is better).

Papers: every distinct paper of ../shared/data/exports (the files of EXPECTED.tsv with a count), and of the labelled
medical abstracts, all whose evidence differs from the abstract plus a seeded random sample of the rest up to
``--medical``.

    python benchmarks/bench_evidence_neighbours.py --medical 400
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time

import numpy as np
from common import DATA, report, row

K = 10


def shared_papers() -> list[tuple[str, str]]:
    """(title, abstract) of each distinct paper with an abstract in the shared exports."""
    from core.io import read_papers
    from core.records import Paper

    root = DATA / "exports"
    seen: dict[str, tuple[str, str]] = {}
    for line in (root / "EXPECTED.tsv").read_text(encoding="utf-8").splitlines():
        name, _, count = line.partition("\t")
        if not name or count.strip() == "-":
            continue
        for item in read_papers(root / name):
            if isinstance(item, Paper) and item.abstract:
                seen.setdefault(" ".join(item.title.lower().split()), (item.title, item.abstract))
    return list(seen.values())


def medical_papers(n: int, seed: int = 0) -> tuple[list[tuple[str, str]], list[str]]:
    """(title, abstract) and disease of every medical abstract with boilerplate, and others up to n."""
    from core.text_evidence import evidence_text

    with gzip.open(DATA / "medical_abstracts.jsonl.gz", "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    changed = [r for r in records if evidence_text(r["abstract"]) != r["abstract"]]
    rest = [r for r in records if evidence_text(r["abstract"]) == r["abstract"]]
    rng = np.random.default_rng(seed)
    picked = changed + [rest[i] for i in rng.choice(len(rest), max(0, n - len(changed)), replace=False)]
    return [(r["title"], r["abstract"]) for r in picked], [r["disease"] for r in picked]


def neighbours(vectors: np.ndarray, k: int = K) -> np.ndarray:
    """Indices of each row's k nearest rows by cosine (unit vectors), itself left out."""
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    return np.argsort(-sims, axis=1, kind="stable")[:, :k]


def compare(pairs: list[tuple[str, str]], encoder, labels: list[str] | None = None) -> dict[str, float]:
    """Neighbour overlap between the two inputs, over all papers and those whose text changed."""
    from core.text_evidence import evidence_text

    evidence = [(title, evidence_text(abstract)) for title, abstract in pairs]
    changed = np.array([a != b for (_, a), (_, b) in zip(pairs, evidence, strict=True)])
    before, after = neighbours(encoder.encode(pairs)), neighbours(encoder.encode(evidence))
    overlap = np.array([len(set(b) & set(a)) / K for b, a in zip(before, after, strict=True)])
    top1 = before[:, 0] == after[:, 0]
    out = {"papers": len(pairs), "changed": int(changed.sum()), "overlap@10 all": float(overlap.mean()),
           "overlap@10 changed": float(overlap[changed].mean()) if changed.any() else float("nan"),
           "same top-1 all": float(top1.mean()),
           "same top-1 changed": float(top1[changed].mean()) if changed.any() else float("nan")}
    if labels is not None:
        lab = np.array(labels)
        agree = {}
        for name, nn in (("before", before), ("after", after)):
            agree[name] = (lab[nn] == lab[:, None]).mean(axis=1)
            out[f"label agreement@10 {name} all"] = float(agree[name].mean())
            out[f"label agreement@10 {name} changed"] = float(agree[name][changed].mean())
        gain = (agree["after"] - agree["before"])[changed]  # paired, per changed paper
        rng = np.random.default_rng(0)
        boots = [rng.choice(gain, len(gain)).mean() for _ in range(2000)]
        out["label agreement gain changed, 95% low"] = float(np.percentile(boots, 2.5))
        out["label agreement gain changed, 95% high"] = float(np.percentile(boots, 97.5))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--medical", type=int, default=400, help="medical abstracts in the sample")
    args = parser.parse_args()
    os.environ.update({"MIREAD_DEVICE": "cpu", "HF_HUB_OFFLINE": "1"})
    from core.embedding import get_encoder
    from core.embedding.models import get_model

    encoder = get_encoder(get_model("minilm"), device="cpu")
    start = time.perf_counter()
    shared = compare(shared_papers(), encoder)
    pairs, diseases = medical_papers(args.medical)
    medical = compare(pairs, encoder, diseases)
    seconds = time.perf_counter() - start
    rows = [row(f"shared exports: {name}", value) for name, value in shared.items()]
    rows += [row(f"medical abstracts: {name}", value) for name, value in medical.items()]
    report("evidence_neighbours", rows, {"seconds": round(seconds, 1), "k": K})


if __name__ == "__main__":
    main()
