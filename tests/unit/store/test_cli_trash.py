"""`python -m core delete / trash / restore / empty-trash`: JSON documents, one-sentence errors, undo by id or name."""

from __future__ import annotations

import json

from core import cli
from tests.helpers import make_papers


def run(store, capsys, *args: str) -> tuple[int, dict | None, str]:
    code = cli.main(["--workspace", str(store.root), *args])
    out = capsys.readouterr()
    return code, json.loads(out.out) if out.out.strip().startswith("{") else None, out.err


def test_delete_list_restore_and_empty_from_the_command_line(store, capsys):
    store.import_papers("a", make_papers(1))
    store.import_papers("b", make_papers(2))
    code, doc, _ = run(store, capsys, "delete", "--corpus", "a", "--json")
    assert code == 0 and doc["deleted"]["name"] == "a" and doc["deleted"]["papers"] == 3
    assert doc["undo"] == f"python -m core restore {doc['deleted']['id']}"
    code, doc, _ = run(store, capsys, "trash", "--json")
    assert [i["name"] for i in doc["trash"]] == ["a"] and doc["keep_days"] >= 7
    code, doc, _ = run(store, capsys, "restore", "a", "--json")
    assert code == 0 and doc["restored"]["name"] == "a" and store.corpus("a").papers == 3

    run(store, capsys, "delete", "--corpus", "b")
    code, _, err = run(store, capsys, "empty-trash")
    assert code == 2 and "deletes for good: corpus 'b' (6 papers); add --yes" in err
    assert store.trash()  # nothing deleted without --yes
    code, doc, _ = run(store, capsys, "empty-trash", "--yes", "--json")
    assert code == 0 and [i["name"] for i in doc["emptied"]] == ["b"] and store.trash() == []


def test_bad_arguments_are_one_sentence(store, capsys):
    code, _, err = run(store, capsys, "delete", "--corpus", "nope")
    assert code == 2 and err.startswith("error: there is no corpus named 'nope'") and "Traceback" not in err
    code, _, err = run(store, capsys, "restore", "7")
    assert code == 2 and "the trash has no item 7" in err
    code, _, err = run(store, capsys, "delete")
    assert code == 2 and "delete needs one of --corpus NAME or --model NAME" in err
