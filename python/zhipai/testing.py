"""The rule-case runner (shared/cases/FORMAT.md).

``check_cases(path)`` reads a JSON Lines file of rule cases and checks each against the engine.
A case whose ``check`` has no handler yet is *skipped*, never passed. Handlers live in
``zhipai.checks`` (one module per game) and return the engine's answer, or a ``Verdict`` when the
comparison is not plain equality.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from zhipai._check import shown
from zhipai._core import InvalidValueError
from zhipai._errors import FileError
from zhipai._files import parse_json, path_arg, shown_path
from zhipai.checks import HANDLERS, Verdict, matches

#: Longest line of a rule-case file (a case is a few hundred bytes; a file without line breaks,
#: such as ``/dev/zero``, is refused at this length instead of being read without end).
MAX_CASE_LINE = 1 << 20


@dataclass
class CaseFailure:
    """One failed case: its id, what it expected, what the engine answered (or the error)."""

    id: str
    expect: Any
    got: Any
    path: str = ""

    def __str__(self) -> str:
        return f"FAIL {self.id}: expected {json.dumps(self.expect, ensure_ascii=False)}, got {self.got}"


@dataclass
class CaseReport:
    """Counts of a run and the failures. ``str()`` is the summary line of FORMAT.md."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: list[CaseFailure] = field(default_factory=list)
    skipped_ids: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"

    def merge(self, other: CaseReport) -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.failures += other.failures
        self.skipped_ids += other.skipped_ids


def read_cases(path: str | os.PathLike[str]) -> Iterable[dict[str, Any]]:
    """The cases of a JSON Lines file (``#`` lines and blank lines ignored).

    Raises:
        InvalidValueError: ``path`` is not a ``str`` or ``pathlib.Path`` (an int would be read
            as a file descriptor).
        FileError: the file cannot be read or is not UTF-8, a line is not a JSON object or is
            longer than :data:`MAX_CASE_LINE` characters (naming the file and line number).
    """
    p = path_arg("path", path)
    shown = shown_path(path)
    try:
        with open(p, encoding="utf-8") as f:
            for n, line in enumerate(iter(lambda: f.readline(MAX_CASE_LINE + 1), ""), 1):
                if len(line) > MAX_CASE_LINE:
                    raise FileError(
                        f"cannot read rule case {shown}:{n}: a line longer than {MAX_CASE_LINE:,} characters "
                        "(not a rule-case file)", path=shown)
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                case = parse_json(line, source=f"{shown}:{n}", what="rule case")
                if not isinstance(case, dict):
                    raise FileError(f"cannot read rule case {shown}:{n}: a case must be a JSON object", path=shown)
                yield case
    except OSError as e:
        raise FileError(f"cannot read rule cases {shown}: {e.strerror or e}", path=shown) from e
    except UnicodeDecodeError as e:
        raise FileError(f"cannot read rule cases {shown}: not UTF-8 text", path=shown) from e


def check_case(case: dict[str, Any]) -> tuple[str, Any]:
    """Check one case: returns ``("passed" | "failed" | "skipped", what the engine answered)``.
    Raises ``InvalidValueError`` when ``case`` is not a dict."""
    if not isinstance(case, dict):
        raise InvalidValueError(f"invalid case {shown(case)}: expected a dict (one JSON object of a case file)")
    check = case.get("check")
    handler = HANDLERS.get(check) if isinstance(check, str) else None
    if handler is None:
        return "skipped", f"no handler for check {case.get('check')!r}"
    try:
        got = handler(case)
    except NotImplementedError as e:
        return "skipped", f"not implemented: {e}"
    except Exception as e:  # a wrong error is a failed case, reported with its message
        return "failed", f"{type(e).__name__}: {e}"
    if isinstance(got, Verdict):
        return ("passed" if got.ok else "failed"), got.got
    return ("passed" if matches(case.get("expect"), got) else "failed"), got


def check_cases(*paths: str | os.PathLike[str]) -> CaseReport:
    """Check every case of the given files; returns a ``CaseReport`` (``str()`` = summary line)."""
    report = CaseReport()
    for path in paths:
        for case in read_cases(path):
            status, got = check_case(case)
            cid = str(case.get("id", "?"))
            if status == "passed":
                report.passed += 1
            elif status == "skipped":
                report.skipped += 1
                report.skipped_ids.append(cid)
            else:
                report.failed += 1
                report.failures.append(CaseFailure(cid, case.get("expect"), got, str(path)))
    return report
