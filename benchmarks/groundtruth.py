"""The field each work's venue, DBLP key, DOI or arXiv id names: the quality benchmark's ground truth.

Read from what the record carries in refs.bib (the importer's copy of the source entries),
never from what the tool infers. The table of venues is ``data/venues.toml`` read as data,
matched here by a simpler, stricter reader than the tool's own (``enrich/venues.py``): a
DBLP stream, a DOI prefix, or a venue name of two words or more found whole in a venue
field (a one-word name only when it is the whole field; an abbreviation only in capitals).
Without the file, or with ``--venues builtin``, a small table of DBLP streams and DOI
prefixes written here, independent of the tool's, is used.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from readinglist import arxiv_categories

VENUES_TOML = Path(__file__).resolve().parents[1] / "src" / "readinglist" / "data" / "venues.toml"
ML, CV, CL, RO, PL = ("cs.LG", "stat.ML"), ("cs.CV",), ("cs.CL",), ("cs.RO",), ("cs.PL", "cs.LO")
BUILTIN_DBLP = {
    **dict.fromkeys(("conf/nips", "conf/icml", "conf/iclr", "journals/jmlr", "conf/aistats", "conf/colt"), ML),
    **dict.fromkeys(("conf/cvpr", "conf/iccv", "conf/eccv", "journals/pami", "journals/ijcv"), CV),
    **dict.fromkeys(("conf/acl", "conf/emnlp", "conf/naacl", "journals/tacl", "conf/coling", "conf/eacl"), CL),
    **dict.fromkeys(("conf/corl", "conf/icra", "conf/iros", "conf/rss", "journals/ijrr", "journals/trob"), RO),
    **dict.fromkeys(("conf/popl", "conf/pldi", "conf/icfp", "conf/lics", "journals/toplas", "conf/oopsla"), PL),
    **dict.fromkeys(("conf/sosp", "conf/osdi", "conf/eurosys", "conf/nsdi", "conf/usenix"), ("cs.DC", "cs.OS")),
    **dict.fromkeys(("conf/sigmod", "journals/pvldb", "conf/vldb", "conf/icde"), ("cs.DB",)),
}
BUILTIN_DOI = {
    "10.18653/": CL,  # ACL Anthology
    "10.1103/": ("physics",),  # American Physical Society
    "10.1088/": ("physics",),  # IOP Publishing
    "10.1007/jhep": ("hep-th", "hep-ph"),
    "10.1016/j.physletb": ("hep-ph", "hep-th"),
    "10.1016/j.nuclphysb": ("hep-th", "hep-ph"),
    "10.1145/": ("cs",),  # ACM: computing, no finer
    "10.1109/": ("cs", "eess"),  # IEEE
}
VENUE_FIELDS = ("booktitle", "journal", "journaltitle", "series", "eventtitle")
DBLP = re.compile(r"\b((?:conf|journals)/[\w-]+)/", re.I)
OLD_ARXIV = re.compile(r"^([a-z-]+)(?:\.[A-Z]{2})?/\d{7}")
WORD = re.compile(r"[^\W\d_]+")
# "Computer science and statistics" is one field here, as arXiv cross-lists them all the time.
COMPUTING = frozenset({"cs", "stat", "eess"})
PHYSICS = frozenset(
    "astro-ph cond-mat gr-qc hep-ex hep-lat hep-ph hep-th math-ph nlin nucl-ex nucl-th physics quant-ph".split()
)


def group(category: str) -> str:
    """The field of an arXiv category or archive: computing, physics, math, q-bio, q-fin, econ."""
    archive = category.split(".")[0].lower()
    return "computing" if archive in COMPUTING else "physics" if archive in PHYSICS else archive


@dataclass
class Table:
    """Venues to categories: by DBLP stream, DOI prefix, and name (lowercased words, or capitals)."""

    source: str
    shared: bool = False  # the tool's own table (data/venues.toml)
    dblp: dict[str, tuple[str, ...]] = field(default_factory=dict)
    doi: dict[str, tuple[str, ...]] = field(default_factory=dict)
    names: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    capitals: dict[str, tuple[str, ...]] = field(default_factory=dict)


def load_table(choice: str = "auto") -> Table:
    """``auto``: data/venues.toml if it exists, else the built-in table; ``builtin``; or a path."""
    path = None if choice == "builtin" else VENUES_TOML if choice == "auto" else Path(choice)
    if path is None or not path.is_file():
        return Table("built-in table (DBLP streams and DOI prefixes)", False, dict(BUILTIN_DBLP), dict(BUILTIN_DOI))
    table = Table(f"{path.name} ({path})", path.resolve() == VENUES_TOML)
    for entry in tomllib.loads(path.read_text(encoding="utf-8"))["field"]:
        categories = tuple(entry["categories"])
        for names in entry["venues"]:
            for name in names:
                _add(table, name.removesuffix(" (journal)"), categories)
    return table


def _add(table: Table, name: str, categories: tuple[str, ...]) -> None:
    """The first field to claim a name keeps it, as the table lists the likelier reading first."""
    if DBLP.match(name + "/"):
        table.dblp.setdefault(name.lower(), categories)
    elif name.startswith("10."):
        table.doi.setdefault(name.lower(), categories)
    elif re.fullmatch(r"[A-Z][A-Z0-9-]{2,}", name):
        table.capitals.setdefault(name, categories)
    else:
        table.names.setdefault(tuple(w.lower() for w in WORD.findall(name)), categories)


@dataclass(frozen=True)
class Truth:
    categories: tuple[str, ...]
    signal: str  # "arXiv id", "DBLP key", "DOI prefix", "venue name"


def truth(key: str, fields: dict[str, str], table: Table) -> Truth | None:
    """The field the record itself names, the strongest signal first; None when it names none."""
    for signal, found in (
        ("arXiv id", arxiv(fields)),
        ("DBLP key", dblp(key, fields, table)),
        ("DOI prefix", doi(fields.get("doi", ""), table)),
        ("venue name", venue_name(fields, table)),
    ):
        if found:
            return Truth(found, signal)
    return None


def arxiv(fields: dict[str, str]) -> tuple[str, ...]:
    """The primary class an arXiv entry states, an old-style id's archive, or arXiv ids among the keywords."""
    if fields.get("primaryclass") and fields.get("archiveprefix", "arxiv").lower() == "arxiv":
        return (fields["primaryclass"].split()[0],)
    if old := OLD_ARXIV.match(fields.get("eprint", "")):
        return (old.group(1),)
    known = arxiv_categories.ids()
    return tuple(k for k in (k.strip() for k in fields.get("keywords", "").split(",")) if k in known)


def dblp(key: str, fields: dict[str, str], table: Table) -> tuple[str, ...]:
    for text in (key, fields.get("crossref", ""), fields.get("biburl", ""), fields.get("bibsource", "")):
        for stream in DBLP.findall(text):
            if stream.lower() in table.dblp:
                return table.dblp[stream.lower()]
    return ()


def doi(value: str, table: Table) -> tuple[str, ...]:
    value = value.lower().strip()
    matches = [prefix for prefix in table.doi if value.startswith(prefix)]
    return table.doi[max(matches, key=len)] if matches else ()


def venue_name(fields: dict[str, str], table: Table) -> tuple[str, ...]:
    """The longest table name found whole in a venue field (one word: only as the whole field)."""
    for name in VENUE_FIELDS:
        text = fields.get(name, "")
        said = tuple(w.lower() for w in WORD.findall(text))
        grams = [said[i : i + n] for n in range(len(said), 1, -1) for i in range(len(said) - n + 1)]
        found = [g for g in [said, *grams] if g in table.names]
        if found:
            return table.names[found[0]]
        capitals = [w for w in re.findall(r"[A-Z][A-Z0-9-]{2,}", text) if w in table.capitals]
        if capitals:
            return table.capitals[capitals[0]]
    return ()
