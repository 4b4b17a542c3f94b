"""A pasted text longer than the model reads (a whole paper, 20,000 characters): the results were ranked from its
first few hundred words and nothing said so, so a text whose subject came later was answered as if it were about
its opening (helper qa16)."""

from __future__ import annotations

from core.explore import predict_journals
from core.explore.search.hybrid import search
from core.explore.search.similar import similar_papers

OPENING = "galaxy redshift telescope"  # the tiny test model splits words into many pieces: 128 tokens are few words
LONG = OPENING + ". Cells, proteins and genes of the tissue enzyme receptor mutation genome. " * 400


def test_a_text_longer_than_the_model_reads_is_said_to_be_read_in_part(embedded):
    found = search(embedded, "c", "tiny", LONG, k=5)
    assert found.warning is not None, found.notice
    assert "reads only its first 128 tokens" in found.warning, found.warning
    words = len(LONG.split())
    assert f"Your text has {words:,} words" in found.warning
    pasted = similar_papers(embedded, "c", "tiny", abstract=LONG, k=5)
    assert pasted.warning == found.warning
    journals = predict_journals(embedded, "tiny", title="", abstract=LONG, corpus="c", label_column="journal", k=3)
    assert journals.warning == found.warning


def test_a_text_the_model_reads_whole_has_no_such_warning(embedded):
    for text in (OPENING, "galaxy redshift"):
        assert search(embedded, "c", "tiny", text, k=5).warning is None
        assert "reads only" not in (similar_papers(embedded, "c", "tiny", abstract=text, k=5).warning or "")


def test_a_text_just_over_the_limit_is_not_warned_about(embedded):
    """The corpus's own long abstracts lose their last sentences too: only a text the model reads less than half of
    is said to be read in part."""
    from core.embedding import get_encoder, get_model
    from core.explore.search.similar import read_warning

    encoder = get_encoder(get_model("tiny", embedded))
    words = ("galaxy redshift telescope. " * 60).split()
    while len(encoder.tokenizer(" ".join(words))["input_ids"]) > 2 * encoder.max_length:
        words = words[:-1]
    text = " ".join(words)
    assert len(encoder.tokenizer(text)["input_ids"]) > encoder.max_length  # over the limit, read more than half
    assert read_warning(encoder, text, text, "") is None
    assert read_warning(encoder, text * 3, text * 3, "") is not None
