"""Rule-case handlers for baohuang (shared/cases/FORMAT.md). Empty until the game lands."""

from __future__ import annotations

from typing import Any, Callable

CHECKS: dict[str, Callable[[dict[str, Any]], Any]] = {}
