"""User-facing errors: each carries one clear sentence naming what is wrong and where."""


class MireadError(Exception):
    """Base class for errors whose message is shown to the user as-is (no traceback)."""


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
