"""Identity keys: when two records are the same work (papis-style explicit keys).

Two records are one work when they share any identity key: the same normalized
abstract, the same normalized title, or the same arXiv eprint.
"""

from __future__ import annotations

import hashlib
import re

from ..latex import ascii_fold, to_text

MIN_ABSTRACT_WORDS = 12


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", ascii_fold(to_text(text)).lower()))


def _digest(kind: str, text: str) -> str:
    return f"{kind}:{hashlib.sha1(text.encode()).hexdigest()[:16]}"


def identity_keys(title: str, abstract: str, eprint: str = "", inferred_title: bool = False) -> set[str]:
    keys = set()
    norm_abstract = _norm(abstract)
    if len(norm_abstract.split()) >= MIN_ABSTRACT_WORDS:
        keys.add(_digest("abstract", norm_abstract))
    norm_title = _norm(title)
    if norm_title and not inferred_title:
        keys.add(_digest("title", norm_title))
    if eprint.strip():
        keys.add(f"eprint:{eprint.strip().lower()}")
    return keys
