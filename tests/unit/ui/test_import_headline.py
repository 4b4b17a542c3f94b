"""The import report's headline tells merges apart: a record merged into a paper of the same import (one search
exported from several databases into a new corpus, or a file that lists one paper twice) is a duplicate within this
import, not a merge "into papers already there" (there were none). The four numbers still add up: read = new papers
+ merged + skipped, and the merged count is the per-file table's "merged" total."""

from __future__ import annotations

from ui.import_report import headline


def _one_file(merged_into: dict[str, int] | None, merged: int) -> dict:
    report = {"corpus": "c", "imported": 10, "added": 10 - merged, "merged": merged, "skipped": 1, "read": 11}
    if merged_into is not None:
        report["merged_into"] = merged_into
    return report


def _files(*merged_into: dict[str, int]) -> dict:
    files = [{"file": f"f{i}.ris", "imported": 5, "added": 5 - sum(m.values()), "merged": sum(m.values()),
              "skipped": 0, "merged_into": m} for i, m in enumerate(merged_into)]
    merged = sum(f["merged"] for f in files)
    return {"corpus": "c", "imported": 5 * len(files), "added": 5 * len(files) - merged, "merged": merged,
            "skipped": 0, "read": 5 * len(files), "files": files}


def test_a_duplicate_within_one_file_into_a_new_corpus_is_not_a_paper_already_there():
    text = headline(_one_file({"this file": 1, "corpus": 0}, 1))
    assert text == "Read **11 records** into **c**: 9 new papers · 1 duplicate merged within this import · 1 skipped record"
    assert "already there" not in text


def test_several_databases_into_a_new_corpus_merge_within_the_import():
    text = headline(_files({"this file": 0, "earlier files": 0, "corpus": 0},
                           {"this file": 0, "earlier files": 2, "corpus": 0}))
    assert text == ("Read **10 records** from **2 files** into **c**: 8 new papers · 2 duplicates merged within this "
                    "import · 0 skipped records")


def test_records_of_papers_already_in_the_corpus_are_merged_into_them():
    assert "· 3 merged into papers already there ·" in headline(_one_file({"this file": 0, "corpus": 3}, 3))


def test_both_kinds_are_counted_and_add_up_to_the_merged_total():
    text = headline(_files({"this file": 1, "earlier files": 0, "corpus": 2},
                           {"this file": 0, "earlier files": 1, "corpus": 1}))
    assert "· 5 merged (2 duplicates within this import, 3 into papers already there) ·" in text


def test_without_the_split_the_sentence_claims_no_kind():
    assert "· 2 duplicates merged ·" in headline(_one_file(None, 2))
    assert "· 0 merged ·" in headline(_one_file({"this file": 0, "corpus": 0}, 0))
