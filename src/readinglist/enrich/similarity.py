"""TF-IDF over title and abstract (scikit-learn, sparse): the shared basis of content links.

The full similarity matrix of N papers is N² numbers; only each paper's nearest
neighbours are ever used, so they are found in blocks of rows and the rest is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.feature_extraction.text import TfidfVectorizer

NEIGHBOURS = 24  # kept per paper: enough for top-k links and category votes
BLOCK = 512  # rows multiplied at once: BLOCK x N floats of working memory


@dataclass(frozen=True)
class Corpus:
    matrix: Any  # scipy.sparse CSR, rows L2-normalized
    terms: np.ndarray
    _neighbours: list[list[tuple[float, int]]] = field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        self._neighbours.extend(_nearest(self.matrix, NEIGHBOURS))

    def neighbours(self, i: int) -> list[tuple[float, int]]:
        """(similarity, index) of paper i's nearest others, most similar first (ties: the papers after
        i in key order first, wrapping round)."""
        return self._neighbours[i]

    def similarities(self, pairs: list[tuple[int, int]]) -> dict[tuple[int, int], float]:
        """Cosine similarity of each pair: the neighbour score where j is a neighbour of i,
        else computed, for all pairs in one sparse product (slicing rows pair by pair cost
        a sixth of generate at 10,000 papers)."""
        known = {(i, j): s for i, near in enumerate(self._neighbours) for s, j in near}
        missing = [p for p in dict.fromkeys(pairs) if p not in known]
        if missing:
            sums = np.asarray(self._products(missing).sum(axis=1), dtype=np.float64).ravel()
            known.update(zip(missing, map(float, sums), strict=True))
        return {p: known[p] for p in pairs}

    def shared_terms(self, pairs: list[tuple[int, int]], n: int = 3) -> dict[tuple[int, int], list[str]]:
        """The ``n`` terms contributing most to each pair's similarity (ties by term order)."""
        products = self._products(pairs)
        out = {}
        for row, pair in enumerate(pairs):
            start, end = products.indptr[row], products.indptr[row + 1]
            cols, data = products.indices[start:end], products.data[start:end]
            order = np.lexsort((cols, -data))[:n]
            out[pair] = [str(self.terms[cols[k]]) for k in order]
        return out

    def _products(self, pairs: list[tuple[int, int]]) -> Any:
        """Row r holds the element-wise product of the rows of pair r."""
        if not pairs:
            return csr_matrix((0, self.matrix.shape[1]), dtype=np.float32)
        left, right = (np.fromiter((p[k] for p in pairs), dtype=np.int64, count=len(pairs)) for k in (0, 1))
        return self.matrix[left].multiply(self.matrix[right]).tocsr()


def _nearest(matrix: Any, k: int) -> list[list[tuple[float, int]]]:
    n = matrix.shape[0]
    out: list[list[tuple[float, int]]] = []
    transposed = matrix.T.tocsc()
    for start in range(0, n, BLOCK):
        block = (matrix[start : start + BLOCK] @ transposed).toarray().astype(np.float32)
        rows = np.arange(start, start + len(block))
        block[np.arange(len(block)), rows] = 0.0
        # One distinct integer per pair, in the order of the result: score (to 6 decimals,
        # descending), then the papers after i in key order first, wrapping round. Distinct keys
        # keep argpartition fast (a block of nearly equal scores, as identical titles give, took
        # it seconds) and spread ties: identical papers do not all pick the first ones as theirs.
        after = (np.arange(n)[None, :] - rows[:, None]) % n
        order_key = np.rint(np.round(block, 6).astype(np.float64) * -1e6).astype(np.int64) * n + after
        top = (
            np.argpartition(order_key, min(k, n - 1), axis=1)[:, :k]
            if n > k
            else np.tile(np.arange(n), (len(block), 1))
        )
        top = np.take_along_axis(top, np.argsort(np.take_along_axis(order_key, top, axis=1), axis=1), axis=1)
        scores = np.round(np.take_along_axis(block, top, axis=1), 6)  # float32, as the scores are
        out.extend(
            [(float(s), int(j)) for s, j in zip(row_scores, row_top, strict=True) if s > 0]
            for row_scores, row_top in zip(scores.tolist(), top.tolist(), strict=True)
        )
    return out


def build_corpus(texts: list[str]) -> Corpus:
    vectorizer = TfidfVectorizer(
        stop_words="english",
        sublinear_tf=True,
        ngram_range=(1, 2),
        min_df=2 if len(texts) > 2 else 1,  # a term in one paper links it to nothing
        token_pattern=r"(?u)\b[a-zA-Z][\w\-]+\b",
        dtype=np.float32,
    )
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no indexable word shared by two papers: nothing is similar to anything
        return Corpus(csr_matrix((len(texts), 0), dtype=np.float32), np.array([], dtype=object))
    return Corpus(matrix.tocsr(), vectorizer.get_feature_names_out())
