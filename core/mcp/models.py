"""The MCP tools on models: which papers moved between two models (the Compare models page's neighbourhood change)
and the stored evaluation figures (what the Evaluate page or `python -m core evaluate` computed; nothing is run)."""

from __future__ import annotations

from typing import Any

from core.errors import MireadError
from core.mcp.workspace import Workspace, jsonable


def compare_models(ws: Workspace, model_a: str, model_b: str, corpus: str | None = None,
                   top: int = 20) -> dict[str, Any]:
    """How much each paper's 10 nearest neighbours change from model A to model B: corpus figures and the papers
    that moved most (1 − shared neighbours / 10, as the Compare models page computes it)."""
    from core.explore.compare import NEIGHBOURS, change_summary, moved_papers, neighbourhood_scores
    from core.labels import plain_value

    if not 1 <= int(top) <= 500:
        raise MireadError(f"top must be between 1 and 500, got {top}")
    name = ws.corpus_name(corpus)
    spec_a, spec_b = ws.spec(model_a), ws.spec(model_b)
    if spec_a.name == spec_b.name:
        raise MireadError(f"compare two different models; both are {spec_a.name!r}")
    scores = neighbourhood_scores(ws.store, name, spec_a, spec_b, NEIGHBOURS)
    frame = ws.frame(name)
    labels = [c for c in ws.store.corpus(name).labels if c in frame.columns][:2]
    table = moved_papers(frame, scores, labels, top=int(top))
    moved = [{key: plain_value(value) for key, value in record.items() if key != "row"}
             for record in table.to_dict(orient="records")]
    return jsonable({"corpus": name, "model_a": spec_a.name, "model_b": spec_b.name,
                     "summary": change_summary(scores, NEIGHBOURS), "moved": moved})


def evaluate(ws: Workspace, label: str, models: list[str], corpus: str | None = None,
             tasks: list[str] | None = None, seed: int | None = None) -> dict[str, Any]:
    """The stored evaluation figures of models on a corpus's label column (the `evaluate --json` document of the newest
    run that stored them all, at whatever sample size, with `seed` when given, as the app finds them); a model without
    stored figures is named with the command that computes them."""
    from core.evaluation import QUICK_TASKS, common_sample, evaluate_models, stored_runs

    name = ws.corpus_name(corpus)
    tasks = [t.strip() for t in (tasks or list(QUICK_TASKS)) if t.strip()]
    names = [ws.spec(m).name for m in dict.fromkeys(m.strip() for m in models if m.strip())]
    if not names:
        raise MireadError("name at least one model to evaluate")
    if label not in ws.store.corpus(name).columns:
        raise MireadError(f"corpus {name!r} has no column {label!r}")
    found = common_sample(ws.store, name, label, names, tasks, seed)  # any sample size, as the app finds them
    if found is not None:
        doc = evaluate_models(ws.store, name, label, names, tasks, seed=found.seed, sample=found.sample,
                              papers=found.papers)
        return jsonable({k: v for k, v in doc.items() if k != "markdown"})
    missing = [m for m in names
               if not any(seed in (None, run[1]) for run in stored_runs(ws.store, name, label, m, tasks))]
    who = ", ".join(missing or names)
    raise MireadError(f"no stored figures of {who} for {', '.join(tasks)} on {name!r} ({label}); compute them on the "
                      f"Evaluate page or with `python -m core evaluate --corpus {name} --label {label} "
                      f"--models {','.join(names)} --tasks {','.join(tasks)}`")
