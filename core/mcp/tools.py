"""The tools of the MCP server, each with its JSON schema (from the type hints and field descriptions) and one
docstring the client shows the model. The work is done by papers.py, topics.py, models.py and writing.py; the tools
that report progress run it on a worker thread and send each step as an MCP progress notification."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Annotated, Any

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

from core.mcp import models as model_tools
from core.mcp import papers, topics, writing
from core.mcp.workspace import DEFAULT_TOPICS, Workspace

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
WRITE_TOOLS = ("import_file", "start_training", "save_collection")

Corpus = Annotated[str | None, Field(description="corpus name (default: the server's --corpus, or the only one)")]
Model = Annotated[str | None, Field(description="model name (default: the server's --model, else minilm)")]
K = Annotated[int, Field(description="how many papers to return (1-200)")]
Labels = Annotated[dict[str, list[str]] | None, Field(
    description='keep only papers whose label column has one of these values, e.g. {"journal": ["Nature"]}')]
YearFrom = Annotated[int | None, Field(description="keep only papers from this year on")]
YearTo = Annotated[int | None, Field(description="keep only papers up to this year")]
PaperId = Annotated[str, Field(description="the paper's id in the corpus (as search results give it)")]
TopicK = Annotated[int, Field(description=f"number of fine topics, as on the Domain map (default {DEFAULT_TOPICS})")]
Wait = Annotated[float, Field(description="seconds to follow the job, with progress notifications (0: return now)")]


def _reporter(ctx: Context, interval: float = 0.25) -> writing.Progress:
    """A progress callback for a worker thread: each step becomes a progress notification (at most 4 a second,
    and always the last one)."""
    last = [0.0]

    def report(done: float, total: float | None, message: str | None) -> None:
        now = time.monotonic()
        if total is not None and done < total and now - last[0] < interval:
            return
        last[0] = now
        anyio.from_thread.run(functools.partial(ctx.report_progress, float(done), total, message))

    return report


async def _in_thread(work: Callable[..., dict[str, Any]], ctx: Context, **kwargs: Any) -> dict[str, Any]:
    """Run slow work on a worker thread, its progress reported to the client."""
    return await anyio.to_thread.run_sync(functools.partial(work, progress=_reporter(ctx), **kwargs))


def register_tools(mcp: MCPServer, ws: Workspace) -> None:
    """Register every tool on the server (the write tools only with --allow-write)."""

    @mcp.tool(annotations=READ)
    def list_corpora() -> dict[str, Any]:
        """List the corpora of the workspace: papers, citation links, label columns, columns and embedded models."""
        return papers.list_corpora(ws)

    @mcp.tool(annotations=READ)
    def search_papers(
        text: Annotated[str, Field(description="what to look for: a few keywords (\"quoted phrases\" must occur), "
                                               "a question, a title or a whole abstract")],
        title: Annotated[str, Field(description="an optional title, read with the text as a paper's title")] = "",
        corpus: Corpus = None, k: K = 10, model: Model = None, labels: Labels = None,
        year_from: YearFrom = None, year_to: YearTo = None,
        collection: Annotated[str | None, Field(description="search only the papers of this collection (a name "
                                                            "from get_paper's collections or the Library)")] = None,
    ) -> dict[str, Any]:
        """Find the corpus papers that answer a text: its words (BM25) and its meaning (the model) fused, with
        weights that depend on the query's length; each result has `why` (the query words it holds, close in
        meaning, or both) and its cosine score. `notice` says when no paper mentions the words at all.

        The same answer as `python -m core search --title TITLE --abstract TEXT --json`. `collection` keeps to the
        papers of a saved collection."""
        return papers.search_papers(ws, text, title, corpus, k, model, labels, year_from, year_to, collection)

    @mcp.tool(annotations=READ)
    def get_paper(paper_id: PaperId, corpus: Corpus = None, model: Model = None,
                  with_topic: Annotated[bool, Field(description="also name the paper's topic")] = True,
                  ) -> dict[str, Any]:
        """Open one paper: title, abstract, every field (journal, year, DOI...), its figures' captions, the corpus
        papers it cites and that cite it, its coarse and fine topic (see papers_in_topic for its neighbours) and the
        collections holding it."""
        return papers.get_paper(ws, paper_id, corpus, model, with_topic)

    @mcp.tool(annotations=READ)
    def similar_to_paper(paper_id: PaperId, corpus: Corpus = None, k: K = 10, model: Model = None,
                         labels: Labels = None, year_from: YearFrom = None, year_to: YearTo = None) -> dict[str, Any]:
        """Find the corpus papers closest to one of its papers (the paper itself left out), ranked with scores.

        The same answer as `python -m core search --paper ID --json`."""
        return papers.similar_to_paper(ws, paper_id, corpus, k, model, labels, year_from, year_to)

    @mcp.tool(annotations=READ)
    def suggest_journals(
        text: Annotated[str, Field(description="an abstract (leave empty when giving paper_id)")] = "",
        title: Annotated[str, Field(description="its title")] = "",
        paper_id: Annotated[str | None, Field(description="a corpus paper to suggest journals for")] = None,
        corpus: Corpus = None,
        label: Annotated[str | None, Field(description="the label column to suggest (default: the journal)")] = None,
        k: Annotated[int, Field(description="how many journals (1-50)")] = 5, model: Model = None,
        accuracy: Annotated[bool, Field(description="also say how often suggestions are right on held-out papers "
                                                    "(measured once, then stored)")] = True,
    ) -> dict[str, Any]:
        """Suggest the journals that fit an abstract or a corpus paper, with probabilities and evidence papers, and
        the held-out accuracy the Journals page shows. The same suggestions as `python -m core predict --json`."""
        return papers.suggest_journals(ws, text, title, paper_id, corpus, label, k, model, accuracy)

    @mcp.tool(annotations=READ)
    def list_topics(corpus: Corpus = None, model: Model = None, k: TopicK = DEFAULT_TOPICS) -> dict[str, Any]:
        """List the corpus's topics as on the Domain map: coarse topics (A, B, ...) each with its fine topics (A1,
        A2, ...), their keywords, the names users gave them, and how many papers each holds."""
        return topics.list_topics(ws, corpus, model, k)

    @mcp.tool(annotations=READ)
    def papers_in_topic(
        topic: Annotated[str, Field(description='a topic id from list_topics, e.g. "B" or "B2"')],
        corpus: Corpus = None, model: Model = None, k: TopicK = DEFAULT_TOPICS,
        limit: Annotated[int, Field(description="how many papers (1-500)")] = 20,
        offset: Annotated[int, Field(description="skip this many (for the next page)")] = 0,
    ) -> dict[str, Any]:
        """List the papers of one topic, most central first (cosine to the topic's mean vector)."""
        return topics.papers_in_topic(ws, topic, corpus, model, k, limit, offset)

    @mcp.tool(annotations=READ)
    def compare_models(
        model_a: Annotated[str, Field(description="the first model")],
        model_b: Annotated[str, Field(description="the second model")],
        corpus: Corpus = None, top: Annotated[int, Field(description="how many moved papers to list")] = 20,
    ) -> dict[str, Any]:
        """Compare two models on a corpus: how many of each paper's 10 nearest neighbours change, and the papers
        that moved most (both models must have embedded the corpus)."""
        return model_tools.compare_models(ws, model_a, model_b, corpus, top)

    @mcp.tool(annotations=READ)
    def evaluate(
        label: Annotated[str, Field(description="the label column the figures were computed on")],
        models: Annotated[list[str], Field(description="the models to report")],
        corpus: Corpus = None,
        tasks: Annotated[list[str] | None, Field(description="tasks (default: probe, purity, retrieval, knn)")] = None,
        seed: Annotated[int | None, Field(description="the sample's seed (default: the newest stored run's)")] = None,
    ) -> dict[str, Any]:
        """Report the stored evaluation figures of models (linear probe, clustering purity, retrieval, kNN...), as
        the Evaluate page or `python -m core evaluate --json` computed them; computes nothing."""
        return model_tools.evaluate(ws, label, models, corpus, tasks, seed)

    @mcp.tool(annotations=READ)
    async def job_status(
        ctx: Context,
        job_id: Annotated[str | None, Field(description="the job (default: list every job)")] = None,
        wait_seconds: Wait = 0.0,
    ) -> dict[str, Any]:
        """Show a background job's (training, embedding, a map fit, an evaluation) status, progress, ETA and metrics (or
        list every job); with wait_seconds, follow it with progress notifications until it ends."""
        return await _in_thread(writing.job_status, ctx, ws=ws, job_id=job_id, wait_seconds=wait_seconds)

    if not ws.allow_write:
        return

    @mcp.tool(annotations=WRITE)
    async def import_file(
        ctx: Context,
        path: Annotated[str, Field(description="a file on the server's machine: CSV, TSV, Excel, JSON(L) (incl. "
                                               "OpenAlex, Semantic Scholar, Europe PMC, Crossref, DataCite, ISTEX), "
                                               "Parquet, PubMed XML, JATS, MEDLINE, BibTeX, RIS, EndNote XML or .enw, "
                                               "WoS, Cochrane, NoteExpress (.net), DSpace Dublin Core")],
        corpus: Annotated[str, Field(description="the corpus to import into (created if new)")],
        format: Annotated[str | None, Field(description="the reader (default: by content, then extension)")] = None,
        title_only: Annotated[bool, Field(description="also import rows without an abstract")] = False,
        embed: Annotated[bool, Field(description="embed the new papers, with progress notifications")] = True,
        model: Model = None,
    ) -> dict[str, Any]:
        """Import a file of papers into a corpus (the `import --json` report: imported, merged, skipped rows with
        reasons) and embed the new papers so they can be searched."""
        return await _in_thread(writing.import_file, ctx, ws=ws, path=path, corpus=corpus, format=format,
                                title_only=title_only, embed=embed, model=model)

    @mcp.tool(annotations=WRITE)
    async def start_training(
        ctx: Context,
        corpus: Annotated[str, Field(description="the corpus to train on")],
        label: Annotated[str, Field(description="the label column to predict (the journal, in MIReAD)")],
        base: Annotated[str | None, Field(description="the model to start from (default minilm)")] = None,
        name: Annotated[str | None, Field(description="the new model's name")] = None,
        epochs: Annotated[float | None, Field(description="passes over the training papers")] = None,
        objective: Annotated[str | None, Field(description="cos (default), ce, ce+supcon, supcon, specter, "
                                                           "cos+specter")] = None,
        options: Annotated[dict[str, Any] | None, Field(
            description="other training settings by name, e.g. {\"lr\": 2e-5, \"max_papers\": 3000}")] = None,
        wait_seconds: Wait = 0.0,
    ) -> dict[str, Any]:
        """Start MIReAD fine-tuning as a background job (the app's Train page shows it too); follow it here with
        wait_seconds or job_status."""
        return await _in_thread(writing.start_training, ctx, ws=ws, corpus=corpus, label=label, base=base, name=name,
                                epochs=epochs, objective=objective, options=options, wait_seconds=wait_seconds)

    @mcp.tool(annotations=WRITE)
    def save_collection(
        name: Annotated[str, Field(description="the collection's name (created if new, else the papers are added)")],
        paper_ids: Annotated[list[str], Field(description="ids of corpus papers, as search results give them")],
        corpus: Corpus = None,
        note: Annotated[str | None, Field(description="a note on the collection (replaces the one it has)")] = None,
    ) -> dict[str, Any]:
        """Save papers into a named collection of the corpus, which the Library lists and search_papers can search
        within; unknown ids are refused and nothing is saved. The same as `python -m core collect --ids ... --json`."""
        return writing.save_collection(ws, name, paper_ids, corpus, note)
