"""Shengji trick mechanics for analysis: combinations, leads, throws, follows, trick winners and
the kitty multiplier (shared/rules/shengji.md §3–§7).

Build a ``Mechanics`` for one deal (a rule set, the level rank and the trump suit) and ask it
questions. Card lists are strings in the usual notation (``"10H 10H JH JH"``; order never
matters) and answers that are card lists come back in canonical notation, sorted by kind.

    >>> import zhipai, zhipai.shengji
    >>> m = zhipai.shengji.Mechanics(zhipai.rules("tractor"), level="5", trump="H")
    >>> m.classify("4S 4S 6S 6S").kind
    'tractor'
    >>> m.winner(["AH", "3H", "5S", "KH"])
    2

Errors (all subclasses of ``zhipai.ZhipaiError``):

* ``InvalidCardError``: a card that does not parse (the message names it).
* ``InvalidValueError``: a bad level or trump, a card held more often than there are decks (in one
  list or across the lists of one call), a trick without exactly 4 plays, an argument of the
  wrong type (a card list that is not a string, a float or bool seed or limit), a
  lead that is empty or mixes effective suits where a lead format is needed, plays of different
  lengths, a hand with fewer cards than the lead.
* ``IllegalPlayError``: ``check_throw`` on a lead that is not legal at all (mixed suits, a
  forbidden trump throw).
* ``InvalidOptionError``: a rule set without Shengji-style tricks (Gongzhu, Baohuang); for
  ``hong_wu`` until its trick rules land.
"""

from __future__ import annotations

from dataclasses import dataclass

from zhipai._check import shown as _shown
from zhipai._core import InvalidValueError, Rules, TrickMechanics
from zhipai._core import rules as _rules

__all__ = ["Format", "Mechanics", "ThrowCheck"]


@dataclass(frozen=True)
class Format:
    """A card list split into units (shengji.md §4.1–§4.3).

    ``kind`` is ``single``, ``pair``, ``triple``, ``tractor``, ``titanic``, ``throw`` (several
    units) or ``invalid`` (empty, or several effective suits). ``units`` are the unit card lists,
    biggest first (empty for ``invalid``).
    """

    kind: str
    units: list[str]


@dataclass(frozen=True)
class ThrowCheck:
    """Result of checking a throw against the other hands (shengji.md §4.4–§4.5).

    ``valid``: the whole throw stands. ``played``: the cards actually led (the whole throw, or the
    forced component of a failed throw per ``throw_fail_forced``). ``beaten_cards``: cards in the
    beaten components (0 when valid), for the ``throw_fail_penalty`` options.
    """

    valid: bool
    played: str
    beaten_cards: int


class Mechanics:
    """The trick mechanics of one deal.

    Args:
        rules: a Shengji-family rule set (``zhipai.rules("tractor")``, ``"tractor_jj"``,
            ``"eighty_points"``, ``"hong_wu"``) or a preset name (``"tractor"``: its defaults).
        level: the level rank, ``"2"`` … ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``, or ``"NT"``
            for the joker-only level after A (Shengji with ``after_A="no_trump_level"``: only the
            jokers are trumps and every suit runs 2…A, shengji.md §8.5).
        trump: the trump suit ``"S" "H" "D" "C"``, or ``"NT"`` for no-trump.

    Every method takes card lists as strings; a trick has 4 plays and a throw is checked against
    the 3 other hands. Cards given to one call for different players (lead and hand, the plays of
    a trick, the throw and the other hands) are distinct physical cards, so together they may
    hold each card at most ``decks`` times.

    Raises:
        InvalidValueError: a bad level or trump; ``rules`` neither a ``Rules`` nor a preset name.
        InvalidOptionError: a rule set without Shengji-style tricks, or an unknown preset name.
    """

    def __init__(self, rules: Rules | str, level: str = "2", trump: str = "NT") -> None:
        if isinstance(rules, str):
            rules = _rules(rules, None)
        if not isinstance(rules, Rules):
            raise InvalidValueError(
                f"invalid rules {_shown(rules)}: expected zhipai.rules(preset, ...) or a preset name")
        self._m = TrickMechanics(rules, str(level), str(trump))

    @property
    def level(self) -> str:
        """The level rank symbol (``"NT"`` on the joker-only level)."""
        return self._m.level

    @property
    def trump(self) -> str:
        """The trump suit letter, or ``"NT"``."""
        return self._m.trump

    @property
    def decks(self) -> int:
        """Number of decks (the most copies of one card)."""
        return self._m.decks

    def classify(self, cards: str) -> Format:
        """The format of ``cards``: kind and units (shengji.md §4; decomposition per the
        ``throw_decomposition`` option, layered for equal-rank pairs)."""
        kind, units = self._m.classify(cards)
        return Format(kind, list(units))

    def check_lead(self, cards: str, hand: str | None = None) -> str | None:
        """``None`` when ``cards`` is a structurally legal lead (one effective suit, held in
        ``hand`` when given, not a forbidden trump throw; shengji.md §4.3, hongwu.md §B.6–§B.7
        for ``hong_wu``, whose reasons cite that digest), else the reason.
        Whether a throw stands is ``check_throw``."""
        return self._m.check_lead(cards, hand)

    def is_legal_lead(self, cards: str, hand: str | None = None) -> bool:
        """Whether ``check_lead`` finds no fault."""
        return self.check_lead(cards, hand) is None

    def check_throw(self, cards: str, others: list[str]) -> ThrowCheck:
        """Check a throw against ``others``, the other players' hands in playing order after
        the leader (shengji.md §4.4; ``others[1]`` is the partner for ``throw_check_scope``).

        Raises:
            IllegalPlayError: ``cards`` is not a legal lead at all.
        """
        valid, played, beaten = self._m.check_throw(cards, others)
        return ThrowCheck(valid, played, beaten)

    def throw_penalty(self, cards: str, others: list[str]) -> int:
        """Points a failed throw of ``cards`` against ``others`` costs under the rules'
        ``throw_fail_penalty`` (shengji.md §4.5), 0 for a valid throw: ``10_per_attempt`` 10;
        ``10_per_card_returned`` 10 per card of the beaten components; ``structured`` (TH) 10 x
        (cards of the beating shape) per beaten card, i.e. a beaten single 10, pair 2 x 20, 2-pair
        tractor 4 x 40, 3-pair tractor 6 x 60. The deal adds it to the attackers' total when a
        dealer-team player threw and subtracts it when an attacker threw.

        Raises:
            IllegalPlayError: ``cards`` is not a legal lead. InvalidValueError: non-Shengji rules.
        """
        return int(self._m.throw_penalty(cards, others))

    def check_follow(self, lead: str, hand: str, play: str) -> str | None:
        """``None`` when ``play`` legally follows ``lead`` (as played, after any failed-throw
        reduction) from ``hand`` (the follower's whole hand), else the reason (shengji.md §5;
        hongwu.md §B.8 for ``hong_wu``)."""
        return self._m.check_follow(lead, hand, play)

    def is_legal_follow(self, lead: str, hand: str, play: str) -> bool:
        """Whether ``check_follow`` finds no fault."""
        return self.check_follow(lead, hand, play) is None

    def follows(self, lead: str, hand: str, limit: int | None = None) -> list[str]:
        """Every legal follow as a card list (distinct card multisets), in a deterministic order,
        at most ``limit`` of them (an integer ≥ 0; ``None``: all)."""
        return list(self._m.follows(lead, hand, limit))

    def count_follows(self, lead: str, hand: str) -> int:
        """Number of legal follows (``len(follows(...))``), counted without listing discards."""
        return int(self._m.count_follows(lead, hand))

    def sample_follow(self, lead: str, hand: str, seed: int = 0) -> str:
        """One legal follow drawn uniformly from ``follows(...)``, reproducible from ``seed``."""
        return str(self._m.sample_follow(lead, hand, seed))

    def winner(self, plays: list[str]) -> int:
        """Index of the play that wins the trick; ``plays[0]`` is the lead as played, the others
        follow in playing order (shengji.md §6, option ``throw_compare``)."""
        return int(self._m.winner(plays))

    def kitty_multiplier(self, lead: str, winning_play: str | None = None) -> int:
        """Multiplier of the kitty's points when the attackers win the last trick with this lead
        (shengji.md §7.2, options ``kitty_multiplier`` and ``kitty_multiplier_basis``; the
        winning play is read only with ``winning_play`` basis)."""
        return int(self._m.kitty_multiplier(lead, winning_play))

    def __repr__(self) -> str:
        return repr(self._m)
