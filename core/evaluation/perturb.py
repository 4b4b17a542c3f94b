"""Textual-neighbour perturbations of a paper (after Singh & Singh, Findings of ACL 2022).

Every perturbation is a pure function ``(title, abstract, rng) -> (title, abstract)`` driven only by the
``numpy.random.Generator`` it is given, so a seed reproduces it exactly. ``FAMILIES`` maps a family name
to ``(category, function)``.

Categories. Singh & Singh sort textual neighbours by how far the text moves and whether its meaning
survives; their section text was not at hand when this was written, so the mapping below is ours,
written in their labels:

- the first part says what kind of edit it is: ``LL`` = lexical level (characters, spacing, case,
  single words change, the structure stays), ``LO`` = organisation level (whole sentences, quarters
  or fields are moved, dropped or replaced);
- the second part says how much meaning survives: ``HS`` = highly similar (a reader sees the same
  paper), ``PS`` = partially similar (part of the content is lost), ``DS`` = dissimilar (the meaning
  is destroyed or belongs to another paper).

============  ===============================================================================
category      families
============  ===============================================================================
LL-HS         whitespace_noise, lowercase, uppercase
LO-HS         sentence_shuffle, sentence_sort, sentence_rotate
LL-PS         char_deletion, numbers_deleted, word_deletion_30
LO-PS         drop_q1, drop_q2, drop_q3, drop_q4, title_only, abstract_only
LO-DS         word_shuffle, swap_abstract
============  ===============================================================================

A good embedding keeps the neighbours of HS and PS neighbours and should *not* keep them for LO-DS.

Part-of-speech families (delete nouns / adjectives / verbs, adjectives to antonyms) need a tagger;
nltk is not installed and its taggers need a data download, so they are not offered here:
``pos_available()`` says whether a tagger could be used and ``pos_note()`` gives the sentence to show.

Sentences are split by a simple regular expression (a break after ``.``, ``!`` or ``?`` followed by
white space), which is good enough for abstracts but splits after abbreviations such as "e.g. ".
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Callable, Sequence

import numpy as np

from core.errors import MireadError

Perturbation = Callable[[str, str, np.random.Generator], tuple[str, str]]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_DIGIT = re.compile(r"\d")


def split_sentences(text: str) -> list[str]:
    """Split text into sentences with a regular expression (break after . ! ? and white space)."""
    return [s for s in _SENTENCE_END.split((text or "").strip()) if s]


def _join(parts: Sequence[str]) -> str:
    return " ".join(parts)


def whitespace_noise(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Widen half of the single spaces (chosen at random) to 2-5 spaces in title and abstract."""

    def noisy(text: str) -> str:
        pieces = text.split(" ")
        if len(pieces) < 2:
            return text
        gaps = len(pieces) - 1
        widen = set(rng.choice(gaps, size=gaps // 2 or 1, replace=False).tolist())
        out = [pieces[0]]
        for gap, piece in enumerate(pieces[1:]):
            out.append(" " * (int(rng.integers(2, 6)) if gap in widen else 1))
            out.append(piece)
        return "".join(out)

    return noisy(title), noisy(abstract)


def lowercase(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Lower-case title and abstract."""
    return title.lower(), abstract.lower()


def uppercase(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Upper-case title and abstract."""
    return title.upper(), abstract.upper()


def sentence_shuffle(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Put the abstract's sentences in a random order."""
    sentences = split_sentences(abstract)
    return title, _join([sentences[i] for i in rng.permutation(len(sentences))])


def sentence_sort(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Order the abstract's sentences from shortest to longest (in words; ties keep their order)."""
    return title, _join(sorted(split_sentences(abstract), key=lambda s: len(s.split())))


def sentence_rotate(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Move the second half of the abstract's sentences in front of the first half."""
    sentences = split_sentences(abstract)
    middle = len(sentences) // 2
    return title, _join(sentences[middle:] + sentences[:middle])


def char_deletion(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """In half of the words of 4+ characters, delete one character (two if the word has 6+)."""

    def damaged(text: str) -> str:
        words = text.split()
        for i, word in enumerate(words):
            if len(word) >= 4 and rng.random() < 0.5:
                drop = set(rng.choice(len(word), size=2 if len(word) >= 6 else 1, replace=False).tolist())
                words[i] = "".join(c for j, c in enumerate(word) if j not in drop)
        return _join(words)

    return damaged(title), damaged(abstract)


def numbers_deleted(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Delete every digit from title and abstract; nothing else changes."""
    return _DIGIT.sub("", title), _DIGIT.sub("", abstract)


def word_deletion_30(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Delete 30% of the abstract's words (rounded), chosen at random; the rest keep their order."""
    words = abstract.split()
    drop = set(rng.choice(len(words), size=round(0.3 * len(words)), replace=False).tolist())
    return title, _join([w for i, w in enumerate(words) if i not in drop])


def _drop_quarter(quarter: int, title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Drop one quarter (1-4) of the abstract's sentences, or of its words if it has fewer than 4 sentences."""
    parts = split_sentences(abstract)
    if len(parts) < 4:
        parts = abstract.split()
    groups = np.array_split(np.arange(len(parts)), 4)
    drop = set(groups[quarter - 1].tolist())
    return title, _join([p for i, p in enumerate(parts) if i not in drop])


def title_only(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Keep the title, drop the abstract."""
    return title, ""


def abstract_only(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Keep the abstract, drop the title."""
    return "", abstract


def word_shuffle(title: str, abstract: str, rng: np.random.Generator) -> tuple[str, str]:
    """Put all words of the abstract in a random order (keeps the bag of words, destroys the text)."""
    words = abstract.split()
    return title, _join([words[i] for i in rng.permutation(len(words))])


def swap_abstract(
    title: str, abstract: str, rng: np.random.Generator, pool: Sequence[str] = ()
) -> tuple[str, str]:
    """Replace the abstract with a different, non-empty one drawn from ``pool``; keep the title."""
    for _ in range(64):
        if not pool:
            break
        candidate = pool[int(rng.integers(len(pool)))]
        if candidate != abstract and candidate.strip():
            return title, candidate
    return title, abstract


FAMILIES: dict[str, tuple[str, Callable]] = {
    "whitespace_noise": ("LL-HS", whitespace_noise),
    "lowercase": ("LL-HS", lowercase),
    "uppercase": ("LL-HS", uppercase),
    "sentence_shuffle": ("LO-HS", sentence_shuffle),
    "sentence_sort": ("LO-HS", sentence_sort),
    "sentence_rotate": ("LO-HS", sentence_rotate),
    "char_deletion": ("LL-PS", char_deletion),
    "numbers_deleted": ("LL-PS", numbers_deleted),
    "word_deletion_30": ("LL-PS", word_deletion_30),
    **{f"drop_q{q}": ("LO-PS", functools.partial(_drop_quarter, q)) for q in (1, 2, 3, 4)},
    "title_only": ("LO-PS", title_only),
    "abstract_only": ("LO-PS", abstract_only),
    "word_shuffle": ("LO-DS", word_shuffle),
    "swap_abstract": ("LO-DS", swap_abstract),
}

# what each family does to a text, as the pages say it (the family names are the benchmark's, not a reader's)
FAMILY_TEXT = {
    "original": "your text as pasted",
    "whitespace_noise": "extra spaces between words",
    "lowercase": "all in lower case",
    "uppercase": "all in upper case",
    "sentence_shuffle": "the abstract's sentences in a random order",
    "sentence_sort": "the abstract's sentences from shortest to longest",
    "sentence_rotate": "the abstract's second half moved in front",
    "char_deletion": "a letter deleted from half of the longer words",
    "numbers_deleted": "every digit deleted",
    "word_deletion_30": "30 % of the abstract's words deleted",
    **{f"drop_q{q}": f"the abstract's {nth} quarter left out"
       for q, nth in ((1, "first"), (2, "second"), (3, "third"), (4, "last"))},
    "title_only": "the title alone",
    "abstract_only": "the abstract alone",
    "word_shuffle": "the abstract's words in a random order (the text destroyed)",
    "swap_abstract": "another paper's abstract under this title",
}
CATEGORIES = ("LL-HS", "LO-HS", "LL-PS", "LO-PS", "LO-DS")
DESTRUCTIVE = frozenset({"LO-DS"})
NEEDS_POOL = frozenset({"swap_abstract"})


def resolve(name: str, pool: Sequence[str] = ()) -> tuple[str, Perturbation]:
    """Category and ready-to-call perturbation of a family; pool-based families get ``pool`` bound."""
    if name not in FAMILIES:
        raise MireadError(f"Unknown perturbation family '{name}'; choose from {', '.join(FAMILIES)}.")
    category, function = FAMILIES[name]
    if name in NEEDS_POOL:
        function = functools.partial(function, pool=pool)
    return category, function


def expect_keep(family: str) -> bool:
    """Whether a good embedding should keep a paper's neighbours under this family (False for LO-DS)."""
    return FAMILIES[family][0] not in DESTRUCTIVE


def pos_available() -> bool:
    """Whether an offline part-of-speech tagger (nltk with its tagger data) is installed."""
    if importlib.util.find_spec("nltk") is None:
        return False
    import nltk

    for resource in ("taggers/averaged_perceptron_tagger_eng", "taggers/averaged_perceptron_tagger"):
        try:
            nltk.data.find(resource)
            return True
        except LookupError:
            continue
    return False


def pos_note() -> str:
    """One sentence saying why the part-of-speech families are not in the results."""
    if pos_available():
        return "Part-of-speech families (delete nouns/adjectives/verbs, antonyms) are not implemented yet."
    return (
        "Part-of-speech families (delete nouns/adjectives/verbs, antonyms) are skipped: they need "
        "nltk and its tagger data, which are not installed on this machine."
    )
