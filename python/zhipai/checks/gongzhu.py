"""Rule-case handlers for gongzhu (shared/cases/FORMAT.md, "Checks, Gongzhu")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import zhipai
from zhipai import gongzhu


def _rules(case: dict[str, Any]) -> zhipai.Rules:
    return zhipai.rules(case.get("game", "gongzhu"), **case.get("options", {}))


def _score(case: dict[str, Any]) -> dict[str, list[int]]:
    s = gongzhu.score(
        case["taken"], case.get("exposed", ""), closed=case.get("closed", ""), rules=_rules(case)
    )
    return {"raw": s.raw, "final": s.final}


def _legal(case: dict[str, Any], lead: str | None) -> str:
    ok, _ = gongzhu.is_legal(
        case["hand"],
        case["play"],
        lead,
        exposed=case.get("exposed", ""),
        suits_led_before=case.get("suit_led_before", []),
        first_trick_of_match=bool(case.get("first_trick_of_match", False)),
        rules=_rules(case),
    )
    return "legal" if ok else "illegal"


def _follow(case: dict[str, Any]) -> str:
    return _legal(case, case["lead"])


def _lead(case: dict[str, Any]) -> str:
    return _legal(case, None)


def _winner(case: dict[str, Any]) -> int:
    return gongzhu.trick_winner(case["plays"], rules=_rules(case))


CHECKS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "gongzhu_score": _score,
    "gongzhu_follow": _follow,
    "gongzhu_lead": _lead,
    "gongzhu_winner": _winner,
}
