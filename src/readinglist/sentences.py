"""Sentence splitting and the contribution sentence of an abstract."""

from __future__ import annotations

import re

# A pointer to a problem stated in the sentence before ("this problem", "the above issues"): the
# sentence is not self-contained. Summaries add the sentence before; working titles skip it.
ANAPHORA = re.compile(r"\b(?:this|these|such|the above)\s+(?:problem|issue|challenge|task|limitation)s?\b", re.I)

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[]|\d\)\s)")  # "... state of the art. 2) Some ..." too
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|et al|etc|vs|Fig|cf)\.$")
# What this paper does: "we propose", "this paper presents", "our method uses", "in this work, ...".
SUBJECT = (
    r"(?:we|this (?:\w+ )?(?:paper|work|report|research|article|study|survey|letter|thesis|chapter|note|project"
    r"|document)"
    r"|our (?:\w+ )?(?:approach|method|system|model|framework|algorithm|technique|scheme|tool|analysis|work))"
)
CONTRIBUTION = re.compile(
    rf"\b{SUBJECT}\s+(?:\w+\s+){{0,2}}?(?:propose|present|introduce|develop|design|build|show|stud(?:y|ies)|report|establish"
    r"|characteri[sz]e|attempts?|integrates?|serves?|summari[sz]es?|reviews?|surveys?|examines?|describes?|investigates?"
    r"|explores?|analy[sz]es?|considers?|address|extends?|provides?|derives?|formulates?|focus|implements?|applies|apply"
    r"|uses?|employs?|leverages?|adopts?|tackles?|solves?|compares?|evaluates?|constructs?|creates?|defines?|discuss"
    r"|revisits?|challenges?|deals? with|outlines?|offers?|formali[sz]es?|proves?|models?|simulates?|measures?"
    r"|quantif(?:y|ies)|assess(?:es)?|identif(?:y|ies)|generali[sz]es?|unif(?:y|ies)|combines?|automates?)",
    re.I,
)
# A finding rather than what the paper does ("Our results show", "we find that").
REPORTED = re.compile(
    r"\b(?:results?|experiments?|evaluations?)\s+(?:\w+\s+)?(?:show|reveal|indicate|suggest)|\bwe\s+(?:show|find|found|observe)\b",
    re.I,
)
# An earlier paper of the same authors ("In our previous work, we proposed X") is background.
EARLIER = re.compile(r"\b(?:previous|prior|earlier|past)\s+(?:\w+\s+)?(?:work|paper|study|studies|research)\b", re.I)
PROPOSAL = re.compile(r"\b(?:propose|present|introduce|develop|design|build)s?\b", re.I)
# "We present extensive experiments", "we also present both simulation and hardware experiments":
# the paper's evaluation, not what it does (unless the sentence first proposes something).
EVALUATION = re.compile(
    rf"\b{SUBJECT}\s+(?:also\s+|further\s+|then\s+|first\s+|finally\s+)?(?:present|conduct|perform|provide|report"
    r"|run|carry out|carried out)s?\s+(?:\w+\s+){0,5}?(?:experiments?|experimental|evaluations?|simulations?"
    r"|ablations?|empirical)\b",
    re.I,
)
# "In this paper, a technique ... is proposed": a contribution without "we"; "In this letter, X ...".
PASSIVE = re.compile(
    r"^(?:in this (?:paper|work|article),\s*)?an?\s[^.]*?\b(?:is|are)\s+(?:proposed|presented|introduced|developed)\b"
    r"|^(?:in this (?:paper|work|article|letter|study|report|thesis)|herein)\b",
    re.I,
)
# "This article serves two main purposes: (1) ...", "The contributions of X are in three folds: 1) ...".
ENUMERATION = re.compile(
    r"^[^:.]{0,80}\b(?:purposes?|goals?|aims?|objectives?|contributions?|folds?)\b[^:.]{0,20}:\s*(?:\(1\)|1\))\s*", re.I
)
BACKGROUND = re.compile(
    r"^(?:it is (?:a )?(?:challenging|difficult|important)|recent(?:ly)?|in recent years|over the past)", re.I
)


# Where a long line may be cut and still read as a clause: before a conjunction or "which" that
# follows a comma, at a semicolon or a colon; never inside a phrase.
CLAUSE = re.compile(
    r",\s+(?:which|where|while|whereas|and|but|since|because|thus|hence|so that|as|through|by|with|using|we|our|it)\b"
    r"|,\s+(?!during|including|according|regarding|concerning|following|nothing|something)\w{3,}ing\b"  # ", surpassing"
    r"|;\s|:\s|\s\((?:1|i)\)|\s\(such as\b"
)


def clause_cut(line: str, most: int, least: int) -> str:
    """``line`` if it has at most ``most`` words, else its head up to the last clause boundary that
    keeps at least ``least`` words, marked "…"; empty when no boundary fits: a line is never cut
    mid-phrase."""
    words = line.split()
    if len(words) <= most:
        return line
    head = " ".join(words[:most])
    cuts = [m.start() for m in CLAUSE.finditer(head) if len(head[: m.start()].split()) >= least]
    return head[: cuts[-1]].rstrip(",;:") + "…" if cuts else ""


def split_sentences(text: str) -> list[str]:
    parts: list[str] = []
    for piece in _SPLIT.split(text.strip()):
        if parts and _ABBREV.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {piece}"
        else:
            parts.append(piece)
    return [p for p in parts if p]


def contribution_sentence(text: str) -> str:
    """The sentence stating what the paper does, else the first non-background one."""
    sentences = split_sentences(text)
    at = contribution_index(sentences)
    if at is not None and CONTRIBUTION.search(sentences[at]):
        return sentences[at]
    for sentence in sentences:
        if not BACKGROUND.match(sentence):
            return sentence
    return sentences[0] if sentences else ""


def contribution_index(sentences: list[str]) -> int | None:
    """Where the paper says what it does: "we propose" first, then "we study", then "X is proposed";
    None when no sentence says so (a background sentence is never taken for the contribution)."""
    own = [not EARLIER.search(s) and not _evaluation(s) for s in sentences]
    tests = (
        lambda s: bool(CONTRIBUTION.search(s) and PROPOSAL.search(s)),
        lambda s: bool(CONTRIBUTION.search(s) and not REPORTED.search(s)),  # "we study" before "results show"
        CONTRIBUTION.search,
        PASSIVE.search,
    )
    for test in tests:
        found = [i for i, s in enumerate(sentences) if own[i] and test(s)]
        if found:
            return found[0]
    return None


def _evaluation(sentence: str) -> bool:
    """Whether what the sentence says the paper does is its experiments."""
    first, evaluation = CONTRIBUTION.search(sentence), EVALUATION.search(sentence)
    return bool(first and evaluation and first.start() == evaluation.start())
