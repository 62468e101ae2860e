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
        """(similarity, index) of paper i's nearest others, most similar first (ties by index)."""
        return self._neighbours[i]

    def similarity(self, i: int, j: int) -> float:
        for score, other in self._neighbours[i]:
            if other == j:
                return score
        return float(self.matrix[i].multiply(self.matrix[j]).sum())

    def shared_terms(self, i: int, j: int, n: int = 3) -> list[str]:
        product = self.matrix[i].multiply(self.matrix[j]).tocoo()
        order = np.lexsort((product.col, -product.data))[:n]
        return [str(self.terms[product.col[k]]) for k in order]


def _nearest(matrix: Any, k: int) -> list[list[tuple[float, int]]]:
    n = matrix.shape[0]
    out: list[list[tuple[float, int]]] = []
    transposed = matrix.T.tocsc()
    for start in range(0, n, BLOCK):
        block = (matrix[start : start + BLOCK] @ transposed).toarray().astype(np.float32)
        for row, scores in enumerate(block):
            scores[start + row] = 0.0
            top = np.argpartition(-scores, min(k, n - 1))[:k] if n > k else np.arange(n)
            ranked = sorted((float(round(scores[j], 6)), int(j)) for j in top if scores[j] > 0)
            ranked.sort(key=lambda pair: (-pair[0], pair[1]))
            out.append(ranked)
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
