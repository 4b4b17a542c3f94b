"""search_papers through the MCP server vs the CLI's search computation in-process, on a 100k-paper workspace.

The workspace holds `--papers` synthetic papers (short generated titles and abstracts) whose MiniLM vectors are the
topic-structured synthetic unit vectors of `synthetic.py`, stored under the packaged model's fingerprint as
`embed` would store them (as bench_search.py's end-to-end case does), so the server and the baseline search the same
index. Queries are real arXiv titles + abstracts, encoded by the real packaged MiniLM in both.

- ours: one `search_papers` call from the SDK's ClientSession to `python -m core mcp` over stdio (JSON-RPC, the
  server's worker thread, the structured answer), after one warm-up call;
- baseline: `core.explore.documents.search_document` in this process, what `python -m core search --json` computes,
  with the same warm encoder, index and papers frame.

Calls alternate (MCP, in-process, in-process, MCP, ...), each after a 0.5 s pause (without it, the OpenMP threads
of the process that answered last still spin: the in-process search right after an MCP answer measured 4x slower
on 2 cores); every answer must
have the same ids and scores in both.
The same pair with a corpus paper as the query (`similar_to_paper`, no encoding) isolates the protocol's overhead.
Also reported: the server's cold start to its first answer, and one cold `python -m core search` process.

    flock /tmp/miread-heavy.lock .venv/bin/python benchmarks/bench_mcp.py --papers 100000 --queries 40
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from common import ROOT, arxiv, median, percentile, report, row
from synthetic import clustered_unit_vectors

CORPUS = "synthetic"
K = 10
PAUSE_S = 0.5  # before each timed call: the other process's OpenMP threads spin a while after its call ends
WORDS = ("galaxy", "protein", "market", "lattice", "neuron", "quantum", "climate", "enzyme", "graph", "plasma",
         "vaccine", "network", "crystal", "genome", "tensor", "orbit", "soil", "catalyst", "algorithm", "tumour")


def synthetic_papers(n: int) -> Any:
    from core.records import Paper

    for i in range(n):
        a, b, c = WORDS[i % 20], WORDS[(i // 20) % 20], WORDS[(i // 400) % 20]
        yield Paper(id=f"s{i}", title=f"On {a} and {b}: study {i}",
                    abstract=f"We examine {a} {b} interactions with {c} data in experiment {i}.",
                    fields={"journal": f"J. {a.title()}", "year": 1990 + i % 35})


def prepare(workspace: Path, n: int, model: str) -> dict[str, float]:
    """The workspace with n papers and their synthetic vectors (made once; a later run reuses it)."""
    from core.embedding import get_model, vectors_fingerprint
    from core.store import Store

    store = Store(workspace)
    took: dict[str, float] = {}
    if not store.has_corpus(CORPUS):
        start = time.perf_counter()
        store.import_papers(CORPUS, synthetic_papers(n), source="bench_mcp")
        took["import_s"] = round(time.perf_counter() - start, 1)
    fp = vectors_fingerprint(get_model(model, store))
    missing = store.missing_hashes(CORPUS, fp)
    if missing:
        start = time.perf_counter()
        for offset in range(0, len(missing), 50_000):
            part = missing[offset : offset + 50_000]
            store.add_embeddings(fp, part, clustered_unit_vectors(len(part), seed=offset + 7))
        took["vectors_s"] = round(time.perf_counter() - start, 1)
    return took


def cold_cli(workspace: Path, model: str, query: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "core", "--workspace", str(workspace), "search", "--corpus", CORPUS,
                    "--model", model, "-k", str(K), "--title", query["title"], "--abstract", query["abstract"],
                    "--json"], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


async def measure(workspace: Path, model: str, queries: list[dict[str, str]]) -> dict[str, Any]:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from core.embedding import get_encoder, get_model
    from core.explore.documents import search_document
    from core.store import Store

    store = Store(workspace)
    spec = get_model(model, store)
    params = StdioServerParameters(command=sys.executable, args=["-m", "core", "mcp", "--workspace", str(workspace),
                                                                 "--corpus", CORPUS, "--model", model],
                                   env={k: v for k, v in os.environ.items() if k.startswith(("MIREAD", "OMP", "HF_", "TOKENIZERS"))})
    out: dict[str, Any] = {"mcp": [], "local": [], "mcp_paper": [], "local_paper": [], "mismatches": 0}
    start = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write, read_timeout_seconds=600) as session:
        await session.initialize()
        first = await session.call_tool("search_papers", {"text": queries[0]["abstract"],
                                                          "title": queries[0]["title"], "k": K})
        out["server_cold_s"] = time.perf_counter() - start
        assert not first.is_error, first.content[0].text
        start = time.perf_counter()
        frame, encoder = store.papers_frame(CORPUS), get_encoder(spec)
        search_document(store, CORPUS, spec, title=queries[0]["title"], abstract=queries[0]["abstract"], k=K,
                        encoder=encoder, frame=frame)
        out["local_cold_s"] = time.perf_counter() - start
        for i, query in enumerate(queries[1:]):
            answers: dict[str, Any] = {}
            for case in ("mcp", "local") if i % 2 == 0 else ("local", "mcp"):
                await anyio.sleep(PAUSE_S)
                start = time.perf_counter()
                if case == "mcp":
                    result = await session.call_tool("search_papers", {"text": query["abstract"],
                                                                       "title": query["title"], "k": K})
                    assert not result.is_error, result.content[0].text
                    answers[case] = result.structured_content["results"]
                else:
                    answers[case] = search_document(store, CORPUS, spec, title=query["title"],
                                                    abstract=query["abstract"], k=K, encoder=encoder,
                                                    frame=frame)["results"]
                out[case].append(time.perf_counter() - start)
            paper = f"s{(i * 7919) % len(frame)}"  # a corpus paper as the query: search alone, no encoding
            for case in ("mcp_paper", "local_paper") if i % 2 == 0 else ("local_paper", "mcp_paper"):
                await anyio.sleep(PAUSE_S)
                start = time.perf_counter()
                if case == "mcp_paper":
                    result = await session.call_tool("similar_to_paper", {"paper_id": paper, "k": K})
                    assert not result.is_error, result.content[0].text
                    answers[case] = result.structured_content["results"]
                else:
                    answers[case] = search_document(store, CORPUS, spec, paper_id=paper, k=K, frame=frame)["results"]
                out[case].append(time.perf_counter() - start)
            for a, b in (("mcp", "local"), ("mcp_paper", "local_paper")):
                out["mismatches"] += [(r["id"], r["score"]) for r in answers[a]] != [(r["id"], r["score"])
                                                                                     for r in answers[b]]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--workspace", type=Path, default=Path("/tmp/miread-bench/ws-mcp"))
    args = parser.parse_args()
    import anyio

    workspace = args.workspace / f"{args.papers}"
    extra: dict[str, Any] = {"papers": args.papers, "prepare": prepare(workspace, args.papers, args.model)}
    records = arxiv(args.queries + 1, offset=1000)
    queries = [{"title": r["title"], "abstract": r["abstract"]} for r in records]
    found = anyio.run(measure, workspace, args.model, queries)
    extra.update(server_cold_s=round(found["server_cold_s"], 2), local_cold_s=round(found["local_cold_s"], 2),
                 mismatches=found["mismatches"], cli_process_s=round(cold_cli(workspace, args.model, queries[0]), 2))
    mcp, local = [t * 1000 for t in found["mcp"]], [t * 1000 for t in found["local"]]
    by_paper, local_paper = [t * 1000 for t in found["mcp_paper"]], [t * 1000 for t in found["local_paper"]]
    n = len(mcp)
    rows = [
        row(f"search_papers p50, {args.papers:,} papers (MCP vs in-process)", median(mcp), median(local), "ms",
            f"{n} text queries encoded by {args.model}; p95 {percentile(mcp, 95):.1f} vs {percentile(local, 95):.1f} "
            f"ms; same ids and scores in {2 * n - found['mismatches']}/{2 * n} answers (both tools)"),
        row("similar_to_paper p50 (no encoding: search and protocol alone)", median(by_paper), median(local_paper),
            "ms", f"p95 {percentile(by_paper, 95):.1f} vs {percentile(local_paper, 95):.1f} ms"),
        row("  MCP overhead per call (similar_to_paper p50 difference)", median(by_paper) - median(local_paper),
            None, "ms"),
        row("cold: server start to first answer vs one `python -m core search` process",
            extra["server_cold_s"], extra["cli_process_s"], "s", "then every call is warm"),
    ]
    extra.update(mcp_ms=mcp, local_ms=local, mcp_paper_ms=by_paper, local_paper_ms=local_paper)
    report("mcp", rows, extra)


if __name__ == "__main__":
    main()
