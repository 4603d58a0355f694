"""Gongzhu 拱猪 (Chase the Pig), QQ rule set (seed 000; rules in ``shared/rules/gongzhu.md`` §A).

Scoring, legality and trick winners for positions given as card lists, and :class:`Game` to play
a deal. Every function takes the rule set as ``rules=`` (from ``zhipai.rules("gongzhu", ...)``)
or builds it from keyword options (``decks=2``, ``partnership=True``, ``normalize="exact"``, …,
names and values as in the digest's options list).

Seats are 0..3. In :func:`trick_winner` and the ``lead``/``play`` arguments, card lists use the
notation of ``zhipai.cards`` (``"QS"``, ``"10C 10C"``); a pair lead is two identical cards.

Errors: ``InvalidCardError`` (bad card text), ``InvalidValueError`` (bad hand, seat, play shape,
more copies than the decks hold), ``InvalidOptionError`` (bad option), ``IllegalPlayError``
(an illegal move applied to a :class:`Game`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from zhipai import _core
from zhipai._core import Rules

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
        raise TypeError("pass either rules= or keyword options, not both")
    return rules if rules is not None else _core.rules("gongzhu", options)


def _cards(cards: str | Iterable[Any]) -> str:
    return cards if isinstance(cards, str) else " ".join(str(c) for c in cards)


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
    raw, final = _core.gongzhu_score(r, [_cards(t) for t in taken], _cards(exposed), _cards(closed))
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
            r, _cards(hand), lead, _cards(exposed), list(suits_led_before), first_trick_of_match
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
        _cards(hand),
        _cards(play),
        lead,
        _cards(exposed),
        list(suits_led_before),
        first_trick_of_match,
    )
    return (reason is None, reason)


def trick_winner(plays: list[str], *, rules: Rules | None = None, **options: Any) -> int:
    """Index (leader = 0) of the play that wins the trick (§A.2; pair tricks §A.12)."""
    return int(_core.gongzhu_trick_winner(_rules(rules, options), [_cards(p) for p in plays]))


def play_match(
    deals: int, *, policy: str = "random", seed: int = 0, rules: Rules | None = None, **options: Any
) -> tuple[int, list[int]]:
    """Play up to ``deals`` deals of a match (or until ``match_end``) with ``policy``
    (``"random"`` or ``"greedy"``) for every seat: ``(deals played, accumulated final scores)``.
    Later deals are led by the previous pig-taker (§A.8)."""
    n, totals = _core.gongzhu_match(_rules(rules, options), deals, policy, seed)
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
        self._s = _core.GongzhuState(_rules(rules, options), seed, hands, leader)

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
        return self._s.phase  # type: ignore[no-any-return]

    def is_terminal(self) -> bool:
        return bool(self._s.is_terminal())

    def legal_actions(self) -> list[int]:
        return list(self._s.legal_actions())

    def legal_moves(self) -> list[str]:
        return list(self._s.legal_moves())

    def apply_action(self, action: int) -> None:
        """Apply an action code. Raises ``IllegalPlayError`` (with the rule) if illegal."""
        self._s.apply_action(action)

    def apply(self, move: str) -> None:
        """Apply a move as text (``"QS"``, ``"10C 10C"``, ``"expose QS"``, ``"end exposure"``)."""
        self._s.apply_move(move)

    def returns(self) -> list[float]:
        """Final (credited) scores per seat once terminal, zeros before."""
        return list(self._s.returns())

    def scores(self) -> DealScore:
        """Raw and final scores from the cards taken so far."""
        raw, final = self._s.scores()
        return DealScore(list(raw), list(final))

    def hand(self, seat: int) -> str:
        return self._s.hand(seat)  # type: ignore[no-any-return]

    def taken(self, seat: int) -> str:
        return self._s.taken(seat)  # type: ignore[no-any-return]

    def exposed(self, seat: int) -> tuple[str, str]:
        """``(open, closed)`` exposed cards of ``seat``."""
        return tuple(self._s.exposed(seat))  # type: ignore[return-value]

    def current_trick(self) -> tuple[int, list[str]]:
        """``(leader seat, plays so far)``."""
        leader, plays = self._s.current_trick()
        return int(leader), list(plays)

    @property
    def tricks_played(self) -> int:
        return int(self._s.tricks_played)

    @property
    def next_deal_leader(self) -> int | None:
        """The pig-taker, who leads the next deal (§A.8)."""
        return self._s.next_deal_leader  # type: ignore[no-any-return]

    def clone(self) -> "Game":
        return Game._wrap(self._s.clone())

    @staticmethod
    def num_actions() -> int:
        return int(_core.GongzhuState.num_actions())

    @staticmethod
    def action_to_string(action: int) -> str:
        return str(_core.GongzhuState.action_to_string(action))

    @staticmethod
    def string_to_action(move: str) -> int:
        return int(_core.GongzhuState.string_to_action(move))
