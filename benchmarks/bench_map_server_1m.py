"""Issue 42 (BENCHMARKS §31q): the server's per-corpus work on the map at 1M papers, in process, before and after.

Times, on the synthetic 1M corpus of bench_map_click.py / bench_map_open_parts.py (§31p; a copy of its catalog,
never written into the original): (a) `journal_identities` over the corpus's parsed records and the cold papers-frame
read it is part of; (b) the highlight's text built once and a few queries on it; (c) the id index `row_of` makes
(and its first lookup); (d) the lasso's side run's ids for 300,000 selected papers. Each revision runs in its own
process (`--root`: the checkout whose core/ and ui/ are imported, e.g. `git worktree add --detach
/tmp/map1m3-before 5b77da6`), before and after interleaved, `--runs` times; each worker also writes digests of its
answers (identities, highlight masks, rows) so both revisions are checked to agree. Raw JSON to benchmarks/results/.

    nice -n 10 .venv/bin/python benchmarks/bench_map_server_1m.py --before /tmp/map1m3-before --runs 3
    nice -n 10 .venv/bin/python benchmarks/bench_map_server_1m.py --before /tmp/map1m3-before --runs 2 --real 10 \
        --out benchmarks/results/bench_map_server_real_31q.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SOURCE = Path("/tmp/map1m2-out/interactions/ws-map-1000000")  # §31p's workspace: read only, copied
WORDS = ("galaxy", "strasse", "2019", "study 99999", "J. Protein")
SELECTED = 300_000


def digest(values: Any) -> str:
    return hashlib.blake2b(json.dumps(values, ensure_ascii=False).encode(), digest_size=8).hexdigest()


def clock(took: dict[str, list[float]], name: str, work: Any) -> Any:
    start = time.perf_counter()
    out = work()
    took.setdefault(name, []).append(round(time.perf_counter() - start, 3))
    return out


def worker(root: str, workspace: str, corpus: str) -> dict[str, Any]:
    """One revision's timings and answers (imports that revision's core/ and ui/)."""
    sys.path.insert(0, root)
    import numpy as np

    from core.explore import highlight_mask, highlight_text
    from core.explore.search import lookup
    from core.journal_identity import journal_identities
    from core.store import Store

    store = Store(Path(workspace))
    info = store.corpus(corpus)
    took: dict[str, list[float]] = {}
    answers: dict[str, Any] = {}
    with store.connect() as conn:
        rows = conn.execute("SELECT pid, fields FROM papers WHERE corpus = ? ORDER BY seq", (corpus,)).fetchall()
    parsed = list(zip([r[0] for r in rows], json.loads("[" + ",".join(r[1] or "{}" for r in rows) + "]")))
    del rows
    aliases = [name for name, role in info.roles.items() if role == "alias"]
    for _ in range(2):
        found = clock(took, "a. journal_identities (1M parsed records)", lambda: journal_identities(
            parsed, info.journal, aliases))
    answers["identities"] = digest([sorted(found.names.items()), sorted(found.spellings.items()),
                                    sorted(found.papers.items())])
    parsed = found = None  # memory back before the frame
    frame = clock(took, "a. papers frame, first read (identities made)", lambda: store.papers_frame(corpus))
    clock(took, "a. papers frame, second read (identities kept)", lambda: store.papers_frame(corpus))
    for _ in range(2):
        text = clock(took, "b. highlight text built", lambda: highlight_text(frame))
    masks = {}
    for word in WORDS:
        mask = clock(took, "b. highlight query", lambda: highlight_mask(frame, word, text))
        masks[word] = [int(mask.sum()), digest(np.flatnonzero(mask)[:1000].tolist())]
    answers["highlight"] = masks
    text = None
    pick = np.random.default_rng(0).choice(len(frame), 1000, replace=False)
    wanted = frame["id"].take(pick).astype(str).tolist()
    for _ in range(2):
        index = clock(took, "c. id index + first lookup", lambda: (ix := lookup._id_index(frame), ix.get_loc(
            wanted[0]))[0])
    found_rows = [int(index.get_loc(pid)) for pid in wanted]
    answers["rows"] = digest(found_rows) if found_rows == pick.tolist() else "WRONG"
    chosen = np.sort(np.random.default_rng(1).choice(len(frame), SELECTED, replace=False))
    side_before = Path(root, "ui", "map", "side.py").read_text()
    for _ in range(3):
        if "SelectedIds" in side_before:  # after: the side run counts the selection; ids taken on a click
            from ui.map.side import SelectedIds

            ids = clock(took, "d. lasso side run: the selection's ids (300k)", lambda: (s := SelectedIds(
                frame, chosen), len(s))[0])
        else:  # before: every id taken and copied up front (side.py, export_menu)
            ids = clock(took, "d. lasso side run: the selection's ids (300k)", lambda: list(
                frame["id"].take(chosen).astype(str).tolist()))
        clock(took, "d. export click: the ids read", lambda: list(ids))
    answers["selection"] = digest(list(ids))
    import resource

    return {"root": root, "seconds": took, "answers": answers,
            "peak_rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20, 2)}


def worker_real(root: str, copies: int) -> dict[str, Any]:
    """(b) on real text: every real fixture's papers (tests/fixtures/real: 260 files, 34 formats, accents, Greek,
    dashes), each `copies` times under new ids, as one frame; the highlight's text built and queried."""
    sys.path.insert(0, root)
    import numpy as np

    from core.explore import highlight_mask, highlight_text
    from core.io import read_papers
    from core.records import Paper
    from core.store.frame_build import frame_of

    papers = []
    for path in sorted((HERE.parent / "tests" / "fixtures" / "real").rglob("*")):
        if path.is_file() and path.suffix.lower() != ".md" and not path.name.startswith("EXPECTED"):
            try:
                papers += [p for p in read_papers(path) if isinstance(p, Paper)]
            except Exception:  # noqa: BLE001, S112 - a file no reader takes is no fixture here
                continue
    papers = [p for _ in range(copies) for p in papers]
    frame = frame_of([f"{i}" for i in range(len(papers))], [p.title for p in papers], [p.abstract for p in papers],
                     [p.fields for p in papers])
    took: dict[str, list[float]] = {}
    for _ in range(2):
        text = clock(took, "b. real: highlight text built", lambda: highlight_text(frame))
    masks = {}
    for word in ("strasse", "müller", "cancer", "β", "2019", "doi.org"):
        mask = clock(took, "b. real: highlight query", lambda: highlight_mask(frame, word, text))
        masks[word] = [int(mask.sum()), digest(np.flatnonzero(mask)[:1000].tolist())]
    return {"root": root, "papers": len(frame), "columns": len(frame.columns), "seconds": took,
            "answers": {"highlight": masks}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=False, default="", help="checkout of the revision before")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workspace", default="/tmp/map1m3-ws", help="a copy of the 1M workspace's catalog")
    parser.add_argument("--corpus", default="synthetic")
    parser.add_argument("--out", default=str(HERE / "results" / "bench_map_server_1m_31q.json"))
    parser.add_argument("--real", type=int, default=0, help="(b) only, on the real fixtures copied this many times")
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker_real(args.worker, args.real) if args.real else worker(args.worker, args.workspace,
                                                                                        args.corpus)))
        return
    catalog = Path(args.workspace) / "catalog.sqlite"
    if not catalog.exists():
        catalog.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(SOURCE / "catalog.sqlite", catalog)
    after = str(HERE.parent)
    roots = [("before", args.before), ("after", after)] if args.before else [("after", after)]
    results: list[dict[str, Any]] = []
    load = []
    for run in range(args.runs):
        order = roots if run % 2 == 0 else roots[::-1]
        for name, root in order:
            load.append(os.getloadavg()[0])
            done = subprocess.run([sys.executable, __file__, "--worker", root, "--workspace", args.workspace,
                                   "--corpus", args.corpus, "--real", str(args.real)], capture_output=True, text=True,
                                  check=True)
            result = json.loads(done.stdout.strip().splitlines()[-1])
            result.update(side=name, run=run, load_at_start=round(load[-1], 2))
            results.append(result)
            print(name, run, json.dumps(result["seconds"]), flush=True)
    summary: dict[str, dict[str, float]] = {}
    for name, _ in roots:
        mine = [r for r in results if r["side"] == name]
        summary[name] = {part: round(sorted(v for r in mine for v in r["seconds"][part])[
            len([v for r in mine for v in r["seconds"][part]]) // 2], 3) for part in mine[0]["seconds"]}
    agree = {key: len({json.dumps(r["answers"][key]) for r in results}) == 1 for key in results[0]["answers"]}
    out = {"papers": results[0].get("papers", 1_000_000), "corpus": args.corpus, "runs": args.runs, "median_s": summary, "answers_agree": agree,
           "load_1min": load, "results": results}
    Path(args.out).write_text(json.dumps(out, indent=1, ensure_ascii=False))
    print(json.dumps({"median_s": summary, "answers_agree": agree}, indent=1))


if __name__ == "__main__":
    main()
