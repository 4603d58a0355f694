"""Shared pieces of the rule-case handlers: ``Verdict`` and ``matches``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Verdict:
    """A handler's own judgement: ``ok`` and the engine's answer for the report."""

    ok: bool
    got: Any


def matches(expect: Any, got: Any) -> bool:
    """``expect`` equals ``got``, where a dict in ``expect`` may leave keys out."""
    if isinstance(expect, dict):
        return isinstance(got, dict) and all(
            k in got and matches(v, got[k]) for k, v in expect.items()
        )
    if isinstance(expect, list):
        return isinstance(got, (list, tuple)) and len(expect) == len(got) and all(
            matches(e, g) for e, g in zip(expect, got, strict=False)
        )
    return bool(expect == got)
