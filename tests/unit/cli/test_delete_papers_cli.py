"""`python -m core delete --corpus C --papers ID…` (helper qa16): the Library deleted single papers into the trash
with Undo, the CLI could not; the command names what it deleted and `trash` / `restore` bring it back."""

from __future__ import annotations

from tests.helpers import make_papers
from tests.unit.cli.test_collections_cli import run


def test_papers_deleted_from_the_cli_are_named_listed_in_the_trash_and_restored(store, capsys):
    store.import_papers("c", make_papers(3))
    before = store.papers_frame("c")["id"].astype(str).tolist()
    code, doc, _ = run(store, capsys, "delete", "--corpus", "c", "--papers", "astro-0", "bio-1", "--json")
    assert code == 0, doc
    assert doc["deleted"]["kind"] == "papers" and doc["deleted"]["papers"] == 2 and doc["deleted"]["corpus"] == "c"
    assert [p["id"] for p in doc["papers"]] == ["astro-0", "bio-1"]
    assert doc["papers"][0]["title"] == next(p.title for p in make_papers(3) if p.id == "astro-0")
    assert doc["undo"] == f"python -m core restore {doc['deleted']['id']}"
    assert {"astro-0", "bio-1"}.isdisjoint(store.papers_frame("c")["id"].astype(str))
    code, listed, _ = run(store, capsys, "trash", "--json")
    assert [i["id"] for i in listed["trash"]] == [doc["deleted"]["id"]]
    code, restored, _ = run(store, capsys, "restore", str(doc["deleted"]["id"]), "--json")
    assert code == 0 and restored["restored"]["kind"] == "papers"
    assert store.papers_frame("c")["id"].astype(str).tolist() == before  # the same ids, in the same order


def test_the_text_output_names_each_paper_and_the_undo(store, capsys):
    from core import cli

    store.import_papers("c", make_papers(3))
    code = cli.main(["--workspace", str(store.root), "delete", "--corpus", "c", "--papers", "econ-2"])
    out = capsys.readouterr().out
    title = next(p.title for p in make_papers(3) if p.id == "econ-2")
    assert code == 0 and "econ-2" in out and title in out and "python -m core restore" in out, out


def test_an_unknown_id_deletes_nothing_and_papers_need_their_corpus(store, capsys):
    store.import_papers("c", make_papers(3))
    code, _, err = run(store, capsys, "delete", "--corpus", "c", "--papers", "astro-0", "nope")
    assert code != 0 and "'nope'" in err and "nothing was deleted" in err
    assert len(store.papers_frame("c")) == 9
    code, _, err = run(store, capsys, "delete", "--papers", "astro-0")
    assert code != 0 and "--papers needs --corpus" in err
