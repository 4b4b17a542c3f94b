"""PubMed XML with Bookshelf records (issue 40 §1): a ``PubmedBookArticle`` is imported (or skipped with its reason),
never silently left out. The fixture is a real efetch answer: one journal article and one GeneReviews book record
(tests/fixtures/real/SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

from core.io import plan_import, read_papers
from core.records import Paper, RowError

MIXED = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "pubmed_book_mixed_2.xml"


def _records_in(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    return text.count("<PubmedArticle>") + text.count("<PubmedBookArticle>")


def test_a_book_record_is_imported_beside_the_journal_article() -> None:
    papers = [p for p in read_papers(MIXED) if isinstance(p, Paper)]
    assert [p.id for p in papers] == ["17284678", "20301295"]
    book = papers[1]
    assert book.title == "GeneReviews™"  # a whole book: its BookTitle (a chapter would give its ArticleTitle)
    assert book.abstract.startswith("GeneReviews are expert-authored, peer-reviewed disease descriptions")
    assert "Copyright" not in book.abstract
    assert book.fields["journal"] == "GeneReviews™"
    assert book.fields["year"] == 1993
    assert book.fields["authors"][0] == "Pagon, Roberta A" and len(book.fields["authors"]) == 5  # its editors
    assert book.fields["bookaccession"] == "NBK1116"
    assert book.fields["record_type"] == "book"


def test_every_record_of_the_file_is_accounted_for() -> None:
    plan = plan_import(MIXED)
    assert plan.records == _records_in(MIXED) == 2
    assert plan.records == plan.papers + len(plan.skipped)


def test_a_book_chapter_takes_its_article_title_and_a_broken_one_is_skipped_with_its_reason(tmp_path: Path) -> None:
    text = MIXED.read_text(encoding="utf-8")
    at = text.index("<PubmedBookArticle>")
    chapter = text[:at] + text[at:].replace("<Language>eng</Language>", "<ArticleTitle book=\"gene\" part=\"x\">A chapter</ArticleTitle>"
                           "<AuthorList Type=\"authors\"><Author><LastName>Roe</LastName><ForeName>Ann</ForeName>"
                           "</Author></AuthorList><Language>eng</Language>", 1)
    path = tmp_path / "chapter.xml"
    path.write_text(chapter, encoding="utf-8")
    book = [p for p in read_papers(path) if isinstance(p, Paper)][1]
    assert (book.title, book.fields["journal"], book.fields["authors"]) == ("A chapter", "GeneReviews™", ["Roe, Ann"])
    broken = tmp_path / "broken.xml"
    start, end = text.index("<BookDocument>"), text.index("</BookDocument>") + len("</BookDocument>")
    broken.write_text(text[:start] + text[end:], encoding="utf-8")
    items = list(read_papers(broken))
    errors = [i for i in items if isinstance(i, RowError)]
    assert len(items) == 2 and len(errors) == 1 and "PubmedBookArticle" in errors[0].reason
