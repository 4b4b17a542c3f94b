"""The databases' overlap table reads as a person reads a share: percent with one decimal ('45.4'), not a fraction
with four ('0.4537'), on the Library page and in its CSV."""

from core.store.provenance import overlap_rows


def test_overlap_rows_give_each_database_its_share_in_percent():
    summary = {"total": 108, "papers": {"PubMed": 49, "Scopus": 10}, "unique": {"PubMed": 45, "Scopus": 9}}
    rows = overlap_rows(summary)
    assert rows[0] == {"database": "PubMed", "papers": 49, "unique to it": 45, "also in another database": 4,
                       "share of all papers (%)": 45.4}
    assert rows[1]["share of all papers (%)"] == 9.3
