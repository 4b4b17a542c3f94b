"""User-facing errors: each carries one clear sentence naming what is wrong and where."""

import re

MAX_SENTENCE = 1000  # an error sentence longer than this repeats someone's input: it is cut (issue 41)
_LONG_WORD = re.compile(r"\S{101,}")


def bounded(text: str, limit: int = MAX_SENTENCE) -> str:
    """An error sentence that quotes no more than ~100 characters of any one unbroken input (a 10 MB paper id) and
    is at most about `limit` characters long."""
    if len(text) <= limit:
        return text
    text = _LONG_WORD.sub(lambda m: m.group()[:100] + "…", text)
    return text if len(text) <= limit else f"{text[:limit - 60]}… ({len(text) - limit + 60:,} more characters cut)"


class MireadError(Exception):
    """Base class for errors whose message is shown to the user as-is (no traceback); a message that repeats a huge
    input is cut (``bounded``)."""

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (bounded(args[0]), *args[1:])
        super().__init__(*args)


class CorpusError(MireadError):
    """A file or corpus cannot be imported or used (bad format, missing column, empty...)."""


class ModelError(MireadError):
    """A model cannot be found or loaded."""


class NotFoundError(MireadError):
    """A named corpus, paper, model or job does not exist."""


class StoreError(MireadError):
    """The workspace is damaged (missing or corrupt array file) or a write was refused."""


class NotEmbeddedError(StoreError):
    """Some papers of a corpus have no vectors for the model asked for yet."""


class TrainingError(MireadError):
    """A training configuration is impossible (too few classes, unknown base, ...)."""
