"""What an analyst reads first, per game: the key columns, the key events, the codes of coded
columns, the seat's return and the outcome of a deal — one table per game, used by
``SimResult.summary()`` / ``plot()``, ``Evaluation`` reports and plots, ``zhipai.compare`` and
the command line.

* **Key columns** (:class:`Key`): the few numbers that decide ("attackers' points", "seat 0's
  credited result"), each with its meaning and direction. The other columns are shown with
  ``columns="all"`` (``--columns all``).
* **Key events** (:class:`Event`): a yes/no fact of a deal read from one column
  (``take_over == 1``: the attackers take over), so its rate is exact from rows and from the
  aggregate histograms alike.
* **Codes** (:data:`CODES`): what the values of coded columns mean (``trump`` 0–4 = S H D C NT,
  Baohuang ``mode``, seats, …).
* **The seat's return** (:meth:`GameKeys.seat_return`): what a seat gains in a deal — levels for
  its team (Shengji family, negative when the other team gains), its result (Hong Wu: the
  dealer's or a 闲家's), its credited score (Gongzhu), its score (Baohuang).
* **The outcome** (:meth:`GameKeys.outcome`): what "the result of the deal changed" means when
  two rule variants play the same deal (:func:`zhipai.compare`): the signed level change
  (Shengji family: which side gains or takes over, and how many levels), the dealer making the
  bid or not (Hong Wu), the seat with the best credited
  result (Gongzhu), the emperor's side winning, drawing or losing (Baohuang).

``keys_for(preset)`` gives the table of a preset (``None`` for a game without one: then every
column is a key column and there are no events).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from zhipai import _core

__all__ = ["CODES", "Event", "GameKeys", "Key", "keys_for", "quantiles", "value_grid"]

#: The quantiles every summary shows (and plots mark).
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@dataclass(frozen=True)
class Key:
    """A key column: ``column`` (a result column, or ``seat_return``), ``meaning`` (with the
    direction: which way is better for whom), ``log`` (long tails: plots use a log count axis
    and the text distribution keeps the tails in two end rows)."""

    column: str
    meaning: str
    log: bool = False


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
}


@dataclass(frozen=True)
class Event:
    """A yes/no fact of a deal read from one column: ``column OP value`` (``take_over == 1``)."""

    label: str
    column: str
    op: str
    value: int

    @property
    def test_text(self) -> str:
        return f"{self.column} {self.op} {self.value}"

    def __str__(self) -> str:
        return f"{self.label} ({self.test_text})"

    def mask(self, values: np.ndarray) -> np.ndarray:
        """Per deal, whether the event happened (``values``: the column's rows)."""
        return np.asarray(_OPS[self.op](np.asarray(values), self.value), dtype=bool)

    def count(self, histogram: Sequence[tuple[int, int]]) -> int:
        """Deals where the event happened, from the column's exact histogram."""
        test = _OPS[self.op]
        return sum(int(c) for v, c in histogram if test(int(v), self.value))


#: Seat numbers.
_SEATS4 = {s: f"seat {s}" for s in range(4)}
_SEATS5 = {s: f"seat {s}" for s in range(5)}
_TRUMP = {0: "S", 1: "H", 2: "D", 3: "C", 4: "NT"}
_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
_LEVEL = {**dict(enumerate(_RANKS)), 13: "NT"}
_EXPOSED = {0: "not exposed", 1: "exposed (x2)", 2: "both copies exposed (x4)"}
_PLACES = {1: "大客 1st", 2: "二客 2nd", 3: "三客 3rd", 4: "二拉 4th", 5: "大拉 5th"}


def _card_names() -> dict[int, str]:
    names = {i: str(c) for i, c in enumerate(_core.cards_from_array(np.arange(54)))}
    return {-1: "none (抢独)", **names}


#: Per game: column → {value: meaning}. Columns of seats also read "seat N"; ``-1`` is "none"
#: where a column uses it.
CODES: dict[str, dict[str, dict[int, str]]] = {
    "shengji": {
        "dealer": _SEATS4,
        "trump": _TRUMP,
        "level": _LEVEL,
        "side": {0: "dealer team gains", 1: "attackers take over"},
        "take_over": {0: "dealer team keeps the deal", 1: "attackers deal next"},
    },
    "hong_wu": {
        "dealer": _SEATS4,
        "trump": {k: v for k, v in _TRUMP.items() if k < 4},
    },
    "gongzhu": {
        **{c: _SEATS4 for c in ("pig_taker", "sheep_taker", "transformer_taker", "first_leader", "next_leader",
                                "pig_taker_2", "sheep_taker_2", "transformer_taker_2")},
        "all_hearts": {-1: "none", **_SEATS4},
        "grand_slam": {-1: "none", **_SEATS4},
        **{c: _EXPOSED for c in ("exposed_pig", "exposed_sheep", "exposed_transformer", "exposed_heart_ace")},
    },
    "baohuang": {
        "emperor": {-1: "黄局 (no emperor)", **_SEATS5},
        "guard": {-1: "none (solo)", **_SEATS5},
        "mode": {-1: "黄局", 0: "normal 暗保", 1: "open guard 明保", 2: "grab 抢独", 3: "open solo 明独",
                 4: "secret solo 暗独"},
        "emperor_place": _PLACES,
        "guard_place": {-1: "none (solo)", **_PLACES},
        **{f"place_{s}": _PLACES for s in range(5)},
    },
}


def _shengji_return(rows: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
    """Levels gained by ``seat``'s team: ``levels`` when its side gained, ``-levels`` else."""
    dealer_team = (rows["dealer"] % 2) == seat % 2
    gains = (rows["side"] == 0) == dealer_team
    levels = rows["levels"].astype(np.int32)
    return np.where(gains, levels, -levels).astype(np.int32)


def _shengji_outcome(rows: Mapping[str, np.ndarray]) -> np.ndarray:
    """The level change as one code: ``100 × side + levels`` (side 0: the dealer team gains
    ``levels``; side 1: the attackers take over and gain ``levels``, maybe 0)."""
    return (100 * rows["side"].astype(np.int32) + rows["levels"].astype(np.int32)).astype(np.int32)


def _shengji_outcome_name(code: int) -> str:
    side, levels = divmod(int(code), 100)
    return f"dealer team +{levels}" if side == 0 else f"attackers take over +{levels}"


def _hongwu_return(rows: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
    return np.where(rows["dealer"] == seat, rows["dealer_result"], rows["each_other_result"]).astype(np.int32)


def _gongzhu_outcome(rows: Mapping[str, np.ndarray]) -> np.ndarray:
    """The seat with the best credited result, -1 when two or more seats share it."""
    finals = np.stack([rows[f"final_{s}"] for s in range(4)])
    best = finals.max(axis=0)
    winners = finals == best
    return np.where(winners.sum(axis=0) == 1, winners.argmax(axis=0), -1).astype(np.int32)


def _baohuang_emperor_score(rows: Mapping[str, np.ndarray]) -> np.ndarray:
    scores = np.stack([rows[f"score_{s}"] for s in range(5)])
    emperor = rows["emperor"].astype(np.int64)
    picked = scores[np.clip(emperor, 0, 4), np.arange(len(emperor))]
    return np.where(emperor >= 0, picked, 0).astype(np.int32)


@dataclass(frozen=True)
class GameKeys:
    """The key table of one game (see the module docs)."""

    game: str
    #: Key columns of ``simulate`` (seat 0 stands for every seat where seats are alike).
    columns: tuple[Key, ...]
    #: Key events of ``simulate``.
    events: tuple[Event, ...]
    #: Key columns of an evaluation from ``seat``'s point of view (``seat_return`` first).
    seat_columns_of: Callable[[int], tuple[Key, ...]]
    #: Key events of an evaluation from ``seat``'s point of view.
    seat_events_of: Callable[[int], tuple[Event, ...]]
    #: ``seat_return`` from the outcome columns, and what it means.
    seat_return_of: Callable[[Mapping[str, np.ndarray], int], np.ndarray]
    seat_return_doc: str
    #: The outcome of a deal (compare): per deal an int code, what it means, and its codes.
    outcome_of: Callable[[Mapping[str, np.ndarray]], np.ndarray]
    outcome_doc: str
    outcome_codes: Callable[[int], str] = field(default=lambda v: str(v))

    @property
    def codes(self) -> dict[str, dict[int, str]]:
        return CODES.get(self.game, {})

    def seat_columns(self, seat: int) -> tuple[Key, ...]:
        return self.seat_columns_of(seat)

    def seat_events(self, seat: int) -> tuple[Event, ...]:
        return self.seat_events_of(seat)

    def seat_return(self, rows: Mapping[str, np.ndarray], seat: int) -> np.ndarray:
        return self.seat_return_of(rows, seat)

    def outcome(self, rows: Mapping[str, np.ndarray]) -> np.ndarray:
        return self.outcome_of(rows)


_RETURN = "seat_return"

_SHENGJI = GameKeys(
    game="shengji",
    columns=(
        Key("attacker_points", "attackers' total, kitty and penalties included; higher is better for the attackers "
            "(they take over at 80 with 2 decks)"),
        Key("levels", "levels gained by the side that gains (see take_over for which side)"),
        Key("jj_score", "JJ 防方计分, in units of 基数 (tractor_jj)"),
    ),
    events=(
        Event("attackers take over", "take_over", "==", 1),
        Event("attackers win the last trick (kitty counted)", "kitty_multiplier", ">", 0),
        Event("attackers held to 0 points", "attacker_points", "==", 0),
        Event("a throw failed", "failed_throws", ">", 0),
        Event("someone overcalls after the burial 炒底", "chaodi", ">", 0),
    ),
    seat_columns_of=lambda seat: (
        Key(_RETURN, f"levels gained by seat {seat}'s team (negative: the other team gains); higher is better"),
        Key("attacker_points", "attackers' total, kitty included; higher is better for the attackers"),
        Key("levels", "levels gained by the side that gains"),
    ),
    seat_events_of=lambda seat: (
        Event(f"seat {seat}'s team gains levels", _RETURN, ">", 0),
        Event("attackers take over", "take_over", "==", 1),
        Event("attackers win the last trick (kitty counted)", "kitty_multiplier", ">", 0),
    ),
    seat_return_of=_shengji_return,
    seat_return_doc="levels gained by the seat's team (negative when the other team gains)",
    outcome_of=_shengji_outcome,
    outcome_doc="the level change: which side gains (or takes over) and how many levels",
    outcome_codes=_shengji_outcome_name,
)

_HONGWU = GameKeys(
    game="hong_wu",
    columns=(
        Key("bid", "the dealer's bid (60…200)"),
        Key("attacker_points", "X: the attackers' (闲家) points, kitty included; higher is better for the attackers"),
        Key("score", "S = dealer points − bid − R5; the dealer makes the bid at S ≥ 0; higher is better for the dealer"),
        Key("dealer_result", "the dealer's result, table units × base_score_k; higher is better for the dealer"),
    ),
    events=(
        Event("the dealer makes the bid", "score", ">=", 0),
        Event("the dealer wins big", "score", ">=", 70),
        Event("the dealer loses big", "score", "<=", -70),
        Event("the attackers 闲家 win the last trick (kitty counted)", "kitty_multiplier", ">", 0),
        Event("a red 5 penalty", "red5_penalty", ">", 0),
    ),
    seat_columns_of=lambda seat: (
        Key(_RETURN, f"seat {seat}'s result (the dealer's or an attacker's), table units × base_score_k; higher is better"),
        Key("score", "S = dealer points − bid − R5 (dealer makes the bid at S ≥ 0)"),
        Key("bid", "the dealer's bid"),
        Key("attacker_points", "X: the attackers' (闲家) points, kitty included"),
    ),
    seat_events_of=lambda seat: (
        Event(f"seat {seat} gains", _RETURN, ">", 0),
        Event(f"seat {seat} is the dealer", "dealer", "==", seat),
        Event("the dealer makes the bid", "score", ">=", 0),
    ),
    seat_return_of=_hongwu_return,
    seat_return_doc="the seat's result: dealer_result when it is the dealer, else each_other_result",
    outcome_of=lambda rows: (rows["score"] >= 0).astype(np.int32),
    outcome_doc="whether the dealer makes the bid (S ≥ 0)",
    outcome_codes=lambda v: "dealer makes the bid" if v else "dealer fails",
)

_GONGZHU = GameKeys(
    game="gongzhu",
    columns=(
        Key("final_0", "seat 0's credited result (every seat alike over random deals); higher is better", log=True),
        Key("raw_0", "seat 0's raw score; higher is better", log=True),
    ),
    events=(
        Event("seat 0 takes the pig", "pig_taker", "==", 0),
        Event("seat 0 takes the sheep", "sheep_taker", "==", 0),
        Event("the pig is exposed", "exposed_pig", ">", 0),
        Event("someone takes all hearts 全红", "all_hearts", ">=", 0),
        Event("someone takes every scoring card 全收", "grand_slam", ">=", 0),
    ),
    seat_columns_of=lambda seat: (
        Key(_RETURN, f"seat {seat}'s credited result; higher is better", log=True),
        Key(f"raw_{seat}", f"seat {seat}'s raw score; higher is better", log=True),
    ),
    seat_events_of=lambda seat: (
        Event(f"seat {seat} takes the pig", "pig_taker", "==", seat),
        Event(f"seat {seat} takes the sheep", "sheep_taker", "==", seat),
        Event(f"seat {seat} takes the transformer", "transformer_taker", "==", seat),
        Event(f"seat {seat} takes all hearts 全红", "all_hearts", "==", seat),
        Event(f"seat {seat} scores above 0", _RETURN, ">", 0),
    ),
    seat_return_of=lambda rows, seat: rows[f"final_{seat}"].astype(np.int32),
    seat_return_doc="the seat's credited result (final_SEAT)",
    outcome_of=_gongzhu_outcome,
    outcome_doc="the seat with the best credited result (-1: shared)",
    outcome_codes=lambda v: f"seat {v} best" if v >= 0 else "best shared",
)

_BAOHUANG = GameKeys(
    game="baohuang",
    columns=(
        Key("score_0", "seat 0's score (every seat alike over random deals); higher is better"),
        Key("emperor_place", "the emperor's finishing place, 1 (大客) … 5 (大拉); lower is better for the emperor"),
        Key("mode", "how the emperor plays: with a hidden or open guard, or alone (codes below)"),
    ),
    events=(
        Event("the emperor finishes first 大客", "emperor_place", "==", 1),
        Event("the emperor finishes last 大拉", "emperor_place", "==", 5),
        Event("the emperor plays alone", "solo", "==", 1),
        Event("the guard opens 明保 (doubled)", "open_guard", "==", 1),
        Event("seat 0 finishes first", "place_0", "==", 1),
    ),
    seat_columns_of=lambda seat: (
        Key(_RETURN, f"seat {seat}'s score; higher is better"),
        Key(f"place_{seat}", f"seat {seat}'s finishing place, 1 (大客) … 5 (大拉); lower is better"),
    ),
    seat_events_of=lambda seat: (
        Event(f"seat {seat} finishes first 大客", f"place_{seat}", "==", 1),
        Event(f"seat {seat} finishes last 大拉", f"place_{seat}", "==", 5),
        Event(f"seat {seat} is the emperor", "emperor", "==", seat),
        Event(f"seat {seat} scores above 0", _RETURN, ">", 0),
    ),
    seat_return_of=lambda rows, seat: rows[f"score_{seat}"].astype(np.int32),
    seat_return_doc="the seat's score (score_SEAT)",
    outcome_of=lambda rows: np.sign(_baohuang_emperor_score(rows)).astype(np.int32),
    outcome_doc="whether the emperor's side wins, draws or loses (the sign of the emperor's score)",
    outcome_codes=lambda v: {1: "emperor side wins", 0: "draw", -1: "emperor side loses"}.get(v, str(v)),
)

_TABLES = {k.game: k for k in (_SHENGJI, _HONGWU, _GONGZHU, _BAOHUANG)}


def game_of(preset: str) -> str | None:
    """The game of a preset name (``shengji``, ``hong_wu``, ``gongzhu``, ``baohuang``), or None."""
    for name, game, _desc, _opts in _core.presets():
        if name == preset:
            return str(game)
    return None


def keys_for(preset: str) -> GameKeys | None:
    """The key table of ``preset``'s game, or None."""
    game = game_of(preset)
    return None if game is None else _TABLES.get(game)


def codes_for(preset: str) -> dict[str, dict[int, str]]:
    """``{column: {value: meaning}}`` of ``preset``'s coded columns (with ``dengji_card``'s
    card names for Baohuang)."""
    game = game_of(preset)
    codes = dict(CODES.get(game or "", {}))
    if game == "baohuang":
        codes["dengji_card"] = _card_names()
    return codes


def key_columns(preset: str, columns: Sequence[str], seat: int | None = None) -> list[Key]:
    """The key columns of ``preset`` among ``columns`` (for ``seat``'s point of view when
    given); every column when the game has no key table or none of its key columns is there."""
    keys = keys_for(preset)
    if keys is not None:
        table = keys.columns if seat is None else keys.seat_columns(seat)
        found = [k for k in table if k.column in columns]
        if found:
            return found
    return [Key(c, "") for c in columns]


def key_events(preset: str, columns: Sequence[str], seat: int | None = None) -> list[Event]:
    """The key events of ``preset`` whose column is among ``columns``."""
    keys = keys_for(preset)
    if keys is None:
        return []
    table = keys.events if seat is None else keys.seat_events(seat)
    return [e for e in table if e.column in columns]


# --- exact statistics from a histogram (the same for rows and aggregates) ------------------


def quantiles(histogram: Sequence[tuple[int, int]], qs: Sequence[float] = QUANTILES) -> list[int]:
    """The ``qs`` quantiles of the values counted by ``histogram`` (ascending ``(value,
    count)``): the smallest value whose cumulative count reaches ``q·n`` (numpy's
    ``inverted_cdf``), so quantiles are values that occur and are equal from rows and from
    aggregates."""
    total = sum(int(c) for _, c in histogram)
    out: list[int] = []
    if total == 0:
        return out
    values = np.array([int(v) for v, _ in histogram], dtype=np.int64)
    cum = np.cumsum(np.array([int(c) for _, c in histogram], dtype=np.int64))
    for q in qs:
        need = max(1, math.ceil(q * total - 1e-9))
        out.append(int(values[int(np.searchsorted(cum, need))]))
    return out


def value_grid(histogram: Sequence[tuple[int, int]]) -> int:
    """The step of the values (their greatest common difference: 5 for points, 1 for counts; 1
    for a single value)."""
    values = [int(v) for v, c in histogram if c]
    if len(values) < 2:
        return 1
    lo = values[0]
    return int(np.gcd.reduce(np.array([v - lo for v in values[1:]], dtype=np.int64))) or 1


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``k / n`` (NaN when ``n == 0``): good at shares
    near 0 or 1, where the normal interval is not."""
    if n == 0:
        return (math.nan, math.nan)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))
