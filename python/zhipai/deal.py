"""Dealing: seeded random deals of 1-4 decks, optionally under constraints.

``deal(...)`` returns one :class:`Deal`; ``deal_batch(n, ...)`` returns deals ``start .. start+n``
of a seed as one numpy array. Deal ``i`` of seed ``s`` is the same in both (the Rust core draws
it from ChaCha8 keyed by ``s`` on stream ``i``), so any deal is reproducible from ``(seed, i)``.

Constraints (what is known). The fixed cards are placed in their hands and the kitty cards in the
kitty; the remaining cards are then dealt uniformly among all deals consistent with the rest
(open places, voids), copies of a card counted as distinct physical cards. This is the posterior
of a fair shuffle given that *these physical cards* were seen in a hand — a seat's own hand, cards
exposed by play — which is what Monte Carlo evaluation needs. It is not the same as conditioning
on "the hand holds at least these kinds": with 2 decks and ``fixed={0: "AS"}``, hand 0 receives
the other AS with the chance of any unknown card reaching it (24 of the 107 other cards' places
in a 25-card hand: P = 24/107).

* ``fixed``: cards known to be in a hand — ``{hand: cards}`` or a list with one entry per hand
  (``None`` for none). The hand may receive further copies of those kinds among its other cards.
* ``kitty_cards``: cards known to be in the kitty.
* ``voids``: kinds a hand holds none of — ``{hand: spec}`` or a list. A spec is a string of
  tokens, each a suit letter (``S H D C`` or ``♠♥♦♣``: the whole suit) or a card (``SJ BJ 2H``),
  an iterable of cards, or an int bitmask of kind indices (bit ``i`` = kind ``i``; game code
  passes effective-suit masks this way).

Cards are given in notation (``"10H AS SJ"``), as ``Card`` objects, or kind indices 0 to 53.
Counts, indices and seeds are ints or numpy integers (``operator.index``); bools and floats are
refused with ``InvalidValueError``.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from zhipai import _check, _core
from zhipai._core import Card, InvalidValueError

CardsLike = Union[str, Iterable[Card | str | int]]
VoidLike = Union[str, int, Iterable[Card | str | int]]

_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_SUIT_NAMES = "SHDC"


@dataclass(frozen=True)
class Deal:
    """One deal.

    Attributes:
        hands: one card list per hand, in seat order; each sorted by kind index
            (spades 2..A, hearts, diamonds, clubs, SJ, BJ).
        kitty: the kitty's cards (empty list when the kitty size is 0).
        counts: ``uint8`` array of shape ``(hands + 1, 54)``: ``counts[h, k]`` = copies of kind
            ``k`` in hand ``h``; the last row is the kitty.
        seed, index: the deal is deal ``index`` of ``seed``.
    """

    hands: list[list[Card]]
    kitty: list[Card]
    counts: npt.NDArray[np.uint8]
    seed: int
    index: int

    def __str__(self) -> str:
        lines = [f"deal {self.index} of seed {self.seed}"]
        width = len(str(len(self.hands) - 1))
        for h, cards in enumerate(self.hands):
            lines.append(f"hand {h:>{width}} ({len(cards):>2}): {format_by_suit(cards)}")
        lines.append(f"kitty {'':>{width}}({len(self.kitty):>2}): {format_by_suit(self.kitty)}")
        return "\n".join(line.rstrip() for line in lines)


def format_by_suit(cards: Sequence[Card]) -> str:
    """Cards in notation, grouped by suit (S H D C, then jokers) with two spaces between groups."""
    groups: dict[str | None, list[str]] = {}
    for c in cards:
        groups.setdefault(c.suit, []).append(str(c))
    order = [*_SUIT_NAMES, None]
    return "  ".join(" ".join(groups[s]) for s in order if s in groups)


MAX_HANDS = 16  # the core's limit (zhipai_core::deal::MAX_HANDS)
_MAX_DEALS = 2**63 - 1
_U64_MAX = 2**64 - 1


def _invalid(what: str, value: Any, reason: str) -> InvalidValueError:
    return InvalidValueError(f"invalid {what} {value!r}: {reason}")


def _int(what: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..=hi``: Python or numpy integers, not bools or floats; else
    ``InvalidValueError`` naming ``what`` (the binding's shared check, ``_core._check_int``)."""
    return int(_core._check_int(what, value, lo, hi))


def _iterable(what: str, value: Any, expected: str) -> list[Any]:
    if isinstance(value, (str, bytes, Mapping)):
        raise _invalid(what, value, f"expected {expected}")
    try:
        return list(value)
    except TypeError:
        raise _invalid(what, value, f"expected {expected}") from None


def _cards_text(what: str, cards: CardsLike) -> str:
    """Card list in notation; Card objects and kind indices are converted (bad ones raise)."""
    if isinstance(cards, str):
        return cards
    items = _iterable(what, cards, "a string of cards or an iterable of cards")
    return " ".join(c if isinstance(c, str) else str(Card(c)) for c in items)


def _void_mask(what: str, spec: VoidLike) -> int:
    if isinstance(spec, str):
        tokens: list[Any] = spec.split()
    elif _is_int(spec):
        return _int(what.replace("void", "void mask"), spec, 0, 2**54 - 1)
    else:
        tokens = _iterable(what, spec, "suit letters, cards or a bitmask of kinds 0 to 53")
    mask = 0
    for tok in tokens:
        if isinstance(tok, str) and tok.upper() in _SUITS:
            mask |= 0x1FFF << (13 * _SUITS[tok.upper()])
        else:
            mask |= 1 << Card(tok).index
    return mask


def _per_hand(what: str, value: Mapping[int, Any] | Sequence[Any] | None, hands: int) -> list[Any]:
    """A dict ``{hand: x}`` or a list → list indexed by hand (``None`` where absent)."""
    if value is None:
        return []
    expected = "a dict {hand: ...} or a list with one entry per hand"
    if isinstance(value, Mapping):
        out: list[Any] = [None] * hands
        for h, x in value.items():
            out[_int(f"{what} hand", h, 0, hands - 1)] = x
        return out
    out = _iterable(what, value, expected)
    if len(out) > hands:
        raise _invalid(what, value, f"{len(out)} entries for a deal of {hands} hands")
    return out


# Default kitty (底牌) with 4 hands of 54-card decks: shengji.md §1.1 (1 deck: 6, 2: 8, 3: 6).
_KITTY_4_HANDS = {1: 6, 2: 8, 3: 6}


def _shape(decks: Any, hands: Any, hand_size: Any, kitty: Any,
           jokers: bool) -> tuple[int, list[int], int]:
    """``(decks, hand sizes, kitty)``, every count range-checked before anything is built.

    Defaults: ``hands`` 4 (or the length of a ``hand_size`` list); ``kitty`` the deck minus the
    hands when ``hand_size`` is given, else shengji.md §1.1 for 4 hands of 1–3 decks with jokers
    (6 / 8 / 6), else the smallest kitty that splits the rest evenly; ``hand_size`` the deck
    minus the kitty split evenly.
    """
    decks = _int("decks", decks, 1, 4)
    deck = decks * (54 if jokers else 52)
    if hands is not None:
        hands = _int("hands", hands, 1, MAX_HANDS)
    if hand_size is not None and not _is_int(hand_size) and not isinstance(hand_size, str):
        items = _iterable("hand_size", hand_size, "an integer or a list of integers")
        if not 1 <= len(items) <= MAX_HANDS:
            raise _invalid("hand_size", hand_size, f"expected 1 to {MAX_HANDS} sizes")
        sizes = [_int("hand size", x, 0, deck) for x in items]
        if hands is not None and hands != len(sizes):
            raise _invalid("hands", hands, f"hand_size lists {len(sizes)} sizes")
    elif hand_size is not None:
        sizes = [_int("hand size", hand_size, 0, deck)] * (4 if hands is None else hands)
    else:
        n = 4 if hands is None else hands
        if kitty is not None:
            kitty = _int("kitty", kitty, 0, deck)
        else:
            kitty = _KITTY_4_HANDS[decks] if jokers and n == 4 and decks in _KITTY_4_HANDS \
                else deck % n
        if (deck - kitty) % n or deck - kitty < n:
            raise _invalid(
                "kitty", kitty,
                f"the {deck}-card deck minus a kitty of {kitty} does not split evenly into {n} "
                "hands; pass hand_size or another kitty")
        return decks, [(deck - kitty) // n] * n, kitty
    kitty = max(deck - sum(sizes), 0) if kitty is None else _int("kitty", kitty, 0, deck)
    return decks, sizes, kitty


def _is_int(x: Any) -> bool:
    """An integer (Python or numpy), not a bool."""
    if isinstance(x, bool):
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _seed(seed: Any) -> int:
    """A seed; ``None`` draws a fresh random one (recorded in ``Deal.seed``)."""
    return _check.seed(seed)


def _args(decks: Any, hands: Any, hand_size: Any, kitty: Any, jokers: bool, fixed: Any,
          kitty_cards: Any, voids: Any) -> tuple[Any, ...]:
    jokers = _check.flag("jokers", jokers)
    decks, sizes, kitty = _shape(decks, hands, hand_size, kitty, jokers)
    fixed_text = ["" if x is None else _cards_text(f"fixed cards of hand {h}", x)
                  for h, x in enumerate(_per_hand("fixed", fixed, len(sizes)))]
    masks = [0 if x is None else _void_mask(f"void of hand {h}", x)
             for h, x in enumerate(_per_hand("voids", voids, len(sizes)))]
    kitty_text = "" if kitty_cards is None else _cards_text("kitty_cards", kitty_cards)
    return decks, sizes, kitty, jokers, fixed_text, kitty_text, masks


def deal(
    decks: int = 2,
    hands: int | None = None,
    hand_size: int | Sequence[int] | None = None,
    kitty: int | None = None,
    seed: int | None = None,
    *,
    jokers: bool = True,
    fixed: Mapping[int, CardsLike] | Sequence[CardsLike | None] | None = None,
    kitty_cards: CardsLike | None = None,
    voids: Mapping[int, VoidLike] | Sequence[VoidLike | None] | None = None,
    index: int = 0,
) -> Deal:
    """Deal ``decks`` decks into hands and a kitty: deal ``index`` of ``seed``.

    Args:
        decks: 1 to 4 full decks (54 cards each with ``jokers``, else 52).
        hands: number of hands, 1 to 16 (default 4, or the length of a ``hand_size`` list).
        hand_size: cards per hand, or a list of sizes for unequal hands (Baohuang:
            ``[43, 43, 43, 43, 44]``). Default: the deck minus the kitty split evenly.
        kitty: kitty (底牌) size; hand sizes plus kitty must equal the deck size. Default: the
            deck minus the hands when ``hand_size`` is given; else for 4 hands of 1, 2, 3 decks
            with jokers 6, 8, 6 (shengji.md §1.1); else the smallest kitty that splits the rest
            evenly (``deck % hands``).
        seed: integer from 0 to ``2**64 - 1``; ``None`` draws one (recorded in ``Deal.seed``).
        jokers: a bool (or numpy bool): 54-card decks with the two jokers, else 52 (a string
            such as ``"no"`` is refused, not read as true).
        fixed, kitty_cards, voids: constraints, see the module docs.
        index: which deal of the seed, 0 to ``2**64 - 1`` (deal ``i`` of ``deal_batch``).

    Returns:
        A :class:`Deal` (card lists plus the ``(hands + 1, 54)`` ``uint8`` count matrix).

    Raises:
        InvalidValueError: decks outside 1 to 4, hands outside 1 to 16, a hand size of 0, sizes
            that do not add up to the deck size, a negative count or index, a seed outside
            0 to ``2**64 - 1``, a constraint for a hand the deal does not have, an argument of the
            wrong type (a bool, float or ``None`` where a count is expected), naming it.
        InvalidCardError: a card that cannot be parsed, naming it.
        ImpossibleDealError: constraints no deal satisfies, naming the constraint.
    """
    s = _seed(seed)
    index = _int("deal index", index, 0, _U64_MAX)
    decks, sizes, kitty, jokers, fixed_text, kitty_text, masks = _args(
        decks, hands, hand_size, kitty, jokers, fixed, kitty_cards, voids)
    hand_cards, kitty_list, counts = _core._deal(
        decks, sizes, kitty, jokers, s, index, fixed_text, kitty_text, masks)
    return Deal(hand_cards, kitty_list, counts, s, index)


def deal_batch(
    n: int,
    decks: int = 2,
    hands: int | None = None,
    hand_size: int | Sequence[int] | None = None,
    kitty: int | None = None,
    seed: int = 0,
    *,
    jokers: bool = True,
    fixed: Mapping[int, CardsLike] | Sequence[CardsLike | None] | None = None,
    kitty_cards: CardsLike | None = None,
    voids: Mapping[int, VoidLike] | Sequence[VoidLike | None] | None = None,
    start: int = 0,
) -> npt.NDArray[np.uint8]:
    """Deals ``start .. start + n`` of ``seed`` as one count array (arguments as in :func:`deal`).

    ``seed`` must be an int here: the array has no place to record a random one, so ``None`` is
    refused (never read as 0); ``deal(seed=None)`` draws one and records it.

    Returns:
        ``uint8`` array of shape ``(n, hands + 1, 54)``: ``out[i]`` is the count matrix of deal
        ``start + i`` (``deal(..., seed=seed, index=start + i).counts``). The constraints are
        checked once; dealing runs in Rust with the GIL released (one thread).

    Raises:
        The errors of :func:`deal`; ``InvalidValueError`` for a negative ``n`` or ``start``,
        ``start + n`` beyond ``2**64``, or an ``n`` whose result (``n * (hands + 1) * 54``
        bytes) cannot be allocated — checked before dealing, naming ``n``.
    """
    n = _int("n", n, 0, _MAX_DEALS)
    start = _int("start", start, 0, _U64_MAX)
    s = _check.seed_or_refuse(seed, "deal_batch")
    decks, sizes, kitty, jokers, fixed_text, kitty_text, masks = _args(
        decks, hands, hand_size, kitty, jokers, fixed, kitty_cards, voids)
    return _core._deal_batch(
        decks, sizes, kitty, jokers, s, start, n, fixed_text, kitty_text, masks)


def hand_spec(text: str, flag: str = "--fixed") -> tuple[int, str]:
    """``"2=AS KS"`` → ``(2, "AS KS")``: the one syntax of the card constraints of every command
    (``deal --fixed/--void``, ``evaluate --known/--void``), ``SEAT=CARDS``; the older
    ``SEAT:CARDS`` of ``evaluate`` is read too. Else ``InvalidValueError`` naming ``flag``."""
    cut = min((i for i in (text.find("="), text.find(":")) if i >= 0), default=-1)
    seat = text[:cut].strip() if cut >= 0 else ""
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
    if cut < 0 or not re.fullmatch(r"[0-9]+", seat):
        example = "1=H, 1=SHD (suit letters) or 1='AS KS'" if flag == "--void" else "1='AS KS'"
        raise _invalid(flag, text, f"expected SEAT=CARDS, e.g. {example}")
    return int(seat), text[cut + 1 :].strip()


def _cmd_deal(args: Any) -> int:
    hand_size: Any = args.hand_size
    if hand_size is not None:
        try:
            sizes = [int(s) for s in hand_size.split(",")]
        except ValueError:
            raise _invalid("--hand-size", hand_size, "expected N or N,N,...") from None
        hand_size = sizes if "," in hand_size else sizes[0]
    d = deal(
        decks=args.decks, hands=args.hands, hand_size=hand_size, kitty=args.kitty,
        seed=args.seed, index=args.index, jokers=not args.no_jokers,
        fixed=dict(hand_spec(f, "--fixed") for f in args.fixed) or None,
        kitty_cards=args.kitty_cards,
        voids=dict(hand_spec(v, "--void") for v in args.void) or None,
    )
    print(d)
    return 0


def register_cli(sub: Any) -> None:
    """Add the ``zhipai deal`` subcommand to the CLI's subparsers."""
    p = sub.add_parser("deal", help="deal cards (seeded; optionally with fixed cards and voids)")
    p.add_argument("--decks", type=int, default=2, help="1-4 decks (default 2)")
    p.add_argument("--hands", type=int, default=None, help="number of hands (default 4)")
    p.add_argument("--hand-size", default=None,
                   help="cards per hand, or sizes like 43,43,43,43,44 (default: even split)")
    p.add_argument("--kitty", type=int, default=None,
                   help="kitty size (default: 6/8/6 for 1/2/3 decks and 4 hands, shengji.md §1.1)")
    p.add_argument("--seed", type=int, default=None, help="seed 0..2**64-1 (default: random)")
    p.add_argument("--index", type=int, default=0, help="which deal of the seed (default 0)")
    p.add_argument("--no-jokers", action="store_true", help="decks without the two jokers")
    p.add_argument("--fixed", "--known", action="append", default=[], metavar="HAND=CARDS",
                   help="cards known to be in a hand, e.g. --fixed '0=BJ BJ AS' (repeatable; the same "
                   "syntax as `zhipai evaluate --known`)")
    p.add_argument("--kitty-cards", default=None, metavar="CARDS",
                   help="cards known to be in the kitty")
    p.add_argument("--void", action="append", default=[], metavar="HAND=CARDS",
                   help="a hand holds none of these suits/cards, e.g. --void 1=S or 1=SHD (repeatable)")
    p.set_defaults(func=_cmd_deal)
