"""Command line: ``readinglist import | generate | build | export | init | add | topics``.

Each command keeps its logic in a plain ``run()`` of its module; this file only parses
arguments, prints reports and turns the tool's errors into one line and exit status 1
(and SIGINT or SIGTERM into one line and 130 or 143: no traceback).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from . import sources
from .config import Config, load_config
from .errors import Code, ReadingListError
from .fetch import zotero_cli
from .oserrors import os_error
from .store.report import SHOWN, ImportReport


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="readinglist", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project folder (default: current directory)")
    commands = parser.add_subparsers(dest="command", required=True)
    _import_parser(commands)
    generate = commands.add_parser("generate", help="write the MyST pages under docs/")
    build = commands.add_parser("build", help="generate, then build the HTML site")
    for command in (generate, build):
        command.add_argument(
            "--allow-empty", action="store_true", help="let a refs.bib with no entries remove every paper page"
        )
        command.add_argument(
            "-v", "--verbose", action="store_true", help="list every merge, linked version and bibliography note"
        )
    build.add_argument("--out", type=Path, default=None, help="output folder (default: docs/_build/html)")
    build.add_argument("-j", "--jobs", default="1", help="parallel Sphinx processes (default: 1)")
    build.add_argument(
        "--no-search", action="store_true", help="keep the last search index (a faster rebuild while writing notes)"
    )
    export = commands.add_parser("export", help="print the records")
    export.add_argument("--format", choices=["json"], default="json")
    _init_and_add_parsers(commands)
    _topics_parser(commands)
    zotero_cli.sync_parser(commands)  # readinglist sync zotero: fetch/zotero_sync.py
    return parser


def _topics_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    topics = commands.add_parser("topics", help="suggest topics for your library (a draft of conf/topics.toml)")
    topics.add_argument(
        "--suggest",
        action="store_true",
        required=True,
        help="cluster the works of refs.bib into topics and write conf/topics.suggested.toml",
    )
    topics.add_argument("--print", action="store_true", help="print the draft instead of writing it")
    topics.add_argument("--force", action="store_true", help="replace an earlier conf/topics.suggested.toml")


def _init_and_add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    init = commands.add_parser("init", help="start a new reading list in a folder")
    init.add_argument("folder", type=Path, help="the new project's folder (new or empty)")
    init.add_argument("--title", default="", help="the site's title (default: Reading list)")
    init.add_argument("--force", action="store_true", help="add the missing files to a non-empty folder")
    add = commands.add_parser("add", help="fetch papers by arXiv id or DOI (arXiv API, Crossref) into refs.bib")
    add.add_argument("ids", nargs="+", metavar="ID", help="arXiv:2101.00001, or a DOI such as 10.1145/3458817.3476209")
    add.add_argument("--store", type=Path, help="the store to merge into (default: refs.bib)")
    add.add_argument("--refresh", action="store_true", help="ask the APIs again instead of using the cache")
    add.add_argument("--dry-run", action="store_true", help="fetch and report, but leave refs.bib as it is")


def _import_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    imp = commands.add_parser(
        "import",
        help=f"merge {sources.listed('and')} files into refs.bib",
        description="Merge source files into the store (refs.bib). Your own .bib files are SOURCES: "
        "give them as arguments. --store names the store to write into; it is never one of the sources.",
    )
    # The formats as the one table names them (sources.FORMATS): a new format is listed with no edit here.
    formats = f"{sources.listed('or')} files (default: the sources globs of conf/readinglist.toml)"
    imp.add_argument("sources", nargs="*", type=Path, help=formats)
    imp.add_argument("--store", type=Path, help="the store to merge into (default: refs.bib)")
    imp.add_argument("--bib", type=Path, help="deprecated name of --store")
    imp.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    imp.add_argument(
        "--strict", action="store_true", help="exit 1 and write nothing if any entry is skipped or warned about"
    )
    imp.add_argument(
        "--report",
        nargs="?",
        const="-",
        type=str,
        metavar="FILE",
        help="list every skipped entry, warning and merge: on the terminal, or in FILE as JSON lines",
    )


def _import(args: argparse.Namespace, config: Config) -> int:
    from .store import importer
    from .store.identity import load_rules

    sources = args.sources or config.source_paths()
    if not sources:
        raise ReadingListError(f"no source files match {list(config.sources)}", config.root, code=Code.BAD_SOURCES)
    if args.bib:
        print("readinglist: --bib is deprecated; it names the store (use --store)", file=sys.stderr)
    bib = args.store or args.bib or config.bib_path
    rules = load_rules(config.identity_path)
    if args.report not in (None, "-"):
        from .store.reportfile import check_report_path

        check_report_path(Path(args.report))  # before the import: a refused report file leaves refs.bib as it is
    report = importer.run(sources, bib, config.root, rules, dry_run=args.dry_run, strict=args.strict)
    _print_report(report, args.report)
    if report.added and not report.dry_run and not report.failed:
        from .site.topicdraft import hint

        if said := hint(config):
            print(said)
    return 1 if report.failed else 0


def _print_report(report: ImportReport, to: str | None) -> None:
    """The summary (at most 50 lines of each kind), or with ``--report`` all of it; ``--report FILE``
    also writes every line as JSON."""
    if to is None or to == "-":
        print("\n".join(report.lines(None if to == "-" else SHOWN)))
        return
    from .store.reportfile import write_report

    path = write_report(Path(to), report)
    print(f"{report}\nthe full report (JSON lines): {path}")


def _generate(args: argparse.Namespace, config: Config) -> int:
    from .site import build, generate

    with build.locked(config):
        report = generate.run(config, allow_empty=args.allow_empty, own_process=args.own_process)
    for line in report.lines(verbose=args.verbose):
        print(line)
    return 0


def _build(args: argparse.Namespace, config: Config) -> int:
    from .site import build, early, generate

    out = args.out or build.default_out(config)
    search = not args.no_search
    sphinx = early.Sphinx(build.sphinx_args(config, out, args.jobs, search))
    with build.locked(config):  # generate, Sphinx and Pagefind: one build of the project at a time
        if build.up_to_date(config, out, args.jobs, search):
            status = None
        else:
            sphinx.start()  # its start-up runs while the pages are generated
            try:
                for line in generate.run(config, allow_empty=args.allow_empty, own_process=args.own_process).lines(
                    verbose=args.verbose
                ):
                    print(line, flush=True)  # before Sphinx's own output
                status = build.run(config, out, args.jobs, search, sphinx)
            finally:
                sphinx.cancel()  # a Sphinx still waiting: the pages failed, or nothing needs a build
    if status is None:
        print(f"site up to date (nothing changed since its last build): {out / 'index.html'}")
    elif status == 0:
        print(f"site built: {out / 'index.html'}")
    return status or 0


def _export(args: argparse.Namespace, config: Config) -> int:
    from .site.assemble import build_library
    from .site.records import records_json

    library, _, _ = build_library(config)
    sys.stdout.write(records_json(library))
    return 0


def _init(args: argparse.Namespace, config: Config) -> int:
    from .project import init

    for line in init(args.folder, args.title, args.force).lines():
        print(line)
    return 0


def _add(args: argparse.Namespace, config: Config) -> int:
    from .fetch.byid import fetch_all
    from .project import CACHE_DIR
    from .store import importer
    from .store.identity import load_rules

    records = fetch_all(args.ids, config.root / CACHE_DIR, refresh=args.refresh)
    bib = args.store or config.bib_path
    report = importer.run_records(
        records, bib, load_rules(config.identity_path), dry_run=args.dry_run, root=config.root
    )
    print(report)
    return 1 if report.failed else 0


def _topics(args: argparse.Namespace, config: Config) -> int:
    from .site import topicdraft

    for line in topicdraft.run(config, to_stdout=args.print, force=args.force).lines():
        print(line)
    return 0


COMMANDS = {
    "import": _import,
    "generate": _generate,
    "build": _build,
    "export": _export,
    "init": _init,
    "add": _add,
    "topics": _topics,
    "sync": zotero_cli.run_command,
}


class Terminated(BaseException):
    """SIGTERM, raised like KeyboardInterrupt so that locks are released and children stopped."""


_terminated: list[int] = []  # the SIGTERMs this command got (by the handler, which may not be what surfaces)


def _terminate(signum: int, frame: FrameType | None) -> None:
    _terminated.append(signum)
    raise Terminated


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():  # only the main thread gets signals
        yield
        return
    _terminated.clear()
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    except BaseException as exc:
        # Raised inside a C extension's import (scipy's, while generate loads the enrichment),
        # Terminated comes out as that extension's "ImportError: initialization failed".
        if _terminated and not isinstance(exc, Terminated):
            raise Terminated from exc
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)


def _project(root: Path, command: str) -> Config:
    """The project's settings; a --root that is no folder is refused before anything is created there."""
    if command == "init":  # init makes a new project elsewhere: the current folder's settings are not its own
        return Config(root=root)
    if not root.is_dir():
        raise ReadingListError("no such project folder", root, code=Code.NO_PROJECT)
    return load_config(root)


def _error(message: str) -> int:
    print(f"readinglist: {message}", file=sys.stderr)
    return 1


def console() -> int:
    """The ``readinglist`` command (and ``python -m readinglist``): :func:`main` in a process of its own."""
    return main(own_process=True)


def main(argv: Sequence[str] | None = None, own_process: bool = False) -> int:
    """``own_process``: nothing else runs in this process (not a test, not a caller's script), so a
    command may tune it for itself (``generate.run``'s garbage collector)."""
    args = _parser().parse_args(argv)
    args.own_process = own_process
    root = args.root.resolve()
    try:
        with _sigterm_raises():
            return COMMANDS[args.command](args, _project(root, args.command))
    except ReadingListError as exc:
        return _error(f"error: {exc}")
    except OSError as exc:
        known = os_error(exc, root)
        if known is not None:
            return _error(f"error: {known}")
        if exc.filename is None:
            raise
        # An unreadable file, a read-only folder, a directory where a file belongs: say which.
        return _error(f"error: {exc.filename}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        _error("interrupted")
        return 128 + signal.SIGINT
    except Terminated:
        _error("terminated")
        return 128 + signal.SIGTERM


if __name__ == "__main__":
    sys.exit(console())
