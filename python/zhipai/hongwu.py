"""Hong Wu 红五 (two-deck "新型红五", shared/rules/hongwu.md, seed 002).

One dealer 庄家 plays alone against three 闲家. The dealer is found by an auction 叫分
(:class:`HongWuAuction`), chooses trump, takes and buries the 8-card kitty, and must reach his
bid. ♥5 is always the top trump (:class:`HongWuOrder`). The result is read from a six-row
table in units of the base score k (:func:`settle`, :func:`result_units`); the seed's level
table is :func:`levels`. A whole deal is a :class:`zhipai.GameState`
(``zhipai.Game("hong_wu").new_deal(seed=7)``, or ``new_deal(hands=[...], kitty=..., dealer=s)``
with ``dealer`` = the seat that opens the auction) played move by move or to the end with the
built-in ``"random"`` / ``"greedy"`` policies; ``zhipai.simulate(zhipai.rules("hong_wu"), ...)``
runs many deals in Rust.

Integer actions of the Hong Wu ``GameState`` (89): ``0..54`` add one card of that kind to the
burial or play being built (a burial ends at 8 cards, a follow at the lead's size), ``54``
``stop`` (ends a lead), ``55`` ``pass``, ``56..85`` ``bid 60`` ... ``bid 200`` (``56 + (points -
60) / 5``), ``85..89`` ``trump S``, ``trump H``, ``trump D``, ``trump C``.

Seats are numbered 0 to 3 anticlockwise; with ``direction="anticlockwise"`` (default) the
turn goes 0 → 1 → 2 → 3.

Every function raises a ``zhipai`` exception naming the bad value (``InvalidValueError`` for a
wrong type or range: ints may be Python or NumPy ints, not bools or floats; ``IllegalPlayError``
for an action the rules forbid, with the digest section it breaks).

Example::

    import zhipai as zp
    rules = zp.rules("hong_wu")
    a = zp.hongwu.HongWuAuction(rules, first=0)
    a.bid(0, 60); a.bid(1, "pass"); a.bid(2, "pass"); a.bid(3, "pass")
    a.result                                  # (0, 60): seat 0 is dealer at 60
    zp.hongwu.settle(rules, bid=100, attacker_points=60)["dealer"]   # 6 (units of k)
    state = zp.Game(rules).new_deal(seed=7)
    while not state.is_terminal():
        state.apply_builtin("greedy")
    state.result()                         # {column: value}: dealer_result, each_other_result, ...
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Union

from zhipai import _check
from zhipai._core import (
    HongWuAuction,
    HongWuOrder,
    IllegalPlayError,
    InvalidValueError,
    Rules,
    hongwu_levels,
    hongwu_result_units,
    hongwu_settle,
    hongwu_settle_deal,
)

__all__ = [
    "HongWuAuction",
    "HongWuOrder",
    "MAX_BID",
    "MIN_BID",
    "TOTAL_POINTS",
    "levels",
    "result_units",
    "run_auction",
    "settle",
    "settle_deal",
]

Bid = Union[int, str]

#: Lowest bid (hongwu.md §B.2).
MIN_BID = 60
#: Highest bid; it ends the auction at once (hongwu.md §B.2).
MAX_BID = 200
#: Card points in the two decks (hongwu.md §B.5).
TOTAL_POINTS = 200


def run_auction(rules: Rules, first: int, bids: Iterable[tuple[int, Bid]]) -> HongWuAuction:
    """Play ``bids`` (``(seat, points)`` or ``(seat, "pass")`` in time order) from opener ``first``.

    Returns the auction after the last action (``.result`` is ``(dealer, bid)`` once it is over).

    Raises:
        IllegalPlayError: the first illegal action; the message starts with ``action i:``
            (0-based index into ``bids``) and gives the rule it breaks (hongwu.md §B.2).
        InvalidValueError: a seat outside 0 to 3, a bid that is neither an int nor ``"pass"``
            (also starting with ``action i:``), an item that is not a ``(seat, bid)`` pair, or
            ``bids`` that is not iterable.
    """
    auction = HongWuAuction(rules, first)
    try:
        items = iter(bids)
    except TypeError:
        raise InvalidValueError(
            f"invalid bids {bids!r}: expected (seat, bid) pairs"
        ) from None
    for i, item in enumerate(items):
        try:
            seat, bid = item
        except (TypeError, ValueError):
            raise InvalidValueError(
                f"invalid bids item {i} {item!r}: expected a (seat, bid) pair"
            ) from None
        try:
            auction.bid(seat, bid)
        except (IllegalPlayError, InvalidValueError) as e:
            raise type(e)(f"action {i}: {e}") from None
    return auction


def settle(rules: Rules, bid: int, attacker_points: int, red5_penalty: int = 0) -> dict[str, int]:
    """Settle a deal from the 闲家's points X (kitty included, hongwu.md §B.10–§B.11).

    S = (200 − X) − bid − red5_penalty. Returns ``{"attacker_points", "dealer_points",
    "red5_penalty", "score" (S), "dealer", "each_other"}``; ``dealer`` and ``each_other`` are
    ints in points = table units × ``base_score_k`` (default k = 1), and
    ``dealer + 3 * each_other == 0``.

    Raises:
        InvalidValueError: bid not a multiple of 5 in 60…200; X not a multiple of 5 in 0…760
            (0…200 unless ``kitty="last_trick_multiplied"``); the penalty not a multiple of 5
            in 0…400; a non-int argument; rules of another game.
        InvalidOptionError: with ``dealer_points="own_tricks"`` (use :func:`settle_deal`).
    """
    return dict(hongwu_settle(rules, bid, attacker_points, red5_penalty))


def settle_deal(
    rules: Rules,
    bid: int,
    *,
    xianjia_tricks: int,
    dealer_tricks: int,
    kitty: int,
    xianjia_won_last: bool,
    last_multiplier: int,
    red5_captured: int = 0,
) -> dict[str, int]:
    """Settle a deal from its parts (hongwu.md §B.10–§B.11), applying the ``kitty``,
    ``dealer_points`` and ``red5_penalty_*`` options.

    Points are multiples of 5 (§B.5); ``xianjia_tricks + dealer_tricks + kitty`` must be 200
    and ``kitty`` at most 80 (the most 8 cards hold); ``last_multiplier`` is the last trick's
    kitty multiplier (2 single, 4 pair, 8 tractor; applied per the ``kitty`` option);
    ``red5_captured`` the ♥5s (0…2) that count for the red-5 penalty;
    ``xianjia_won_last`` a bool. Returns the same dict as :func:`settle`.

    Raises:
        InvalidValueError: points that are not multiples of 5, do not add up to 200 or put more
            than 80 in the kitty; a multiplier other than 2, 4, 8; a bad count, bid or type.
    """
    return dict(
        hongwu_settle_deal(
            rules,
            bid,
            xianjia_tricks=xianjia_tricks,
            dealer_tricks=dealer_tricks,
            kitty=kitty,
            xianjia_won_last=_check.flag("xianjia_won_last", xianjia_won_last),
            last_multiplier=last_multiplier,
            red5_captured=red5_captured,
        )
    )


def result_units(score: int) -> tuple[int, int]:
    """``(dealer, each 闲家)`` in units of k for dealer score S (hongwu.md §B.11):
    S ≤ −70 → (−9, 3); −70 < S ≤ −30 → (−6, 2); −30 < S < 0 → (−3, 1); 0 ≤ S < 30 → (3, −1);
    30 ≤ S < 70 → (6, −2); S ≥ 70 → (9, −3).

    Raises:
        InvalidValueError: S not a multiple of 5 (no deal gives one, §B.11) or not an int.
    """
    return hongwu_result_units(score)


def levels(rules: Rules | None = None) -> list[dict[str, Any]]:
    """The seed's level table (hongwu.md §B.12): ``[{"level", "name", "threshold"}]`` for rows
    1…20 (一级升级分). Row 20 follows ``level20_threshold`` (default the seed's 15728640).

    Raises:
        InvalidValueError: rules of another game.
    """
    return [
        {"level": n, "name": name, "threshold": t} for n, name, t in hongwu_levels(rules)
    ]
