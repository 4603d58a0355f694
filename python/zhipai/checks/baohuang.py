"""Rule-case handlers for Qingdao Baohuang (shared/cases/FORMAT.md, "Checks, Baohuang")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import zhipai
from zhipai import baohuang as bh


def _rules(case: dict[str, Any]) -> zhipai.Rules:
    return zhipai.rules(case.get("game", "baohuang"), **case.get("options", {}))


def _play(case: dict[str, Any]) -> str:
    _rules(case)  # options are validated even though well-formedness does not depend on them
    return "legal" if bh.is_play(case["cards"]) else "illegal"


def _beats(case: dict[str, Any]) -> bool:
    return bh.beats(case["play"], case["previous"], _rules(case))


def _ascend(case: dict[str, Any]) -> dict[str, Any]:
    return {"options": bh.ascension_options(case["hand"], _rules(case))}


def _round(case: dict[str, Any]) -> dict[str, Any]:
    actions = [(seat, action) for seat, action in case["actions"]]
    return {"next_leader": bh.next_leader(actions, case.get("out", []), _rules(case))}


def _score(case: dict[str, Any]) -> dict[str, int]:
    return bh.score(case["mode"], case["emperor_place"], case.get("guard_place"), _rules(case))


CHECKS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "baohuang_play": _play,
    "baohuang_beats": _beats,
    "baohuang_ascend": _ascend,
    "baohuang_round": _round,
    "baohuang_score": _score,
}
