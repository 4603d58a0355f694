"""Qingdao Baohuang 青岛保皇: mechanics (shared/rules/baohuang.md, seed 003).

Five players, four decks with jokers (216 cards, 43 or 44 each). Seats are 0..4 in playing
(anticlockwise) order; accession runs clockwise. Card lists are strings in the notation of
shared/cases/FORMAT.md (``"SJ 9S 9H 9D"``); order never matters.

Mechanics (every function takes an optional ``rules=zhipai.rules("baohuang", ...)``):

* :func:`is_play` / :func:`play_error` — is a card list one well-formed play (§C.4);
* :func:`beats` — does play A beat play B (§C.5: same count, every card higher position by position);
* :func:`ascension_options` — the cards a scepter holder may ascend with (§C.3);
* :func:`next_leader` — who opens the next round after a sequence of actions (§C.6, §C.7);
* :func:`score` — the amounts of a deal for a mode and places (§C.9, §C.10);
* :func:`legal_plays`, :func:`count_plays`, :func:`sample_play`, :func:`play_reason` — move
  generation for a hand and a previous play (plays are the same up to suits; each is returned with
  suits taken from the hand in S, H, D, C order). A previous play may be written without suits,
  as the observation's ``play_to_beat`` gives it (``"BJ 9 9"``; ``G`` = a guard card above BJ); ``None`` or
  ``""`` = a lead.

Whole deals: ``zhipai.Game("baohuang").new_deal(seed, index)`` (``previous_places=[...]`` with
``tribute_between_deals="on"``: the places 1 = 大客 … 5 = 大拉 per seat that the 进贡 is made
from), or ``new_deal(hands=[5 hands], dealer=scepter)`` — one :class:`zhipai.GameState` for
every game. Its integer actions (119): ``0..54`` add one card of that kind to the play being
built, ``54`` ``stop`` (play the cards built), ``55..65`` ``pass``, ``yield``, ``jiefeng``,
``abdicate``, ``grab``, ``decline``, ``open_guard``, ``secret_guard``, ``open_solo``,
``secret_solo``, ``65..119`` ``ascend <card kind a - 65>``.

Built-in policies (``zhipai.simulate("baohuang", policy=...)``, ``zhipai.evaluate``):

* ``"random"`` — uniform over every legal move at every decision, accession included (plays
  counted up to suits, as ``GameState.legal_moves`` lists them; the suits taken are those of
  ``cards_of``, the 登基 card last, so a random guard reveals himself only when he must): a player
  offered the scepter or a grab chance grabs (抢独) as often as he picks any other option, so
  **most random deals are 抢独** (about 64% 抢独, 17% 明保, 16% 暗保, 1% each 明独 / 暗独; see
  the ``mode`` column of ``zhipai simulate baohuang``). A uniform baseline, not a model of players.
* ``"greedy"`` — ascends with a 3-copy card (else 4-copy, 暗独), else abdicates; never grabs;
  plays its lowest naturals, beats with the cheapest play, passes to its partner.

Hand evaluation (``zhipai.evaluate("baohuang", seat, hand, candidates=[...])``): seat 0 is the
first-dealt seat with 44 cards, seats 1..4 hold 43. The scepter holder is ``dealer`` when given
(it must be shown holding a BJ: the evaluated seat's own hand, or ``known={"hands": {dealer:
"BJ"}}``; else ``InvalidValueError`` before any sample), else the evaluated seat if its hand has a
BJ, else a BJ holder drawn at random. A candidate of the scepter holder is its accession
decision: ``""`` or ``"abdicate"`` = 让位 (yield the scepter; labelled ``abdicate``), ``"BJ"`` or
``"grab"`` = 抢独, every copy it holds of one card (``"9C 9C 9C"``, or ``"ascend 9C"``) = 登基
with it; anything else is an ``IllegalPlayError``. For any other seat a candidate is a play it
holds, or ``""`` / ``"pass"`` = pass, made at its first decision where it is
legal (a play: its first lead or first response it beats; a pass: its first response); the policy
makes its decisions before that, and all of them in a sample where the candidate never becomes
legal. A 黄局 rollout reports ``emperor = -1``. Evaluation deals four whole decks with the 44th
card to seat 0, so ``deck=168`` and ``extra_card_to="scepter_last"`` raise
``InvalidOptionError`` there (``simulate`` plays both).

The mechanics functions see cards at face rank: with ``guard_card_rank="above_big_joker"`` write
the guard's copies of the 登基 card as ``G`` in a play (``"G BJ"``); they cannot know which card of
a hand is the guard card, which the deal state (``zhipai.GameState``) does.

Errors: ``InvalidCardError`` for bad card text, ``IllegalPlayError`` for a malformed play or an
action not allowed, ``InvalidValueError`` for bad places, seats or hands, ``InvalidOptionError``
for rules of another game.
"""

from __future__ import annotations

from collections.abc import Iterable

from zhipai import _core
from zhipai._check import flag as _flag
from zhipai._check import shown as _shown
from zhipai._core import IllegalPlayError, InvalidValueError, Rules, ZhipaiError

__all__ = [
    "MODES",
    "ascension_options",
    "beats",
    "count_plays",
    "is_play",
    "legal_plays",
    "next_leader",
    "play_error",
    "play_reason",
    "sample_play",
    "score",
]

MODES = ("normal", "open_guard", "grab", "open_solo", "secret_solo")
"""Deal modes: 暗保, 明保 (doubled), 抢独, 明独, 暗独."""


def play_error(cards: str) -> str | None:
    """Why ``cards`` is not one well-formed play (§C.4: n naturals of one rank + x SJ + y BJ,
    n + x + y >= 1), or ``None``. Raises ``InvalidCardError`` for bad card text."""
    return _core.baohuang_play_error(cards)


def is_play(cards: str) -> bool:
    """Whether ``cards`` is one well-formed play (§C.4)."""
    return play_error(cards) is None


def beats(play: str, previous: str, rules: Rules | None = None) -> bool:
    """Whether ``play`` beats ``previous`` (§C.5; with ``bombs=on`` a bomb also beats fewer cards).
    Either may be cards (``"BJ 9S 9H"``) or written without suits (``"BJ 9 9"``).

    Raises:
        IllegalPlayError: either is not a well-formed play.
        InvalidCardError: a token is neither a card nor a rank.
    """
    return _core.baohuang_beats(play, previous, rules)


def ascension_options(
    hand: str, rules: Rules | None = None, scepter_in_hand: bool = True
) -> dict[str, str]:
    """``{card: "guard" | "solo"}``: every card the scepter holder may ascend with (§C.3.1).

    3 counted copies → ``"guard"`` (the 4th copy's holder guards); all 4 → ``"solo"`` (独保).
    ``hand`` is the scepter holder's whole hand; one BJ in it is the scepter (it counts unless
    ``scepter_counts_for_dengji=false``).

    Raises:
        InvalidValueError: ``scepter_in_hand`` and the hand holds no BJ.
    """
    return dict(_core.baohuang_ascension_options(hand, rules, _flag("scepter_in_hand", scepter_in_hand)))


def next_leader(
    actions: Iterable[tuple[int, str]], out: Iterable[int] = (), rules: Rules | None = None
) -> int:
    """The seat that opens the next round after ``actions`` (§C.6, §C.7).

    ``actions``: ``(seat, CARDS | "pass" | "yield" | "jiefeng")`` in time order, seats 0..4 in
    playing order, the first being the lead; ``out``: seats whose play was their last cards.

    Raises:
        IllegalPlayError: an action out of turn or not allowed (yield in the second circle, 接风
            when not entitled, a play that does not beat).
        InvalidValueError: the round is not over after the last action.
    """
    return _core.baohuang_next_leader(actions, out, rules)


def score(
    mode: str, emperor_place: int, guard_place: int | None = None, rules: Rules | None = None
) -> dict[str, int]:
    """Amounts of one deal: ``{"emperor", "guard", "rebel"}`` (no ``guard`` in solo modes).

    ``mode`` is one of :data:`MODES`; places are 1 (大客) … 5 (大拉). §C.9: group score
    G = points(emperor) + points(guard) with 6/3/0/−3/−6; emperor 2G/3, guard G/3, each rebel
    −G/3; 明保 doubles. §C.10 solo tables 40/32/24.

    Raises:
        InvalidValueError: unknown mode, place outside 1..5, guard place missing or given in a
            solo mode, equal places.
    """
    e, g, r = _core.baohuang_score(mode, emperor_place, guard_place, rules)
    out = {"emperor": e, "rebel": r}
    if g is not None:
        out["guard"] = g
    return out


def legal_plays(
    hand: str, previous: str | None = None, rules: Rules | None = None, limit: int | None = None
) -> list[str]:
    """Every legal play of ``hand`` after ``previous`` (``None`` = a lead), in a fixed order."""
    return _core.baohuang_legal_plays(hand, previous, rules, limit)


def count_plays(hand: str, previous: str | None = None, rules: Rules | None = None) -> int:
    """Number of legal plays of ``hand`` after ``previous`` (same set as :func:`legal_plays`)."""
    return _core.baohuang_count_plays(hand, previous, rules)


def sample_play(
    hand: str, previous: str | None = None, seed: int = 0, rules: Rules | None = None
) -> str | None:
    """One legal play drawn uniformly (reproducible from ``seed``), ``None`` if there is none."""
    return _core.baohuang_sample_play(hand, previous, seed, rules)


def play_reason(
    hand: str, play: str, previous: str | None = None, rules: Rules | None = None
) -> str | None:
    """Why ``play`` may not be played from ``hand`` after ``previous``, or ``None`` if legal."""
    return _core.baohuang_play_reason(hand, play, previous, rules)


def candidate_cards(text: str, hand: str, rules: Rules | None = None) -> str:
    """An evaluation candidate of ``hand``'s seat written as a move word, as cards: ``abdicate``
    = ``""`` (让位), ``grab`` = ``"BJ"`` (抢独), ``ascend X`` = every copy of X in ``hand``
    (登基, §C.3); any other text is returned unchanged.

    Raises:
        IllegalPlayError: ``ascend X`` where ``hand`` holds no X, or too few copies of X to
            ascend with (naming the cards it can ascend with, under ``rules``).
        InvalidCardError: ``ascend`` followed by something that is not one card.
        InvalidValueError: ``text`` or ``hand`` not a string.
    """
    if not isinstance(text, str):
        raise InvalidValueError(f"invalid candidate {_shown(text)}: expected a move word or cards as a string")
    if not isinstance(hand, str):
        raise InvalidValueError(f"invalid hand {_shown(hand)}: expected cards as a string")
    word = text.strip().lower()
    if word == "abdicate":
        return ""
    if word == "grab":
        return "BJ"
    if not word.startswith("ascend "):
        return text
    card = _core.cards(text.strip()[len("ascend "):])
    if len(card) != 1:
        raise IllegalPlayError(
            f"illegal play {text!r}: ascend names one card (登基 shows every copy of one card the hand "
            f"holds, e.g. 'ascend 9C'), got {len(card)} cards")
    held = [h for h in _core.cards(hand) if h.index == card[0].index]
    if not held:
        raise IllegalPlayError(f"illegal play {text!r}: the hand holds no {card[0]}; {_ascension_hint(hand, rules)}")
    options = _options_or_none(hand, rules)
    if options is not None and str(card[0]) not in options:
        raise IllegalPlayError(
            f"illegal play {text!r}: the hand holds {len(held)} {card[0]}, and 登基 needs 3 or 4 counted "
            f"copies of one card (§C.3.1); {_ascension_hint(hand, rules)}")
    return " ".join(str(h) for h in held)


def _options_or_none(hand: str, rules: Rules | None) -> dict[str, str] | None:
    try:
        return ascension_options(hand, rules)
    except ZhipaiError:
        return None


def _ascension_hint(hand: str, rules: Rules | None = None) -> str:
    """What a hand can ascend with (§C.3.1), for an error message."""
    options = _options_or_none(hand, rules)
    if options is None:
        return "only the scepter holder (a hand with a BJ) ascends"
    if not options:
        return "this hand cannot ascend: 登基 needs 3 or 4 counted copies of one card (§C.3.1)"
    shown = ", ".join(f"{card} ({'with a guard' if kind == 'guard' else 'alone, 独保'})" for card, kind in options.items())
    return f"it can ascend with {shown}"


