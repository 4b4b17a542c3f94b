"""The Library's import report names the rows it warns about: fields not read whole and id conflicts, each one
sentence over an expander that lists them."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)
from tests.conftest import ROOT
from ui import state

REAL = ROOT / "tests" / "fixtures" / "real" / "tools"
# two records with one DOI and titles that agree but other abstracts: merged by the DOI, so a split can undo it
RIS = (b"TY  - JOUR\nID  - P1\nTI  - A study of things\nAB  - One abstract of the study.\nDO  - 10.1/x\nER  - \n"
       b"TY  - JOUR\nID  - P2\nTI  - A Study of Things.\nAB  - Another abstract, longer.\nDO  - 10.1/x\nER  - \n"
       )


def test_the_report_lists_the_fields_not_read_whole_and_the_id_conflicts(workspace):  # noqa: F811
    at = open_app("app_pages/library.py")
    at.session_state[state.IMPORT_REPORT] = {
        "corpus": "c", "imported": 5, "added": 3, "merged": 0, "skipped": 0, "errors": [],
        "warnings": [{"row": 2, "field": "abstract", "reason": "an undecodable byte"}],
        "conflicts": [{"row": 5, "id": "p1", "kept_as": "p1~5"}, {"row": 9, "id": "p2", "kept_as": "p2~9"}],
    }
    at.run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert "1 warning: fields not read whole (their papers were imported)." in warnings, warnings
    assert any(w.startswith("2 rows reused an id of a paper with another title and abstract") for w in warnings)
    labels = [e.label for e in at.expander]
    assert "Fields not read whole (1)" in labels and "Id conflicts (2)" in labels


def test_the_report_puts_each_kind_of_warning_under_the_heading_the_cli_prints(workspace):  # noqa: F811
    """Text repaired from a wrong encoding and names turned round were listed as "fields could not be read whole"
    (they were read whole); each kind now has the heading and sentence the command line prints."""
    at = open_app("app_pages/library.py")
    at.session_state[state.IMPORT_REPORT] = {
        "corpus": "c", "imported": 5, "added": 5, "merged": 0, "skipped": 0, "errors": [], "conflicts": [],
        "warnings": [{"row": 2, "column": "text", "reason": "garbled", "kind": "repaired"},
                     {"row": 1, "column": "authors", "reason": "turned", "kind": "names"},
                     {"row": 3, "column": "abstract", "reason": "an undecodable byte", "kind": "unread"}],
    }
    at.run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert "1 warning: text garbled by a wrong encoding, repaired (the papers were imported with the repaired " \
           "text)." in warnings, warnings
    assert any(w.startswith("1 warning: author names written turned round") for w in warnings), warnings
    assert not any("not read whole" in w and "repaired" in w for w in warnings)
    labels = [e.label for e in at.expander]
    assert {"Fields not read whole (1)", "Text garbled by a wrong encoding, repaired (1)",
            "Author names written turned round, read family name first (1)"} <= set(labels), labels


def test_no_split_is_offered_for_records_merged_as_the_same_title_and_abstract(empty_workspace):  # noqa: F811
    """Importing a file again merges each record into its own paper by the same title and abstract, which cannot be
    split back (split_record refuses: the two papers could not be told apart); the report offered a Split button
    for each, and every press ended in an error."""
    data = (REAL / "wos_plain_2025_3.txt").read_bytes()
    at = open_app("app_pages/library.py", model=None)
    for _ in range(2):
        at.file_uploader[0].set_value([("a.txt", data, "text/plain"), ("b.ris", RIS, "text/plain")]).run()
        at.text_input[0].set_value("again").run()
        next(b for b in at.button if b.label == "Import 2 files into corpus again").click().run()
        assert not at.exception, at.exception
    assert "5 merged into papers already there" in next(s.value for s in at.success if "Read" in s.value)
    offered = [b.label for b in at.button if b.label.startswith("Split record")]
    assert offered and set(offered) == {"Split record P2 from paper P1"}, offered  # the merge a split can undo
    assert any("cannot be split" in c.value for c in at.caption), [c.value for c in at.caption]


def test_the_split_list_holds_only_the_merges_a_split_can_undo(empty_workspace):  # noqa: F811
    """A corpus whose merges are all by the same title and abstract offers no Split at all, and says why."""
    data = (REAL / "wos_plain_2025_3.txt").read_bytes()
    at = open_app("app_pages/library.py", model=None)
    for _ in range(2):
        at.file_uploader[0].set_value([(f"w{_}.txt", data, "text/plain")]).run()
        at.text_input[0].set_value("again").run()
        next(b for b in at.button if b.label == "Import").click().run()
        assert not at.exception, at.exception
    assert not [b.label for b in at.button if b.label.startswith("Split record")]
    assert not [s for s in at.selectbox if s.label.startswith("Split a merged record")]
    assert any("cannot be split" in c.value for c in at.caption), [c.value for c in at.caption]


def test_a_report_on_a_corpus_another_tab_deleted_does_not_say_its_merges_were_split(empty_workspace):  # noqa: F811
    """Two tabs on one workspace: this tab's report is about corpus 'gone', which the other tab moved to the trash.
    The report stayed, naming the corpus, and its merges read "Every merge here has been split back" (its merged
    records had gone to the trash with it); it now says the corpus was deleted and offers no Split."""
    from core.store import Store

    at = open_app("app_pages/library.py", model=None)
    at.file_uploader[0].set_value([("a.ris", RIS, "text/plain")]).run()
    at.text_input[0].set_value("gone").run()
    next(b for b in at.button if b.label == "Import").click().run()
    assert any("1 merged" in s.value or "1 duplicate" in s.value for s in at.success), [s.value for s in at.success]
    Store(empty_workspace).delete_corpus("gone")  # the other tab
    at.run()
    assert not at.exception, at.exception
    shown = [m.value for m in (*at.success, *at.info, *at.warning, *at.caption, *at.markdown)]
    assert not any("has been split back" in t for t in shown), shown
    assert not any(t.startswith("Read **2 records**") for t in shown), shown
    assert not [e.label for e in at.expander if e.label.startswith("What was merged")]
    assert any("gone" in t and "trash" in t for t in shown), shown


def test_an_empty_upload_is_said_once_with_its_fix_and_offers_no_encoding(empty_workspace):  # noqa: F811
    """A 0-byte upload (a download that failed) or a file of blank lines showed "file 'x.ris' is empty" and an
    Encoding choice under it, as if another encoding could find papers in nothing."""
    at = open_app("app_pages/library.py", model=None)
    for data in (b"", b"\r\n  \n\t\n"):
        at.file_uploader[0].set_value([("search.ris", data, "text/plain")]).run()
        assert not at.exception, at.exception
        said = [e.value for e in at.error]
        assert len(said) == 1 and "search.ris" in said[0] and "export it again" in said[0].lower(), said
        assert not [s for s in at.selectbox if s.label == "Encoding"], [s.label for s in at.selectbox]
        assert not [b for b in at.button if b.label == "Import"]
