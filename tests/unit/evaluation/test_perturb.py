"""Each perturbation changes what its family says and keeps the rest."""

from collections import Counter

import numpy as np
import pytest

from core.errors import MireadError
from core.evaluation import perturb

TITLE = "Deep learning for protein folding in 2021"
ABSTRACT = (
    "Proteins fold into 3 shapes. We train a network on 1200 structures. "
    "It predicts contacts well! Accuracy rises by 12 percent. "
    "Can it generalise? Tests on 40 new folds say yes. "
    "Errors remain for membranes. Code is released."
)
SENTENCES = perturb.split_sentences(ABSTRACT)


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def test_split_sentences_breaks_after_end_punctuation():
    assert len(SENTENCES) == 8
    assert SENTENCES[2] == "It predicts contacts well!"
    assert SENTENCES[4] == "Can it generalise?"


def test_every_family_has_a_known_category_and_returns_two_strings():
    for name in perturb.FAMILIES:
        category, function = perturb.resolve(name, pool=[ABSTRACT, "Another abstract entirely."])
        assert category in perturb.CATEGORIES
        title, abstract = function(TITLE, ABSTRACT, rng())
        assert isinstance(title, str) and isinstance(abstract, str)
        assert (title, abstract) != (TITLE, ABSTRACT), name


def test_every_category_is_used_and_only_lo_ds_expects_to_lose_neighbours():
    assert {c for c, _ in perturb.FAMILIES.values()} == set(perturb.CATEGORIES)
    for name, (category, _) in perturb.FAMILIES.items():
        assert perturb.expect_keep(name) == (category != "LO-DS")


def test_same_seed_gives_same_perturbation():
    for name in perturb.FAMILIES:
        _, function = perturb.resolve(name, pool=[ABSTRACT, "Other one.", "Third one."])
        assert function(TITLE, ABSTRACT, rng(3)) == function(TITLE, ABSTRACT, rng(3))


def test_sentence_shuffle_keeps_the_multiset_of_sentences_and_the_title():
    title, abstract = perturb.sentence_shuffle(TITLE, ABSTRACT, rng(1))
    assert title == TITLE
    assert Counter(perturb.split_sentences(abstract)) == Counter(SENTENCES)
    assert perturb.split_sentences(abstract) != SENTENCES


def test_sentence_sort_orders_sentences_by_word_count():
    _, abstract = perturb.sentence_sort(TITLE, ABSTRACT, rng())
    lengths = [len(s.split()) for s in perturb.split_sentences(abstract)]
    assert lengths == sorted(lengths)
    assert Counter(perturb.split_sentences(abstract)) == Counter(SENTENCES)


def test_sentence_rotate_puts_the_second_half_first():
    _, abstract = perturb.sentence_rotate(TITLE, ABSTRACT, rng())
    assert perturb.split_sentences(abstract) == SENTENCES[4:] + SENTENCES[:4]


def test_word_deletion_removes_thirty_percent_of_words_in_order():
    words = ABSTRACT.split()
    _, abstract = perturb.word_deletion_30(TITLE, ABSTRACT, rng(2))
    kept = abstract.split()
    assert len(words) - len(kept) == round(0.3 * len(words))
    remaining = iter(words)
    assert all(any(w == r for r in remaining) for w in kept)  # kept words are a subsequence


def test_drop_q2_removes_exactly_the_second_quarter_of_sentences():
    _, abstract = perturb.resolve("drop_q2")[1](TITLE, ABSTRACT, rng())
    assert perturb.split_sentences(abstract) == SENTENCES[:2] + SENTENCES[4:]


def test_drop_quarter_falls_back_to_words_for_short_abstracts():
    _, abstract = perturb.resolve("drop_q4")[1](TITLE, "one two three four five six seven eight", rng())
    assert abstract == "one two three four five six"


def test_char_deletion_only_shortens_long_words_by_one_or_two_characters():
    title, abstract = perturb.char_deletion(TITLE, ABSTRACT, rng(4))
    for before, after in zip((TITLE, ABSTRACT), (title, abstract)):
        old, new = before.split(), after.split()
        assert len(old) == len(new)
        changed = 0
        for o, w in zip(old, new):
            removed = len(o) - len(w)
            if len(o) < 4:
                assert w == o
            assert removed in ((0, 1, 2) if len(o) >= 6 else (0, 1))
            it = iter(o)
            assert all(c in it for c in w)  # characters kept in order
            changed += removed > 0
        assert changed > 0


def test_whitespace_noise_keeps_every_non_space_character():
    title, abstract = perturb.whitespace_noise(TITLE, ABSTRACT, rng(5))
    assert title.split() == TITLE.split()
    assert abstract.split() == ABSTRACT.split()
    assert "  " in abstract and len(abstract) > len(ABSTRACT)


def test_case_changes_touch_only_letter_case():
    assert perturb.lowercase(TITLE, ABSTRACT, rng()) == (TITLE.lower(), ABSTRACT.lower())
    assert perturb.uppercase(TITLE, ABSTRACT, rng()) == (TITLE.upper(), ABSTRACT.upper())


def test_numbers_deleted_removes_digits_and_nothing_else():
    title, abstract = perturb.numbers_deleted(TITLE, ABSTRACT, rng())
    assert not any(c.isdigit() for c in title + abstract)
    assert title == "".join(c for c in TITLE if not c.isdigit())
    assert abstract == "".join(c for c in ABSTRACT if not c.isdigit())


def test_title_only_and_abstract_only_drop_the_other_field():
    assert perturb.title_only(TITLE, ABSTRACT, rng()) == (TITLE, "")
    assert perturb.abstract_only(TITLE, ABSTRACT, rng()) == ("", ABSTRACT)


def test_word_shuffle_keeps_the_bag_of_words_but_not_the_order():
    title, abstract = perturb.word_shuffle(TITLE, ABSTRACT, rng(6))
    assert title == TITLE
    assert Counter(abstract.split()) == Counter(ABSTRACT.split())
    assert abstract.split() != ABSTRACT.split()


def test_swap_abstract_takes_another_papers_abstract_from_the_pool():
    pool = [ABSTRACT, "A different abstract.", "", "Yet another one."]
    _, swap = perturb.resolve("swap_abstract", pool=pool)
    for seed in range(10):
        title, abstract = swap(TITLE, ABSTRACT, rng(seed))
        assert title == TITLE
        assert abstract in ("A different abstract.", "Yet another one.")


def test_swap_abstract_without_another_abstract_leaves_the_paper_alone():
    _, swap = perturb.resolve("swap_abstract", pool=[ABSTRACT])
    assert swap(TITLE, ABSTRACT, rng()) == (TITLE, ABSTRACT)


def test_unknown_family_is_a_clear_error():
    with pytest.raises(MireadError, match="Unknown perturbation family 'nouns'"):
        perturb.resolve("nouns")


def test_pos_families_are_skipped_with_a_reason_when_no_tagger_is_installed():
    assert isinstance(perturb.pos_available(), bool)
    if not perturb.pos_available():
        assert "skipped" in perturb.pos_note() and "nltk" in perturb.pos_note()
    assert not any("noun" in name for name in perturb.FAMILIES)


def test_every_family_says_what_it_does_in_words():
    from core.evaluation.perturb import FAMILIES, FAMILY_TEXT

    assert set(FAMILIES) <= set(FAMILY_TEXT) and all(FAMILY_TEXT.values())
