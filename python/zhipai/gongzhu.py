"""Gongzhu 拱猪 (Chase the Pig), QQ rule set (seed 000; rules in ``shared/rules/gongzhu.md`` §A).

Scoring, legality and trick winners for positions given as card lists, and :class:`Game` to play
a deal. Every function takes the rule set as ``rules=`` (from ``zhipai.rules("gongzhu", ...)``)
or builds it from keyword options (``decks=2``, ``partnership=True``, ``normalize="exact"``, …,
names and values as in the digest's options list).

Seats are 0..3. In :func:`trick_winner` and the ``lead``/``play`` arguments, card lists use the
notation of ``zhipai.cards`` (``"QS"``, ``"10C 10C"``); a pair lead is two identical cards.

Errors (all subclasses of ``zhipai.ZhipaiError``, each naming the bad value):
``InvalidCardError`` (bad card text), ``InvalidValueError`` (bad hand, seat, seed, count, play
shape, more copies than the decks hold, or an argument of the wrong type such as ``None`` or a
float where an int or cards are expected), ``InvalidOptionError`` (bad option, or both
``rules=`` and keyword options), ``IllegalPlayError`` (an illegal move applied to a
:class:`Game`).

Hand evaluation: ``zhipai.evaluate("gongzhu", seat, hand, candidates=[...])``. A candidate is
either the seat's **exposure decision** — the exposable cards it exposes (``"QS"``,
``"QS AH"``; ``""`` = expose nothing) — or its **first play** (any other card, e.g. ``"3D"``; two
decks: two cards). ``dealer=s`` makes seat ``s`` lead the first trick with any card (a later
deal); without it the holder of ``first_lead_card`` leads it (the first deal of a match). See
``rust/zhipai-core/src/games/gongzhu/evaluate.rs``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from zhipai import _core
from zhipai._core import InvalidOptionError, InvalidValueError, Rules

__all__ = [
    "DealScore",
    "Game",
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
    if cards is None or isinstance(cards, (bytes, int, float)) or not isinstance(cards, Iterable):
        raise InvalidValueError(f"invalid {what} {cards!r}: expected cards like 'QS 10C' or a list of cards")
    items = list(cards)
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
    if isinstance(lists, (str, bytes)) or not isinstance(lists, Iterable):
        raise InvalidValueError(f"invalid {what} {lists!r}: expected a list of card lists")
    out = [_cards(x, f"{what} entry") for x in lists]
    if n is not None and len(out) != n:
        raise InvalidValueError(f"invalid {what} {lists!r}: expected {n} card lists, got {len(out)}")
    return out


def _suits(suits: Any) -> list[str]:
    if isinstance(suits, str):
        suits = suits.split()
    if not isinstance(suits, Iterable):
        raise InvalidValueError(f"invalid suits_led_before {suits!r}: expected suit letters like ['S', 'H']")
    out = list(suits)
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
    (``"random"`` or ``"greedy"``) for every seat: ``(deals played, accumulated final scores)``.
    Later deals are led by the previous pig-taker (§A.8)."""
    r = _rules(rules, options)
    if policy not in ("random", "greedy"):
        raise InvalidValueError(f"invalid policy {policy!r}: expected 'random' or 'greedy'")
    n, totals = _core.gongzhu_match(r, _int(deals, "deals", 0, 2**32), policy, _seed(seed))
    return int(n), list(totals)


class Game:
    """One Gongzhu deal, OpenSpiel style.

    ``Game(seed=0, hands=None, leader=None, rules=None, **options)``: random hands from
    ``seed`` (reproducible), or ``hands`` (4 card lists, together exactly the deck(s)).
    ``leader=None`` opens as the first deal of a match (the holder of ``first_lead_card`` must
    lead it); ``leader=s`` lets seat ``s`` lead any card (a later deal).

    Phases: ``"exposure"`` (each seat in turn from the leader exposes cards with moves
    ``"expose QS"`` and ends with ``"end exposure"``), ``"play"``, ``"done"``. Action codes:
    a single card = its kind 0..51, two cards ``a ≤ b`` = ``52 + triangular index``, then the
    exposure actions (``Game.num_actions()`` in all).
    """

    def __init__(
        self,
        seed: int = 0,
        hands: list[str] | None = None,
        leader: int | None = None,
        *,
        rules: Rules | None = None,
        **options: Any,
    ) -> None:
        r = _rules(rules, options)
        h = None if hands is None else _card_lists(hands, "hands", 4)
        lead = None if leader is None else _seat(leader, "leader")
        self._s = _core.GongzhuState(r, _seed(seed), h, lead)

    @classmethod
    def _wrap(cls, state: Any) -> "Game":
        g = cls.__new__(cls)
        g._s = state
        return g

    @property
    def current_player(self) -> int | None:
        """Seat to act, ``None`` when the deal is over."""
        return self._s.current_player  # type: ignore[no-any-return]

    @property
    def phase(self) -> str:
        """``"exposure"``, ``"play"`` or ``"done"``."""
        return self._s.phase  # type: ignore[no-any-return]

    def is_terminal(self) -> bool:
        """Whether every trick has been played."""
        return bool(self._s.is_terminal())

    def legal_actions(self) -> list[int]:
        """Legal action codes of the seat to act, ascending (empty when terminal)."""
        return list(self._s.legal_actions())

    def legal_moves(self) -> list[str]:
        """Legal moves as text (``"QS"``, ``"expose QS"``, ``"end exposure"``)."""
        return list(self._s.legal_moves())

    def apply_action(self, action: int) -> None:
        """Apply an action code. Raises ``IllegalPlayError`` (with the rule) if illegal."""
        self._s.apply_action(_int(action, "action", 0, self.num_actions()))

    def apply(self, move: str) -> None:
        """Apply a move as text (``"QS"``, ``"10C 10C"``, ``"expose QS"``, ``"end exposure"``)."""
        if not isinstance(move, str):
            raise InvalidValueError(f"invalid move {move!r}: expected text like 'QS' or 'expose QS'")
        self._s.apply_move(move)

    def returns(self) -> list[float]:
        """Final (credited) scores per seat once terminal, zeros before."""
        return list(self._s.returns())

    def scores(self) -> DealScore:
        """Raw and final scores from the cards taken so far."""
        raw, final = self._s.scores()
        return DealScore(list(raw), list(final))

    def hand(self, seat: int) -> str:
        """Cards ``seat`` (0..3) still holds. Raises ``InvalidValueError`` for another seat."""
        return self._s.hand(_seat(seat))  # type: ignore[no-any-return]

    def taken(self, seat: int) -> str:
        """Cards ``seat`` (0..3) took in won tricks."""
        return self._s.taken(_seat(seat))  # type: ignore[no-any-return]

    def exposed(self, seat: int) -> tuple[str, str]:
        """``(open, closed)`` exposed cards of ``seat``."""
        return tuple(self._s.exposed(_seat(seat)))  # type: ignore[return-value]

    def current_trick(self) -> tuple[int, list[str]]:
        """``(leader seat, plays so far)``."""
        leader, plays = self._s.current_trick()
        return int(leader), list(plays)

    @property
    def tricks_played(self) -> int:
        """Completed tricks (13 in one deck; 13 to 26 in two)."""
        return int(self._s.tricks_played)

    @property
    def next_deal_leader(self) -> int | None:
        """The pig-taker, who leads the next deal (§A.8)."""
        return self._s.next_deal_leader  # type: ignore[no-any-return]

    def clone(self) -> "Game":
        """An independent copy of this deal."""
        return Game._wrap(self._s.clone())

    @staticmethod
    def num_actions() -> int:
        """Number of distinct action codes."""
        return int(_core.GongzhuState.num_actions())

    @staticmethod
    def action_to_string(action: int) -> str:
        """The move of an action code as text. Raises ``InvalidValueError`` outside the codes."""
        return str(_core.GongzhuState.action_to_string(_int(action, "action", 0, Game.num_actions())))

    @staticmethod
    def string_to_action(move: str) -> int:
        """The action code of a move given as text."""
        if not isinstance(move, str):
            raise InvalidValueError(f"invalid move {move!r}: expected text like 'QS' or 'expose QS'")
        return int(_core.GongzhuState.string_to_action(move))
