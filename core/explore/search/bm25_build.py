"""Building the BM25 index fast: bit for bit the scores `bm25s.tokenize` + `bm25s.BM25().index` give (Lucene
BM25, k1 1.5, b 0.75, float32, English stop words left out before stemming), computed in vectorised passes instead of
bm25s's per-word Python loops (BENCHMARKS §28c).

Per chunk of papers (CHUNK): the texts joined by a NUL, lower-cased, every character bm25s's token pattern does not
count as a word character (`\\w`: str.isalnum() or "_") made a space, then split and dictionary-encoded by Arrow, so
only the chunk's distinct words become Python strings; only words not seen before are stemmed (PyStemmer's
stemWords on the list); the paper x stem term counts are a CSR matrix summed by scipy. Then document frequencies,
idf (math.log on the distinct frequencies, as bm25s computes it), each (paper, stem)'s score in float64 in bm25s's
operation order rounded to float32, and the CSC layout bm25s keeps (rows sorted within a column). Stem ids follow
first occurrence (bm25s's follow a set's iteration order): the ids differ, the score of every (paper, stem) does not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

TOKEN_PATTERN = r"(?u)\b\w\w+\b"  # bm25s.tokenize's default (scikit-learn's)
_SPLIT = re.compile(TOKEN_PATTERN).findall
_WORD_ASCII = np.array([chr(c).isalnum() or c == ord("_") for c in range(128)] + [False])  # 128: not ASCII
_NON_WORD_ASCII = {c: " " for c in range(1, 128) if not _WORD_ASCII[c]}
K1, B = 1.5, 0.75  # bm25s.BM25's defaults (method "lucene")
CHUNK = 20_000  # papers per tokenising pass: bounds the Python strings alive at once


def _word_chars(text: str) -> str:
    """`text` with every character the token pattern's \\w does not match (str.isalnum() or "_"), NUL aside, made
    a space: the tokens are then `split()`'s pieces (1-character pieces are no tokens)."""
    if text.isascii():
        return text.translate(_NON_WORD_ASCII)
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).copy()
    word = _WORD_ASCII[np.minimum(points, 128)]
    high = np.flatnonzero(points > 127)
    values, inverse = np.unique(points[high], return_inverse=True)
    word[high] = np.array([chr(v).isalnum() for v in values.tolist()], dtype=bool)[inverse]
    points[~word & (points != 0)] = 32
    return points.tobytes().decode("utf-32-le", "surrogatepass")


def _codes(texts: Sequence[str]) -> tuple[np.ndarray, list[str], str]:
    """The chunk's lower-cased words as (code per word, the distinct words by first occurrence, the separator):
    papers separated by a NUL word when no text holds one (one translate + Arrow split and dictionary encoding,
    no Python string per word); else one findall per paper with "" after each paper. 1-letter words included."""
    import pyarrow as pa
    import pyarrow.compute as pc

    joined = " \x00 ".join(texts)
    if joined.count("\x00") == len(texts) - 1:
        separator = "\x00"
        words = pc.utf8_split_whitespace(pa.array([_word_chars(joined.lower())], type=pa.large_string())).flatten()
    else:
        separator = ""
        words = pa.array(list(chain.from_iterable(_SPLIT(text.lower()) + [""] for text in texts)),
                         type=pa.large_string())
    del joined
    encoded = words.dictionary_encode()
    return encoded.indices.to_numpy().astype(np.int64), encoded.dictionary.to_pylist(), separator


def _chunk_counts(texts: Sequence[str], words: dict[str, int], stems: dict[str, int], stop: frozenset[str],
                  stemmer: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One chunk's (indptr, stem ids, term counts, paper lengths), paper x stem CSR with rows' columns sorted;
    `words` (word -> stem id, -1 for a stop word) and `stems` (stem -> id) grow with the chunk's new words."""
    from scipy import sparse

    codes, uniques, separator = _codes(texts)
    new = [word for word in uniques if word not in words and word != separator]
    kept = [word for word in new if word not in stop and len(word) > 1]
    stemmed = stemmer.stemWords(kept) if stemmer is not None else kept
    words.update(dict.fromkeys(new, -1))
    words.update(zip(kept, (stems.setdefault(stem, len(stems)) for stem in stemmed)))
    table = np.fromiter((-2 if word == separator else words[word] for word in uniques), dtype=np.int64,
                        count=len(uniques))
    term = table[codes]
    del codes
    ends = np.flatnonzero(term == -2)  # the separators: a paper's tokens end at each, the last at the end
    if separator == "":
        ends = ends[:-1] if len(ends) else ends
    rows = np.zeros(len(term), dtype=np.int64)
    rows[ends + 1 if separator == "" else ends] = 1
    rows = np.cumsum(rows)
    keep = term >= 0
    rows, term = rows[keep], term[keep]
    lengths = np.bincount(rows, minlength=len(texts)).astype(np.int64)
    indptr = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    counts = sparse.csr_matrix((np.ones(len(term), dtype=np.int32), term.astype(np.int32), indptr),
                               shape=(len(texts), max(len(stems), 1)))
    counts.sum_duplicates()  # sorts each row's columns and adds repeated words (C++)
    return counts.indptr.astype(np.int64), counts.indices.astype(np.int32), counts.data, lengths


def _lucene_idf(df: np.ndarray, n_docs: int) -> np.ndarray:
    """bm25s's Lucene idf, math.log per distinct document frequency, float32 like bm25s's idf array."""
    values, where = np.unique(df, return_inverse=True)
    idf = np.array([math.log(1 + (n_docs - int(v) + 0.5) / (int(v) + 0.5)) if v else 0.0 for v in values])
    return idf.astype(np.float32)[where]


def bm25_scores(texts: Sequence[str], stopwords: frozenset[str], stemmer: Any,
                chunk: int = CHUNK) -> tuple[dict[str, Any], dict[str, int]]:
    """(scores, vocabulary) as bm25s's `BM25.index(bm25s.tokenize(texts, stopwords, stemmer))` leaves them in
    `retriever.scores` / `retriever.vocab_dict`: CSC float32 data, int32 row indices, int64 indptr, num_docs; the
    vocabulary maps each stem to its column and "" to one past the last column (bm25s's empty token)."""
    from scipy import sparse

    words: dict[str, int] = {}
    stems: dict[str, int] = {}
    parts = [_chunk_counts(texts[start:start + chunk], words, stems, stopwords, stemmer)
             for start in range(0, len(texts), chunk)]
    del words
    n_docs, n_vocab = len(texts), len(stems)
    lengths = np.concatenate([p[3] for p in parts]) if parts else np.zeros(0, dtype=np.int64)
    df = np.zeros(n_vocab, dtype=np.int64)
    for part in parts:
        df += np.bincount(part[1], minlength=n_vocab)
    idf = _lucene_idf(df, n_docs)
    l_avg = lengths.mean() if lengths.any() else np.float64(1.0)  # no words at all: no score to compute
    # bm25s: tf / (k1 * ((1 - b) + b * l_d / l_avg) + tf) in float64, times the float32 idf, stored as float32
    norm = K1 * ((1 - B) + B * lengths.astype(np.float64) / l_avg)
    data, first = [], 0
    for ptr, terms, tf, part_lengths in parts:
        count = tf.astype(np.float32).astype(np.float64)
        rows = np.repeat(norm[first:first + len(part_lengths)], np.diff(ptr))
        data.append((idf[terms].astype(np.float64) * (count / (rows + count))).astype(np.float32))
        first += len(part_lengths)
    offsets = np.cumsum([0] + [len(p[1]) for p in parts])
    indptr = np.concatenate([np.zeros(1, dtype=np.int64)] + [p[0][1:] + o for p, o in zip(parts, offsets)])
    indices = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, dtype=np.int32)
    del parts
    data = np.concatenate(data) if data else np.zeros(0, dtype=np.float32)
    csc = sparse.csr_matrix((data, indices, indptr), shape=(n_docs, n_vocab)).tocsc()
    scores = {"data": csc.data.astype(np.float32, copy=False), "indices": csc.indices.astype(np.int32, copy=False),
              "indptr": csc.indptr.astype(np.int64, copy=False), "num_docs": n_docs}
    vocab = stems
    if "" not in vocab:
        vocab[""] = n_vocab
    return scores, vocab


def fast_retriever(texts: Sequence[str], stopwords: frozenset[str], stemmer: Any) -> Any:
    """A `bm25s.BM25` holding the index of `texts`, built by `bm25_scores`."""
    import bm25s

    retriever = bm25s.BM25(k1=K1, b=B)
    retriever.scores, retriever.vocab_dict = bm25_scores(texts, stopwords, stemmer)
    retriever.unique_token_ids_set = set(retriever.vocab_dict.values())
    retriever.nonoccurrence_array = None
    return retriever


def bm25s_retriever(texts: Sequence[str], stemmer: Any) -> Any:
    """The same index built by bm25s itself (the reference the fast build is tested and measured against)."""
    import bm25s

    retriever = bm25s.BM25(k1=K1, b=B)
    tokens = bm25s.tokenize(list(texts), stopwords="en", stemmer=stemmer, show_progress=False)
    retriever.index(tokens, show_progress=False)
    return retriever
