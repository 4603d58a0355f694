"""Dealing: seeded random deals of 1-4 decks, optionally under constraints.

``deal(...)`` returns one :class:`Deal`; ``deal_batch(n, ...)`` returns deals ``start .. start+n``
of a seed as one numpy array. Deal ``i`` of seed ``s`` is the same in both (the Rust core draws
it from ChaCha8 keyed by ``s`` on stream ``i``), so any deal is reproducible from ``(seed, i)``.

Constraints (what is known) — the deal is uniform among all deals consistent with them, copies
of a card counted as distinct physical cards (the posterior of a fair shuffle):

* ``fixed``: cards known to be in a hand — ``{hand: cards}`` or a list with one entry per hand
  (``None`` for none). The hand may hold further copies of those kinds.
* ``kitty_cards``: cards known to be in the kitty.
* ``voids``: kinds a hand holds none of — ``{hand: spec}`` or a list. A spec is a string of
  tokens, each a suit letter (``S H D C`` or ``♠♥♦♣``: the whole suit) or a card (``SJ BJ 2H``),
  an iterable of cards, or an int bitmask of kind indices (bit ``i`` = kind ``i``; game code
  passes effective-suit masks this way).

Cards are given in notation (``"10H AS SJ"``), as ``Card`` objects, or kind indices 0..54.
"""

from __future__ import annotations

import operator
import secrets
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence, Union

import numpy as np
import numpy.typing as npt

from zhipai import _core
from zhipai._core import Card, InvalidValueError

CardsLike = Union[str, Iterable[Union[Card, str, int]]]
VoidLike = Union[str, int, Iterable[Union[Card, str, int]]]

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


def _invalid(what: str, value: Any, reason: str) -> InvalidValueError:
    return InvalidValueError(f"invalid {what} {value!r}: {reason}")


def _cards_text(cards: CardsLike) -> str:
    """Card list in notation; Card objects and kind indices are converted (bad ones raise)."""
    if isinstance(cards, str):
        return cards
    return " ".join(str(c) if isinstance(c, (Card, str)) else str(Card(c)) for c in cards)


def _void_mask(spec: VoidLike) -> int:
    if isinstance(spec, bool):
        raise _invalid("void", spec, "expected suit letters, cards or a kind bitmask")
    if _is_int(spec):
        return operator.index(spec)  # range checked by the caller
    tokens = spec.split() if isinstance(spec, str) else list(spec)
    mask = 0
    for tok in tokens:
        if isinstance(tok, str) and tok.upper() in _SUITS:
            mask |= 0x1FFF << (13 * _SUITS[tok.upper()])
        else:
            mask |= 1 << (tok.index if isinstance(tok, Card) else Card(tok).index)
    return mask


def _per_hand(what: str, value: Mapping[int, Any] | Sequence[Any] | None, hands: int) -> list[Any]:
    """A dict ``{hand: x}`` or a list → list indexed by hand (``None`` where absent)."""
    if value is None:
        return []
    if isinstance(value, Mapping):
        out: list[Any] = []
        for h, x in value.items():
            if not _is_int(h) or h < 0:
                raise _invalid(f"{what} hand", h, f"expected a hand index 0..{hands - 1}")
            h = operator.index(h)
            out += [None] * (h + 1 - len(out))
            out[h] = x
        return out
    if isinstance(value, str):
        raise _invalid(what, value, "expected a dict {hand: ...} or a list with one entry per hand")
    return list(value)


def _shape(decks: int, hands: int | None, hand_size: int | Sequence[int] | None, kitty: int,
           jokers: bool) -> list[int]:
    """The hand sizes; ``hand_size=None`` splits the deck minus the kitty evenly."""
    if isinstance(hand_size, Sequence) and not isinstance(hand_size, str):
        sizes = [operator.index(s) for s in hand_size]
        if hands is not None and hands != len(sizes):
            raise _invalid("hands", hands, f"hand_size lists {len(sizes)} sizes")
        return sizes
    n = 4 if hands is None else hands
    if n <= 0:
        raise _invalid("hands", n, "expected at least 1 hand")
    if hand_size is not None:
        return [operator.index(hand_size)] * n
    if not _is_int(decks) or not 1 <= decks <= 4:
        raise _invalid("decks", decks, "expected 1 to 4 decks")  # before using it below
    deck = decks * (54 if jokers else 52)
    if (deck - kitty) % n or deck - kitty <= 0:
        raise _invalid(
            "hand_size", None,
            f"the {deck}-card deck minus a kitty of {kitty} does not split evenly into {n} "
            "hands; pass hand_size")
    return [(deck - kitty) // n] * n


def _is_int(x: Any) -> bool:
    """An integer (Python or numpy), not a bool."""
    if isinstance(x, bool):
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(64)
    if not _is_int(seed) or not 0 <= operator.index(seed) < 2**64:
        raise _invalid("seed", seed, "expected an integer in 0..2**64")
    return operator.index(seed)


def _args(decks: int, hands: int | None, hand_size: int | Sequence[int] | None, kitty: int,
          jokers: bool, fixed: Any, kitty_cards: CardsLike | None, voids: Any) -> tuple[Any, ...]:
    sizes = _shape(decks, hands, hand_size, kitty, jokers)
    fixed_text = ["" if x is None else _cards_text(x) for x in _per_hand("fixed", fixed, len(sizes))]
    masks = [0 if x is None else _void_mask(x) for x in _per_hand("voids", voids, len(sizes))]
    for h, m in enumerate(masks):
        if not 0 <= m < 2**64:
            raise _invalid(f"void mask of hand {h}", m, "expected a bitmask of kinds 0..53")
    kitty_text = "" if kitty_cards is None else _cards_text(kitty_cards)
    return decks, sizes, kitty, bool(jokers), fixed_text, kitty_text, masks


def deal(
    decks: int = 2,
    hands: int | None = None,
    hand_size: int | Sequence[int] | None = None,
    kitty: int = 8,
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
        hands: number of hands (default 4, or the length of a ``hand_size`` list).
        hand_size: cards per hand, or a list of sizes for unequal hands (Baohuang:
            ``[43, 43, 43, 43, 44]``). Default: the deck minus the kitty split evenly.
        kitty: kitty (底牌) size; hand sizes plus kitty must equal the deck size.
        seed: integer in ``0..2**64``; ``None`` draws one (recorded in ``Deal.seed``).
        fixed, kitty_cards, voids: constraints, see the module docs.
        index: which deal of the seed (deal ``i`` of ``deal_batch``).

    Returns:
        A :class:`Deal` (card lists plus the ``(hands + 1, 54)`` ``uint8`` count matrix).

    Raises:
        InvalidValueError: decks outside 1..4, no hands, a hand size of 0, sizes that do not add
            up to the deck size, a negative count or index, a seed outside ``0..2**64``, a
            constraint for a hand the deal does not have.
        InvalidCardError: a card that cannot be parsed, naming it.
        ImpossibleDealError: constraints no deal satisfies, naming the constraint.
    """
    s = _seed(seed)
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
    kitty: int = 8,
    seed: int = 0,
    *,
    jokers: bool = True,
    fixed: Mapping[int, CardsLike] | Sequence[CardsLike | None] | None = None,
    kitty_cards: CardsLike | None = None,
    voids: Mapping[int, VoidLike] | Sequence[VoidLike | None] | None = None,
    start: int = 0,
) -> npt.NDArray[np.uint8]:
    """Deals ``start .. start + n`` of ``seed`` as one count array (arguments as in :func:`deal`).

    Returns:
        ``uint8`` array of shape ``(n, hands + 1, 54)``: ``out[i]`` is the count matrix of deal
        ``start + i`` (``deal(..., seed=seed, index=start + i).counts``). The constraints are
        checked once; dealing runs in Rust with the GIL released (one thread).

    Raises:
        The errors of :func:`deal`; ``InvalidValueError`` for a negative ``n`` or ``start``.
    """
    s = _seed(seed)
    decks, sizes, kitty, jokers, fixed_text, kitty_text, masks = _args(
        decks, hands, hand_size, kitty, jokers, fixed, kitty_cards, voids)
    return _core._deal_batch(
        decks, sizes, kitty, jokers, s, start, n, fixed_text, kitty_text, masks)


def _hand_spec(text: str) -> tuple[int, str]:
    """``"2=AS KS"`` → ``(2, "AS KS")`` for ``--fixed`` / ``--void``."""
    h, sep, rest = text.partition("=")
    if not sep or not h.strip().isdigit():
        raise _invalid("hand constraint", text, "expected HAND=CARDS, e.g. 1=AS KS or 2=S")
    return int(h), rest


def _cmd_deal(args: Any) -> int:
    hand_size: Any = args.hand_size
    if hand_size is not None and "," in hand_size:
        hand_size = [int(s) for s in hand_size.split(",")]
    elif hand_size is not None:
        hand_size = int(hand_size)
    d = deal(
        decks=args.decks, hands=args.hands, hand_size=hand_size, kitty=args.kitty,
        seed=args.seed, index=args.index, jokers=not args.no_jokers,
        fixed=dict(_hand_spec(f) for f in args.fixed) or None,
        kitty_cards=args.kitty_cards,
        voids=dict(_hand_spec(v) for v in args.void) or None,
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
    p.add_argument("--kitty", type=int, default=8, help="kitty size (default 8)")
    p.add_argument("--seed", type=int, default=None, help="seed 0..2**64-1 (default: random)")
    p.add_argument("--index", type=int, default=0, help="which deal of the seed (default 0)")
    p.add_argument("--no-jokers", action="store_true", help="decks without the two jokers")
    p.add_argument("--fixed", action="append", default=[], metavar="HAND=CARDS",
                   help="cards known to be in a hand, e.g. --fixed '0=BJ BJ AS' (repeatable)")
    p.add_argument("--kitty-cards", default=None, metavar="CARDS",
                   help="cards known to be in the kitty")
    p.add_argument("--void", action="append", default=[], metavar="HAND=SPEC",
                   help="a hand holds none of these suits/cards, e.g. --void 1=S (repeatable)")
    p.set_defaults(func=_cmd_deal)
