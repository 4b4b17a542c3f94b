"""Evaluate models on a stored corpus: embed, sample, run the protocols, cache each result, tabulate.

`evaluate_models` is what the Evaluate page and `python -m core evaluate` call; the protocols
themselves live in `core.evaluate`. `robustness_for_abstract` serves the page's Robustness tab.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from core.evaluation import perturb
from core.embedding import corpus_embeddings, embed_corpus, get_encoder, vectors_fingerprint
from core.errors import CorpusError, MireadError
from core.evaluation import (
    TASKS,
    Result,
    best_per_column,
    neighbours_summary,
    results_table,
    run_protocols,
    to_markdown,
)
from core.labels import is_missing, label_text
from core.embedding import ModelSpec, get_model
from core.records import md_escape
from core.store import Store

Progress = Callable[[int, int], None]
Status = Callable[[str], None]
EncoderFor = Callable[[ModelSpec], Any]

CACHE_VERSION = 1  # bump when a protocol changes what it computes, so old cached numbers are not reused
TEXT_TASKS = frozenset({"self", "neighbours"})
ROBUSTNESS_METRICS = ("nn1_ret", "nn10_ret", "aop10")
METRIC_NAMES = {"nn1_ret": "NN1_Ret", "nn10_ret": "NN10_Ret", "aop10": "AOP-10"}


# ---------------------------------------------------------------- labels and sampling


def label_values(values: Sequence) -> tuple[list[str | None], list[frozenset[str]]]:
    """Single labels and label sets of a column: lists and ';'-separated strings are multi-label."""
    singles: list[str | None] = []
    sets: list[frozenset[str]] = []
    for value in values:
        if isinstance(value, (list, tuple, set, frozenset, np.ndarray)):
            parts = frozenset(label_text(v) for v in value if not is_missing(v))
            singles.append("; ".join(sorted(parts)) or None)
            sets.append(parts)
        elif is_missing(value):
            singles.append(None)
            sets.append(frozenset())
        else:
            text = label_text(value)
            singles.append(text)
            sets.append(frozenset(p.strip() for p in text.split(";") if p.strip()))
    return singles, sets


def sample_rows(labels: Sequence[str | None], sample: int, seed: int = 0) -> np.ndarray:
    """Sorted row numbers of at most `sample` labelled papers, drawn with `seed`."""
    labelled = np.array([i for i, v in enumerate(labels) if v is not None], dtype=int)
    if len(labelled) > sample:
        pick = np.random.default_rng(seed).choice(len(labelled), size=sample, replace=False)
        labelled = np.sort(labelled[pick])
    return labelled


def _digest(ids: Sequence[str]) -> str:
    return hashlib.blake2b("\n".join(ids).encode("utf-8"), digest_size=12).hexdigest()


def cache_key(corpus: str, version: int, model_fp: str, task: str, label: str, seed: int, rows: str) -> str:
    """The store cache key of one task's results; text tasks do not depend on the label column."""
    params: dict[str, Any] = {"v": CACHE_VERSION, "corpus": corpus, "version": version, "model": model_fp,
                              "task": task, "seed": seed, "rows": rows}
    if task not in TEXT_TASKS:
        params["label"] = label
    return "evaluation:" + json.dumps(params, sort_keys=True)


# ---------------------------------------------------------------- JSON and markdown


def to_json(value: Any) -> Any:
    """A copy with NaN and infinities as None and numpy scalars as Python numbers (strict JSON)."""
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _fmt(value: Any) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{float(value):.3f}"


def _plain_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- summaries of the results


def _result(row: dict) -> Result:
    value = row.get("value")
    return Result(row["model"], row["task"], row["metric"], math.nan if value is None else float(value),
                  row.get("std"), row.get("n"), row.get("note", ""))


def purity_points(results: Sequence[Result]) -> pd.DataFrame:
    """Columns model, k, purity: one row per model and number of clusters (for the purity chart)."""
    rows = [{"model": r.model, "k": int(r.metric.split("@", 1)[1]), "purity": r.value}
            for r in results if r.task == "purity" and r.metric.startswith("purity@")]
    return pd.DataFrame(rows, columns=["model", "k", "purity"])


def neighbour_rows(results: Sequence[Result], model: str) -> list[dict]:
    """One model's textual-neighbour scores per family, as `core.evaluate.textual_neighbours` returns them."""
    rows: dict[str, dict] = {}
    for r in results:
        if r.model != model or r.task != "neighbours" or ":" not in r.metric:
            continue
        family, metric = r.metric.rsplit(":", 1)
        if family not in perturb.FAMILIES:
            continue
        row = rows.setdefault(family, {"family": family, "category": perturb.FAMILIES[family][0],
                                       "expect_keep": perturb.expect_keep(family), "n": r.n or 0})
        row[metric] = r.value
    return list(rows.values())


def family_table(results: Sequence[Result]) -> pd.DataFrame:
    """Columns model, family, category, should ('keep' or 'lose'), n and the three neighbour metrics."""
    records = []
    for model in dict.fromkeys(r.model for r in results if r.task == "neighbours"):
        for row in neighbour_rows(results, model):
            records.append({"model": model, "family": row["family"], "category": row["category"],
                            "should": "keep" if row["expect_keep"] else "lose", "n": row["n"],
                            **{m: row.get(m, math.nan) for m in ROBUSTNESS_METRICS}})
    return pd.DataFrame(records, columns=["model", "family", "category", "should", "n", *ROBUSTNESS_METRICS])


def robustness_by_category(results: Sequence[Result]) -> pd.DataFrame:
    """Mean NN1_Ret, NN10_Ret and AOP-10 per model and perturbation category (families left unchanged skipped)."""
    records = []
    for model in dict.fromkeys(r.model for r in results if r.task == "neighbours"):
        frame = pd.DataFrame(neighbour_rows(results, model))
        if frame.empty:
            continue
        frame = frame[frame["n"] > 0]
        for category in perturb.CATEGORIES:
            part = frame[frame["category"] == category]
            if part.empty:
                continue
            records.append({"model": model, "category": category, "families": int(len(part)),
                            "expect_keep": category not in perturb.DESTRUCTIVE,
                            **{m: float(part[m].astype(float).mean()) for m in ROBUSTNESS_METRICS}})
    return pd.DataFrame(records, columns=["model", "category", "families", "expect_keep", *ROBUSTNESS_METRICS])


def markdown_report(doc: dict) -> str:
    """The evaluation as markdown: the main table (best in bold), robustness tables, notes and errors."""
    results = [_result(r) for r in doc["results"]]
    parts = [f"Corpus **{md_escape(doc['corpus'])}**, label **{md_escape(doc['label'])}**: "
             f"{doc['sample']:,} of {doc['labelled']:,} labelled papers sampled (seed {doc['seed']})."]
    main = [r for r in results if r.task != "neighbours"]
    if main:
        table = results_table(main)
        table.index = [md_escape(m) for m in table.index]
        parts.append(to_markdown(table))
    robustness = robustness_by_category(results)
    if not robustness.empty:
        parts.append("Textual neighbours by category (mean over families; LO-DS perturbations destroy the text, "
                     "so a good model should NOT keep their neighbours: lower is better there).")
        parts.append(_plain_table(
            ["model", "category", "families", *METRIC_NAMES.values()],
            [[md_escape(r.model), r.category, str(r.families), *(_fmt(getattr(r, m)) for m in ROBUSTNESS_METRICS)]
             for r in robustness.itertuples()]))
        families = family_table(results)
        parts.append(_plain_table(
            ["model", "family", "category", "should", "n", *METRIC_NAMES.values()],
            [[md_escape(r.model), r.family, r.category, r.should, str(r.n), *(_fmt(getattr(r, m)) for m in ROBUSTNESS_METRICS)]
             for r in families.itertuples()]))
    notes = [f"- {md_escape(n['model'])}: {n['text']}" for n in doc.get("notes", [])]
    notes += [f"- {md_escape(e['model'])}" + (f" ({e['task']})" if e.get("task") else "") + f": {md_escape(e['error'])}"
              for e in doc.get("errors", [])]
    if notes:
        parts.append("\n".join(notes))
    return "\n\n".join(parts)


# ---------------------------------------------------------------- the suite


def _check_request(store: Store, corpus: str, models: Sequence[str], tasks: Sequence[str],
                   sample: int) -> tuple[list[str], list[str]]:
    store.corpus(corpus)
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        raise MireadError(f"unknown evaluation task {unknown[0]!r}; choose from {', '.join(TASKS)}")
    models = list(dict.fromkeys(m.strip() for m in models if m and m.strip()))
    if not models:
        raise MireadError("choose at least one model to evaluate")
    if not tasks:
        raise MireadError(f"choose at least one evaluation task ({', '.join(TASKS)})")
    if sample < 2:
        raise CorpusError(f"the sample size must be at least 2 papers; got {sample}")
    return models, list(dict.fromkeys(tasks))


@dataclass
class Sample:
    """The seeded sample of labelled papers that every model is evaluated on."""

    corpus: str
    version: int
    label: str
    seed: int
    rows: np.ndarray  # row numbers in the corpus frame
    digest: str  # of the sampled paper ids: part of every cache key
    labels: list[str]
    label_sets: list[frozenset[str]]
    titles: list[str]
    abstracts: list[str]
    labelled: int
    papers: int

    def key(self, model_fp: str, task: str) -> str:
        return cache_key(self.corpus, self.version, model_fp, task, self.label, self.seed, self.digest)


def draw_sample(store: Store, corpus: str, label: str, sample: int, seed: int) -> Sample:
    """Read the corpus and draw the evaluation sample; a missing label column is one sentence."""
    info = store.corpus(corpus)
    frame = store.papers_frame(corpus)
    if label not in frame.columns or label in ("id", "title", "abstract"):
        choices = ", ".join(info.labels) or "none"
        raise CorpusError(f"corpus {corpus!r} has no label column {label!r} (label columns: {choices})")
    singles, sets = label_values(frame[label].tolist())
    rows = sample_rows(singles, sample, seed)
    if len(rows) < 2:
        raise CorpusError(f"column {label!r} of corpus {corpus!r} labels fewer than two papers")
    return Sample(
        corpus=corpus, version=info.version, label=label, seed=seed, rows=rows,
        digest=_digest(frame["id"].astype(str).iloc[rows].tolist()),
        labels=[singles[i] for i in rows], label_sets=[sets[i] for i in rows],
        titles=frame["title"].fillna("").astype(str).iloc[rows].tolist(),
        abstracts=frame["abstract"].fillna("").astype(str).iloc[rows].tolist(),
        labelled=sum(v is not None for v in singles), papers=info.papers,
    )


def _evaluate_model(store: Store, drawn: Sample, name: str, tasks: list[str], encoder_of: EncoderFor,
                    step: Callable[[str], None], status: Status | None, device: str, batch_size: int) -> dict:
    """One model's results (cached or computed), task errors and timings; ModelErrors propagate."""
    spec = get_model(name, store)
    fp = vectors_fingerprint(spec)
    cached = {t: store.cache_get(drawn.key(fp, t)) for t in tasks}
    todo = [t for t in tasks if cached[t] is None]
    out: dict[str, list] = {"results": [], "errors": [], "timings": []}
    X, encoder = None, None
    if todo:
        if status:
            status(f"{name}: embedding the corpus")
        if store.missing_hashes(drawn.corpus, fp) or TEXT_TASKS.intersection(todo):
            encoder = encoder_of(spec)

        def embedding(n: int, of: int) -> None:
            if status and of:
                status(f"{name}: embedding {n:,}/{of:,} papers")

        embed_corpus(store, drawn.corpus, spec, device=device, batch_size=batch_size, progress=embedding,
                     encoder=encoder)
        X = np.asarray(corpus_embeddings(store, drawn.corpus, spec))[drawn.rows]
    step(f"{name}: embeddings ready")
    for task in tasks:
        started = time.perf_counter()
        if cached[task] is None:
            try:
                computed = run_protocols(
                    X, drawn.labels, [task], model=name, label_sets=drawn.label_sets, seed=drawn.seed,
                    encode=(lambda pairs: encoder.encode(pairs)) if encoder else None,
                    titles=drawn.titles, abstracts=drawn.abstracts,
                )
            except MireadError as exc:
                out["errors"].append({"model": name, "task": task, "error": str(exc)})
                step(f"{name}: {task} failed")
                continue
            cached[task] = to_json([dict(r.to_dict(), model=None) for r in computed])
            store.cache_put(drawn.key(fp, task), cached[task])
        seconds = 0.0 if task not in todo else round(time.perf_counter() - started, 3)
        out["timings"].append({"model": name, "task": task, "seconds": seconds, "cached": task not in todo})
        out["results"] += [dict(row, model=name) for row in cached[task]]
        step(f"{name}: {task} done")
    return out


def evaluate_models(
    store: Store,
    corpus: str,
    label: str,
    models: Sequence[str],
    tasks: Sequence[str],
    *,
    seed: int = 0,
    sample: int = 5000,
    progress: Progress | None = None,
    status: Status | None = None,
    device: str = "auto",
    batch_size: int = 32,
    encoder_for: EncoderFor | None = None,
) -> dict:
    """Run the chosen protocols for each model on a seeded sample of the corpus's labelled papers.

    Each (corpus version, model fingerprint, task, parameters) result is cached in the store, so a
    re-run is instant. A model that cannot be loaded (e.g. a hub model offline) or a task that cannot
    run on this corpus is reported under "errors" and the others go on; if nothing could be computed
    the first error is raised. `progress(done, total)` counts steps: one embedding and one per task
    for each model. `encoder_for(spec)` supplies loaded encoders (the page's cached ones).
    """
    started = time.perf_counter()
    models, tasks = _check_request(store, corpus, models, tasks, sample)
    drawn = draw_sample(store, corpus, label, sample, seed)
    total, done = len(models) * (len(tasks) + 1), 0
    found: dict[str, list] = {"results": [], "errors": [], "timings": []}

    def step(message: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total)
        if status:
            status(message)

    def encoder_of(spec: ModelSpec) -> Any:
        return encoder_for(spec) if encoder_for else get_encoder(spec, device=device, batch_size=batch_size)

    for name in models:
        finished_before = done
        try:
            part = _evaluate_model(store, drawn, name, tasks, encoder_of, step, status, device, batch_size)
        except MireadError as exc:
            part = {"results": [], "errors": [{"model": name, "task": None, "error": str(exc)}], "timings": []}
            done = finished_before + len(tasks)
            step(f"{name}: failed")
        for key, items in part.items():
            found[key] += items
    if not found["results"] and found["errors"]:
        raise MireadError(found["errors"][0]["error"])
    return _document(drawn, models, tasks, sample, found, time.perf_counter() - started)


def _document(drawn: Sample, models: list[str], tasks: list[str], requested: int, found: dict[str, list],
              seconds: float) -> dict:
    """The JSON document (NaN as null) with its markdown rendering under "markdown"."""
    results = found["results"]
    objects = [_result(r) for r in results]
    table = results_table(objects) if objects else pd.DataFrame()
    notes = []
    for model in dict.fromkeys(r.model for r in objects if r.task == "neighbours"):
        rows = neighbour_rows(objects, model)
        if rows:
            notes.append({"model": model, "text": neighbours_summary(rows)})
    doc = {
        "corpus": drawn.corpus, "label": drawn.label, "models": models, "tasks": tasks, "seed": drawn.seed,
        "requested_sample": requested, "sample": len(drawn.rows), "labelled": drawn.labelled,
        "papers": drawn.papers, "results": results,
        "table": table.reset_index().to_dict(orient="records") if objects else [],
        "best": best_per_column(table) if objects else {},
        "purity": purity_points(objects).to_dict(orient="records"),
        "robustness": robustness_by_category(objects).to_dict(orient="records"),
        "families": family_table(objects).to_dict(orient="records"),
        "notes": notes, "errors": found["errors"], "timings": found["timings"],
        "cached": sum(t["cached"] for t in found["timings"]), "seconds": round(seconds, 3),
    }
    doc = to_json(doc)
    doc["markdown"] = markdown_report(doc)
    return doc


# ---------------------------------------------------------------- one pasted abstract


def robustness_for_abstract(
    encoder: Any, corpus_matrix: np.ndarray, frame: pd.DataFrame, title: str, abstract: str, k: int = 10,
    seed: int = 0,
) -> list[dict]:
    """The original's top-k corpus neighbours, then each perturbation family's and their overlap with them.

    The first row is the unperturbed query ("original"); each row has family, category, expect_keep,
    changed (False when the family leaves this text as it is), title, abstract, overlap (share of the
    original's top-k kept) and neighbours [{rank, row, id, title, score, shared}].
    """
    title, abstract = (title or "").strip(), (abstract or "").strip()
    if not title and not abstract:
        raise CorpusError("paste a title or an abstract to probe")
    matrix = np.asarray(corpus_matrix, dtype=np.float32)
    if matrix.ndim != 2 or len(matrix) != len(frame) or len(matrix) == 0:
        raise CorpusError(f"the corpus has {len(frame)} papers but {len(matrix)} embeddings; embed it again")
    k = max(1, min(int(k), len(matrix)))
    pool = frame["abstract"].fillna("").astype(str).tolist() if "abstract" in frame.columns else []
    queries = [("original", "", True, title, abstract)]
    for name in perturb.FAMILIES:
        category, function = perturb.resolve(name, pool=pool)
        rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
        new_title, new_abstract = function(title, abstract, rng)
        queries.append((name, category, perturb.expect_keep(name), new_title, new_abstract))
    vectors = np.asarray(encoder.encode([(q[3], q[4]) for q in queries]), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    norms = np.maximum(np.linalg.norm(matrix, axis=1), 1e-12)
    scores = (vectors @ matrix.T) / norms
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    original = set(top[0].tolist())
    ids = frame["id"].astype(str).tolist()
    titles = frame["title"].fillna("").astype(str).tolist()
    out = []
    for (family, category, keep, new_title, new_abstract), best, row_scores in zip(queries, top, scores):
        changed = family == "original" or (new_title, new_abstract) != (title, abstract)
        out.append({
            "family": family, "category": category, "expect_keep": keep, "changed": changed,
            "title": new_title, "abstract": new_abstract,
            "overlap": len(original.intersection(best.tolist())) / k,
            "neighbours": [{"rank": rank, "row": int(i), "id": ids[i], "title": titles[i],
                            "score": float(row_scores[i]), "shared": int(i) in original}
                           for rank, i in enumerate(best.tolist(), start=1)],
        })
    return out
