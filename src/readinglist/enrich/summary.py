"""Extractive summaries: a TL;DR from the contribution sentences, and quoted key results.

A key result is a finding of this paper: after the sentence stating the contribution, a
measured claim ("2.21x speedup", "97.27% accuracy"), a qualitative one ("significantly
outperforms the baseline", "achieves the state-of-the-art performance", "deployed at
Alibaba"), or a finding the abstract reports ("Our results show that ..."). An abstract that
states no contribution has a result only where the paper owns it ("we show", "our method
achieves"): a number in a background sentence is someone else's.
"""

from __future__ import annotations

import re

from ..sentences import (
    ANAPHORA,
    BACKGROUND,
    CONTRIBUTION,
    EARLIER,
    ENUMERATION,
    PASSIVE,
    PROPOSAL,
    clause_cut,
    contribution_index,
    split_sentences,
)

MAX_TLDR_WORDS = 50
CONTRAST = re.compile(r"^(?:however|but|yet|unfortunately|nevertheless),?\s+", re.I)
NUMBER = r"(?<![\w.@])\d[\d,]*(?:\.\d+)?"
UNIT = (
    r"(?:%|\s?[x×X]\b|\s?times\b|-?fold\b|\s?(?:GPU[- ]hours|hours|W|kHz|dB|TOPs/s|GOPs/s(?:/W)?|MACs|ms|"
    r"seconds|MB|GB|points?)\b)"
)
MEASURED = re.compile(rf"{NUMBER}{UNIT}|\b\d+(?:st|nd|rd|th) place\b|order of magnitude")
CLAIM = re.compile(
    r"\b(?:outperform|surpass|improv|reduc|achiev|obtain|speed|faster|accelerat|sav|gain|lift|boost|increas|decreas)",
    re.I,
)
BARE_NUMBER = re.compile(rf"{NUMBER}(?![\w)-])")  # not "1)" enumerations nor "1.6-um"
YEAR = re.compile(r"^(?:19|20)\d\d$")
QUALITATIVE = re.compile(
    r"\b(?:outperform\w*|surpass\w*|state[- ]of[- ]the[- ]arts?|deployed|in production|superior\w*|highest|large margin"
    r"|(?:significant|substantial|dramatic)(?:ly)?\s+(?:improv\w*|better|faster|outperform\w*|reduc\w*)|first place)\b",
    re.I,
)
# A finding the abstract reports as such, whatever it says.
FINDING = re.compile(
    r"^(?:[^.]{0,100}?\b(?:results?|experiments?|evaluations?|analysis|simulations?)\s+(?:\w+\s+){0,10}?"
    r"(?<!to )(?:show|demonstrate|validate|indicate|confirm|verif(?:y|ie)|reveal)s?\b"
    r"|it confirms\b|[^.]{0,100}?\bwe verify\b)",
    re.I,
)
# The paper speaking of its own work ("we show", "our model achieves").
OURS = re.compile(r"\b(?:we|our)\b", re.I)
# "The Gamma-Ray Integrated Detectors (GRID) is a ...": an abstract about its own named system.
# "GLM-OCR is an efficient ... model" too; not "Graph Neural Networks (GNNs) are a class": a field.
DEFINED = re.compile(
    r"^(?:the\s+)?(?:[^.(]*\((?P<acronym>[A-Z][\w-]*[A-Z][\w-]*)\)|(?P<name>[A-Za-z][\w.-]*[A-Z\d][\w.-]*))"
    r"\s+is\s+(?:an?|the)\s"
)
OWN_FINDING = re.compile(r"\bwe\s+(?:\w+\s+)?(?:show|find|found|demonstrate|observe|prove|obtain|achieve)", re.I)
LEAD_IN = re.compile(
    r"^(?:(?:experimental |evaluation |extensive )?(?:results?|experiments?|evaluations?)"
    r" (?:show|demonstrate|validate|indicate)s?(?: that)?\s*,?|(?:overall|in particular|besides|additionally|"
    r"in addition|moreover|furthermore|finally),)\s*",
    re.I,
)


def tldr(text: str) -> str:
    """The contribution, in at most 50 words; empty rather than the background sentence that opens an abstract."""
    sentences = split_sentences(text)
    if not sentences:
        return ""
    picked = [s for s in sentences if CONTRIBUTION.search(s) and not EARLIER.search(s)]
    # "We propose X" states the contribution better than "we show that ..." or "we study".
    proposing = [s for s in picked if PROPOSAL.search(s)]
    picked = proposing or picked
    if not picked:  # no sentence about this paper: its own system defined, else nothing (never background)
        picked = sentences[:1] if DEFINED.match(sentences[0]) else [s for s in sentences if PASSIVE.search(s)][:1]
    if not picked:
        return ""
    first = sentences.index(picked[0])
    if first and ANAPHORA.search(picked[0]):
        picked = [_capitalized(CONTRAST.sub("", sentences[first - 1])), *picked]
    kept = [picked[0]]
    for sentence in picked[1:]:
        if len(" ".join([*kept, sentence]).split()) > MAX_TLDR_WORDS:
            break
        kept.append(sentence)
    return clause_cut(" ".join(kept), MAX_TLDR_WORDS, MAX_TLDR_WORDS // 3)


def key_results(text: str) -> tuple[str, ...]:
    """This paper's findings, quoted from the abstract with their context (a lead-in dropped);
    numbers never change."""
    sentences = split_sentences(text)
    at = contribution_index(sentences)
    defined = DEFINED.match(sentences[0]) if sentences else None
    name = (defined["acronym"] or defined["name"]) if defined else ""
    owner = re.compile(rf"\b(?:we|our|{re.escape(name)})\b" if name else OURS.pattern, re.I)
    return tuple(_without_lead_in(s) for i, s in enumerate(sentences) if _is_finding(s, i, at, owner))


def _is_finding(sentence: str, i: int, at: int | None, owner: re.Pattern[str] = OURS) -> bool:
    """After the contribution, a claim; without one, a claim the paper owns ("we show", "our ...",
    or the system the abstract opens by defining)."""
    if BACKGROUND.match(sentence) or EARLIER.search(sentence) or (at is not None and i < at):
        return False
    if at == i:  # "We propose X, which reaches 2x": the contribution with its number
        return is_measured(sentence)
    claim = is_measured(sentence) or bool(QUALITATIVE.search(sentence) or FINDING.match(sentence))
    if at is None:
        return bool(OWN_FINDING.search(sentence) or (claim and owner.search(sentence)))
    return claim or bool(OWN_FINDING.search(sentence))


def is_measured(sentence: str) -> bool:
    """A sentence that states a quantity with a claim or a unit ("reduces ... by 12%", "52.6 W")."""
    if MEASURED.search(sentence):
        return True
    numbers = [n for n in BARE_NUMBER.findall(sentence) if not YEAR.match(n)]
    return bool(numbers) and bool(CLAIM.search(sentence))


def _without_lead_in(sentence: str) -> str:
    rest = LEAD_IN.sub("", ENUMERATION.sub("", sentence, count=1), count=1)
    return rest[0].upper() + rest[1:] if rest else sentence


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]
