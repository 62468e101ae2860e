"""Problem, approach and result: three short lines cut from the abstract's own sentences.

Every line is a sentence of the abstract (an approach that says little alone, two) with its
lead-in dropped ("However, ", "In this paper, we propose ", "Experiments show that ") and,
when long, its tail cut at a clause boundary (a line that has none is left out, never cut
mid-phrase). Nothing is paraphrased and no word is changed ("we study X" stays "We study X"),
so a line says only what the abstract says. The approach is a sentence about what this paper
does ("we propose", "this paper presents", "our method"), the result a finding of this paper
(``summary.key_results``); a role no sentence fills (an abstract that states no contribution)
is left empty rather than guessed. Rules on ``sentences.py``'s splitter, not a parser:
abstracts say these things in a few set ways, and no model has to be installed.
"""

from __future__ import annotations

import re

from ..model import Brief
from ..sentences import ENUMERATION, PROPOSAL, REPORTED, SUBJECT, clause_cut, contribution_index, split_sentences
from .summary import FINDING, QUALITATIVE, is_measured, key_results

MAX_WORDS = 40
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
    r"^(?:(?P<lead>[^.]{0,120}?),\s*)?(?P<we>we)\s+(?:first\s+|also\s+|further\s+|then\s+)?(?P<verb>[a-z]+)\s+(?P<rest>.+)$",
    re.I,
)
# "Given X, this research integrates Y": the sentence from its subject on.
LEAD_TO_SUBJECT = re.compile(rf"^[^.]{{0,120}}?,\s*(?={SUBJECT}\b)", re.I)
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
# "we propose X and simulate Y", "we design X, and identify two Y", "and show with a case study":
# without "we propose" the line would not read; it is quoted whole. A noun caught by mistake
# ("data and code with ...") only keeps "we propose" in the line.
AND_OTHER_VERB = re.compile(
    r"\band\s+(?!(?:we\s+)?(?:propose|present|introduce|develop|design|build|devise)s?\b)[a-z]+\s+"
    r"(?:the|a|an|its|their|our|how|that|it|them|this|these|those|two|three|four|five|several|both|each|all"
    r"|multiple|various|\d+|with|through|using|via|across|empirically|experimentally|theoretically)\b"
)
ORDINAL = re.compile(r"^(?:first|second|third|then|next|finally)(?:ly)?,\s+", re.I)
# A sentence that goes on about the work the one before states ("It features ...").
FOLLOW = re.compile(r"(?:it|its|they|this|these|the proposed|the new|specifically|in particular)\b", re.I)
OWN = re.compile(r"\b(?:we|our)\b|\b(?:is|are)\s+(?:proposed|introduced|designed|developed)\b", re.I)
SHORT = 14  # words: an approach line shorter than this says too little alone
# Self-description a reader skips ("a novel ...").
FILLER = re.compile(r"^(?:an?|the)\s+(?:novel|new)\s*,?\s+", re.I)


def brief(text: str, results: tuple[str, ...] | None = None) -> Brief:
    """The three lines of the plain-text abstract ``text`` (each empty when the abstract has none);
    ``results``: its ``key_results``, when the caller has them already."""
    sentences = split_sentences(text)
    if not sentences:
        return Brief()
    at = contribution_index(sentences)
    # No "we propose": no approach; nor when what the paper says it does is a finding ("we show
    # that X outperforms Y"): that is the result's line.
    own = at if at is not None and (PROPOSAL.search(sentences[at]) or not REPORTED.search(sentences[at])) else None
    approach = _approach(sentences, own) if own is not None else ""
    claimed = sentences[own] if own is not None else ""
    results = key_results(text) if results is None else results
    shown = tuple(r for r in results if r[1:] not in claimed)  # the approach line says that one
    return Brief(_problem(sentences, at), approach, _result(shown))


def _approach(sentences: list[str], at: int) -> str:
    """The contribution; when that says little ("VACL, a novel approach to address this problem"),
    the sentence after it too if it goes on about the same work ("It ...", "VACL ..."), unless
    that one is a problem or a result."""
    line = _approach_line(sentences[at])
    after = sentences[at + 1] if at + 1 < len(sentences) else ""
    if not line or len(line.split()) >= SHORT or not _goes_on(after, line):
        return line
    if GAP.search(after) or PRIOR_WORK.search(after) or is_measured(after) or QUALITATIVE.search(after):
        return line
    if FINDING.match(after) or REPORTED.search(after):  # a finding is the result's, not the approach's
        return line
    more = f"{line} {_approach_line(after)}"
    return more if len(more.split()) <= MAX_WORDS else line


def _goes_on(after: str, line: str) -> bool:
    """``after`` speaks of the work ``line`` states: "It ...", "we", "our", "is proposed", or a
    name the line gives ("VACL consists of ...")."""
    first = after.split(maxsplit=1)[0].strip(",:") if after else ""
    named = first[1:] != first[1:].lower() and first in line
    return named or bool(FOLLOW.match(after) or OWN.search(after))


def _result(results: tuple[str, ...]) -> str:
    """The first claim that fits in a line, measured or reported as a finding if one is."""
    if not results:
        return ""
    rank = sorted((not _short(r), not (is_measured(r) or FINDING.match(r)), i) for i, r in enumerate(results))
    return _short(results[rank[0][2]])


def _problem(sentences: list[str], at: int | None) -> str:
    """The gap stated before the contribution, else prior work's shortcoming just after it."""
    before = [s for s in sentences[: at or 0] if not POINTER.search(s)]
    after = [s for s in sentences[(at or 0) + 1 : (at or 0) + 3] if PRIOR_WORK.search(s)] if at is not None else []
    for pool, cue in ((before, GAP), (before, HARD), (after, PRIOR_WORK)):
        for sentence in pool:
            # after the contribution, prior work with its shortcoming; not "Compared with prior
            # approaches, X offers ...", the paper's own claim
            if cue.search(sentence) and (pool is before or GAP.search(sentence)):
                return _short(_capital(OPENER.sub("", WE_SHOW.sub("", sentence), count=1)))
    return ""


def _approach_line(sentence: str) -> str:
    """The contribution without its frame: "we propose X, a ..." gives "X, a ..."."""
    sentence = ENUMERATION.sub("", ORDINAL.sub("", sentence, count=1), count=1)
    match = WE.match(sentence)
    if match and (match["lead"] is None or len(match["lead"].split()) <= 12):
        verb, rest = match["verb"].lower(), FRAME.sub("", match["rest"])
        if verb.rstrip("s") in NOUN_VERBS and not AND_OTHER_VERB.search(rest):  # "X and introduce Y" is "X and Y"
            return _short(_capital(AND_VERB.sub("and ", FILLER.sub("", rest))))
        return _short(_capital(FRAME.sub("", sentence[match.start("we") :])))  # "we study X"
    return _short(_capital(FRAME.sub("", LEAD_TO_SUBJECT.sub("", sentence, count=1))))


def _short(line: str) -> str:
    """At most ``MAX_WORDS`` words, cut at a clause boundary; empty when none fits."""
    return clause_cut(line, MAX_WORDS, MAX_WORDS // 3)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
