"""Command line: ``readinglist import | generate | build | export``.

Each command keeps its logic in a plain ``run()`` of its module; this file only parses
arguments, prints reports and turns the tool's errors into one line and exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .config import Config, load_config
from .errors import ReadingListError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="readinglist", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project folder (default: current directory)")
    commands = parser.add_subparsers(dest="command", required=True)
    imp = commands.add_parser("import", help="merge source dumps into refs.bib")
    imp.add_argument("sources", nargs="*", type=Path, help="dump files (default: the configured sources)")
    imp.add_argument("--bib", type=Path, help="the BibTeX store (default: refs.bib)")
    commands.add_parser("generate", help="write the MyST pages under docs/")
    build = commands.add_parser("build", help="generate, then build the HTML site")
    build.add_argument("--out", type=Path, default=None, help="output folder (default: docs/_build/html)")
    build.add_argument("-j", "--jobs", default="1", help="parallel Sphinx processes (default: 1)")
    build.add_argument(
        "--no-search", action="store_true", help="keep the last search index (a faster rebuild while writing notes)"
    )
    export = commands.add_parser("export", help="print the records")
    export.add_argument("--format", choices=["json"], default="json")
    return parser


def _import(args: argparse.Namespace, config: Config) -> int:
    from .store import importer
    from .store.identity import load_rules

    sources = args.sources or config.source_paths()
    if not sources:
        raise ReadingListError(f"no source dumps match {list(config.sources)}", config.root)
    bib = args.bib if args.bib else config.bib_path
    print(importer.run(sources, bib, config.root, load_rules(config.identity_path)))
    return 0


def _generate(args: argparse.Namespace, config: Config) -> int:
    from .site import generate

    for line in generate.run(config).lines():
        print(line)
    return 0


def _build(args: argparse.Namespace, config: Config) -> int:
    from .site import build, generate

    for line in generate.run(config).lines():
        print(line)
    out = args.out or config.docs_path / "_build" / "html"
    status = build.run(config, out, args.jobs, search=not args.no_search)
    if status == 0:
        print(f"site built: {out / 'index.html'}")
    return status


def _export(args: argparse.Namespace, config: Config) -> int:
    from .site.assemble import build_library
    from .site.records import records_json

    library, _, _ = build_library(config)
    sys.stdout.write(records_json(library))
    return 0


COMMANDS = {"import": _import, "generate": _generate, "build": _build, "export": _export}


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = load_config(args.root.resolve())
        return COMMANDS[args.command](args, config)
    except ReadingListError as exc:
        print(f"readinglist: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
