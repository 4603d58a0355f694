"""Rule-case handlers for Shengji declaring and scoring (shared/cases/FORMAT.md). Empty until it lands."""

from __future__ import annotations

from typing import Any, Callable

CHECKS: dict[str, Callable[[dict[str, Any]], Any]] = {}
