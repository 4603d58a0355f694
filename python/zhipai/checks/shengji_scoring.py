"""Rule-case handlers for Shengji declaring and scoring (shared/cases/FORMAT.md):
``declare``, ``level_change``, ``level_advance``; plus this engine's ``chaodi``:

``chaodi``: fields ``level``, ``declaration`` (``[seat, cards]`` or ``null``: the final
declaration of the deal), ``dealer`` (the first burier), ``actions`` (``[seat, "pass" | cards]``
in time order) -> ``{"final": [seat, cards] | null, "trump": ..., "kitty": seat that buried last,
"done": bool, "overcalls": N}`` or ``{"illegal_at": i}`` (shengji.md §2.2 option ``chaodi``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import zhipai
from zhipai.shengji import scoring


def _rules(case: dict[str, Any]) -> zhipai.Rules:
    """The case's preset with its ``options`` (lists such as ``mandatory_levels`` as text)."""
    options = {
        k: ",".join(map(str, v)) if isinstance(v, list) else v
        for k, v in (case.get("options") or {}).items()
    }
    return zhipai.rules(case["game"], **options)


def _declare(case: dict[str, Any]) -> dict[str, Any]:
    out = scoring.declare(_rules(case), str(case.get("level", "2")), case["bids"])
    if out["illegal_at"] is not None:
        return {"illegal_at": out["illegal_at"], "reason": out["reason"]}
    return {"final": out["final"], "trump": out["trump"]}


def _level_change(case: dict[str, Any]) -> dict[str, Any]:
    return scoring.level_change(_rules(case), case["attacker_points"])


def _level_advance(case: dict[str, Any]) -> dict[str, Any]:
    return scoring.level_advance(
        _rules(case),
        str(case["level"]),
        str(case["attacker_level"]),
        case["attacker_points"],
        last_trick_single_jack=bool(case.get("last_trick_single_jack", False)),
    )


def _chaodi(case: dict[str, Any]) -> dict[str, Any]:
    out = scoring.chaodi(
        _rules(case),
        str(case.get("level", "2")),
        case.get("declaration"),
        int(case.get("dealer", 0)),
        case.get("actions", []),
    )
    if out["illegal_at"] is not None:
        return {"illegal_at": out["illegal_at"], "reason": out["reason"]}
    return {k: out[k] for k in ("final", "trump", "kitty", "done", "overcalls")}


CHECKS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "declare": _declare,
    "level_change": _level_change,
    "level_advance": _level_advance,
    "chaodi": _chaodi,
}
