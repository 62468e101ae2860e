"""``readinglist sync zotero``'s arguments and report; ``cli.py`` registers them (the logic is ``zotero_sync.run``).

Light on purpose: ``cli.py`` imports this module to build its parser on every command.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from ..config import Config
from ..errors import Code, ReadingListError

PUBLIC = "https://api.zotero.org"  # zotero_api.PUBLIC, not imported: that module loads urllib
LOCAL = "http://localhost:23119/api"
_ID = re.compile(r"^[0-9]{1,12}$")
_COLLECTION = re.compile(r"^[A-Z0-9]{8}$")


def sync_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sync = commands.add_parser("sync", help="bring a Zotero library's changes into refs.bib")
    services = sync.add_subparsers(dest="service", required=True)
    zotero = services.add_parser(
        "zotero",
        help="sync a Zotero library (Web API v3; the key from ZOTERO_API_KEY)",
        description="Bring what changed in a Zotero library since the last sync into refs.bib, with its notes "
        "and PDF highlights. The API key comes from the ZOTERO_API_KEY environment variable only.",
    )
    which = zotero.add_mutually_exclusive_group(required=True)
    which.add_argument("--user", metavar="ID", help="a user library: the user ID of zotero.org/settings/keys")
    which.add_argument("--group", metavar="ID", help="a group library: the number in the group's URL")
    zotero.add_argument("--collection", metavar="KEY", help="only this collection and its subcollections")
    where = zotero.add_mutually_exclusive_group()
    where.add_argument("--api-url", default=PUBLIC, help=f"the API's base address (default: {PUBLIC})")
    where.add_argument("--local", action="store_true", help=f"Zotero 7's local API ({LOCAL})")
    zotero.add_argument("--prune", action="store_true", help="remove from refs.bib the items deleted in Zotero")
    zotero.add_argument("--dry-run", action="store_true", help="print the summary of what would change; write nothing")


def run_command(args: argparse.Namespace, config: Config) -> int:
    """The sync, then its summary (a pull request's body) on stdout; 1 if the import failed."""
    from .zotero_sync import run

    summary = run(config, options(args))
    print("\n".join(summary.lines()))
    return 1 if summary.failed else 0


def options(args: argparse.Namespace) -> Any:
    from .zotero_sync import Options

    kind, ident = ("groups", args.group) if args.group else ("users", args.user)
    if not _ID.match(ident or ""):
        raise ReadingListError(f"--{kind[:-1]} takes a number, not {ident!r}", "zotero", code=Code.BAD_ARGUMENT)
    collection = args.collection or ""
    if collection and not _COLLECTION.match(collection):
        raise ReadingListError(
            f"--collection takes a collection key (8 letters and digits), not {collection!r}",
            "zotero",
            code=Code.BAD_ARGUMENT,
        )
    return Options(f"{kind}/{ident}", collection, LOCAL if args.local else args.api_url, args.prune, args.dry_run)
