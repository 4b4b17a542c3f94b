"""BENCHMARKS §28g: the lexical side of fused search for keyword queries, chosen leaving each corpus out.

    MIREAD_BENCH_DATA=/work/shared/data nice -n 10 .venv/bin/python benchmarks/bench_keywords_lexical.py

Same units, seeds, queries and cached vectors as §28f (benchmarks/bench_hybrid_keywords.py). The lexical score is
recomputed from a paper x stem count matrix built with the product's tokenizer, stop words and Snowball stems, so its
parameters can vary: A) BM25 k1, b, a title field counted r times (BM25F-style), a bigram bonus gamma x the BM25 score
of the query's adjacent stem pairs; B) the fusion's weight rule (the product's 2 x share, an evidence rule, an idf
rule). Each fold chooses A, then B on A's choice, by the mean over its six training units of the unit's MRR (title +
keyword queries of <= 20 words, both seeds, units weighted equally), and is measured on the unit left out.
"""

from __future__ import annotations

import json
import re
import sys
import time
from itertools import product
from pathlib import Path

import numpy as np
from scipy import sparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hybrid_keywords import SEEDS, UNIT, corpora, diff, fused_rank  # noqa: E402
from bench_hybrid_search import DEPTH, OUT, rank_of, rankings  # noqa: E402

from core.evaluation.short_queries import per_query  # noqa: E402
from core.explore.search.lexical import _stemmer, _stopwords  # noqa: E402

K1S, BS, TITLE_R, GAMMAS = (0.9, 1.2, 1.5, 2.0), (0.5, 0.75, 0.9), (1, 2, 3), (0.0, 0.5, 1.0)
BASE = (1.5, 0.75, 1, 0.0)  # the product's index
RULES = [("product", 2.0, 2.0)] + [("evidence", a, s) for a in (2.0, 4.0, 8.0) for s in (0.5, 1.0, 2.0)] + \
        [("rare", w, 0.0) for w in (2.0, 4.0, 8.0)]
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


class Counts:
    """A unit's paper x stem counts (title, title + abstract), paper x adjacent-stem-pair counts, vocabularies."""

    def __init__(self, recs: list[dict]):
        self.vocab: dict[str, int] = {}
        self.pairs: dict[str, int] = {}
        self._stems: dict[str, str | None] = {}
        self._last: dict = {}
        full = [self.seq(f"{r['title']} {r['abstract']}") for r in recs]
        title = [self.seq(str(r["title"])) for r in recs]
        self.full = self._matrix(full, self.vocab, grow=True)
        self.title = self._matrix(title, self.vocab, grow=False)
        self.bigram = self._matrix([self.bigrams(s) for s in full], self.pairs, grow=True)
        self.n = len(recs)
        self.df = np.asarray((self.full > 0).sum(axis=0)).ravel()
        self.bdf = np.asarray((self.bigram > 0).sum(axis=0)).ravel()

    def seq(self, text: str) -> list[str]:
        """The text's stems in order, stop words and 1-letter words left out (the product's tokens)."""
        out = []
        stop, stemmer = _stopwords(), _stemmer(True)
        for word in _TOKEN.findall(text.lower()):
            if word not in self._stems:
                self._stems[word] = None if word in stop else stemmer.stemWord(word)
            stem = self._stems[word]
            if stem is not None:
                out.append(stem)
        return out

    @staticmethod
    def bigrams(seq: list[str]) -> list[str]:
        return [f"{a} {b}" for a, b in zip(seq, seq[1:])]

    def _matrix(self, seqs: list[list[str]], vocab: dict[str, int], grow: bool) -> sparse.csr_matrix:
        rows, cols = [], []
        for i, seq in enumerate(seqs):
            for t in seq:
                j = vocab.setdefault(t, len(vocab)) if grow else vocab.get(t)
                if j is not None:
                    rows.append(i)
                    cols.append(j)
        m = sparse.csr_matrix((np.ones(len(rows), dtype=np.float64), (rows, cols)), shape=(len(seqs), 1 << 22))
        m.sum_duplicates()
        return m

    def weights(self, k1: float, b: float, r: int, bigram: bool = False) -> sparse.csr_matrix:
        """BM25 (Lucene idf, bm25s's formula) of every (paper, term) with the title counted r times (the last one
        asked for kept)."""
        key = (k1, b, r, bigram)
        if key not in self._last:
            self._last = {**{k: v for k, v in self._last.items() if k[3] != bigram}, key: self._weights(*key)}
        return self._last[key]

    def _weights(self, k1: float, b: float, r: int, bigram: bool) -> sparse.csr_matrix:
        tf = self.bigram if bigram else self.full + (r - 1) * self.title
        tf = tf.tocsr()
        lengths = np.asarray(tf.sum(axis=1)).ravel()
        avg = lengths.mean() if lengths.any() else 1.0
        df = self.bdf if bigram else self.df
        idf = np.log(1 + (self.n - df + 0.5) / (df + 0.5))
        norm = k1 * ((1 - b) + b * lengths / avg)
        rows = np.repeat(np.arange(tf.shape[0]), np.diff(tf.indptr))
        data = idf[tf.indices] * tf.data / (norm[rows] + tf.data)
        return sparse.csr_matrix((data, tf.indices, tf.indptr), shape=tf.shape)

    def query(self, texts: list[str], bigram: bool = False) -> sparse.csr_matrix:
        """Each query's distinct known terms (stems, or adjacent stem pairs), binary."""
        vocab = self.pairs if bigram else self.vocab
        rows, cols = [], []
        for i, text in enumerate(texts):
            seq = self.seq(text)
            for t in dict.fromkeys(self.bigrams(seq) if bigram else seq):
                if t in vocab:
                    rows.append(i)
                    cols.append(vocab[t])
        return sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(texts), 1 << 22))


def top(scores: np.ndarray, k: int = DEPTH) -> list[np.ndarray]:
    """Per query row: the top-k papers with a positive score, best first, ties by row (as LexicalIndex.search)."""
    out = []
    for s in scores:
        hits = np.flatnonzero(s > 0)
        if len(hits) > k:
            hits = hits[np.argpartition(-s[hits], k - 1)[:k]]
        out.append(hits[np.lexsort((hits, -s[hits]))])
    return out


def lexical_runs(c: Counts, texts: list[str], config: tuple) -> list[np.ndarray]:
    k1, b, r, gamma = config
    scores = (c.query(texts) @ c.weights(k1, b, r).T).toarray()
    if gamma > 0:
        scores += gamma * (c.query(texts, bigram=True) @ c.weights(k1, b, 1, bigram=True).T).toarray()
    return top(scores.astype(np.float32))


def signals(c: Counts, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per query: does some paper hold every query stem (all known); the mean normalised idf of its known stems."""
    q = c.query(texts)
    held = (c.full > 0).astype(np.float64)
    counts = (q @ held.T).toarray()
    n_terms = np.asarray(q.sum(axis=1)).ravel()
    all_held = (counts.max(axis=1) >= n_terms) & (n_terms > 0)
    idf = np.log(1 + (c.n - c.df + 0.5) / (c.df + 0.5)) / np.log(1 + c.n)
    rare = np.array([idf[q.indices[q.indptr[i]:q.indptr[i + 1]]].mean() if n_terms[i] else 0.0
                     for i in range(len(texts))])
    return all_held, rare


def coverage(c: Counts, texts: list[str]) -> np.ndarray:
    """Per query: the best paper's BM25 score (the product's index) / the sum of its known stems' idf, 0-1."""
    q = c.query(texts)
    best = (q @ c.weights(*BASE[:3]).T).toarray().max(axis=1)
    idf = np.log(1 + (c.n - c.df + 0.5) / (c.df + 0.5))
    total = q @ idf
    return np.where(total > 0, best / np.where(total > 0, total, 1.0), 0.0)


def rrf_rank(dense: np.ndarray, lexical: np.ndarray, target: int, w: float, rrf_k: int) -> float:
    """fused_rank with another RRF constant (the product's is 60)."""
    lexical = lexical[lexical >= 0]
    if w <= 0:
        hit = np.flatnonzero(dense == target)
        return float(hit[0] + 1) if len(hit) else np.inf
    rows = np.concatenate([dense, lexical[~np.isin(lexical, dense)]])
    pos = {int(r): i for i, r in enumerate(rows.tolist())}
    if target not in pos:
        return np.inf
    score = np.zeros(len(rows))
    score[:len(dense)] += 1.0 / (rrf_k + np.arange(1, len(dense) + 1))
    score[[pos[int(r)] for r in lexical.tolist()]] += w / (rrf_k + np.arange(1, len(lexical) + 1))
    t = pos[target]
    ahead = int((score > score[t]).sum() + ((score == score[t]) & (np.arange(len(rows)) < t)).sum())
    return float(ahead + 1) if ahead < DEPTH else np.inf


FUSIONS = [(k, "flat", w, 0) for k in (10, 30, 60) for w in (1.0, 2.0, 4.0, 8.0)] + \
          [(k, "coverage", w, p) for k in (10, 30, 60) for w in (2.0, 4.0, 8.0) for p in (1, 2)]
PRODUCT = (60, "flat", 2.0, 0)


def fusion_ranks(d: dict, fusion: tuple) -> np.ndarray:
    k, name, w, p = fusion
    out = np.empty(len(d["targets"]))
    for i, t in enumerate(d["targets"]):
        n, share = d["words"][i], d["known"][i]
        weight_i = 0.0 if n == 0 or n > 20 or share <= 0 else w * share * (d["coverage"][i] ** p if p else 1.0)
        out[i] = rrf_rank(d["dense"][i], d["lexical"][i], int(t), weight_i, k)
    return out


def fusion_main() -> dict:
    """Round 2: the fusion's constant and weight rule on the product's index, each unit left out."""
    started = time.time()
    data, _, groups = load()
    ranks = {f: {(key, kind): fusion_ranks(d, f) for key, kinds in data.items() for kind, d in kinds.items()}
             for f in FUSIONS}
    assert all(np.array_equal(ranks[PRODUCT][(key, kind)], fused_ranks(d, d["lexical"], RULES[0]))
               for key, kinds in data.items() for kind, d in kinds.items())
    score = {f: {u: unit_score(ranks[f], g) for u, g in groups.items()} for f in FUSIONS}
    found: dict = {"score": {str(f): v for f, v in score.items()}, "chosen_without": {}, "held_out": {}}
    for held in groups:
        train = [u for u in groups if u != held]
        f = max(FUSIONS, key=lambda f: (np.mean([score[f][u] for u in train]), f == PRODUCT))
        found["chosen_without"][held] = list(f)
        for key, kind, _ in groups[held]:
            d = data[key][kind]
            m = {"dense": per_query(rank_of(d["dense"], d["targets"])),
                 "bm25": per_query(rank_of(d["lexical"], d["targets"])),
                 "old": per_query(ranks[PRODUCT][(key, kind)]), "new": per_query(ranks[f][(key, kind)])}
            row: dict = {"n": len(d["targets"])}
            for metric in ("recall@1", "recall@10", "MRR"):
                for name, v in m.items():
                    row[f"{name} {metric}"] = round(100 * float(v[metric].mean()), 1)
                for x, y in (("old", "dense"), ("new", "dense"), ("new", "old")):
                    row[f"{x}-{y} {metric}"] = diff(m[x], m[y], metric, key[1])
            found["held_out"][f"{key[0]} s{key[1]} {kind}"] = row
    found["chosen_on_all"] = list(max(FUSIONS, key=lambda f: (np.mean([score[f][u] for u in groups]), f == PRODUCT)))
    found["seconds"] = round(time.time() - started)
    return found


def weight(rule: tuple, words: int, share: float, all_held: bool, rare: float) -> float:
    if words == 0 or words > 20 or share <= 0:
        return 0.0
    name, a, s = rule
    if name == "product":
        return a * share
    if name == "evidence":
        return (a if all_held else s) * share
    return a * share * 2 * rare


def fused_ranks(d: dict, lexical: list[np.ndarray], rule: tuple) -> np.ndarray:
    return np.array([fused_rank(d["dense"][i], lexical[i], int(t),
                                weight(rule, d["words"][i], d["known"][i], d["all_held"][i], d["rare"][i]))
                     for i, t in enumerate(d["targets"])])


def unit_score(ranks: dict, unit_keys: list) -> float:
    """Mean over the unit's (seed, kind) sets of the MRR of queries of <= 20 words."""
    vals = []
    for key, kind, short in unit_keys:
        vals.append(float(per_query(ranks[(key, kind)])["MRR"][short].mean()))
    return float(np.mean(vals))


def load() -> tuple[dict, dict, dict]:
    """(query sets by (unit name, seed) and kind, Counts by unit name, the (key, kind, <= 20 words) sets by unit)."""
    units = corpora()
    data, counts = {}, {}
    for name, (recs, X) in units.items():
        counts[name] = Counts(recs)
        for seed in SEEDS:
            data[(name, seed)] = rankings(recs, X, name, seed)
            for kind, d in data[(name, seed)].items():
                d["all_held"], d["rare"] = signals(counts[name], d["texts"])
                d["coverage"] = coverage(counts[name], d["texts"])
    groups: dict[str, list] = {}
    for (name, seed), kinds in data.items():
        for kind, d in kinds.items():
            short = np.array([0 < n <= 20 for n in d["words"]])
            groups.setdefault(UNIT.get(name, name), []).append(((name, seed), kind, short))
    return data, counts, groups


def main() -> dict:
    started = time.time()
    data, counts, groups = load()
    print(f"data {time.time() - started:.0f} s", flush=True)
    lex_cache: dict = {}

    def lex(config: tuple) -> dict:
        if config not in lex_cache:
            lex_cache[config] = {(key, kind): lexical_runs(counts[key[0]], d["texts"], config)
                                 for key, kinds in data.items() for kind, d in kinds.items()}
        return lex_cache[config]

    base = lex(BASE)  # the recomputed index equals the product's: the target's BM25 rank per query
    same = [np.mean(rank_of(base[(k, kind)], d["targets"]) == rank_of(d["lexical"], d["targets"]))
            for k, kinds in data.items() for kind, d in kinds.items()]
    print("base lexical = product's, share of equal target ranks:", round(float(np.min(same)), 4), flush=True)
    configs = list(product(K1S, BS, TITLE_R, GAMMAS))
    score_a: dict = {}
    for config in configs:
        runs = lex(config)
        ranks = {(key, kind): fused_ranks(d, runs[(key, kind)], RULES[0])
                 for key, kinds in data.items() for kind, d in kinds.items()}
        score_a[config] = {u: unit_score(ranks, g) for u, g in groups.items()}
        if config != BASE:
            lex_cache.pop(config)
        print(config, {u: round(v, 4) for u, v in score_a[config].items()}, f"{time.time() - started:.0f} s",
              flush=True)
    found: dict = {"score_a": {str(k): v for k, v in score_a.items()}, "chosen_without": {}, "held_out": {}}

    def pick_a(train: list[str]) -> tuple:
        return max(configs, key=lambda c: (np.mean([score_a[c][u] for u in train]), c == BASE))

    score_b: dict = {}

    def b_scores(config: tuple) -> dict:
        if config not in score_b:
            runs = lex(config)
            score_b[config] = {}
            for rule in RULES:
                ranks = {(key, kind): fused_ranks(d, runs[(key, kind)], rule)
                         for key, kinds in data.items() for kind, d in kinds.items()}
                score_b[config][rule] = {u: unit_score(ranks, g) for u, g in groups.items()}
        return score_b[config]

    def pick_b(config: tuple, train: list[str]) -> tuple:
        s = b_scores(config)
        return max(RULES, key=lambda r: (np.mean([s[r][u] for u in train]), r == RULES[0]))

    for held in groups:
        train = [u for u in groups if u != held]
        a = pick_a(train)
        rule = pick_b(a, train)
        found["chosen_without"][held] = {"A": list(a), "B": list(rule)}
        runs_a, runs_base = lex(a), lex(BASE)
        for key, kind, _ in groups[held]:
            d = data[key][kind]
            m = {"dense": per_query(rank_of(d["dense"], d["targets"])),
                 "bm25": per_query(rank_of(runs_a[(key, kind)], d["targets"])),
                 "old": per_query(fused_ranks(d, runs_base[(key, kind)], RULES[0])),
                 "A": per_query(fused_ranks(d, runs_a[(key, kind)], RULES[0])),
                 "new": per_query(fused_ranks(d, runs_a[(key, kind)], rule)),
                 "Bonly": per_query(fused_ranks(d, runs_base[(key, kind)], pick_b(BASE, train)))}
            row: dict = {"n": len(d["targets"])}
            for metric in ("recall@1", "recall@10", "MRR"):
                for name, v in m.items():
                    row[f"{name} {metric}"] = round(100 * float(v[metric].mean()), 1)
                for x, y in (("old", "dense"), ("A", "dense"), ("new", "dense"), ("new", "old"), ("A", "old"),
                             ("Bonly", "old")):
                    row[f"{x}-{y} {metric}"] = diff(m[x], m[y], metric, key[1])
            found["held_out"][f"{key[0]} s{key[1]} {kind}"] = row
        print(held, found["chosen_without"][held], f"{time.time() - started:.0f} s", flush=True)
    a_all = pick_a(list(groups))
    found["chosen_on_all"] = {"A": list(a_all), "B": list(pick_b(a_all, list(groups))),
                              "B on the product's index": list(pick_b(BASE, list(groups)))}
    found["score_b"] = {str(c): {str(r): v for r, v in s.items()} for c, s in score_b.items()}
    found["seconds"] = round(time.time() - started)
    return found


def table(found: dict, metric: str, cols: tuple = ("old-dense", "A-dense", "new-dense", "new-old", "Bonly-old")) -> str:
    lines = ["| held out (seed) | queries | n | dense | BM25 | fused old | fused new | " + " | ".join(cols) + " |",
             "|---" * (7 + len(cols)) + "|"]
    for name, row in found["held_out"].items():
        unit, seed, kind = name.split(" ")
        cells = [f"{row[f'{m} {metric}']:.1f}" for m in ("dense", "bm25", "old", "new")]
        cells += ["{:+.1f} ({:+.1f} to {:+.1f})".format(*row[f"{c} {metric}"]) for c in cols]
        lines.append(f"| {unit} ({seed[1:]}) | {kind} | {row['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    import torch

    torch.set_num_threads(2)
    fusion = sys.argv[1:2] == ["fusion"]
    result = fusion_main() if fusion else main()
    previous = json.loads(OUT.read_text()) if OUT.exists() else {}
    previous["loco_28g_fusion" if fusion else "loco_28g"] = result
    OUT.write_text(json.dumps(previous, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k in ("chosen_without", "chosen_on_all", "seconds")}))
    cols = ("old-dense", "new-dense", "new-old") if fusion else ("old-dense", "A-dense", "new-dense", "new-old",
                                                                 "Bonly-old")
    for metric in ("recall@10", "recall@1", "MRR"):
        print(f"\n{metric}\n" + table(result, metric, cols))
