"""Every labelled duplicate group the importer left in several papers, with each record's year, volume, issue, pages,
journal, authors and title, and what `same_paper` says of the first two papers (BENCHMARKS.md §25t).

    PYTHONPATH=. .venv/bin/python benchmarks/dedup_misses.py haematology,stroke,respiratory,cytology_screening
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dedup_benchmark as bench  # noqa: E402

from core.store.bibliographic import bibliographic_conflict  # noqa: E402
from core.store.identity import _authors_agree, match_keys, same_paper, title_key  # noqa: E402


def main(sets: list[str]) -> None:
    for name in sets:
        papers, group, _ = bench.load(name)
        clusters, _ = bench.importer_clusters(papers)
        by_cluster = {pid: i for i, c in enumerate(clusters) for pid in c}
        members = defaultdict(list)
        for p in papers:
            members[group[p.id]].append(p)
        missed = 0
        for records in members.values():
            parts = defaultdict(list)
            for p in records:
                parts[by_cluster[p.id]].append(p)
            if len(parts) < 2:
                continue
            missed += len(parts) - 1
            print(f"=== {name}: one labelled group in {len(parts)} papers")
            for i, part in enumerate(parts.values()):
                for p in part:
                    f = p.fields
                    print(f"  [{i}] {p.id} y={f.get('year')} v={f.get('volume')} i={f.get('issue')} "
                          f"p={f.get('pages')} j={str(f.get('journal'))[:40]}")
                    print(f"      A={'; '.join(f.get('authors', []))[:150]}")
                    print(f"      T={p.title[:200]}")
            a, b = (part[0] for part in list(parts.values())[:2])
            print("  same_paper:", same_paper(a.title, a.fields, match_keys(a.title, a.fields), b.title, b.fields,
                                             match_keys(b.title, b.fields)),
                  "title keys equal:", title_key(a.title) == title_key(b.title),
                  "first authors agree:", _authors_agree(a.fields, b.fields),
                  "places conflict:", bibliographic_conflict(a.fields, b.fields, 1))
        print(f"## {name}: {missed} labelled duplicates in a paper of their own")


if __name__ == "__main__":
    main(sys.argv[1].split(",") if len(sys.argv) > 1 else list(bench.SETS[:4]))
