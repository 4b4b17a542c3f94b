"""`python -m core collections / collect`: the JSON documents, papers from ids, a Domain-map topic and a search,
remove, merge, delete into the trash, and one-sentence errors."""

from __future__ import annotations

import json

from core import cli
from core.embedding import get_model
from core.explore.topics import central_rows, topic_view
from tests.helpers import make_papers


def run(store, capsys, *args: str) -> tuple[int, dict | None, str]:
    code = cli.main(["--workspace", str(store.root), *args])
    out = capsys.readouterr()
    return code, json.loads(out.out) if out.out.strip().startswith("{") else None, out.err


def test_collect_by_ids_list_remove_merge_and_delete(store, capsys):
    store.import_papers("c", make_papers(3))
    code, doc, _ = run(store, capsys, "collect", "--corpus", "c", "--name", "Reading", "--ids", "astro-0", "bio-1",
                       "--note", "for Monday", "--json")
    assert code == 0 and doc == {"corpus": "c", "name": "Reading", "added": 2, "papers": 2}
    code, doc, _ = run(store, capsys, "collect", "--corpus", "c", "--name", "reading", "--ids", "bio-1", "econ-2",
                       "--json")
    assert doc == {"corpus": "c", "name": "Reading", "added": 1, "papers": 3}
    run(store, capsys, "collect", "--corpus", "c", "--name", "Other", "--ids", "econ-0", "--json")
    code, doc, _ = run(store, capsys, "collections", "--json")
    assert code == 0 and doc == {"collections": [
        {"corpus": "c", "name": "Other", "papers": 1, "missing": 0, "note": ""},
        {"corpus": "c", "name": "Reading", "papers": 3, "missing": 0, "note": "for Monday"}]}
    code, _, _ = run(store, capsys, "collections", "--corpus", "c")
    assert code == 0

    code, doc, _ = run(store, capsys, "collect", "--corpus", "c", "--name", "Reading", "--remove", "--ids", "bio-1",
                       "--json")
    assert doc == {"corpus": "c", "name": "Reading", "removed": 1, "papers": 2}
    code, doc, _ = run(store, capsys, "collect", "--corpus", "c", "--merge", "Reading", "Other", "--into", "All",
                       "--json")
    assert code == 0 and doc["papers"] == 3 and store.collection_ids("c", "All") == ["astro-0", "econ-2", "econ-0"]
    code, doc, _ = run(store, capsys, "collect", "--corpus", "c", "--delete", "All", "--json")
    assert code == 0 and doc["deleted"]["name"] == "All" and doc["deleted"]["corpus"] == "c"
    assert [c.name for c in store.collections("c")] == ["Other", "Reading"]
    code, doc, _ = run(store, capsys, "restore", str(doc["deleted"]["id"]), "--json")  # the undo it names
    assert code == 0 and store.collection("c", "All").papers == 3


def test_bad_arguments_are_one_sentence_and_store_nothing(store, capsys):
    store.import_papers("c", make_papers(1))
    code, _, err = run(store, capsys, "collect", "--corpus", "c", "--name", "X", "--ids", "astro-0", "ghost")
    assert code == 2 and "1 id given for collection 'X' is not a paper of corpus 'c': 'ghost'" in err
    assert store.collections() == []
    code, _, err = run(store, capsys, "collect", "--corpus", "c", "--name", "X")
    assert code == 2 and "collect needs the papers" in err
    code, _, err = run(store, capsys, "collect", "--corpus", "c", "--name", "X", "--ids", "a", "--from-search", "t")
    assert code == 2 and "not --ids and --from-search" in err
    code, _, err = run(store, capsys, "collect", "--corpus", "c", "--delete", "Nope")
    assert code == 2 and "corpus 'c' has no collection named 'Nope'" in err
    code, _, err = run(store, capsys, "collections", "--corpus", "nowhere")
    assert code == 2 and "there is no corpus named 'nowhere'" in err


def test_collect_from_a_search_and_from_a_topic(embedded, capsys):
    store = embedded
    code, doc, _ = run(store, capsys, "search", "--corpus", "c", "--model", "tiny", "--title", "galaxy redshift",
                       "-k", "4", "--json")
    nearest = [r["id"] for r in doc["results"]]
    code, doc, _ = run(store, capsys, "collect", "--corpus", "c", "--name", "Sky", "--from-search", "galaxy redshift",
                       "-k", "4", "--model", "tiny", "--json")
    assert code == 0 and doc == {"corpus": "c", "name": "Sky", "added": 4, "papers": 4}
    assert store.collection_ids("c", "Sky") == nearest  # the search command's papers, in its order

    spec = get_model("tiny", store)
    view = topic_view(store, "c", spec, 3)
    tag = view.tags["coarse"][0]
    rows, _ = central_rows(store, view, spec, "coarse", 0)
    expected = [store.papers_frame("c")["id"].iloc[int(r)] for r in rows]
    code, doc, err = run(store, capsys, "collect", "--corpus", "c", "--name", "Topic", "--from-topic", tag.lower(),
                         "--clusters", "3", "--model", "tiny", "--json")
    assert code == 0, err
    assert doc["added"] == len(expected) > 0 and store.collection_ids("c", "Topic") == expected
    code, _, err = run(store, capsys, "collect", "--corpus", "c", "--name", "T", "--from-topic", "ZZ9",
                       "--clusters", "3", "--model", "tiny")
    assert code == 2 and "corpus 'c' has no topic 'ZZ9' at k=3" in err
