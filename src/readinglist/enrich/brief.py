"""Problem, approach and result: three short lines cut from the abstract's own sentences.

Every line is a sentence of the abstract (an approach that says little alone, two) with its
lead-in dropped ("However, ", "In this paper, we propose ", "Experiments show that ") and,
when long, its tail cut at a clause boundary. Nothing is paraphrased: the only word a line
may change is a "we" verb made third person ("we study" gives "Studies"), so a line says
only what the abstract says, and a role no sentence fills (an abstract that states no
problem) is left empty rather than guessed. Rules on ``sentences.py``'s splitter, not a
parser: abstracts say these things in a few set ways, and no model has to be installed.
"""

from __future__ import annotations

import re

from ..model import Brief
from ..sentences import BACKGROUND, ENUMERATION, contribution_index, split_sentences
from .summary import FINDING, QUALITATIVE, is_measured, key_results

MAX_WORDS = 32
# A gap the paper answers: contrast, or a shortcoming named outright.
GAP = re.compile(
    r"^(?:however|but|yet|unfortunately|although|despite)\b|\b(?:suffers?|limited|limitations?|limits|inefficien\w*"
    r"|less efficient|not (?:efficient|general|available|work)|poor|degrades?|bottlenecks?|overheads?|fails?|lacks?"
    r"|non-trivial|left to be optimized|far from enough)\b",
    re.I,
)
# A weaker sign: the task is hard or matters ("a challenging task", "one critical issue").
HARD = re.compile(r"\b(?:challeng\w*|difficult|critical|problems?|issues?)\b", re.I)
# Reference to a problem stated elsewhere ("this problem"): not a statement of one.
POINTER = re.compile(r"\b(?:this|these|such|the above(?: \w+)?)\s+(?:problem|issue|challenge)s?\b", re.I)
PRIOR_WORK = re.compile(
    r"\b(?:existing|current|conventional|previous|traditional|prior)\s+(?:\w+\s+)?"
    r"(?:methods|approaches|works|systems|models)\b",
    re.I,
)
# "In this paper, we propose", "To remedy the above two problems, firstly, we develop", "Here, we study".
WE = re.compile(
    r"^(?:(?P<lead>[^.]{0,120}?),\s*)?we\s+(?:first\s+|also\s+|further\s+|then\s+)?(?P<verb>[a-z]+)\s+(?P<rest>.+)$",
    re.I,
)
THIS_PAPER = re.compile(
    r"^(?:[^.]{0,80}?,\s*)?this (?:\w+ )?(?:paper|work|report|research|article|study)\s+(?=[a-z])", re.I
)
# "Yet we show in this work, that X": the problem is X.
WE_SHOW = re.compile(r"^(?:[^.]{0,40}?\s)?we (?:show|find|observe|argue)(?: in this (?:paper|work))?,?\s+that\s+", re.I)
# Openers that link a problem sentence to the one before it; the problem reads without them.
OPENER = re.compile(
    r"^(?:(?:however|unfortunately|furthermore|moreover|in addition|besides|for this problem|different from [^,]{3,60}"
    r"|in contrast to [^,]{3,60}),|but|yet)\s+",
    re.I,
)
# "in this paper" says nothing in a line that is about the paper.
FRAME = re.compile(
    r",?\s+in this (?:paper|work|article|report)\b|^(?:in this (?:paper|work|article|report)|here),\s*", re.I
)
# "We propose X" gives the line "X": the thing proposed is the approach.
NOUN_VERBS = frozenset("propose present introduce develop design build devise".split())
AND_VERB = re.compile(r"\band\s+(?:we\s+)?(?:propose|present|introduce|develop|design|build|devise)s?\s+", re.I)
ORDINAL = re.compile(r"^(?:first|second|third|then|next|finally)(?:ly)?,\s+", re.I)
SHORT = 14  # words: an approach line shorter than this says too little alone
# Self-description a reader skips ("a novel ...").
FILLER = re.compile(r"^(?:an?|the)\s+(?:novel|new)\s*,?\s+", re.I)
# Where a long line may be cut and still read as a sentence.
CLAUSE = re.compile(
    r",\s+(?:which|where|while|and|but|since|because|thus|as|through|by)\b|;\s|:\s|\s\((?:1|i)\)|\s\(such as\b"
)


def brief(text: str, results: tuple[str, ...] | None = None) -> Brief:
    """The three lines of the plain-text abstract ``text`` (each empty when the abstract has none);
    ``results``: its ``key_results``, when the caller has them already."""
    sentences = split_sentences(text)
    if not sentences:
        return Brief()
    at = contribution_index(sentences)
    approach = _approach(sentences, at) if at is not None else _definition(sentences)
    claimed = sentences[at] if at is not None else ""
    results = key_results(text) if results is None else results
    shown = tuple(r for r in results if r[1:] not in claimed)  # the approach line says that one
    return Brief(_problem(sentences, at), approach, _result(shown))


def _definition(sentences: list[str]) -> str:
    """No "we propose": what the abstract first says the work is ("GRID is a space mission ...")."""
    plain = (s for s in sentences if not (BACKGROUND.match(s) or GAP.search(s) or is_measured(s)))
    return _short(next(plain, ""))


def _approach(sentences: list[str], at: int) -> str:
    """The contribution; when that says little ("VACL, a novel approach to address this problem"),
    the sentence after it too, unless that one is a problem or a result."""
    line = _approach_line(sentences[at])
    after = sentences[at + 1] if at + 1 < len(sentences) else ""
    if len(line.split()) >= SHORT or not after or GAP.search(after) or PRIOR_WORK.search(after):
        return line
    if is_measured(after) or QUALITATIVE.search(after) or FINDING.match(after):
        return line
    more = f"{line} {_approach_line(after)}"
    return more if len(more.split()) <= MAX_WORDS else line


def _result(results: tuple[str, ...]) -> str:
    """The first claim that fits in a line, measured or reported as a finding if one is."""
    if not results:
        return ""
    rank = [(len(r.split()) > MAX_WORDS, not (is_measured(r) or FINDING.match(r)), i) for i, r in enumerate(results)]
    return _short(results[min(rank)[2]])


def _problem(sentences: list[str], at: int | None) -> str:
    """The gap stated before the contribution, else prior work's shortcoming just after it."""
    before = [s for s in sentences[: at or 0] if not POINTER.search(s)]
    after = [s for s in sentences[(at or 0) + 1 : (at or 0) + 3] if PRIOR_WORK.search(s)] if at is not None else []
    for pool, cue in ((before, GAP), (before, HARD), (after, PRIOR_WORK)):
        for sentence in pool:
            if cue.search(sentence):
                return _short(_capital(OPENER.sub("", WE_SHOW.sub("", sentence), count=1)))
    return ""


def _approach_line(sentence: str) -> str:
    """The contribution without its frame: "we propose X, a ..." gives "X, a ..."."""
    sentence = ENUMERATION.sub("", ORDINAL.sub("", sentence, count=1), count=1)
    match = WE.match(sentence)
    if match and (match["lead"] is None or len(match["lead"].split()) <= 12):
        verb, rest = match["verb"].lower(), FRAME.sub("", match["rest"])
        if verb.rstrip("s") in NOUN_VERBS:  # "X and introduce Y" is "X and Y"
            line = AND_VERB.sub("and ", FILLER.sub("", rest))
        else:
            line = f"{_third_person(verb)} {rest}"
        return _short(_capital(line))
    return _short(_capital(FRAME.sub("", THIS_PAPER.sub("", sentence, count=1))))


def _third_person(verb: str) -> str:
    if verb.endswith("s"):
        return verb
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + ("es" if verb.endswith(("sh", "ch", "x", "o")) else "s")


def _short(line: str) -> str:
    """At most ``MAX_WORDS`` words: cut at the last clause boundary that keeps half of them, else at a word."""
    words = line.split()
    if len(words) <= MAX_WORDS:
        return line
    head = " ".join(words[:MAX_WORDS])
    cuts = [m.start() for m in CLAUSE.finditer(head) if len(head[: m.start()].split()) >= MAX_WORDS // 2]
    return (head[: cuts[-1]] if cuts else head).rstrip(",;:") + "…"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
