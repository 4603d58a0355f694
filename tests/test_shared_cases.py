"""Every rule-case file in ``shared/cases/`` through the case runner (shared/cases/FORMAT.md).

``shared/`` is found next to the repository root, or next to one of its ancestors (worktrees live
one level deeper), or at ``$ZHIPAI_SHARED``. A failed case fails the test, and so does a skipped
one: every game is implemented, so a skipped case means a check the engine lost.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from zhipai.testing import check_cases

ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    if os.environ.get("ZHIPAI_SHARED"):
        return Path(os.environ["ZHIPAI_SHARED"])
    for parent in ROOT.parents:
        if (parent / "shared" / "cases").is_dir():
            return parent / "shared"
    return None


SHARED = shared_dir()
CASE_FILES = sorted((SHARED / "cases").glob("*.jsonl")) if SHARED else []


def test_shared_cases_are_present():
    assert SHARED is not None, (
        f"shared/ not found next to {ROOT} or its ancestors; "
        "set ZHIPAI_SHARED or link it (e.g. ln -s /work/shared ../shared)")
    assert CASE_FILES, f"no *.jsonl case files in {SHARED / 'cases'}"


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.name)
def test_shared_case_file(path: Path):
    report = check_cases(path)
    assert report.failed == 0, f"{path.name}: {report}\n" + "\n".join(map(str, report.failures))
    assert report.skipped == 0, f"{path.name}: {report}; skipped: {report.skipped_ids}"
    assert report.passed > 0, f"{path.name} holds no cases"
