"""TF-IDF over title and abstract (scikit-learn, sparse): the shared basis of content links."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.feature_extraction.text import TfidfVectorizer


@dataclass(frozen=True)
class Corpus:
    matrix: Any  # scipy.sparse CSR, rows L2-normalized
    terms: np.ndarray

    def similarities(self) -> Any:
        return (self.matrix @ self.matrix.T).tocsr()

    def shared_terms(self, i: int, j: int, n: int = 3) -> list[str]:
        product = self.matrix[i].multiply(self.matrix[j]).tocoo()
        order = np.lexsort((product.col, -product.data))[:n]
        return [str(self.terms[product.col[k]]) for k in order]


def build_corpus(texts: list[str]) -> Corpus:
    vectorizer = TfidfVectorizer(
        stop_words="english", sublinear_tf=True, ngram_range=(1, 2), min_df=1, token_pattern=r"(?u)\b[a-zA-Z][\w\-]+\b"
    )
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no document has a single indexable word: nothing is similar to anything
        return Corpus(csr_matrix((len(texts), 0)), np.array([], dtype=object))
    return Corpus(matrix.tocsr(), vectorizer.get_feature_names_out())
