"""Evaluation results as tables: the Result row, the model x metric table with the best in bold,
the purity and robustness summaries, strict JSON and the markdown report.

Neighbour scores of destructive (LO-DS) perturbation families are the one place where lower is
better: a good model should not keep a destroyed paper's neighbours.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from core.evaluation import perturb
from core.evaluation.intervals import PERCENT_METRICS, interval_of
from core.evaluation.task_names import JOURNAL_TASKS
from core.records import md_escape

if TYPE_CHECKING:
    import pandas as pd

ROBUSTNESS_METRICS = ("nn1_ret", "nn10_ret", "aop10")
METRIC_NAMES = {"nn1_ret": "NN1_Ret", "nn10_ret": "NN10_Ret", "aop10": "AOP-10"}


@dataclass
class Result:
    """One number of the evaluation table: a model's score on one task's metric."""

    model: str
    task: str
    metric: str
    value: float
    std: float | None = None
    n: int | None = None
    note: str = ""
    method: str | None = None  # the journals task's method (head, knn, bm25); None elsewhere
    per_paper: list[float] | None = None  # each paper's score, in the sample's order, where the task has them
    low: float | None = None  # its 95 % interval, where the task computes one (pair retrieval: bootstrap over papers)
    high: float | None = None
    pairs: int | None = None  # pair retrieval: the paper pairs ranked (n counts the papers)
    left_out: int | None = None  # journals: held-out papers left out (no reference paper has their journal)

    def to_dict(self) -> dict:
        """Plain dict with keys model, task, metric, value, std, n, note (and method, per_paper, low, high and pairs,
        where there are some)."""
        out = asdict(self)
        for key in ("method", "per_paper", "low", "high", "pairs", "left_out"):
            if out[key] is None:
                del out[key]
        return out

    @property
    def column(self) -> str:
        """Its column in the results table: 'task:metric', or 'task:method:metric'."""
        return f"{self.task}:{self.method}:{self.metric}" if self.method else f"{self.task}:{self.metric}"


def result_from_row(row: dict) -> Result:
    """A Result from its JSON row (a null value becomes NaN)."""
    value = row.get("value")
    return Result(row["model"], row["task"], row["metric"], math.nan if value is None else float(value),
                  row.get("std"), row.get("n"), row.get("note", ""), row.get("method"), row.get("per_paper"),
                  row.get("low"), row.get("high"), row.get("pairs"), row.get("left_out"))


# ---------------------------------------------------------------- the main table


def results_table(results: Sequence[Result]) -> pd.DataFrame:
    """A pandas DataFrame with one row per model and one 'task:metric' column per metric."""
    import pandas as pd

    cells: dict[str, dict[str, float]] = {}
    for r in results:
        cells.setdefault(r.model, {})[r.column] = r.value
    columns = list(dict.fromkeys(r.column for r in results))
    table = pd.DataFrame.from_dict(cells, orient="index", columns=columns)
    table.index.name = "model"
    return table


def lower_is_better(column: str) -> bool:
    """True for neighbour scores of destructive (LO-DS) families, where keeping the neighbours is wrong."""
    parts = column.split(":")
    if column.endswith("mean rank"):  # the journals task: the true journal's rank
        return True
    return (len(parts) == 3 and parts[0] == "neighbours" and parts[1] in perturb.FAMILIES
            and not perturb.expect_keep(parts[1]))


def best_per_column(table: pd.DataFrame) -> dict[str, str]:
    """The best model for each column (higher is better, except for LO-DS neighbour scores)."""
    best = {}
    for column in table.columns:
        values = table[column].astype(float)
        if values.notna().any():
            best[column] = str(values.idxmin() if lower_is_better(column) else values.idxmax())
    return best


def measurably_beats(best: Result, other: Result, lower: bool) -> bool:
    """Whether `best` beats `other` beyond chance: the 95 % interval of the paired per-paper difference excludes 0
    (both scored the same papers); without per-paper scores, their two 95 % intervals do not overlap (a stricter
    test); without intervals, never."""
    from core.evaluation.verdict import paired_interval

    if best.per_paper is not None and other.per_paper is not None and len(best.per_paper) == len(other.per_paper) \
            and len(best.per_paper):
        diff = np.asarray(best.per_paper, dtype=np.float64) - np.asarray(other.per_paper, dtype=np.float64)
        low, high = paired_interval(-diff if lower else diff)
        return low > 0
    mine, theirs = interval_of(best), interval_of(other)
    if mine is None or theirs is None:
        return False
    return mine[1] < theirs[0] if lower else mine[0] > theirs[1]


def winners(results: Sequence[Result]) -> dict[str, str]:
    """The model to mark in each column: the best value, only where it measurably beats every other model's
    (`measurably_beats`); a column with one model, a tie or overlapping figures has none."""
    by_column: dict[str, list[Result]] = {}
    for r in results:
        if r.value is not None and not math.isnan(r.value):
            by_column.setdefault(r.column, []).append(r)
    out = {}
    for column, rows in by_column.items():
        if len(rows) < 2:
            continue
        lower = lower_is_better(column)
        best = min(rows, key=lambda r: r.value) if lower else max(rows, key=lambda r: r.value)
        if all(measurably_beats(best, r, lower) for r in rows if r is not best):
            out[column] = best.model
    return out


def to_markdown(table: pd.DataFrame, best: dict[str, str] | None = None,
                shown: dict[tuple[str, str], str] | None = None, n_row: dict[str, str] | None = None) -> str:
    """The table as GitHub markdown, three decimals, the marked model of each column (`best`, by default the
    highest) in bold; `shown` replaces a (model, column) cell's text (a figure with its interval), `n_row` adds a last
    row 'n' with what each column was measured on."""
    best = best_per_column(table) if best is None else best
    shown = shown or {}
    lines = [
        "| model | " + " | ".join(table.columns) + " |",
        "|---|" + "---:|" * len(table.columns),
    ]
    for model, row in table.iterrows():
        cells = []
        for column in table.columns:
            value = row[column]
            text = "–" if value is None or math.isnan(float(value)) else \
                shown.get((str(model), column), f"{float(value):.3f}")
            cells.append(f"**{text}**" if best.get(column) == str(model) and text != "–" else text)
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    if n_row:
        lines.append("| n | " + " | ".join(n_row.get(column, "–") for column in table.columns) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------- summaries of the results


def purity_points(results: Sequence[Result]) -> pd.DataFrame:
    """Columns model, k, purity: one row per model and number of clusters (for the purity chart)."""
    import pandas as pd

    rows = [{"model": r.model, "k": int(r.metric.split("@", 1)[1]), "purity": r.value}
            for r in results if r.task == "purity" and r.metric.startswith("purity@")]
    return pd.DataFrame(rows, columns=["model", "k", "purity"])


def neighbour_rows(results: Sequence[Result], model: str) -> list[dict]:
    """One model's textual-neighbour scores per family, as `robustness.textual_neighbours` returns them."""
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
    import pandas as pd

    records = []
    for model in dict.fromkeys(r.model for r in results if r.task == "neighbours"):
        for row in neighbour_rows(results, model):
            records.append({"model": model, "family": row["family"], "category": row["category"],
                            "should": "keep" if row["expect_keep"] else "lose", "n": row["n"],
                            **{m: row.get(m, math.nan) for m in ROBUSTNESS_METRICS}})
    return pd.DataFrame(records, columns=["model", "family", "category", "should", "n", *ROBUSTNESS_METRICS])


def robustness_by_category(results: Sequence[Result]) -> pd.DataFrame:
    """Mean NN1_Ret, NN10_Ret and AOP-10 per model and perturbation category (families left unchanged skipped)."""
    import pandas as pd

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


CITE_NOTE = ("cite / cocite: held-out query papers (20% of the citing papers, split by paper with the seed; only "
             "papers that every evaluated SPECTER model held out too, so no query's links were training triplets); "
             "MAP and nDCG rank a query's cited (cocite: co-cited) papers, up to 5, among 25 random others; "
             "recall@10 and nDCG@10 retrieve them from the whole corpus; random (baseline) scores random vectors.")


CHANCE_SHOWN = 0.05  # below this chance of a random top 10, the note is left out


def chance_text(papers: int) -> str | None:
    """What a random ranking of `papers` papers scores on the short-query task (recall@1, recall@10, MRR), as one
    sentence; None where chance is negligible (a random top 10 holds the paper less than 5 % of the time)."""
    if papers <= 0 or 10 / papers < CHANCE_SHOWN:
        return None
    mrr = sum(1 / rank for rank in range(1, papers + 1)) / papers
    return (f"On {papers:,} papers a random ranking puts a query's paper first {100 / papers:.1f} % of the time and "
            f"in the top 10 {min(100.0, 1000 / papers):.0f} % of the time (MRR {mrr:.3f}): compare the short-query "
            "figures with that.")


def markdown_report(doc: dict) -> str:
    """The evaluation as markdown: the main table (best in bold), robustness tables, notes and errors."""
    results = [result_from_row(r) for r in doc["results"]]
    parts = [f"Corpus **{md_escape(doc['corpus'])}**, label **{md_escape(doc['label'])}**: "
             f"{doc['sample']:,} of {doc['labelled']:,} labelled papers sampled (seed {doc['seed']})"
             + (", all of them held-out test papers of a fine-tuned model." if doc.get("held_out") else ".")
             if doc["sample"] else f"Corpus **{md_escape(doc['corpus'])}** (seed {doc['seed']})."]
    if "figures" in doc.get("tasks", []):
        parts.append("figures: held-out papers (30%, split by paper with the seed); the rows marked (baseline) are "
                     "the floors: random (expected value) and pick-first (figures in article order).")
    if {"cite", "cocite"} & set(doc.get("tasks", [])):
        parts.append(CITE_NOTE)
    if "short" in doc.get("tasks", []) and (chance := chance_text(int(doc.get("papers") or 0))):
        parts.append(chance)
    main = [r for r in results if r.task != "neighbours"]
    if main:
        table = results_table(main)
        marked = {column: md_escape(model) for column, model in winners(main).items()}
        table.index = [md_escape(m) for m in table.index]
        shown = {(md_escape(r.model), r.column): figure_text(r) for r in main}
        parts.append(to_markdown(table, marked, shown, {r.column: n_text(r) for r in main}))
        parts.append("Each figure with its 95 % interval in brackets where one follows from its papers (n): Wilson "
                     "for shares of papers, a t interval over the linear probe's folds, a bootstrap over papers for "
                     "pair retrieval and for means over papers (MRR, mean rank). Bold: a model that beats every "
                     "other on that measure beyond chance (the 95 % interval of the paired per-paper difference "
                     "excludes 0, or the two 95 % intervals do not overlap).")
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
            [[md_escape(r.model), r.family, r.category, r.should, str(r.n),
              *(_fmt(getattr(r, m)) for m in ROBUSTNESS_METRICS)] for r in families.itertuples()]))
    notes = [f"- {md_escape(n['model'])}: {n['text']}" for n in doc.get("notes", [])]
    notes += [f"- {md_escape(e['model'])}" + (f" ({e['task']})" if e.get("task") else "") + f": {md_escape(e['error'])}"
              for e in doc.get("errors", [])]
    if notes:
        parts.append("\n".join(notes))
    return "\n\n".join(parts)


# ---------------------------------------------------------------- readable figures with n and intervals

TASK_NAMES = {"probe": "Linear probe", "purity": "Cluster purity", "retrieval": "Pair retrieval", "knn": "kNN",
              "self": "Alternative self", "journals": "Journal finder",
              "journals-title": "Journal finder (title alone)", "cite": "Citations", "cocite": "Co-citations",
              "figures": "Figures", "short": "Short queries"}
METRIC_TEXT = {"macro_f1": "macro-F1", "accuracy": "accuracy", "ap": "average precision", "auc": "ROC-AUC",
               "knn_accuracy": "accuracy (k = 10 vote)", "task1_mrr": "title → paper MRR", "task1_t100": "title → "
               "paper top-100", "task2_mrr": "title → abstract MRR", "task2_t100": "title → abstract top-100"}
METHOD_TEXT = {"knn": "neighbour vote", "bm25": "BM25", "head": "trained head", "dense": "meaning (dense)",
               "lexical": "words (BM25)", "fused": "words + meaning"}


def readable(column: str) -> str:
    """'probe:macro_f1' -> 'Linear probe macro-F1'; 'journals:knn:top-5' -> 'Journal finder, neighbour vote: top-5'."""
    parts = column.split(":")
    task = TASK_NAMES.get(parts[0], parts[0])
    if len(parts) == 3 and parts[0] == "short":  # 'short:fused:title recall@1'
        return f"{task}, {METHOD_TEXT.get(parts[1], parts[1])}: {parts[2]}"
    if len(parts) == 3 and parts[0] in JOURNAL_TASKS:
        return f"{task}, {METHOD_TEXT.get(parts[1], parts[1])}: {parts[2]} (%)" if parts[2] in PERCENT_METRICS \
            else f"{task}, {METHOD_TEXT.get(parts[1], parts[1])}: {parts[2]}"
    metric = parts[-1]
    if metric.startswith("purity@"):
        return f"{task} (k = {metric.split('@')[1]})"
    return f"{task} {METRIC_TEXT.get(metric, metric)}"


def figure_text(r: Result) -> str:
    """'0.833 (0.820–0.845)': a figure with its 95 % interval where one follows (`interval_of`); '–' when missing."""
    value = "–" if r.value is None or math.isnan(r.value) else f"{r.value:.3f}" if abs(r.value) < 10 \
        and r.task not in JOURNAL_TASKS else f"{r.value:.1f}"
    bounds = interval_of(r)
    if bounds is not None and value != "–":
        fmt = ".1f" if r.task in JOURNAL_TASKS else ".3f"
        value += f" ({bounds[0]:{fmt}}–{bounds[1]:{fmt}})"
    return value


def n_text(result: Result) -> str:
    """What a figure was measured on: '2,000', or '2,000 papers, 200,000 pairs' for pair retrieval; '–' without."""
    return "–" if not result.n else f"{result.n:,} papers, {result.pairs:,} pairs" if result.pairs else f"{result.n:,}"


def figure_rows(results: Sequence[Result]) -> pd.DataFrame:
    """One row per model and measure, for a CSV: model, measure (readable name), value, its 95 % interval (low, high;
    empty where none follows) and n, with the pairs of pair retrieval."""
    import pandas as pd

    rows = []
    for r in results:
        family, _, metric = r.metric.rpartition(":")
        measure = f"Textual neighbours, {family}: {METRIC_NAMES.get(metric, metric)}" if r.task == "neighbours" \
            else readable(r.column)
        low, high = interval_of(r) or (math.nan, math.nan)
        rows.append({"model": r.model, "measure": measure, "value": r.value, "low": low, "high": high, "n": r.n,
                     "pairs": r.pairs})
    return pd.DataFrame(rows, columns=["model", "measure", "value", "low", "high", "n", "pairs"])


def figure_table(results: Sequence[Result]) -> tuple[pd.DataFrame, dict[str, str]]:
    """Figures as text, one row per measure (readable name) and one column per model, each 'value (low–high)',
    with the papers (n) of each measure; and the model that measurably beats the others in each row (`winners`)."""
    import pandas as pd

    main = [r for r in results if r.task != "neighbours"]
    best = winners(main)
    rows: dict[str, dict[str, str]] = {}
    best_of: dict[str, str] = {}
    for r in main:
        name = readable(r.column)
        row = rows.setdefault(name, {})
        row[r.model] = figure_text(r)
        row["n"] = n_text(r) if row.get("n") in (None, n_text(r)) else f"{row['n']} / {n_text(r)}"  # models apart
        if r.column in best:
            best_of[name] = best[r.column]
    models = list(dict.fromkeys(r.model for r in main))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=[*models, "n"]).fillna("–")
    table.index.name = "measure"
    return table, best_of
