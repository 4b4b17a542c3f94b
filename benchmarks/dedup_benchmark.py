"""Deduplication accuracy on public labelled benchmarks: the importer's rules against exact-text/exact-DOI merging.

Data: four of the labelled sets of Hair et al. (2023, ASySD) as prepared by the bib-dedupe project (MIT,
github.com/CoLRev-Environment/bib-dedupe, commit 3d653332, data/<set>/records_pre_merged.csv and
merged_record_origins.csv), copied gzipped to benchmarks/data/dedup/. Each set is one systematic search exported
from several databases (title, year, authors, journal, volume, issue, pages; no abstracts, no DOIs) with every
duplicate group labelled by hand. A fifth, `digital_work` (bib-dedupe commit c66515a6: 7,159 records of an
information-systems review, with DOIs and some abstracts, labelled by the bib-dedupe authors), was held out: the
rules were tuned looking only at the misses of the first four, then measured once on it.

Protocol (as ASySD and DedupEndNote report): per record. A record a tool removes (merges into another) is a true
positive when the record it went into is in its labelled group, else a false positive; a labelled duplicate
(every record of a group but one) left in is a false negative; every other record is a true negative.
Sensitivity = TP / (TP + FN), specificity = TN / (TN + FP), with Wilson 95 % intervals. Records without a title are
left out (the importer skips them with a reason) and counted.

    .venv/bin/python benchmarks/dedup_benchmark.py [--sets stroke,haematology,...] [--json out.json]

"exact" is the baseline: records are one paper when their normalised title and abstract are equal or their DOIs
are (the rules before BENCHMARKS.md §25). "importer" is `core.store.import_file` with today's rules.
"""

from __future__ import annotations

import argparse
import ast
import csv
import gzip
import io
import json
import math
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.records import Paper, normalise_text  # noqa: E402
from core.store import Store, import_file  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "dedup"
SETS = ("haematology", "stroke", "respiratory", "cytology_screening", "digital_work")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of k successes in n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def load(name: str) -> tuple[list[Paper], dict[str, int], int]:
    """The set's records as papers (title-only), the labelled group of each record id, and records without a
    title."""
    with gzip.open(DATA / f"{name}_records.csv.gz", "rt", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with gzip.open(DATA / f"{name}_truth.csv.gz", "rt", encoding="utf-8") as f:
        groups = [ast.literal_eval(r["merged_origins"]) if "merged_origins" in r else r["merged_ids"].split(";")
                  for r in csv.DictReader(f)]
    group: dict[str, int] = {}
    for g, origins in enumerate(groups):
        for origin in origins:
            group[origin.split("/")[-1]] = g
    papers, untitled = [], 0
    for row in rows:
        title = (row.get("title") or "").strip()
        if not title:
            untitled += 1
            continue
        authors = [a.strip() for a in (row.get("author") or "").split(" and ") if a.strip()]
        fields = {k: v for k, v in {"year": row.get("year"), "authors": authors, "journal": row.get("journal"),
                                    "volume": row.get("volume"), "issue": row.get("number"),
                                    "pages": row.get("pages"), "type": row.get("ENTRYTYPE"),
                                    "doi": row.get("doi")}.items() if v and v != "UNKNOWN"}
        papers.append(Paper(row["ID"], title, (row.get("abstract") or "").strip(), fields))
    next_group = len(groups)
    for p in papers:  # every other record is its own group
        if p.id not in group:
            group[p.id] = next_group
            next_group += 1
    return papers, group, untitled


def exact_clusters(papers: list[Paper]) -> list[list[str]]:
    """The baseline: one paper per normalised title+abstract or DOI, in order (the first stays)."""
    by_key: dict[str, int] = {}
    clusters: list[list[str]] = []
    for p in papers:
        keys = [f"text:{normalise_text(p.title)}\x1f{normalise_text(p.abstract)}"]
        if p.fields.get("doi"):
            keys.append(f"doi:{str(p.fields['doi']).lower()}")
        held = next((by_key[k] for k in keys if k in by_key), None)
        if held is None:
            held = len(clusters)
            clusters.append([])
        clusters[held].append(p.id)
        for k in keys:
            by_key.setdefault(k, held)
    return clusters


def importer_clusters(papers: list[Paper]) -> tuple[list[list[str]], float]:
    """The importer's papers: each stored paper's own record, then the records merged into it."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp)
        started = time.perf_counter()
        import_file(store, iter(papers), "bench", source="bench.csv")
        seconds = time.perf_counter() - started
        conn = sqlite3.connect(store.db_path)
        clusters: dict[int, list[str]] = {seq: [pid] for seq, pid in
                                          conn.execute("SELECT seq, pid FROM papers WHERE corpus = 'bench'")}
        for seq, pid in conn.execute("SELECT seq, pid FROM merged_records WHERE corpus = 'bench' ORDER BY id"):
            clusters[seq].append(pid)
        conn.close()
    # a record kept under a derived id ("id~row") is the same record
    return [[pid.split("~")[0] for pid in c] for c in clusters.values()], seconds


def score(clusters: list[list[str]], group: dict[str, int]) -> dict[str, float | int]:
    """Per-record TP/FP/FN/TN (see the module) and sensitivity/specificity with Wilson intervals."""
    n = sum(len(c) for c in clusters)
    sizes: dict[int, int] = defaultdict(int)
    for c in clusters:
        for pid in c:
            sizes[group[pid]] += 1
    labelled_dups = sum(s - 1 for s in sizes.values())
    tp = fp = 0
    wrong: list[list[str]] = []
    for c in clusters:
        kept = group[c[0]]
        for pid in c[1:]:
            if group[pid] == kept:
                tp += 1
            else:
                fp += 1
                wrong.append(c)
    fn = labelled_dups - tp
    tn = n - labelled_dups - fp
    sens, spec = tp / max(1, tp + fn), tn / max(1, tn + fp)
    return {"records": n, "labelled_duplicates": labelled_dups, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "sensitivity": sens, "sensitivity_ci": wilson(tp, tp + fn), "specificity": spec,
            "specificity_ci": wilson(tn, tn + fp), "false_merges": wrong[:20]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--json", default=None)
    parser.add_argument("--show-misses", type=int, default=0, help="print this many missed duplicate groups")
    args = parser.parse_args()
    results = []
    totals: dict[str, dict[str, int]] = {m: defaultdict(int) for m in ("exact", "importer")}
    for name in args.sets.split(","):
        papers, group, untitled = load(name)
        for method in ("exact", "importer"):
            seconds = 0.0
            if method == "exact":
                clusters = exact_clusters(papers)
            else:
                clusters, seconds = importer_clusters(papers)
            s = score(clusters, group)
            for k in ("tp", "fp", "fn", "tn"):
                totals[method][k] += int(s[k])
            results.append({"set": name, "method": method, "untitled": untitled, "seconds": round(seconds, 2), **s})
            print(f"{name:20s} {method:9s} n={s['records']:5d} dups={s['labelled_duplicates']:4d} "
                  f"TP={s['tp']:4d} FP={s['fp']:3d} FN={s['fn']:4d}  sensitivity {100 * s['sensitivity']:.1f} % "
                  f"({100 * s['sensitivity_ci'][0]:.1f}–{100 * s['sensitivity_ci'][1]:.1f})  specificity "
                  f"{100 * s['specificity']:.2f} % ({100 * s['specificity_ci'][0]:.2f}–"
                  f"{100 * s['specificity_ci'][1]:.2f})  untitled {untitled}")
            if method == "importer" and args.show_misses:
                by_cluster = {pid: i for i, c in enumerate(clusters) for pid in c}
                members: dict[int, list[Paper]] = defaultdict(list)
                for p in papers:
                    members[group[p.id]].append(p)
                shown = 0
                for g in members.values():
                    if len(g) > 1 and len({by_cluster[p.id] for p in g}) > 1 and shown < args.show_misses:
                        shown += 1
                        print("  missed:")
                        for p in g:
                            print(f"    {p.id} {p.fields.get('year')} {str(p.fields.get('authors', [''])[:1])[:30]}"
                                  f" | {p.title[:110]}")
                for c in s["false_merges"][: args.show_misses]:
                    print("  false merge:", [next(p.title[:80] for p in papers if p.id == pid) for pid in c])
    for method, t in totals.items():
        tp, fp, fn, tn = t["tp"], t["fp"], t["fn"], t["tn"]
        lo, hi = wilson(tp, tp + fn)
        slo, shi = wilson(tn, tn + fp)
        print(f"{'all sets':20s} {method:9s} TP={tp} FP={fp} FN={fn} TN={tn}  sensitivity "
              f"{100 * tp / (tp + fn):.1f} % ({100 * lo:.1f}–{100 * hi:.1f})  specificity {100 * tn / (tn + fp):.2f} % "
              f"({100 * slo:.2f}–{100 * shi:.2f})")
        results.append({"set": "all", "method": method, **t})
    if args.json:
        out = io.StringIO()
        json.dump(results, out, indent=1, default=list)
        Path(args.json).write_text(out.getvalue())


if __name__ == "__main__":
    main()
