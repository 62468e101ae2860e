"""Working titles for records that have none, made only of the abstract's own words.

An abstract that names its system ("we propose X, a ...", "we present X", "namely X",
"a new ... X (...)", "the Long Name (LN) framework") gives "X: <its own short description>".
Otherwise the contribution sentence is cut down to its object ("we characterize W" gives
"W": no verb is inflected by hand); without one, the first sentence less its lead-in
("Despite ..., "). A title
that does not name the abstract's field then gets it (``fieldphrase``): "... in federated
learning", "X: ... for crowd counting".
"""

from __future__ import annotations

import re

from .fieldphrase import WORD, field_phrase, stem
from .latex import to_text
from .sentences import ANAPHORA, contribution_sentence, split_sentences

MAX_WORDS = 14
WITH_FIELD = 17  # words, the field's included: it is worth a longer title
# A structured abstract's headings ("Background: ..."): labels, not words of the paper.
HEADINGS = re.compile(r"\b(?:background|purpose|objectives?|methods?|results?|conclusions?)\s*:\s*", re.I)
TRAILING = re.compile(r"(?:\s+(?:in|of|for|to|on|with|by|and|the|an?|that|which|using))+$", re.I)
INTRO = r"(?:propose|present|introduce|develop|design|build|name|call)[sd]?"
NAME = r"(?P<name>[A-Za-z][\w\-]*[A-Z\d][\w\-]*)"
EXPANSION = r"(?:\s*\((?P<exp>[^()]{3,80})\))?"
DESC = r"(?P<desc>(?:an?|the)\s[^.;:]+)"
# Ordered from the most to the least specific: "a new SGD algorithm, DaSGD (...)",
# "ByteTransformer, a ...", "Variance-Aware Cross-Layer (VACL), a ...", "the full-stack
# compiler DNNVM, which", "The Gamma-Ray Integrated Detectors (GRID) is a ...", "namely X".
SYSTEM_PATTERNS = tuple(
    re.compile(p)
    for p in (
        rf"\b{INTRO}\s+(?:an?|the)\s(?P<pre>[^,.;]{{3,80}}?),\s+(?:namely\s+)?{NAME}{EXPANSION}\s*[,.]"
        rf"(?:\s*which\s+(?P<what>[^.;]+))?",  # a new SGD algorithm, DaSGD (...), which ...
        rf"\b{INTRO}\s+{NAME}{EXPANSION}\s*,\s*{DESC}",  # ByteTransformer, a high-performance ...
        rf"\b{INTRO}\s+(?P<exp>(?:[A-Z][\w\-]*\s+){{1,5}}?)\((?P<name>[A-Z][\w\-]*[A-Z][\w\-]*)\)\s*,\s*{DESC}",
        rf"\b{INTRO}\s+(?:an?|the)\s(?P<pre>[^,.;]{{3,60}}?)\s+{NAME}\s*(?:,|\bwhich\b|\bthat\b)",
        rf"(?:^|\.\s)(?:The\s+)?(?P<exp>(?:[A-Z][\w\-]*\s+){{1,6}})\((?P<name>[A-Z]{{2,}}\w*)\)\s+(?:is|are)\s+{DESC}",
        rf"\bnamely\s+{NAME}",
        # "we introduce the Dual-Consensus Weak-to-Strong (DC-W2S) framework"
        rf"\b{INTRO}\s+(?:an?\s|the\s)?(?P<exp>(?:[A-Z][\w\-]*\s+(?:(?:for|of|and|to|in|on|with)\s+)?){{2,8}})"
        rf"\((?P<name>[A-Z][\w\-]*[A-Z][\w\-]*)\)",
        rf"\b{INTRO}\s+(?:an?|the)\s(?P<pre>[^,.;]{{3,60}}?)\s+(?:called|named|dubbed|termed)\s+{NAME}",
        rf"\b{INTRO}\s+{NAME}{EXPANSION}\s*(?:,|\.|\bwhich\b|\bthat\b|\bto\b|\bfor\b)",
    )
)
COMMON_ACRONYMS = frozenset("cnn cnns dnn dnns gpu gpus cpu sgd nlp ai ml dl iid svd bert fpga isa mha jit".split())
FILLERS = re.compile(r"^(?:(?:an?|the)\s+)?(?:(?:novel|new)\s*,?\s+)*", re.I)
LEAD = re.compile(
    r"^.*?\b(?:we|this (?:\w+\s+)?(?:paper|work|report|research|article|study))\s+"
    r"(?:first\s+|also\s+|ha(?:ve|s)\s+|\w+ly\s+)?"  # "we have developed", "we creatively introduce"
    r"(?!we\b|will\b|can\b|is\b|are\b|was\b|the\b|an?\b)(?P<verb>[a-z]{3,})\s+(?:that\s+)?",
    re.I,
)
NOUN_VERBS = frozenset("propose present introduce develop design report".split())
ENUMERATED = re.compile(r"\b(?:purposes?|goals?|aims?|objectives?|contributions?)\s*:\s*\(1\)\s*(?P<rest>[^.]+)")
PASSIVE = re.compile(r"^(?P<x>.+?)\s+(?:is|are)\s+(?:proposed|presented|introduced|developed|reported)\b\s*(?P<y>.*)$")
FRAME = re.compile(r"^(?:in this (?:paper|work|article|report),?\s*)|\s+in this (?:paper|work|article|report)\b", re.I)
# "Despite the recent successes of X, ...": a lead-in, not what the work is.
SUBORDINATE = re.compile(
    r"^(?:with|despite|as|although|though|while|given|since|because|due to|to|in order to|motivated by|inspired by"
    r"|based on|for|in)\b[^,]{3,120},\s*",
    re.I,
)
# Words a title cannot end on: a cut there leaves a phrase open ("Method for representing the
# structure of any finite", "This note provides conditions under").
DANGLING = re.compile(
    r"(?:[\s,]+(?:in|of|for|to|on|with|by|and|or|the|an?|that|which|using|under|along|into|from|as|at|via|between"
    r"|among|across|about|such|than|whether|how|what|any|each|its|their|our|this|these|is|are|be|can|not|both|all))+$",
    re.I,
)
POINTER_START = re.compile(r"^(?:this|these|those|such|it|its|they|their|them|that|there)\b", re.I)
CLAUSE_END = re.compile(r",\s|:\s|;\s|\s\((?:1|i)\)|\s+and\s+\w+(?:es|s)\b(?!\s+and)|\s+which\s|\s+thus\s")


def working_title(abstract_latex: str) -> str:
    """A short, literal title for an untitled abstract; empty if the abstract is empty."""
    text = HEADINGS.sub("", to_text(abstract_latex))
    if not text:
        return ""
    return _with_field(_literal_title(text), field_phrase(text))


def _literal_title(text: str) -> str:
    """The system the abstract names, else the first of: the purposes it enumerates, its
    contribution, its first sentence, that reads as a title (a fragment such as "Such guidance"
    does not)."""
    sentences = split_sentences(text)
    named = next((t for s in sentences if (t := named_system_title(s))), "")
    if named:  # a system's name is a title by itself ("VERI-DPO")
        return named
    purpose = next((m.group("rest") for s in sentences if (m := ENUMERATED.search(s))), "")
    made = [
        _contribution_title("we " + purpose) if purpose else "",
        _contribution_title(contribution_sentence(text)),
        _contribution_title(sentences[0]) if sentences else "",
    ]
    return next((t for t in made if _reads(t)), next((t for t in made if t), ""))


def _reads(title: str) -> bool:
    """Whether ``title`` stands alone: two words or more, not opening on a pointer to a sentence
    it left out ("This issue ...", "Such guidance", "It is clear that ...")."""
    return len(title.split()) >= 2 and not POINTER_START.match(title)


def _with_field(title: str, field: str) -> str:
    """``title`` naming ``field`` too, unless it shares a word with it already."""
    words = WORD.findall(field)
    if not words or not title or {stem(w) for w in words} & {stem(w) for w in WORD.findall(title)}:
        return title
    core = title.rstrip("…").split()[: WITH_FIELD - len(words) - 1]
    joined = TRAILING.sub("", " ".join(core).rstrip(",;:"))
    return f"{joined} {'for' if ':' in joined else 'in'} {_inside(field, words)}"


def _inside(field: str, words: list[str]) -> str:
    """The field as words inside a title: "Federated learning" is "federated learning", but a
    name ("Generative Adversarial Networks") or an acronym ("GANs") keeps its capitals."""
    named = words[0].isupper() or any(w[:1].isupper() for w in words[1:]) or any(c.isupper() for c in words[0][1:])
    return field if named else field[:1].lower() + field[1:]


def named_system_title(sentence: str) -> str:
    for pattern in SYSTEM_PATTERNS:
        for match in pattern.finditer(sentence):
            name = match.group("name")
            if not _is_system_name(name):
                continue
            groups = match.groupdict()
            pre = groups.get("pre")
            if pre and groups.get("what"):
                pre = f"{_first_clause(pre)} that {groups['what']}"
            desc = _description(groups.get("desc"), groups.get("exp"), pre)
            return f"{name}: {desc}" if desc else name
    return ""


def _is_system_name(name: str) -> bool:
    return len(name) >= 3 and name.lower() not in COMMON_ACRONYMS and any(c.isupper() for c in name[1:] + name[0])


def _description(desc: str | None, expansion: str | None, pre: str | None) -> str:
    """The system's own description: its expansion, else the phrase around its name."""
    for candidate in (desc, expansion, pre):
        if candidate and not ANAPHORA.search(candidate):
            return _shorten(_first_clause(FILLERS.sub("", candidate.strip())))
    return ""


def _first_clause(text: str) -> str:
    match = CLAUSE_END.search(text)
    return text[: match.start()] if match else text


def _contribution_title(sentence: str) -> str:
    lead = LEAD.match(sentence)
    if not lead:
        plain = FRAME.sub("", sentence).rstrip(".")
        passive = PASSIVE.match(plain)
        plain = f"{passive['x']} {passive['y']}".strip() if passive else _first_clause(SUBORDINATE.sub("", plain))
        return _shorten(plain)
    return _shorten(_object_phrase(lead.group("verb").lower(), sentence[lead.end() :]))


def _object_phrase(verb: str, rest: str) -> str:
    """What the contribution verb acts on, as a title phrase."""
    stem = re.sub(r"(?<=[^s])s$", "", verb)
    rest = FRAME.sub("", rest)
    if stem in ("attempt", "aim", "seek", "try") and rest.startswith("to "):
        verb, _, rest = rest[3:].partition(" ")
        stem = verb
    rest = _first_clause(rest).rstrip(".")
    # "we study X" gives "X": the verb is left out, never made a gerund by hand ("Studying").
    return FILLERS.sub("", rest) if stem in NOUN_VERBS else rest


def _shorten(text: str) -> str:
    """At most ``MAX_WORDS`` words, without a dangling word at its end ("Prototype of")."""
    words = text.split()
    short = DANGLING.sub("", " ".join(words[:MAX_WORDS]).rstrip(",;:."))
    if not short:
        return ""
    return short[0].upper() + short[1:] + ("…" if len(words) > MAX_WORDS else "")
