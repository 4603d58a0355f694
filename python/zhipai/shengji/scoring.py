"""Shengji declaring, level changes and the match (rules: shared/rules/shengji.md §2.2-2.3, §8).

Players are seats ``0..3`` in counter-clockwise playing order; the partner of seat ``p`` is
``(p + 2) % 4``. Levels are rank symbols ``"2"`` ... ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``
(and ``"NT"``, the joker-only level after A under ``after_A="no_trump_level"``). Attacker points
``P`` are the attackers' final total (tricks + kitty bonus +/- penalties); a negative ``P`` counts
as 0.

Every function takes a Shengji rule set from ``zhipai.rules("tractor" | "tractor_jj" |
"eighty_points", **options)`` and raises:

* ``InvalidValueError``: rules of another game, a seat outside 0..3, a bad level, ``|P| > 10**6``;
* ``InvalidCardError``: a card that cannot be parsed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from zhipai import _check, _core
from zhipai._core import GameState, InvalidValueError, Rules, ShengjiMatch

__all__ = ["Match", "chaodi", "declare", "jj_score", "level_advance", "level_change"]


def declare(rules: Rules, level: str, bids: Iterable[Sequence[Any]]) -> dict[str, Any]:
    """Check a declaration sequence (亮主 / 反主, shengji.md §2.2) and name the final declaration.

    Args:
        rules: a Shengji rule set (its ``decks`` choose the ladder: 1 deck single only and the
            first declaration final; 2 decks single L < pair L < pair SJ < pair BJ; 3 decks
            ... < triple L < triple SJ < triple BJ). Options used: ``partner_may_overcall``,
            ``self_reinforce_same_suit``, ``self_overcall_other_suit``, ``suit_ranked_bids``,
            ``no_declaration``.
        level: the hand's level rank, e.g. ``"2"``.
        bids: ``(seat, cards)`` pairs in time order, cards in notation (``"2S 2S"``).

    Returns:
        ``{"final": [seat, cards] | None, "trump": "S"|"H"|"D"|"C"|"NT"|None,
        "first": seat | None, "illegal_at": int | None, "reason": str | None}``. ``final`` and
        ``trump`` describe the accepted bids (before any illegal one). ``trump`` is ``"NT"`` for a
        joker declaration and, when nobody declared, under ``no_declaration="NT"``; it is ``None``
        when nobody declared and the trump is decided at deal time (``random_suit``,
        ``flip_kitty``). ``illegal_at`` is the index of the first bid the rules refuse and
        ``reason`` the rule it breaks; later bids are not checked.

    Raises:
        InvalidValueError: a seat outside 0..3, a bad level or non-Shengji rules, rules that are
            neither a ``Rules`` nor a preset name, a bid that is not a ``(seat, cards)`` pair.
        InvalidCardError: unparsable cards.
    """
    rules = _check.rules(rules)
    level = _check.text("level", level)
    pairs = _seat_cards("bids", bids)
    final, trump, first, illegal_at, reason = _core.shengji_declare(rules, level, pairs)
    return {
        "final": None if final is None else [final[0], final[1]],
        "trump": trump,
        "first": first,
        "illegal_at": illegal_at,
        "reason": reason,
    }


def chaodi(
    rules: Rules,
    level: str,
    declaration: Sequence[Any] | None,
    dealer: int,
    actions: Iterable[Sequence[Any]],
) -> dict[str, Any]:
    """Check a 炒底 / 反底 exchange (overcalling after the burial, option ``chaodi``; shengji.md
    §2.2; sequence from SJ+ ``Game.py``, TH "反底不反庄").

    After a burial the three other seats are offered, counter-clockwise from the burier's right,
    skipping the seat holding the winning declaration; each may pass or overcall on the same ladder
    as during the deal. An overcall fixes the new trump at once; the overcaller takes the kitty,
    buries, and a new round starts from their right. A round of passes ends it; the dealer never
    changes. No round happens when nobody declared (SJ+), with 1 deck, or with ``chaodi`` off.

    Args:
        rules: a Shengji rule set (``chaodi``, ``partner_may_overcall``, ``suit_ranked_bids`` used).
        level: the hand's level rank. declaration: the final declaration of the deal as
            ``(seat, cards)``, or ``None``. dealer: the seat that buried first.
        actions: ``(seat, "pass" | cards)`` in time order; every offered seat answers.

    Returns:
        ``{"final": [seat, cards] | None, "trump": "S"|"H"|"D"|"C"|"NT"|None, "kitty": seat that
        buried last, "done": every seat of the last round passed, "overcalls": int,
        "illegal_at": int | None, "reason": str | None}`` (an out-of-turn action, an action after
        the end, or a bid the ladder refuses; later actions are not read).

    Raises:
        InvalidValueError: a seat outside 0..3, a bad level or non-Shengji rules; a
            ``declaration`` or action that is not a ``(seat, cards)`` pair.
        IllegalPlayError: ``declaration`` is not a legal declaration. InvalidCardError: bad cards.
    """
    rules = _check.rules(rules)
    level = _check.text("level", level)
    decl = None
    if declaration is not None:
        decl = _seat_card_pair("declaration", declaration, "a (seat, cards) pair such as (0, '2S 2S')")
    acts = _seat_cards("actions", actions)
    final, trump, kitty, done, overcalls, illegal_at, reason = _core.shengji_chaodi(
        rules, level, decl, dealer, acts
    )
    return {
        "final": None if final is None else [final[0], final[1]],
        "trump": trump,
        "kitty": kitty,
        "done": done,
        "overcalls": overcalls,
        "illegal_at": illegal_at,
        "reason": reason,
    }


def _seat_card_pair(what: str, item: Any, expected: str) -> tuple[int, str]:
    """``(seat, cards)`` with the seat an int 0..3 and the cards a string, else
    ``InvalidValueError`` naming ``what`` and the item."""
    seat, cards = _check.pair(what, item, expected)
    try:
        player = _core._check_int("player", seat, 0, 3)
    except InvalidValueError as e:
        raise InvalidValueError(f"{what}: {e}") from None
    return player, _check.text(f"cards of {what}", cards)


def _seat_cards(what: str, items: Any) -> list[tuple[int, str]]:
    """A sequence of ``(seat, cards)`` pairs, each checked (the index is named when bad)."""
    expected = "a list of (seat, cards) pairs"
    return [_seat_card_pair(f"{what}[{i}]", item, "a (seat, cards) pair such as (0, '2S')")
            for i, item in enumerate(_check.items(what, items, expected))]


def level_change(rules: Rules, attacker_points: int) -> dict[str, Any]:
    """The level change for the attackers' final total (shengji.md §8.1-8.3, §9.7).

    The table follows ``decks`` and ``two_deck_table`` / ``one_deck_table`` /
    ``three_deck_table``; ``level_cap`` applies.

    Returns:
        ``{"side": "dealer"|"attackers", "levels": int, "take_over": bool}`` plus, when
        ``jj_scoring`` is on, ``"jj_score"`` (JJ 防方计分 in units of 基数, §8.4).

    Raises:
        InvalidValueError: non-Shengji rules, ``|attacker_points| > 10**6``, or
            ``attacker_points`` not an integer (a float, bool or ``None``).
    """
    side, levels, take_over, jj = _core.shengji_level_change(_check.rules(rules), attacker_points)
    out: dict[str, Any] = {"side": side, "levels": levels, "take_over": take_over}
    if jj is not None:
        out["jj_score"] = jj
    return out


def jj_score(rules: Rules, attacker_points: int) -> dict[str, int]:
    """JJ 拖拉机 match score (积分, seed 001, shengji.md §8.4) for the attackers' total.

    Uses the rules' ``jj_small_score`` (``monotone`` default / ``literal``) and ``base`` (基数),
    whether or not ``jj_scoring`` is on. Examples (seed): P=120 -> 40, P=115 -> 27.

    Returns:
        ``{"score": 防方计分 in units of 基数, "points": score * base}``.

    Raises:
        InvalidValueError: non-Shengji rules, ``|attacker_points| > 10**6``, or
            ``attacker_points`` not an integer (a float, bool or ``None``).
    """
    score, points = _core.shengji_jj_score(_check.rules(rules), attacker_points)
    return {"score": score, "points": points}


def level_advance(
    rules: Rules,
    level: str,
    attacker_level: str,
    attacker_points: int,
    *,
    last_trick_single_jack: bool = False,
) -> dict[str, Any]:
    """Both teams' levels after a hand, with must-play levels and the match end (shengji.md §8.5).

    A rise that would pass a level of ``mandatory_levels`` stops on it (A always); a team leaves
    a mandatory level only by holding as dealer there; attackers standing on one who take over
    stay on it. Holding as dealer at A ends the match under ``after_A="match_ends"``.

    Args:
        level: the hand's level (the dealer team's level).
        attacker_level: the attackers' own level.
        attacker_points: the attackers' final total.
        last_trick_single_jack: the attackers won the last trick with a single J (read only
            under ``jack_back_to_two="single_J"`` at level J).

    Returns:
        ``{"side", "levels", "take_over", "new_level" (of the side that gained),
        "dealer_level", "attacker_level" (both teams after the hand), "match_won"}``.

    Raises:
        InvalidValueError: a bad level (``"NT"`` only with ``after_A="no_trump_level"``),
            non-Shengji rules or ``|attacker_points| > 10**6``.
    """
    side, levels, take_over, new, dealer, attackers, won = _core.shengji_level_advance(
        _check.rules(rules), _check.text("level", level), _check.text("attacker_level", attacker_level),
        attacker_points, _check.flag("last_trick_single_jack", last_trick_single_jack),
    )
    return {
        "side": side,
        "levels": levels,
        "take_over": take_over,
        "new_level": new,
        "dealer_level": dealer,
        "attacker_level": attackers,
        "match_won": won,
    }




class Match:
    """A match: deals in sequence with every player's level, the seating and the dealer rotation
    (shengji.md §1.1, §2.3, §8.5).

    Players are ``0..3``. With fixed partners (default) player ``p`` sits at seat ``p`` and
    players ``p`` and ``p + 2`` share a level. Under ``random_partners_each_hand`` (JJ, preset
    ``tractor_jj``) the seating is redrawn before every hand and levels are kept per player: the
    hand's level is the dealer's own; the dealer (and a partner at the same level) move as the
    dealer team of §8.5, a partner at another level rises from their own level without leaving a
    gate, attackers rise from their own levels; the next dealer is chosen in the seating of the
    hand played. ``after_A``: ``match_ends`` (holding at A wins), ``no_trump_level`` (one more
    joker-only level ``"NT"`` to defend), ``cycle_to_2`` (A wraps to 2; the match never ends by
    itself). ``jack_back_to_two`` is applied from the deal's last trick. With ``jj_scoring`` each
    player accumulates JJ 积分 (``jj_totals``): each attacker +基数 x 防方计分, each dealer-team
    player the opposite (zero-sum is this engine's reading; the seed states the attackers' side).

    Args:
        rules: a Shengji rule set (or a preset name). seed: deal ``i`` draws its seating and
            shuffle from stream ``i`` of ``seed``; ``None`` draws a random seed, kept in
            ``match.seed``.

    Raises:
        IllegalPlayError: a deal after the match is won; recording a deal that is not over, a
            deal already recorded ("deal already recorded") or any deal but the one the last
            :meth:`next_deal` returned ("not the match's current deal").
    """

    def __init__(self, rules: Rules, seed: int | None = 0) -> None:
        self.seed = _check.seed(seed)
        self._m = ShengjiMatch(_check.rules(rules), self.seed)

    levels = property(lambda self: list(self._m.levels), doc="each player's level (2..A or NT)")
    seating = property(lambda self: list(self._m.seating), doc="seat -> player of the last hand")
    dealer = property(lambda self: self._m.dealer, doc="the player who deals next (None before hand 1)")
    hands = property(lambda self: self._m.hands, doc="hands recorded")
    winners = property(lambda self: None if self._m.winners is None else list(self._m.winners),
                       doc="the two players who won, once over")
    jj_totals = property(lambda self: list(self._m.jj_totals),
                         doc="each player's JJ 积分 (jj_scoring: attackers +基数x防方计分, dealer team -)")

    def next_deal(self) -> GameState:
        """The next deal as a :class:`zhipai.GameState` (seat numbers; ``seating`` maps them to
        players); pass it to :meth:`record` when it is over. Its ``to_json()`` record replays it
        on its own."""
        return self._m.next_deal()

    def record(self, deal: GameState) -> None:
        """Apply a finished deal of this match (levels, next dealer, winners): only the deal the
        last :meth:`next_deal` returned, once; else ``IllegalPlayError`` (``InvalidValueError``
        for anything but a ``zhipai.GameState``)."""
        if not isinstance(deal, GameState):
            raise InvalidValueError(f"invalid deal {_check.shown(deal)}: expected the GameState next_deal() returned")
        self._m.record(deal)

    def play_hand(self, policy: str = "random") -> dict[str, int]:
        """Deal, play to the end with ``policy`` (``"random"`` or ``"greedy"``) and record;
        returns the deal's result row as ``{column: value}`` (``zhipai.Game(rules).columns``)."""
        return self._m.play_hand(_check.text("policy", policy)).result() or {}
