"""Gongzhu 拱猪 (Chase the Pig), QQ rule set (seed 000; rules in ``shared/rules/gongzhu.md`` §A).

Scoring, legality and trick winners for positions given as card lists; whole deals are played
with ``zhipai.Game("gongzhu").new_deal(...)`` (one :class:`zhipai.GameState` for every game).
Every function takes the rule set as ``rules=`` (from ``zhipai.rules("gongzhu", ...)``)
or builds it from keyword options (``decks=2``, ``partnership=True``, ``normalize="exact"``, …,
names and values as in the digest's options list).

Seats are 0..3. In :func:`trick_winner` and the ``lead``/``play`` arguments, card lists use the
notation of ``zhipai.cards`` (``"QS"``, ``"10C 10C"``); a pair lead is two identical cards.

Errors (all subclasses of ``zhipai.ZhipaiError``, each naming the bad value):
``InvalidCardError`` (bad card text), ``InvalidValueError`` (bad hand, seat, seed, count, play
shape, more copies than the decks hold, or an argument of the wrong type such as ``None`` or a
float where an int or cards are expected), ``InvalidOptionError`` (bad option, or both
``rules=`` and keyword options), ``IllegalPlayError`` (an illegal play).

Integer actions of the Gongzhu ``zhipai.GameState`` (1439, every action a whole move):
``0..52`` one card (``suit*13 + rank``, suits S H D C, rank ``2`` = 0); ``52..1430`` two cards
``a <= b`` (two decks; ``a == b`` a pair), code ``52 + 52a - a(a-1)/2 + (b-a)``; ``1430..1434``
``expose`` QS JD 10C AH; ``1434..1438`` ``expose closed`` (``exposure_mode="closed_open"``);
``1438`` ``end exposure``.

Hand evaluation: ``zhipai.evaluate("gongzhu", seat, hand, candidates=[...])``. A candidate is
either the seat's **exposure decision** — the exposable cards it exposes (``"QS"``,
``"QS AH"``; ``""`` = expose nothing) — or its **first play** (any other card, e.g. ``"3D"``; two
decks: two cards). ``dealer=s`` makes seat ``s`` lead the first trick with any card (a later
deal); without it the holder of ``first_lead_card`` leads it (the first deal of a match): the
Rust core's ``play_from_deal`` of the Gongzhu game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from zhipai import _core
from zhipai._core import InvalidOptionError, InvalidValueError, Rules

__all__ = [
    "DealScore",
    "is_legal",
    "legal_plays",
    "play_match",
    "score",
    "trick_winner",
]


def _rules(rules: Rules | None, options: dict[str, Any]) -> Rules:
    if rules is not None and options:
        raise InvalidOptionError(
            f"invalid options {sorted(options)}: pass either rules= or keyword options, not both"
        )
    if rules is not None and not isinstance(rules, Rules):
        raise InvalidValueError(f"invalid rules {rules!r}: expected zhipai.rules(\"gongzhu\", ...)")
    return rules if rules is not None else _core.rules("gongzhu", options)


def _cards(cards: Any, what: str = "cards") -> str:
    """Card-list text of a string or an iterable of cards (``Card`` or card strings)."""
    if isinstance(cards, str):
        return cards
    bad = InvalidValueError(f"invalid {what} {cards!r}: expected cards like 'QS 10C' or a list of cards")
    if cards is None or isinstance(cards, (bytes, int, float)) or not isinstance(cards, Iterable):
        raise bad
    try:
        items = list(cards)
    except TypeError:  # an Iterable that cannot be iterated (a 0-d numpy array)
        raise bad from None
    for c in items:
        if not isinstance(c, (str, _core.Card)):
            raise InvalidValueError(f"invalid {what} {cards!r}: {c!r} is not a card")
    return " ".join(str(c) for c in items)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi`` (``hi`` excluded), else ``InvalidValueError`` naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not lo <= int(value) < hi:
        raise InvalidValueError(f"invalid {what} {value!r}: expected an int in {lo}..{hi - 1}")
    return int(value)


def _seed(seed: Any) -> int:
    return _int(seed, "seed", 0, 2**64)


def _seat(seat: Any, what: str = "seat") -> int:
    return _int(seat, what, 0, 4)


def _card_lists(lists: Any, what: str, n: int | None = None) -> list[str]:
    bad = InvalidValueError(f"invalid {what} {lists!r}: expected a list of card lists")
    if isinstance(lists, (str, bytes)) or not isinstance(lists, Iterable):
        raise bad
    try:
        items = list(lists)
    except TypeError:  # an Iterable that cannot be iterated (a 0-d numpy array)
        raise bad from None
    out = [_cards(x, f"{what} entry") for x in items]
    if n is not None and len(out) != n:
        raise InvalidValueError(f"invalid {what} {lists!r}: expected {n} card lists, got {len(out)}")
    return out


def _suits(suits: Any) -> list[str]:
    if isinstance(suits, str):
        suits = suits.split()
    bad = InvalidValueError(f"invalid suits_led_before {suits!r}: expected suit letters like ['S', 'H']")
    if not isinstance(suits, Iterable):
        raise bad
    try:
        out = list(suits)
    except TypeError:  # an Iterable that cannot be iterated (a 0-d numpy array)
        raise bad from None
    for x in out:
        if not isinstance(x, str):
            raise InvalidValueError(f"invalid suits_led_before entry {x!r}: expected a suit letter S, H, D or C")
    return out


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidValueError(f"invalid {what} {value!r}: expected True or False")
    return bool(value)


def _lead(lead: Any) -> str | None:
    return None if lead is None else _cards(lead, "lead")


@dataclass(frozen=True)
class DealScore:
    """Scores of one deal: ``raw`` (§A.4–A.10, §A.12) and ``final`` (credited result after the
    §A.11 normalisation or the §A.13 team result), each a list of 4 ints by seat."""

    raw: list[int]
    final: list[int]


def score(
    taken: list[str] | list[list[Any]],
    exposed: str | Iterable[Any] = "",
    *,
    closed: str | Iterable[Any] = "",
    rules: Rules | None = None,
    **options: Any,
) -> DealScore:
    """Score a finished deal from the cards each seat took and the exposed cards.

    ``taken``: 4 card lists (seat order). ``exposed``: the cards the players chose to expose
    openly (one entry per exposed copy); the one-deck 3-of-4 auto-exposure is applied here
    (§A.6). ``closed``: closed declarations (``exposure_mode="closed_open"`` only).

    Raises ``InvalidValueError`` for a card taken more often than the decks hold, a card that is
    not exposable, or exposures the rules do not allow.
    """
    r = _rules(rules, options)
    raw, final = _core.gongzhu_score(
        r, _card_lists(taken, "taken", 4), _cards(exposed, "exposed"), _cards(closed, "closed")
    )
    return DealScore(list(raw), list(final))


def legal_plays(
    hand: str | Iterable[Any],
    lead: str | None = None,
    *,
    exposed: str | Iterable[Any] = "",
    suits_led_before: Iterable[str] = (),
    first_trick_of_match: bool = False,
    rules: Rules | None = None,
    **options: Any,
) -> list[str]:
    """Every legal play (card-list strings) for a player holding ``hand``.

    ``lead``: the current trick's lead (``None`` when this player leads). ``exposed``: this
    player's openly exposed cards (§A.7 restriction). ``suits_led_before``: suit letters led in
    earlier tricks. ``first_trick_of_match``: the lead must be ``first_lead_card`` (§A.8).
    """
    r = _rules(rules, options)
    return list(
        _core.gongzhu_legal_plays(
            r,
            _cards(hand, "hand"),
            _lead(lead),
            _cards(exposed, "exposed"),
            _suits(suits_led_before),
            _flag(first_trick_of_match, "first_trick_of_match"),
        )
    )


def is_legal(
    hand: str | Iterable[Any],
    play: str | Iterable[Any],
    lead: str | None = None,
    *,
    exposed: str | Iterable[Any] = "",
    suits_led_before: Iterable[str] = (),
    first_trick_of_match: bool = False,
    rules: Rules | None = None,
    **options: Any,
) -> tuple[bool, str | None]:
    """``(True, None)`` when ``play`` is legal, else ``(False, reason)`` naming the rule broken
    (follow suit §A.2, exposed card §A.7, first lead §A.8, pairs §A.12). Arguments as in
    :func:`legal_plays`."""
    r = _rules(rules, options)
    reason = _core.gongzhu_check_play(
        r,
        _cards(hand, "hand"),
        _cards(play, "play"),
        _lead(lead),
        _cards(exposed, "exposed"),
        _suits(suits_led_before),
        _flag(first_trick_of_match, "first_trick_of_match"),
    )
    return (reason is None, reason)


def trick_winner(plays: list[str], *, rules: Rules | None = None, **options: Any) -> int:
    """Index (leader = 0) of the play that wins the trick (§A.2; pair tricks §A.12)."""
    r = _rules(rules, options)
    return int(_core.gongzhu_trick_winner(r, _card_lists(plays, "plays")))


def play_match(
    deals: int, *, policy: str = "random", seed: int = 0, rules: Rules | None = None, **options: Any
) -> tuple[int, list[int]]:
    """Play up to ``deals`` deals of a match (or until ``match_end``) with ``policy``
    (``"random"``, ``"greedy"`` or ``"basic"``) for every seat: ``(deals played, accumulated
    final scores)``. Raises ``InvalidValueError`` naming a bad policy, count or seed.
    Later deals are led by the previous pig-taker (§A.8)."""
    r = _rules(rules, options)
    if not isinstance(policy, str) or policy not in ("random", "greedy", "basic"):
        raise InvalidValueError(f"invalid policy {policy!r}: expected 'random', 'greedy' or 'basic'")
    n, totals = _core.gongzhu_match(r, _int(deals, "deals", 0, 2**32), policy, _seed(seed))
    return int(n), list(totals)


