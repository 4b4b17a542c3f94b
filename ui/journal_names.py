"""One journal, one name, said on screen: which journals were exported under several spellings and shown as one
(core.journal_identity), as a sentence under the map and a table on the Journals page."""

from __future__ import annotations

import streamlit as st

from core.display import plural
from core.records import md_escape
from ui.resources import store
from ui.table_download import table_download


def joined_spellings(corpus: str) -> dict[str, list[str]]:
    """The corpus's journals read under more than one spelling: shown name -> spellings (cached per version)."""
    return store().journal_identities(corpus, names=False).joined()


def spellings_caption(corpus: str, colour: str | None) -> None:
    """Under a map coloured by the journal field: how many journals were joined from how many spellings."""
    info = store().corpus(corpus)
    if not info.journal or colour != info.journal:
        return
    joined = joined_spellings(corpus)
    if not joined:
        return
    first, spellings = next(iter(sorted(joined.items(), key=lambda kv: -len(kv[1]))))
    example = ", ".join(f"“{s}”" for s in spellings[:3])
    were = "was" if len(joined) == 1 else "were"
    st.caption(f"One colour per journal: {plural(len(joined), 'journal')} {were} exported under several spellings "
               f"(e.g. {md_escape(example)} → **{md_escape(first)}**), joined by ISSN, name and the abbreviations "
               "the records carry; the Journals page lists every spelling.")


def spellings_table(corpus: str) -> None:
    """On the Journals page: every journal shown under one name with the spellings it was exported under."""
    identities = store().journal_identities(corpus, names=False)
    joined = identities.joined()
    if not joined:
        return
    rows = [row for row in identities.table() if row["journal"] in joined]
    with st.expander(f"One journal, one name: {plural(len(rows), 'journal')} exported under several spellings"):
        st.caption("Each is one journal for the suggestions, the map and training: the same ISSN, the same name "
                   "(case, accents, punctuation, “&”, a leading “The”, a subtitle), or an abbreviation a record "
                   "gives for it (MEDLINE TA, RIS J2, Scopus Abbreviated Source Title). Your files keep their own "
                   "spellings.")
        st.dataframe(rows, width="stretch", hide_index=True, key="journal_spellings")
        table_download(rows, "journal_spellings_csv", corpus, "journal-spellings")
