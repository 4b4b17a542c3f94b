"""What the exports of known tools look like, to name the fix when one lacks what an import needs.

Each entry: a tool's export, the normalised column names that identify it, and the sentence that tells a user
what to do instead. Data, not logic: add a tool by adding an entry.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.io.vocabulary import normal

TITLE_ONLY = "import titles only (--title-only in the CLI, 'Titles only' on the Library page)"

KNOWN_EXPORTS: tuple[tuple[str, frozenset[str], str], ...] = (
    ("PubMed CSV", frozenset({"pmid", "citation", "create_date"}),
     "PubMed's CSV has no abstracts: save in PubMed format (.nbib) or as XML instead"),
    ("PubMed CSV", frozenset({"entrezuid", "shortdetails"}),  # PubMed's CSV of 2019 and before
     "PubMed's CSV has no abstracts: save in PubMed format (.nbib) or as XML instead"),
    ("Google Scholar", frozenset({"cites", "articleurl"}),
     "Google Scholar (Publish or Perish) exports have no abstracts: export from a database that has them"),
    ("Google Scholar", frozenset({"cites", "article_url"}),
     "Google Scholar exports have no abstracts: export from a database that has them"),
    ("Scopus CSV", frozenset({"eid", "source_title"}),
     "this Scopus CSV was exported without abstracts: tick 'Abstract' under 'Abstract & keywords' and export again"),
    ("OpenAlex", frozenset({"openalex"}),  # the W… id our OpenAlex reader keeps
     "OpenAlex keeps no abstract for these works (its abstract_inverted_index is empty): export from a database "
     "that has them"),
    ("Semantic Scholar", frozenset({"semantic_scholar"}),
     "Semantic Scholar gave no abstracts: ask its API for the 'abstract' field and save again"),
    ("Elicit", frozenset({"abstract_summary", "doi_link"}),  # Elicit's table: an AI sentence per paper, no abstract
     "Elicit's 'Abstract summary' is a sentence Elicit wrote for your question, not the paper's abstract: export "
     "the same papers (by their DOIs) from a database that has abstracts, such as OpenAlex or PubMed"),
    ("Web of Science", frozenset({"pt", "ut"}),
     "this Web of Science export has no abstracts: choose 'Full Record' as the record content and export again"),
)


# databases whose records seldom carry an abstract -> the fix named when none of a file's records has one
NO_ABSTRACT_FIXES: dict[str, str] = {
    "Crossref": "Crossref rarely carries abstracts (publishers deposit few): export the same works from the "
                "publisher, PubMed or OpenAlex, which have them",
}


def no_abstract_fix(database: str | None) -> str:
    """What to do when every record of a file lacked an abstract: the fix for its database (when there is one to
    name), then the title-only way."""
    fix = NO_ABSTRACT_FIXES.get(database or "")
    return f"{fix}, or {TITLE_ONLY}" if fix else TITLE_ONLY


def known_export(columns: Sequence[str]) -> str | None:
    """The name of the tool whose export these columns look like, if any."""
    names = {normal(c) for c in columns}
    return next((tool for tool, signature, _ in KNOWN_EXPORTS if signature <= names), None)


def missing_abstract_fix(columns: Sequence[str]) -> str:
    """The sentence's second half for a file without an abstract column: the fix, then the title-only way."""
    names = {normal(c) for c in columns}
    fix = next((fix for _, signature, fix in KNOWN_EXPORTS if signature <= names), None)
    if fix:
        return f"{fix}, or {TITLE_ONLY}"
    return f"choose the abstract column, or {TITLE_ONLY}"
