"""Pagefind's bundles made the same by every build: filters in one order, no file left over.

Pagefind (1.5) writes each filter's values, and the list of filters in a language's metadata,
in the order of a Rust hash map, which is seeded at random in every run (Pagefind issue 638:
"filter indexes will still change"). It names each file by a hash of its bytes, so two clean
builds of one site differed in the filter files, the metadata file and ``pagefind-entry.json``.
After Pagefind has made a bundle, :func:`tidy` sorts those lists and renames the files by a
hash of their new bytes, updating the names that point at them. Pagefind's script looks the
files up by the names the metadata gives and checks no hash; it reads a filter's values into
an object, so their order means nothing to it.

A shard is indexed again into its old bundle: Pagefind neither compresses nor writes a hashed
file that exists already (its ``WriteBehavior::Immutable``), so the fragments of the pages that
did not change cost nothing. It never deletes a file either: :func:`tidy` also removes every
fragment, index chunk, filter and metadata file that the entry and its metadata do not name,
so the bundle holds what a bundle made from nothing holds (``tests/test_search_pages.py``).

The files are gzip (Pagefind's own header is kept) of ``pagefind_dcd`` and one CBOR item, read
and written with cbor2. A bundle with a file that would not come back byte for byte from its
decoding is left as Pagefind wrote it.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import cbor2

from .shards import ENTRY

SIGNATURE = b"pagefind_dcd"
HEADER = 10  # a gzip header without optional fields, as Pagefind writes it
Item = Any  # what cbor2 decodes: here integers, strings, byte strings and lists of them


class Unknown(ValueError):
    """A file that is not what Pagefind writes here, or that cbor2 would not give back byte for byte."""


def _read(path: Path) -> tuple[bytes, Item]:
    """The file's gzip header and its CBOR item (checked to encode back to the same bytes)."""
    packed = path.read_bytes()
    data = zlib.decompress(packed, wbits=31)
    if not data.startswith(SIGNATURE):
        raise Unknown(f"{path.name}: no Pagefind signature")
    item = cbor2.loads(data[len(SIGNATURE) :])
    if cbor2.dumps(item) != data[len(SIGNATURE) :]:  # another form, or more after the item: left as it is
        raise Unknown(f"{path.name}: not in the form cbor2 writes")
    return packed[:HEADER], item


def _packed(header: bytes, item: Item) -> bytes:
    data = SIGNATURE + cbor2.dumps(item)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = deflate.compress(data) + deflate.flush()
    return header + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


def _renamed(old: str, data: bytes) -> str:
    """``old`` (``en_1a2b3c4``) with its hash part replaced by one of ``data``, as long as it was."""
    language, _, digest = old.rpartition("_")
    return f"{language}_{hashlib.sha256(data).hexdigest()[: len(digest)]}"


def _by_name(items: Item) -> Item:
    """A list of ``[name, …]`` pairs in the order of their names."""
    if not isinstance(items, list):
        raise Unknown("not a list")
    return sorted(items, key=lambda pair: cbor2.dumps(pair[0]) if isinstance(pair, list) and pair else b"")


def _lists(item: Item) -> list[list[Item]]:
    if not isinstance(item, list) or not all(isinstance(i, list) for i in item):
        raise Unknown("not a list of lists")
    return [i for i in item if isinstance(i, list)]


def _write(folder: Path, old: str, suffix: str, header: bytes, item: Item) -> str:
    """Write ``item`` under a name hashed from its bytes; remove the old file; the new name."""
    packed = _packed(header, item)
    new = _renamed(old, packed)
    if new != old:
        (folder / f"{new}{suffix}").write_bytes(packed)
        (folder / f"{old}{suffix}").unlink()
    return new


# What a metadata file's item holds (a list): [version, pages, index chunks, filters, sorts, …]
PAGES, CHUNKS, FILTERS = 1, 2, 3
HASHED = ("fragment", "index", "filter")  # the folders of hashed files, which Pagefind never removes


def tidy(bundle: Path) -> bool:
    """Put ``bundle``'s filters and its metadata in a fixed order, then remove the files no
    metadata of it names (an older index's); False if its files are not in the form this version
    reads: then it is left as Pagefind wrote it, old files and all."""
    try:
        _settle(bundle)
        named = _named(bundle)
    except (ValueError, OSError, zlib.error, IndexError, TypeError, cbor2.CBORError):
        return False
    for path in [*bundle.glob("pagefind.*.pf_meta"), *(p for f in HASHED for p in (bundle / f).glob("*"))]:
        if path.is_file() and path.relative_to(bundle).as_posix() not in named:
            path.unlink()
    return True


def _named(bundle: Path) -> set[str]:
    """The metadata files the entry names, and the hashed files each of them names."""
    languages = json.loads((bundle / ENTRY).read_text(encoding="utf-8"))["languages"]
    named: set[str] = set()
    for language in languages.values():
        meta = f"pagefind.{language['hash']}.pf_meta"
        _, item = _read(bundle / meta)
        named.add(meta)
        named.update(f"fragment/{page[0]}.pf_fragment" for page in _lists(item[PAGES]))
        named.update(f"index/{chunk[2]}.pf_index" for chunk in _lists(item[CHUNKS]))
        named.update(f"filter/{pair[1]}.pf_filter" for pair in _lists(item[FILTERS]))
    return named


def _settle(bundle: Path) -> None:
    entry = (bundle / ENTRY).read_text(encoding="utf-8")
    for meta in sorted(bundle.glob("pagefind.*.pf_meta")):
        header, item = _read(meta)
        if not isinstance(item, list) or len(item) < 5:
            raise Unknown(f"{meta.name}: not Pagefind's metadata")
        filters: list[Item] = []
        for name, digest in _lists(_by_name(item[3])):  # [name, its file's hash]: ValueError if not a pair
            path = bundle / "filter" / f"{digest!s}.pf_filter"
            filter_header, values = _read(path)
            if not isinstance(values, list) or len(values) != 2:
                raise Unknown(f"{path.name}: not a filter")
            filters.append(
                [name, _write(path.parent, str(digest), ".pf_filter", filter_header, [values[0], _by_name(values[1])])]
            )
        settled: Item = [*item[:3], filters, _by_name(item[4]), *item[5:]]
        old = meta.name.removeprefix("pagefind.").removesuffix(".pf_meta")
        new = _write(bundle, f"pagefind.{old}", ".pf_meta", header, settled).removeprefix("pagefind.")
        entry = entry.replace(f'"{old}"', f'"{new}"')
    (bundle / ENTRY).write_text(entry, encoding="utf-8")
