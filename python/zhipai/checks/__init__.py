"""Handlers for rule-case checks, one module per game (shared/cases/FORMAT.md, "Checks").

A handler takes the case (a dict) and returns the engine's answer, compared with ``expect`` by
``matches``, or a ``Verdict`` when the check needs its own comparison. Raising
``NotImplementedError`` marks the case skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zhipai.checks import baohuang, gongzhu, hongwu, shengji, shengji_scoring
from zhipai.checks.base import Verdict, matches

__all__ = ["HANDLERS", "Verdict", "matches"]


HANDLERS: dict[str, Callable[[dict[str, Any]], Any]] = {}
for _module in (shengji, shengji_scoring, hongwu, gongzhu, baohuang):
    for _name, _handler in _module.CHECKS.items():
        if _name in HANDLERS and HANDLERS[_name] is not _handler:
            raise RuntimeError(f"check {_name!r} has two handlers")
        HANDLERS[_name] = _handler
