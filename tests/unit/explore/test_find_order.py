"""The map's Find by title words: matches were listed by title length (a word found inside another word, "cat" in
"Education", ranked with the word itself), and a pasted abstract was matched word by word against every title
(3 s for 3,000 words on the 3,000-paper demo, minutes at 1M papers) (helper qa16)."""

from __future__ import annotations

import time

import pandas as pd

from core.explore.search import find_papers

TITLES = ["Education of cats", "Cat behaviour in the wild at night, with a few more words in its title",
          "Catalysis of cations", "A cat", "The cat"]


def test_titles_holding_the_words_whole_come_before_words_found_inside_other_words():
    frame = pd.DataFrame({"title": TITLES})
    order = [TITLES[r] for r in find_papers(frame, "cat", limit=None)]
    assert order[:3] == ["Cat behaviour in the wild at night, with a few more words in its title", "A cat", "The cat"]
    assert set(order[3:]) == {"Education of cats", "Catalysis of cations"}  # 'cat' only begins a word there


def test_an_exact_title_comes_first_whatever_its_length():
    frame = pd.DataFrame({"title": ["Insulin resistance in obese mice: a very long study of many things",
                                    "Insulin resistance", "Insulin resistance and obesity"]})
    assert find_papers(frame, "insulin resistance", limit=None).tolist() == [1, 2, 0]


def test_a_pasted_abstract_is_not_matched_word_by_word_against_every_title():
    frame = pd.DataFrame({"title": [f"Title number {i} about galaxies and stars" for i in range(100_000)]})
    pasted = " ".join(f"word{i}" for i in range(3000))
    started = time.perf_counter()
    assert find_papers(frame, "galaxies " + pasted, limit=None).tolist() == []
    assert time.perf_counter() - started < 3.0  # each word over every title: 3,000 passes of 100k titles, minutes
