"""The tool's own error: every failure a user can cause names a file, a line and a stable code.

The codes are the errors' counterpart of the Sphinx warnings' (``site/sphinx_ext/warnings_.py``):
the same ``readinglist.<code>`` names, so a script or a test can tell one failure from another
without matching the wording, which may change. docs/develop/errors.md lists them.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

TYPE = "readinglist"  # as the warnings' type: an error shows as [readinglist.<code>]


class Code(Enum):
    """Why the tool stopped. Each is raised only for the cause its comment names."""

    # Reading files
    UNREADABLE = "unreadable"  # the OS refuses to read a file, or it is a folder, a FIFO, a device
    MISSING_FILE = "missing-file"  # a file the site needs is not there (conf/topics.toml)
    NOT_UTF8 = "not-utf8"  # bytes that are not UTF-8 (or not the encoding a byte-order mark declares)
    BINARY_FILE = "binary-file"  # NUL bytes in a text dump: a binary file, or UTF-16 without a BOM
    EMPTY_FILE = "empty-file"  # a source file with nothing in it
    # Sources and the store
    UNKNOWN_FORMAT = "unknown-format"  # a source that is no format a reader knows
    BAD_BIBTEX = "bad-bibtex"  # BibTeX that does not parse: syntax, an unknown @type, a duplicate field, stray text
    DUPLICATE_KEY = "duplicate-key"  # two entries of one .bib with the same citation key
    BAD_CSL_JSON = "bad-csl-json"  # a .json source that is not valid JSON or not CSL-JSON
    BAD_DUMP = "bad-dump"  # a profile dump (arXiv listing, author/abstract pairs) out of shape
    BAD_SOURCES = "bad-sources"  # [site] sources match no file, or match the store itself
    STORE_CHANGED = "store-changed"  # refs.bib kept changing while an import merged into it
    STORE_BUSY = "store-busy"  # refs.bib is held open for writing (an in-place save, an appender) or shrank meanwhile
    TOO_LARGE = "too-large"  # past a bound: a file's size, a macro's expansion, nesting depth, a field's length
    # Settings: conf/*.toml, environment variables, command-line arguments
    BAD_TOML = "bad-toml"  # a TOML file (conf/*.toml or the package's data/*.toml) that does not parse
    BAD_CONFIG = "bad-config"  # a setting of the wrong type or shape ([site], a URL variable, a Zotero file in conf/)
    UNKNOWN_FIELD = "unknown-field"  # a key its table does not define ([site].x, a topic's field)
    BAD_TOPICS = "bad-topics"  # conf/topics.toml parses but its topics are out of shape
    BAD_TOPIC_ID = "bad-topic-id"  # a topic id that is malformed, reserved or used twice
    BAD_IDENTITY = "bad-identity"  # conf/identity.toml's [[same]]/[[different]] out of shape
    BAD_ARGUMENT = "bad-argument"  # an argument: an id neither arXiv nor DOI, a blank title, a bad Zotero id or key
    INIT_REFUSED = "init-refused"  # readinglist init into a file, or a folder that is not empty
    # Notes
    BAD_FRONT_MATTER = "bad-front-matter"  # a note's front matter: unclosed, not YAML, a bad key or value
    OUTSIDE_PROJECT = "outside-project"  # a note that is a link to a file outside the project (never read)
    # Fetching records (readinglist add)
    NOT_FOUND = "not-found"  # the arXiv API or Crossref has no record for the id; no such Zotero library
    UNREACHABLE = "unreachable"  # the service cannot be reached (offline, DNS, a timeout)
    BAD_ANSWER = "bad-answer"  # the service answered an HTTP error, too much, or what is not a record
    # Generating and building the site
    LOCK_HELD = "lock-held"  # another import or build holds the lock past the timeout
    UNWRITABLE = "unwritable"  # a folder cannot be created, a file or a lock cannot be written
    DISK_FULL = "disk-full"  # no space left on the device, or the user's quota is used up
    NO_PROJECT = "no-project"  # --root names a folder that does not exist (nothing is created there)
    NOT_OWNED = "not-owned"  # the generator would overwrite a file it did not write
    BAD_MANIFEST = "bad-manifest"  # the generator's manifest of its files is corrupt
    EMPTY_STORE = "empty-store"  # refs.bib holds no entries: generating would delete every paper page
    PAGEFIND_FAILED = "pagefind-failed"  # Pagefind exited with an error while indexing the site

    @property
    def shown(self) -> str:
        """How messages name it: ``readinglist.<code>``, as Sphinx shows a warning's type."""
        return f"{TYPE}.{self.value}"


class ReadingListError(Exception):
    """A problem in the user's input, reported as ``file:line: message [readinglist.<code>]``."""

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None, *, code: Code):
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.code = code

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        # The code ends the first line: a message that quotes a tool's output (Pagefind's) goes on below it.
        first, newline, rest = self.message.partition("\n")
        return f"{where}: {first} [{self.code.shown}]{newline}{rest}"


def not_utf8(exc: UnicodeDecodeError, file: str | Path, what: str = "the file") -> ReadingListError:
    """The error for bytes that are not UTF-8, at the line of the first byte that is not."""
    line = exc.object[: exc.start].count(b"\n") + 1
    return ReadingListError(f"{what} is not valid UTF-8; re-save it as UTF-8", file, line, code=Code.NOT_UTF8)
