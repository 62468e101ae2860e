"""TF-IDF over title and abstract (scikit-learn, sparse): the shared basis of content links.

The full similarity matrix of N papers is N² numbers; only each paper's nearest
neighbours are ever used, so they are found in blocks of rows and the rest is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.sparse import csr_matrix

from .recall import Recall

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import TfidfVectorizer

NEIGHBOURS = 24  # kept per paper: enough for top-k links and category votes
BLOCK = 512  # rows multiplied at once: BLOCK x N floats of working memory
# Links, e-mail addresses and DOIs in an abstract: "https", "com" and "github" joined unrelated papers.
_URL = re.compile(r"(?:https?://|ftp://|www\.)\S+|\S+@\S+\.\w+|\b10\.\d{4,9}/\S+|\b[\w.-]+\.(?:com|org|net|io)\b\S*")
# Words of research prose that say nothing about a paper's subject ("approach", "improving",
# "reduces" made DAPPLE look like a pruning paper). English stop words are in it too.
RESEARCH_STOP_WORDS = frozenset(
    """
    able achieve achieved achieves achieving address addresses approach approaches based benefit
    better capable challenge challenges challenging compared comparison demonstrate demonstrated
    demonstrates design designed different effective effectively effectiveness efficiency efficient
    efficiently enable enables enhance especially existing experiment experimental experiments
    extensive far framework furthermore generally given help high however important improve
    improved improvement improvements improves improving including increase increasingly introduce
    key large level lot low make makes method methods moreover new novel operation order outperforms
    paper particular performance present presents previous problem problems propose proposed proposes
    provide provides range recent recently reduce reduced reduces reducing research result results
    serves significant significantly simple state-of-the-art study support terms time times use used
    uses using various way wide work works year years
    """.split()
)
MAX_DF = 0.2  # a term in more than this share of the papers is the list's common vocabulary, not a link
MAX_DF_FROM = 20  # ...applied from this many papers on: in a handful, every shared term is "common"


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
        """The ``n`` terms contributing most to each pair's similarity (ties by term order), in
        term order: a term and its bigram ("synchronization", "synchronization edge") contribute
        nearly alike, and listing them by contribution let a new paper swap them in the reason."""
        products = self._products(pairs)
        out = {}
        for row, pair in enumerate(pairs):
            start, end = products.indptr[row], products.indptr[row + 1]
            cols, data = products.indices[start:end], products.data[start:end]
            order = np.lexsort((cols, -data))[:n]
            out[pair] = [str(self.terms[cols[k]]) for k in sorted(order, key=lambda k: cols[k])]
        return out

    def shared_words(self, pairs: list[tuple[int, int]], max_df: float) -> dict[tuple[int, int], int]:
        """How many distinct words each pair's distinctive shared terms hold (``_Distinctive``)."""
        distinctive = _Distinctive(self.matrix, self.terms, max_df)
        products = self._products(pairs)
        out = {}
        for row, pair in enumerate(pairs):
            cols = products.indices[products.indptr[row] : products.indptr[row + 1]]
            out[pair] = len(frozenset().union(*map(distinctive.words, cols)))
        return out

    def _products(self, pairs: list[tuple[int, int]]) -> Any:
        """Row r holds the element-wise product of the rows of pair r."""
        if not pairs:
            return csr_matrix((0, self.matrix.shape[1]), dtype=np.float32)
        left, right = (np.fromiter((p[k] for p in pairs), dtype=np.int64, count=len(pairs)) for k in (0, 1))
        return self.matrix[left].multiply(self.matrix[right]).tocsr()


class _Distinctive:
    """Each term's distinctive words: a word in at most ``max_df`` papers (stop words and the
    common vocabulary are no terms at all); a bigram in at most that many with one such word
    counts its two words, so "object detection" is two words though "object" alone is common,
    and "neural network", rare as a bigram in titles but made of common words, counts none."""

    def __init__(self, matrix: Any, terms: np.ndarray, max_df: float) -> None:
        self.terms = terms
        self.rare = {str(t) for t in terms[np.bincount(matrix.indices, minlength=len(terms)) <= max_df]}
        self.known: dict[int, frozenset[str]] = {}

    def words(self, column: int) -> frozenset[str]:
        if column not in self.known:
            term = str(self.terms[column])
            words = term.split()
            rare = term in self.rare and bool(self.rare.intersection(words))
            self.known[column] = frozenset(words) if rare else frozenset()
        return self.known[column]


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


def strip_urls(text: str) -> str:
    """The text without links and addresses: their pieces are no words of its subject."""
    return _URL.sub(" ", text)


def _lowered(text: str) -> str:
    return strip_urls(text).lower()


def load_libraries() -> None:
    """Import scikit-learn's text module now (most of its cost is SciPy's statistics, which
    scikit-learn imports at its start), e.g. while a helper reads refs.bib."""
    import sklearn.feature_extraction.text  # noqa: F401


def _analyzer() -> Callable[[str], list[str]]:
    """A text's terms: its words (lowered, links left out, stop words dropped) and word pairs."""
    # Imported here: the modules that only read a cached library (a note edit) never need it (0.7 s).
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer

    analyze: Callable[[str], list[str]] = CountVectorizer(
        preprocessor=_lowered,
        stop_words=sorted(ENGLISH_STOP_WORDS | RESEARCH_STOP_WORDS),
        ngram_range=(1, 2),
        token_pattern=r"(?u)\b[a-zA-Z][\w\-]+\b",
    ).build_analyzer()
    return analyze


def _terms_line(text: str, analyze: Callable[[str], list[str]]) -> str:
    """The text's terms, one per line (no term holds a line break: the pattern's ``\\w`` has none),
    so that a kept result is one string, not 300."""
    return "\n".join(analyze(text))


def _given(terms: list[str]) -> list[str]:
    return terms


def _vectorizer(max_df: float, min_df: int) -> TfidfVectorizer:
    from sklearn.feature_extraction.text import TfidfVectorizer

    # The documents are their terms already (``_analyzer``): sklearn only counts and weighs them.
    return TfidfVectorizer(analyzer=_given, max_df=max_df, min_df=min_df, sublinear_tf=True, dtype=np.float32)


def build_corpus(texts: list[str], recall: Recall | None = None) -> Corpus:
    """``recall``: the last generate's results (enrich/recall.py). A text's terms depend on that
    text alone, and analysing every text is most of a fit (0.3 of 0.38 s at 1,000 works), so the
    terms of an unchanged text are served from there."""
    recall, analyze = recall or Recall(), _analyzer()
    lines = [recall("terms", _terms_line, text, also=(analyze,)) for text in texts]
    documents = [line.split("\n") if line else [] for line in lines]
    min_df = 2 if len(texts) > 2 else 1  # a term in one paper links it to nothing
    # A list of copies of one paper has only common terms: then they are all it has.
    limits = (MAX_DF, 1.0) if len(texts) >= MAX_DF_FROM else (1.0,)
    for max_df in limits:
        vectorizer = _vectorizer(max_df, min_df)
        try:
            matrix = vectorizer.fit_transform(documents)
        except ValueError:  # no indexable word shared by two papers (or every one common)
            continue
        return Corpus(matrix.tocsr(), vectorizer.get_feature_names_out())
    return Corpus(csr_matrix((len(texts), 0), dtype=np.float32), np.array([], dtype=object))
