"""Rule-case handlers for the trick mechanics of the Shengji family and Hong Wu
(shared/cases/FORMAT.md checks ``format``, ``lead``, ``throw``, ``follow``, ``winner``,
``kitty_multiplier``; plus this engine's ``throw_penalty``).

Games ``tractor``, ``tractor_jj``, ``eighty_points`` and ``hong_wu``. While a game's trick rules
are not implemented the engine says so and the case is skipped (``NotImplementedError``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import zhipai
from zhipai.checks.base import Verdict
from zhipai.shengji.mechanics import Mechanics

GAMES = ("tractor", "tractor_jj", "eighty_points", "hong_wu")


def _mechanics(case: dict[str, Any]) -> Mechanics:
    game = case.get("game")
    if game not in GAMES:
        raise ValueError(f"game {game!r} has no Shengji-style tricks")
    level, trump = str(case.get("level", "2")), str(case.get("trump", "NT"))
    try:
        # A game whose trick rules are not implemented yet is skipped before its options
        # (which it may not know yet) are applied.
        # (at level 2: the "NT" level exists only with the case's after_A option)
        Mechanics(zhipai.rules(game), "2" if level == "NT" else level, trump)
    except zhipai.InvalidOptionError as e:
        if "not implemented" in str(e):
            raise NotImplementedError(str(e)) from None
        raise
    return Mechanics(zhipai.rules(game, **case.get("options", {})), level, trump)


def _multiset(cards: str) -> Counter[str]:
    return Counter(str(c) for c in zhipai.cards(cards))


def check_format(case: dict[str, Any]) -> Any:
    """``{"kind": K, "units": [...]}``; ``units`` match as any valid decomposition in any order:
    the same multiset of unit shapes, and each unit a legal unit of the listed cards."""
    m = _mechanics(case)
    try:
        f = m.classify(case["cards"])
    except zhipai.InvalidValueError:
        # More copies of a card than there are decks: no such combination exists.
        return Verdict(case.get("expect", {}).get("kind") == "invalid", {"kind": "invalid"})
    got = {"kind": f.kind, "units": f.units}
    expect = case.get("expect", {})
    ok = expect.get("kind") == f.kind
    if ok and "units" in expect:
        ok = _same_decomposition(m, expect["units"], f.units)
    return Verdict(ok, got)


def _same_decomposition(m: Mechanics, want: list[str], got: list[str]) -> bool:
    """Equal as multisets of units, or an equally valid decomposition: same total cards, same
    unit shapes, and every expected unit is itself one unit of the same shape."""
    if sorted(_key(u) for u in want) == sorted(_key(u) for u in got):
        return True
    total_w = sum((_multiset(u) for u in want), Counter())
    total_g = sum((_multiset(u) for u in got), Counter())
    if total_w != total_g:
        return False
    shapes_w = sorted((m.classify(u).kind, len(zhipai.cards(u))) for u in want)
    shapes_g = sorted((m.classify(u).kind, len(zhipai.cards(u))) for u in got)
    return shapes_w == shapes_g


def _key(cards: str) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(_multiset(cards).items()))


def check_lead(case: dict[str, Any]) -> str:
    """``"legal"`` or ``"illegal"`` (structure only; the hand when given)."""
    m = _mechanics(case)
    try:
        return "legal" if m.is_legal_lead(case["cards"], case.get("hand")) else "illegal"
    except zhipai.InvalidValueError:
        return "illegal"  # more copies of a card than there are decks cannot be held


def check_throw(case: dict[str, Any]) -> Any:
    """``{"valid": true}`` or ``{"valid": false, "forced": CARDS}`` (forced compared as a multiset)."""
    m = _mechanics(case)
    r = m.check_throw(case["cards"], list(case["others"]))
    got: dict[str, Any] = {"valid": r.valid}
    if not r.valid:
        got["forced"] = r.played
    expect = case.get("expect", {})
    ok = expect.get("valid") == r.valid
    if ok and not r.valid and "forced" in expect:
        ok = _multiset(expect["forced"]) == _multiset(r.played)
    return Verdict(ok, got)


def check_follow(case: dict[str, Any]) -> str:
    """``"legal"`` or ``"illegal"``."""
    m = _mechanics(case)
    try:
        ok = m.is_legal_follow(case["lead"], case["hand"], case["play"])
    except zhipai.InvalidValueError:
        return "illegal"  # cards that cannot be held, or a hand shorter than the lead
    return "legal" if ok else "illegal"


def check_winner(case: dict[str, Any]) -> int:
    """Index of the winning play."""
    return _mechanics(case).winner(list(case["plays"]))


def check_kitty_multiplier(case: dict[str, Any]) -> int:
    """The kitty multiplier of the last trick's lead (and winning play when given)."""
    m = _mechanics(case)
    try:
        return m.kitty_multiplier(case["lead"], case.get("winning_play"))
    except zhipai.InvalidOptionError as e:
        if "not implemented" in str(e):
            raise NotImplementedError(str(e)) from None
        raise


def check_throw_penalty(case: dict[str, Any]) -> dict[str, Any]:
    """``{"valid": bool, "penalty": N}``: the throw ``cards`` against ``others`` (as for ``throw``)
    and the points its failure costs under ``throw_fail_penalty`` (shengji.md §4.5; 0 when valid).
    An extra check of this engine (tests/cases/shengji_extra.jsonl)."""
    m = _mechanics(case)
    others = list(case["others"])
    return {
        "valid": m.check_throw(case["cards"], others).valid,
        "penalty": m.throw_penalty(case["cards"], others),
    }


CHECKS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "format": check_format,
    "lead": check_lead,
    "throw": check_throw,
    "follow": check_follow,
    "winner": check_winner,
    "kitty_multiplier": check_kitty_multiplier,
    "throw_penalty": check_throw_penalty,
}
