"""Same keys and rules, checked: `core.store.identity`'s outputs on many records, saved by one revision and compared
by another (BENCHMARKS.md §25c).

Records: the five dedup sets, the shared exports, 20,000 rows of the import benchmark's CSV, 3,000 medical abstracts
and 30,000 seeded random strings of brackets, accents, ids and spaces. Outputs: title_key, title_form,
first_author_surname, year_of, external_ids, record_key, match_keys (five id columns), and same_paper on the pairs
of the dedup sets' records that share a key.

    export MIREAD_BENCH_DATA=/work/shared/data   # the exports and medical abstracts (benchmarks/common.py)
    cd <other checkout> && PYTHONPATH=. python <this checkout>/benchmarks/identity_equality.py --save /tmp/ref.pkl
    PYTHONPATH=. python benchmarks/identity_equality.py --against /tmp/ref.pkl   # exit 1 and the rows when they differ
"""

from __future__ import annotations

import argparse
import glob
import gzip
import itertools
import json
import os
import pickle
import random
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dedup_benchmark  # noqa: E402
from common import DATA  # noqa: E402

from core.io.papers import read_papers  # noqa: E402
from core.records import Paper  # noqa: E402
from core.store import identity  # noqa: E402

Record = tuple[str, str, dict[str, Any], str]
_PIECES = list("aAzZ09 .,;:-_()[]?!'\"/\\\t\n\x1c\x1f\x7féÉøØæßłŁıİñ\u0301\u00a0\u2013\u2014\u00b2½ﬁ\ufffdΣσς中文") + [
    "LA: Chi", " (Provisional abstract)", "[Japanese]", "; [Original title]", "[Review] [33 refs]", "Abstract)",
    "WOS:", "2-s2.0-", "PMC", "ISI:"]


def _random_records(n: int) -> list[Record]:
    rnd = random.Random(7)
    out: list[Record] = []
    for _ in range(n):
        t = "".join(rnd.choice(_PIECES) for _ in range(rnd.randint(0, 40)))
        authors = rnd.choice([None, t, [t], ["Smith, J", t], "Smith J; Doe K", "A and B", ["", "X"], [],
                              "Curry Rogers K"])
        fields = {"year": rnd.choice([None, "2009", 2009, 2009.0, "c2009", "May 1999", "", [2001], "20091", True]),
                  "authors": authors,
                  "doi": rnd.choice([None, "10.1/x", "https://doi.org/10.48550/arXiv.2101.00001", ["", "10.2/Y"],
                                     "x", 5]),
                  rnd.choice(["pmid", "pm", "eid", "ut", "pmc", "arxiv", "eprint", "accession number", "other"]):
                      rnd.choice(["123", "PMID:0123", "2-s2.0-99", "WOS:000123456789012", "PMC77", "2101.00001v2",
                                  "hep-th/9901001", "x", 12.0, ""]),
                  "volume": rnd.choice([None, "9", "Drug Discovery. 9", ""]),
                  "pages": rnd.choice([None, "567-569", "e12724", "1351-9", "01-Jun"]),
                  "issue": rnd.choice([None, "1", "1112"])}
        fields = {k: v for k, v in fields.items() if v is not None or rnd.random() < 0.2}
        pid = rnd.choice(["p1", "WOS:000123456789012", "2-s2.0-123", "PMC12", "pmc9", "isi:000123456789012", "",
                          t[:12], "123"])
        out.append((t, rnd.choice(["", t, "some abstract " + t]), fields, pid))
    return out


def records(csv_path: str) -> tuple[list[Record], int]:
    """Every record checked, and how many of the first are the dedup sets' (for the pairs)."""
    out: list[Record] = []
    for name in ("haematology", "stroke", "respiratory", "cytology_screening", "digital_work"):
        papers, _, _ = dedup_benchmark.load(name)
        out += [(p.title, p.abstract, p.fields, p.id) for p in papers]
    dedup = len(out)
    for path in sorted(glob.glob(str(DATA / "exports" / "**" / "*"), recursive=True)):
        if os.path.isdir(path) or path.endswith((".md", "EXPECTED.tsv")):
            continue
        out += [(p.title, p.abstract, p.fields, p.id) for p in read_papers(path, background=False, title_only=True)
                if isinstance(p, Paper)]
    if os.path.exists(csv_path):
        out += [(p.title, p.abstract, p.fields, p.id)
                for p in itertools.islice(read_papers(csv_path, background=False), 20000) if isinstance(p, Paper)]
    medical = DATA / "medical_abstracts.jsonl.gz"
    if medical.exists():
        with gzip.open(medical, "rt") as handle:
            for line in itertools.islice(handle, 3000):
                r = json.loads(line)
                text = r.get("text", "")
                out.append((r.get("title") or text[:90], r.get("abstract") or text,
                            {k: v for k, v in r.items() if k not in ("title", "abstract", "text")}, str(r.get("id", ""))))
    return out + _random_records(30000), dedup


def outputs(recs: list[Record], dedup: int) -> tuple[list[list[Any]], list[Any]]:
    """Each record's outputs, and same_paper on the dedup records that share a key (up to 6 a key)."""
    rows = []
    for title, abstract, fields, pid in recs:
        row = [identity.title_key(title), identity.title_form(title), identity.first_author_surname(fields),
               identity.year_of(fields), identity.external_ids(fields, pid), identity.record_key(title, abstract, fields),
               identity.match_keys(title, fields, pid)]
        row += [identity.match_keys(title, fields, pid, column) for column in ("PMID", "EID", "UT", "id")]
        rows.append(row)
    keys = [identity.match_keys(t, f, p) for t, _, f, p in recs[:dedup]]
    by_key: dict[str, list[int]] = {}
    for i, ks in enumerate(keys):
        for k in ks:
            by_key.setdefault(k, []).append(i)
    pairs = [identity.same_paper(recs[i][0], recs[i][2], keys[i], recs[j][0], recs[j][2], keys[j])
             for _, held in sorted(by_key.items()) for i, j in itertools.combinations(held[:6], 2)]
    return rows, pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--save", default=None, help="write this revision's outputs here")
    parser.add_argument("--against", default=None, help="compare with outputs saved by another revision")
    parser.add_argument("--csv", default="/tmp/miread-bench/import-50k.csv")
    args = parser.parse_args()
    recs, dedup = records(args.csv)
    rows, pairs = outputs(recs, dedup)
    print(f"{len(recs):,} records, {len(pairs):,} pairs")
    if args.save:
        with open(args.save, "wb") as handle:
            pickle.dump({"rows": rows, "pairs": pairs}, handle)
    if args.against:
        with open(args.against, "rb") as handle:
            ref = pickle.load(handle)
        if len(ref["rows"]) != len(rows):
            raise SystemExit(f"not the same records: {len(ref['rows'])} saved, {len(rows)} here")
        bad = [i for i, (x, y) in enumerate(zip(ref["rows"], rows, strict=True)) if x != y]
        print(f"records differing: {len(bad)}, pairs differing: {sum(x != y for x, y in zip(ref['pairs'], pairs))}")
        for i in bad[:5]:
            print(ref["rows"][i], "\n", rows[i])
        sys.exit(1 if bad or ref["pairs"] != pairs else 0)


if __name__ == "__main__":
    main()
