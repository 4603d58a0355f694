"""Rule-case handlers for Hong Wu (shared/cases/FORMAT.md): ``hongwu_bid``, ``hongwu_settle``.

The trick checks of ``hong_wu`` (``format``, ``lead``, ``throw``, ``follow``, ``winner``,
``kitty_multiplier``) go through the Shengji handlers (``zhipai.checks.shengji``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import zhipai
from zhipai.hongwu import HongWuAuction


def _rules(case: dict[str, Any]) -> zhipai.Rules:
    return zhipai.rules(case.get("game", "hong_wu"), **case.get("options", {}))


def hongwu_bid(case: dict[str, Any]) -> dict[str, Any]:
    """``{"dealer", "bid"}`` once the auction is over, ``{"illegal_at": i}`` for the first
    illegal action, or ``{"unfinished": {"to_act", "high"}}`` (hongwu.md §B.2)."""
    auction = HongWuAuction(_rules(case), case["first"])
    for i, (seat, bid) in enumerate(case["bids"]):
        try:
            auction.bid(seat, bid)
        except zhipai.IllegalPlayError:
            return {"illegal_at": i}
    if auction.result is None:
        return {"unfinished": {"to_act": auction.to_act, "high": auction.high}}
    dealer, bid = auction.result
    return {"dealer": dealer, "bid": bid}


def hongwu_settle(case: dict[str, Any]) -> dict[str, Any]:
    """``{"dealer", "each_other", "score"}`` in units of k (hongwu.md §B.11)."""
    r = zhipai.hongwu.settle(
        _rules(case), case["bid"], case["attacker_points"], case.get("red5_penalty", 0)
    )
    return {"dealer": r["dealer"], "each_other": r["each_other"], "score": r["score"]}


CHECKS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "hongwu_bid": hongwu_bid,
    "hongwu_settle": hongwu_settle,
}
