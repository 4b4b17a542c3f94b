"""The MCP server (`python -m core mcp`) as a subprocess, driven by the official SDK's ClientSession over stdio (and
streamable HTTP): its tools, resources and prompt, answers equal to the CLI's --json for the same query, errors as
one sentence, read-only refusals, progress notifications, and concurrent clients while the app is open."""

from __future__ import annotations

import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from core.embedding import ModelSpec, embed_corpus
from core.mcp.config import client_config
from core.store import Store
from tests.helpers import make_papers, register_tiny

ROOT = Path(__file__).resolve().parents[2]


def run_client(scenario: Any) -> Any:
    """`anyio.run(scenario)` in a thread of its own: in the full suite the browser tests' Playwright (sync API) leaves
    an event loop marked running in the main thread, where anyio refuses to start another."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, scenario).result()
READ_TOOLS = {"list_corpora", "search_papers", "get_paper", "similar_to_paper", "suggest_journals", "list_topics",
              "papers_in_topic", "compare_models", "evaluate", "job_status"}
WRITE_TOOLS = {"import_file", "start_training", "save_collection"}
QUERY = {"title": "Stellar redshift of galaxies",
         "abstract": "We study the galaxy redshift problem in astro. The telescope shows that orbit matters."}
ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "1", "MIREAD_WARM_NUMBA": "0"}


def make_workspace(root: Path, tiny: Path) -> Path:
    """Corpus 'c' (24 papers of three journals, two citation links) embedded with 'tiny' and 'tiny-cls'."""
    store = Store(root)
    register_tiny(store, tiny)
    store.save_model("tiny-cls", ModelSpec(name="tiny-cls", source="checkpoint", location=str(tiny), pooling="cls",
                                           max_length=128).to_dict())
    store.import_papers("c", make_papers(8), source="make_papers")
    store.add_links("c", [("astro-1", "astro-2"), ("bio-3", "astro-1")])
    for model in ("tiny", "tiny-cls"):
        embed_corpus(store, "c", model)
    return root


def cli(workspace: Path, *commands: list[str]) -> list[dict[str, Any]]:
    """The CLI's --json answers to several commands, run one after the other by `core.cli.main` (what
    `python -m core` runs) in one process of its own, so torch is imported once."""
    code = ("import sys, json; from core.cli import main; "
            "sys.exit(max(main(['--workspace', sys.argv[1], *argv, '--json']) for argv in json.loads(sys.argv[2])))")
    out = subprocess.run([sys.executable, "-c", code, str(workspace), json.dumps(commands)], cwd=ROOT,
                         capture_output=True, text=True, env={**os.environ, **ENV}, timeout=300)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path) -> Path:
    return make_workspace(tmp_path_factory.mktemp("mcp") / "ws", tiny_model_dir)


@pytest.fixture(scope="module")
def expected(workspace: Path) -> dict[str, Any]:
    """The CLI's answers on the module's workspace (its evaluate run stores the figures the MCP tool reports)."""
    query = ["--title", QUERY["title"], "--abstract", QUERY["abstract"]]
    commands = {
        "search": ["search", "--corpus", "c", "--model", "tiny", "-k", "7", *query],
        "similar": ["search", "--corpus", "c", "--model", "tiny", "-k", "5", "--paper", "bio-2"],
        "predict": ["predict", "--corpus", "c", "--model", "tiny", "-k", "3", *query],
        "corpora": ["corpora"],
        "jobs": ["jobs"],
        "evaluate": ["evaluate", "--corpus", "c", "--label", "journal", "--models", "tiny,tiny-cls",
                     "--tasks", "probe,retrieval"],
    }
    return dict(zip(commands, cli(workspace, *commands.values()), strict=True))


@asynccontextmanager
async def connect(workspace: Path, *flags: str) -> AsyncIterator[ClientSession]:
    """A ClientSession with the server the sidebar's configuration starts (`python -m core mcp --workspace W`), here
    with `--model tiny FLAGS`, over stdio."""
    configured = client_config(workspace, python=sys.executable)["claude_desktop"]["mcpServers"]["miread-explorer"]
    params = StdioServerParameters(command=configured["command"], args=[*configured["args"], "--model", "tiny", *flags],
                                   env=ENV)
    async with stdio_client(params) as (read, write), ClientSession(read, write, read_timeout_seconds=300) as session:
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's structured answer; fails the test with the tool's sentence when it answered an error."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    return result.structured_content


async def error(session: ClientSession, tool: str, **arguments: Any) -> str:
    """The one sentence a failing call answers."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, f"{tool}({arguments}) did not fail"
    text = result.content[0].text
    assert "Traceback" not in text and "\n" not in text and text, text
    return text


def test_the_server_lists_its_tools_with_schemas_its_resources_and_the_prompt(workspace: Path):
    async def scenario() -> None:
        async with connect(workspace) as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert set(tools) == READ_TOOLS  # read-only: the write tools are not offered
            for tool in tools.values():
                assert tool.input_schema["type"] == "object" and tool.description, tool.name
                assert tool.annotations.read_only_hint, tool.name
            assert tools["search_papers"].input_schema["required"] == ["text"]
            templates = {t.uri_template for t in (await session.list_resource_templates()).resource_templates}
            assert templates == {"paper://{corpus}/{+paper_id}", "topic://{corpus}/{topic_id}"}
            assert [p.name for p in (await session.list_prompts()).prompts] == ["literature_review"]

    run_client(scenario)


def test_search_similar_journals_corpora_and_jobs_answer_as_the_cli_does(workspace: Path, expected: dict):
    async def scenario() -> dict[str, Any]:
        async with connect(workspace) as session:
            return {
                "search": await call(session, "search_papers", text=QUERY["abstract"], title=QUERY["title"], k=7),
                "similar": await call(session, "similar_to_paper", paper_id="bio-2", k=5),
                "predict": await call(session, "suggest_journals", text=QUERY["abstract"], title=QUERY["title"], k=3),
                "by_title": await call(session, "suggest_journals", title=QUERY["title"], k=3),
                "corpora": await call(session, "list_corpora"),
                "jobs": await call(session, "job_status"),
            }

    got = run_client(scenario)
    for key in ("search", "similar"):
        assert [(r["id"], r["rank"], r["score"]) for r in got[key]["results"]] == \
            [(r["id"], r["rank"], r["score"]) for r in expected[key]["results"]], key
        assert got[key]["results"] == expected[key]["results"] and got[key]["query"] == expected[key]["query"]
    assert len(got["search"]["results"]) == 7 and "bio-2" not in [r["id"] for r in got["similar"]["results"]]
    assert got["predict"]["predictions"] == expected["predict"]["predictions"]
    assert got["predict"]["method"] == expected["predict"]["method"] == "knn"
    assert "held-out papers of c" in got["predict"]["accuracy"]["sentence"]  # what the Journals page says
    assert "each queried by its title and abstract" in got["predict"]["accuracy"]["sentence"]
    # a title alone is answered with the accuracy of held-out papers asked by their titles alone, as on the page
    assert "each queried by its title alone" in got["by_title"]["accuracy"]["sentence"], got["by_title"]["accuracy"]
    assert got["by_title"]["accuracy"]["source"] == "the Evaluate page's journals-title task"
    assert got["corpora"] == expected["corpora"]
    assert got["jobs"] == expected["jobs"] == {"jobs": []}


def test_a_paper_its_topic_its_neighbours_and_the_stored_evaluation(workspace: Path, expected: dict):

    async def scenario() -> dict[str, Any]:
        async with connect(workspace) as session:
            out: dict[str, Any] = {"paper": await call(session, "get_paper", paper_id="astro-1")}
            out["topics"] = await call(session, "list_topics")
            fine = out["paper"]["topic"]["fine"]["id"]
            out["in_topic"] = await call(session, "papers_in_topic", topic=fine, limit=50)
            out["journals"] = await call(session, "suggest_journals", paper_id="astro-1", accuracy=False)
            out["compare"] = await call(session, "compare_models", model_a="tiny", model_b="tiny-cls", top=5)
            out["evaluate"] = await call(session, "evaluate", label="journal", models=["tiny", "tiny-cls"],
                                         tasks=["probe", "retrieval"])
            out["paper_text"] = (await session.read_resource("paper://c/astro-1")).contents[0].text
            out["topic_text"] = (await session.read_resource(f"topic://c/{fine}")).contents[0].text
            prompt = await session.get_prompt("literature_review", {"topic": fine, "papers": "3"})
            out["prompt"] = prompt.messages[0].content.text
            return out

    got = run_client(scenario)
    paper = got["paper"]
    assert paper["title"] == "On stellar and redshift number 1" and paper["fields"]["journal"] == "J. Astro"
    assert [r["id"] for r in paper["references"]] == ["astro-2"] and [r["id"] for r in paper["cited_by"]] == ["bio-3"]
    coarse = got["topics"]["topics"]
    assert sum(t["papers"] for t in coarse) == 24 == sum(f["papers"] for t in coarse for f in t["children"])
    assert all(f["parent"] == t["id"] and f["id"].startswith(t["id"]) for t in coarse for f in t["children"])
    members = got["in_topic"]["papers"]
    assert "astro-1" in [p["id"] for p in members] and len(members) == got["in_topic"]["total"]
    assert [p["score"] for p in members] == sorted((p["score"] for p in members), reverse=True)
    assert got["journals"]["true_label"] == "J. Astro" and len(got["journals"]["predictions"]) == 3
    assert got["compare"]["summary"]["papers"] == 24 and len(got["compare"]["moved"]) == 5
    assert [m["changed"] for m in got["compare"]["moved"]] == sorted((m["changed"] for m in got["compare"]["moved"]),
                                                                      reverse=True)
    key = ("model", "task", "metric", "value")
    assert [tuple(r.get(k) for k in key) for r in got["evaluate"]["results"]] == \
        [tuple(r.get(k) for k in key) for r in expected["evaluate"]["results"]]
    assert "On stellar and redshift number 1" in got["paper_text"] and "telescope shows" in got["paper_text"]
    assert got["topic_text"].startswith(f"Topic {paper['topic']['fine']['name']}")
    assert "literature review" in got["prompt"] and "paper://c/" in got["prompt"]


def test_bad_arguments_give_one_sentence_tool_errors_and_the_server_goes_on(workspace: Path):
    async def scenario() -> list[str]:
        async with connect(workspace) as session:
            said = [
                await error(session, "search_papers", text="stars", k="many"),
                await error(session, "search_papers"),
                await error(session, "search_papers", text="stars", k=0),
                await error(session, "search_papers", text="   "),
                await error(session, "search_papers", text="stars", corpus="nope"),
                await error(session, "search_papers", text="stars", labels={"colour": ["red"]}),
                await error(session, "get_paper", paper_id="no-such-paper"),
                await error(session, "similar_to_paper", paper_id="astro-1", model="no-such-model"),
                await error(session, "papers_in_topic", topic="ZZ9"),
                await error(session, "evaluate", label="journal", models=["tiny"], tasks=["knn"]),
                await error(session, "compare_models", model_a="tiny", model_b="tiny"),
                await error(session, "no_such_tool"),
            ]
            assert (await call(session, "search_papers", text=QUERY["abstract"], k=2))["results"]
            return said

    said = run_client(scenario)
    assert said[0].startswith("bad arguments for search_papers: k: input should be a valid integer")
    assert said[1].startswith("bad arguments for search_papers: text: field required")
    assert "k must be between 1 and 200" in said[2] and "the query is empty" in said[3]
    assert "there is no corpus 'nope'" in said[4] and "has no column 'colour'" in said[5]
    assert "no paper with id 'no-such-paper'" in said[6] and "no-such-model" in said[7]
    assert "has no topic 'ZZ9'" in said[8] and "python -m core evaluate" in said[9]
    assert "two different models" in said[10] and "no_such_tool" in said[11]


def test_a_read_only_server_refuses_the_write_tools(workspace: Path, tmp_path: Path):
    source = tmp_path / "more.jsonl"
    source.write_text(json.dumps({"id": "x1", "title": "A title", "abstract": "An abstract."}) + "\n")

    async def scenario() -> tuple[list[str], dict[str, Any]]:
        async with connect(workspace) as session:
            said = [await error(session, "import_file", path=str(source), corpus="more"),
                    await error(session, "start_training", corpus="c", label="journal"),
                    await error(session, "save_collection", name="mine", paper_ids=["astro-1"], corpus="c")]
            return said, await call(session, "list_corpora")

    said, corpora = run_client(scenario)
    assert all("read-only" in s and "--allow-write" in s for s in said)
    assert [c["name"] for c in corpora["corpora"]] == ["c"]


def test_with_allow_write_a_file_is_imported_and_embedded_with_progress_notifications_and_papers_collected(
        tmp_path: Path, tiny_model_dir: Path):
    workspace = make_workspace(tmp_path / "ws", tiny_model_dir)
    source = tmp_path / "more.jsonl"
    source.write_text("".join(json.dumps({"id": f"new-{p.id}", "title": f"{p.title} again", "abstract": p.abstract,
                                          "journal": p.fields["journal"]}) + "\n" for p in make_papers(10)))
    notes: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        notes.append((done, total, message))

    async def scenario() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        async with connect(workspace, "--allow-write") as session:
            names = [t.name for t in (await session.list_tools()).tools]
            result = await session.call_tool("import_file", {"path": str(source), "corpus": "more", "model": "tiny"},
                                             progress_callback=progress)
            assert not result.is_error, result.content[0].text
            found = await call(session, "search_papers", text=QUERY["abstract"], corpus="more", k=3)
            kept = ["new-econ-1", "new-bio-2"]
            refused = await error(session, "save_collection", name="Kept", paper_ids=[*kept, "ghost"], corpus="more")
            saved = await call(session, "save_collection", name="Kept", paper_ids=kept, corpus="more", note="why")
            within = await call(session, "search_papers", text=QUERY["abstract"], corpus="more", k=5,
                                collection="kept")
            paper = await call(session, "get_paper", paper_id="new-bio-2", corpus="more", with_topic=False)
            collected = (refused, saved, within, paper)
            return names, result.structured_content, found, collected

    names, report, found, (refused, saved, within, paper) = run_client(scenario)
    assert set(names) == READ_TOOLS | WRITE_TOOLS
    assert report["imported"] == 30 and report["embed"]["new"] == 30
    assert notes[0][2].startswith("reading") and notes[-1][:2] == (30, 30)
    assert len(notes) >= 2 and all(note[0] <= later[0] for note, later in zip(notes[1:], notes[2:]))
    assert len(found["results"]) == 3 and all(r["id"].startswith("new-") for r in found["results"])
    assert "1 id given for collection 'Kept' is not a paper of corpus 'more': 'ghost'" in refused
    assert saved == {"corpus": "more", "name": "Kept", "added": 2, "papers": 2, "missing": 0, "note": "why"}
    assert within["collection"] == "kept" and {r["id"] for r in within["results"]} == {"new-econ-1", "new-bio-2"}
    assert paper["collections"] == ["Kept"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_the_server_also_speaks_streamable_http_on_localhost(workspace: Path):
    from mcp.client.streamable_http import streamable_http_client

    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "core", "mcp", "--workspace", str(workspace), "--model", "tiny",
                               "--http", str(port)], cwd=ROOT, env={**os.environ, **ENV}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, start_new_session=True)

    async def scenario() -> tuple[set[str], dict[str, Any]]:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read().decode()
                await anyio.sleep(0.3)
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams, \
                ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            return names, await call(session, "search_papers", text=QUERY["abstract"], k=3)

    try:
        names, found = run_client(scenario)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert names == READ_TOOLS and len(found["results"]) == 3


def test_twenty_calls_from_two_clients_while_the_app_is_open_lose_nothing(tmp_path: Path, tiny_model_dir: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):
    from streamlit.testing.v1 import AppTest

    workspace = make_workspace(tmp_path / "ws", tiny_model_dir)
    files = []
    for i in range(4):  # each client imports two files while searches are in flight
        path = tmp_path / f"part{i}.jsonl"
        path.write_text("".join(json.dumps({"id": f"p{i}-{j}", "title": f"Paper {j} of part {i} on stellar orbits",
                                            "abstract": f"Abstract {j} of part {i}: the redshift of galaxy {j}."})
                                + "\n" for j in range(5)))
        files.append(path)
    expected = cli(workspace, ["search", "--corpus", "c", "--model", "tiny", "-k", "5", "--abstract", QUERY["abstract"]])[0]
    answers: list[Any] = []

    async def client(parts: list[Path]) -> None:
        async with connect(workspace, "--allow-write") as session:
            async def one(job: tuple[str, dict[str, Any]]) -> None:
                answers.append((job[0], await call(session, job[0], **job[1])))

            jobs = [("search_papers", {"text": QUERY["abstract"], "k": 5, "corpus": "c"})] * 8
            jobs += [("import_file", {"path": str(p), "corpus": p.stem, "embed": False}) for p in parts]
            async with anyio.create_task_group() as group:
                for job in jobs:
                    group.start_soon(one, job)

    async def both() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(client, files[:2])
            group.start_soon(client, files[2:])

    monkeypatch.setenv("MIREAD_WORKSPACE", str(workspace))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()  # the app is open on the same workspace
    failures: list[BaseException] = []
    thread = threading.Thread(target=lambda: _run_catching(both, failures))
    thread.start()
    while thread.is_alive():  # the app keeps running its page against the workspace meanwhile
        at.run()
        assert not at.exception
    thread.join()
    assert not failures, failures
    assert len(answers) == 20
    searches = [a for name, a in answers if name == "search_papers"]
    assert all(s["results"] == expected["results"] for s in searches)
    assert sorted(a["corpus"] for name, a in answers if name == "import_file") == [p.stem for p in files]
    corpora = {c["name"]: c["papers"] for c in cli(workspace, ["corpora"])[0]["corpora"]}
    assert corpora == {"c": 24, **{p.stem: 5 for p in files}}
    at.run()
    assert not at.exception


def _run_catching(scenario: Any, failures: list[BaseException]) -> None:
    try:
        run_client(scenario)
    except BaseException as exc:  # reported by the test's thread
        failures.append(exc)


@pytest.mark.slow
def test_start_training_follows_the_job_with_progress_notifications_until_it_ends(tmp_path: Path,
                                                                                  tiny_model_dir: Path):
    workspace = make_workspace(tmp_path / "ws", tiny_model_dir)
    notes: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        notes.append((done, total, message))

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with connect(workspace, "--allow-write") as session:
            started = await session.call_tool("start_training", {
                "corpus": "c", "label": "journal", "base": "tiny", "name": "tiny-ft", "epochs": 1,
                "options": {"batch_size": 8, "max_length": 48, "device": "cpu"}, "wait_seconds": 240},
                progress_callback=progress)
            assert not started.is_error, started.content[0].text
            return started.structured_content, await call(session, "job_status", job_id=started.structured_content["job"])

    started, status = run_client(scenario)
    assert started["status"] == status["job"]["status"] == "completed" and started["model"] == "tiny-ft"
    assert notes[-1][:2] == (100.0, 100) and "completed" in notes[-1][2]
    assert [n[0] for n in notes] == sorted(n[0] for n in notes) and len(notes) >= 2
