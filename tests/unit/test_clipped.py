"""core.display.clipped: labels cut at a word with "…", never in half a word."""

from core.display import clipped


def test_a_title_that_fits_is_whole_and_a_long_one_is_cut_at_a_word():
    assert clipped("Short title.", 90) == "Short title."
    assert clipped("Celastrol targets adenylyl cyclase-associated protein 1 to reduce macrophages-mediated "
                   "inflammation", 90) == ("Celastrol targets adenylyl cyclase-associated protein 1 to reduce "
                                                  "macrophages-mediated…")
    assert clipped("one two three", 7) == "one two…"  # the cut falls on a space: the word before stays
    assert clipped("Supercalifragilistic", 5) == "Super…"  # one long word: cut in it rather than nothing
    assert clipped("a,  b\n c", 90) == "a, b c"
