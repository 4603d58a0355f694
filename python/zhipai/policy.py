"""Step-by-step play and Python policies: one state protocol for every game.

``zhipai.Game(rules).new_deal(seed, index)`` returns the deal that ``zhipai.simulate(rules,
..., seed=seed)`` plays as deal ``index`` (same cards, same chance events, same generator for
the built-in policies), as a :class:`GameState` that any mix of Python code and built-in
policies can play one decision at a time. ``zhipai.simulate(rules, deals, policy=f)`` runs
that loop for you with a Python callable ``f(observation, legal_moves) -> move`` for one or
more seats (the slow path: single-threaded, the GIL held; with a trivial policy 30 to 250 times
slower than the built-in policies on one thread, see BENCHMARKS.md).

Not to be confused with the game modules' own states (``zhipai.shengji.Deal``,
``zhipai.gongzhu.Game``, ``zhipai.hongwu.Game``, ``zhipai.baohuang.Game``): those speak each
game's actions (``legal_actions``/``apply_action``, integer codes where the game has them, for RL
and rule studies); :class:`Game` here speaks move text, the same for every game, for Python
policies.

A *move* is text, exactly as :meth:`GameState.legal_moves` lists it:

* Shengji family (tractor, tractor_jj, eighty_points): ``"pass"``, ``"declare 2H 2H"``,
  ``"bury <cards>"``, ``"play <cards>"`` (with ``chaodi=True`` the phase ``"chaodi"`` after a
  burial takes ``"pass"`` or ``"declare <cards>"`` too).
* Hong Wu (hong_wu): ``"pass"``, ``"bid 60"``, ``"trump S"``, ``"bury <8 cards>"``,
  ``"play <cards>"``.
* Gongzhu: ``"expose QS"``, ``"expose closed QS"``, ``"end exposure"``, a play as cards
  (``"QS"``; two decks: ``"10C 10C"``).
* Baohuang: a play as cards (``"9C 9D 9H"``), ``"pass"``, ``"yield"``, ``"jiefeng"``,
  ``"ascend 9C"``, ``"grab"``, ``"abdicate"``, ``"decline"``, ``"open_guard"``,
  ``"secret_guard"``, ``"open_solo"``, ``"secret_solo"``.

``apply`` reads a move in any letter case and spacing, with its cards in any order; nothing
else is an alias (Gongzhu has no ``"pass"``: ``"end exposure"`` ends one's exposures).

``legal_moves()`` is complete for Gongzhu and every bid, declaration and trump choice, and for
Baohuang up to suits the rules ignore (§C.2: suits matter only for the 登基 card): each play — n
naturals of one rank + x SJ + y BJ — is listed once with one choice of suits, except that the
play with the 登基 card and the same play without it are both listed when both are legal (a
guard who plays it reveals himself); the same play in other suits may be applied too. In the Shengji family and Hong Wu a burial, a lead or a follow can have millions of
legal choices, so there it lists at most 1000: burials — the first 1000 legal ones in card
order; leads — every legal lead (any cards of one effective suit, throws included) when there
are at most 1000, else every single-unit lead (single, pair, triple, tractor) plus each suit's
whole holding when it is a throw (the random policy's candidates); follows — the first 1000
legal follows (all of them in nearly every position). ``apply`` accepts *any* legal move, listed
or not (e.g. a burial of your choice, a partial throw).

Phases (``state.phase`` and the observation's ``phase``): the trick play is ``"play"`` and the
end ``"done"`` in every game; before the play:

* Shengji family: ``"dealing"`` (declarations while the cards are dealt), ``"burying"``.
* Hong Wu: ``"auction"``, ``"trump"``, ``"kitty"``.
* Gongzhu: ``"exposure"``.
* Baohuang: ``"accession"`` (登基/让位/抢), ``"grab_window"`` (the others may grab after a 让位),
  ``"forced"`` (逼位), ``"guard_choice"`` (明保/暗保), ``"solo_choice"`` (明独/暗独); the
  observation of every seat but the chooser reads ``"hidden_choice"`` during those two.

(The game modules' own states keep their names: ``zhipai.shengji.Deal.phase`` says
``"playing"``, Hong Wu's and Baohuang's say ``"over"``.)

Observation (``state.observation(seat)``): a dict of only what ``seat`` sees. Cards are card
text in notation (``"AS KS 10H"``); seats are ints. Keys common to every game:

* ``game`` (``"shengji"``, ``"hong_wu"``, ``"gongzhu"``, ``"baohuang"``), ``seat``, ``phase``,
  ``current_player`` (``None`` once over);
* ``hand``: the seat's own cards; ``hand_sizes``: how many cards each seat holds;
* ``history``: every move so far as ``(seat, move text)`` in order (a fresh list each call);
  another seat's hidden move shows only its kind (``"bury"``, ``"expose closed"``), a secret one
  (Baohuang's 暗保/暗独, a Shengji pass while dealing or in a 炒底 offer) not at all. Plays are the cards actually
  played; a failed throw, shown to the table as in real play, reads
  ``"play 8C (failed throw KC KC JC JC 8C)"``.

Per game:

* Shengji: ``level`` (rank text), ``dealer`` (``None`` until known in hand 1), ``trump``
  (``"S"``/``"H"``/``"D"``/``"C"``/``"NT"``, ``None`` while dealing), ``declaration``
  (``(seat, cards)`` of the winning declaration so far, or ``None``), ``kitty`` (the seat's own
  burial when it buried the kitty lying there — the dealer, or a 炒底 overcaller — else
  ``None``), ``current_trick`` (list of
  ``(seat, cards)``, leader first), ``points_won`` (card points per seat in completed tricks),
  ``tricks`` (completed). While dealing a seat is asked only when it holds a legal
  declaration, so being asked is private: to the other seats ``current_player`` is ``None``
  and its passes are not in their history (its declarations are).
* Hong Wu: ``contract`` (``(dealer, bid)`` or ``None``), ``trump``, ``kitty`` (the dealer's own
  burial), ``current_trick``, ``points_won``, ``tricks``.
* Gongzhu: ``exposed`` (open exposures per seat), ``closed`` (the seat's own closed
  declarations), ``taken`` (cards each seat took in tricks; no running score, which would
  reveal closed declarations through their factor), ``current_trick`` (list of
  ``(seat, cards)``), ``first_leader``, ``tricks``.
* Baohuang: ``scepter`` (the marked scepter holder), ``emperor``, ``dengji_card``, ``guard``
  (only when the seat is the guard or the guard is revealed), ``mode`` (``"secret_solo"`` reads
  ``"normal"`` to all but the emperor), ``play_to_beat`` (suitless), ``finishing_order``,
  ``abdications``, ``redeals`` (void deals 黄局 redealt so far; the history restarts with each
  redeal), ``tribute`` (the previous places 进贡 was made from under
  ``tribute_between_deals="on"``, else ``None``; the seat's own hand shows what it gave and got). The guard's 明保/暗保 and a 4-copy emperor's 明独/暗独 choice are secret: to every
  other seat the phase reads ``"hidden_choice"`` with ``current_player`` ``None``, and a secret
  choice never appears in their history.

Nothing else of another seat's hand is ever in an observation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, Union, runtime_checkable

import numpy as np

from zhipai import _core
from zhipai._core import InvalidValueError, Rules, ZhipaiError

__all__ = ["Game", "GameState", "PolicyError", "PolicyFn", "SeatPolicies", "seat_policies"]

#: A Python policy: ``f(observation: dict, legal_moves: list[str]) -> str`` (a legal move).
PolicyFn = Callable[[dict, list], str]

#: What ``simulate(policy=...)`` accepts: a built-in name, one callable for every seat, a list
#: with one entry per seat, or a mapping ``{seat: policy, ..., "others": policy}``.
SeatPolicies = Union[str, PolicyFn, Sequence[Any], Mapping[Any, Any]]

BUILTIN = ("random", "greedy")


class PolicyError(ZhipaiError):
    """A Python policy raised an exception. ``__cause__`` is that exception; ``deal`` and
    ``seat`` say where it happened."""

    def __init__(self, message: str, *, deal: int, seat: int) -> None:
        super().__init__(message)
        self.deal = deal
        self.seat = seat


@runtime_checkable
class GameState(Protocol):
    """The step-wise state of one deal (every game's ``<Game>GameState`` class has these).

    OpenSpiel verbs: ``current_player``, ``is_terminal``, ``legal_moves``, ``apply``,
    ``clone``, ``returns``; plus ``phase``, ``observation``, the built-in policies and the result
    row. Every argument of the wrong type or value raises ``InvalidValueError`` naming it.
    """

    num_players: int
    #: The phase (module docs): ``"play"`` for the trick play and ``"done"`` at the end in every
    #: game.
    phase: str

    def current_player(self) -> int | None:
        """The seat to decide (0-based), ``None`` once the deal is over."""

    def is_terminal(self) -> bool:
        """Whether the deal is over (scored)."""

    def legal_moves(self) -> list[str]:
        """Legal moves of the seat to decide, as text, in a deterministic order (see the module
        docs for the Shengji-family lists); ``[]`` once over."""

    def apply(self, move: str) -> None:
        """Apply ``move`` for the seat to decide (any letter case, spacing and card order).
        Raises ``IllegalPlayError`` naming the move and the rule (state unchanged),
        ``InvalidCardError``/``InvalidValueError`` for bad text or a non-string (the value
        quoted, cut to 80 characters when long)."""

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees (module docs). Raises ``InvalidValueError`` for a bad seat."""

    def builtin_move(self, policy: str) -> str:
        """The move built-in ``policy`` (``"random"``/``"greedy"``) would make now, not applied
        (it draws from the deal's own generator). ``InvalidValueError`` for another policy."""

    def apply_builtin(self, policy: str) -> str:
        """Apply the built-in ``policy``'s move exactly as ``zhipai.simulate`` does; its text."""

    def result_row(self) -> list[int]:
        """The deal's row of ``zhipai.simulate`` columns (``Game.columns``) once over; raises
        ``InvalidValueError`` before."""

    def returns(self) -> list[float]:
        """Each seat's result once over (zeros before, never ``-0.0``): Shengji levels gained
        (zero-sum), Hong Wu table units, Gongzhu credited scores, Baohuang scores."""

    def clone(self) -> GameState:
        """An independent copy (its generator too)."""


_STATE_CLASSES = {
    "shengji": "ShengjiGameState",
    "hong_wu": "HongWuGameState",
    "hongwu": "HongWuGameState",
    "gongzhu": "GongzhuGameState",
    "baohuang": "BaohuangGameState",
}


def _game_of(preset: str) -> str:
    for name, game, _desc, _opts in _core.presets():
        if name == preset:
            return str(game)
    raise InvalidValueError(f"invalid rules: unknown preset {preset!r}")  # pragma: no cover


class Game:
    """A game under ``rules``: ``Game(rules)`` (a ``zhipai.Rules`` or a preset name), whose
    deals are :class:`GameState` s speaking move text (for Python policies). For integer
    actions (RL) see the game modules' own classes (module docs).

    Attributes: ``rules``, ``preset``, ``name`` (the game), ``num_players``, ``columns`` (result
    column names, the order of ``result_row()``), ``docs`` (column → meaning).
    """

    def __init__(self, rules: Rules | str) -> None:
        if isinstance(rules, str):
            rules = _core.rules(rules, None)
        if not isinstance(rules, Rules):
            raise InvalidValueError(f"invalid rules {rules!r}: expected zhipai.Rules or a preset name")
        self.rules = rules
        self.preset: str = rules.preset
        self.name = _game_of(self.preset)
        try:
            self._cls = getattr(_core, _STATE_CLASSES[self.name])
        except KeyError:  # pragma: no cover - every game has a state class
            raise InvalidValueError(f"no step-wise state for game {self.name!r}") from None
        cols = _core._columns(rules)
        self.columns: list[str] = [c for c, _ in cols]
        self.docs: dict[str, str] = dict(cols)
        self.num_players: int = 5 if self.name == "baohuang" else 4

    def new_deal(self, seed: int = 0, index: int = 0) -> GameState:
        """Deal ``index`` of a ``zhipai.simulate`` run seeded with ``seed`` (ints in 0..2**64),
        at its first decision. Raises ``InvalidValueError`` for a bad seed or index."""
        return self._cls.new_deal(self.rules, seed, index)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"Game({self.preset!r})"


#: Values longer than this are cut in error messages (first 80 characters + "…").
_SHOWN = 80


def _cut(text: str) -> str:
    """``text`` cut to 80 characters + ``…`` and its length (a policy may return or raise with
    a huge string)."""
    return text if len(text) <= _SHOWN else text[:_SHOWN] + f"… ({len(text)} characters)"


def _short(value: Any) -> str:
    """``repr(value)`` cut as :func:`_cut`."""
    return _cut(repr(value))


def _where(e: BaseException) -> str:
    """``" at FILE:LINE"`` of the innermost frame of ``e``'s traceback (where the policy failed),
    or ``""`` without a traceback."""
    tb = e.__traceback__
    if tb is None:
        return ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    return f" at {tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"


def _describe(p: Any) -> str:
    if isinstance(p, str):
        return p
    return str(getattr(p, "__qualname__", None) or getattr(p, "__name__", None) or type(p).__name__)


def _one(p: Any, where: str) -> str | PolicyFn:
    if isinstance(p, str):
        if p not in BUILTIN:
            raise InvalidValueError(f"invalid policy {p!r} for {where}: expected 'random', 'greedy' or a callable")
        return p
    if callable(p):
        return p  # type: ignore[no-any-return]
    raise InvalidValueError(f"invalid policy {p!r} for {where}: expected 'random', 'greedy' or a callable")


def seat_policies(policy: SeatPolicies, num_players: int) -> list[str | PolicyFn]:
    """One policy per seat from what ``simulate(policy=...)`` accepts:

    * ``"random"`` / ``"greedy"`` or a callable: every seat;
    * a list/tuple with exactly one entry per seat (``[f, "random", "greedy", "random"]``);
    * a mapping ``{seat: policy, ..., "others": policy}`` (seats are ints 0..n-1; ``"others"``
      covers every seat not named and is required unless every seat is named).

    Raises ``InvalidValueError`` naming a bad policy, bad seat keys, a list of the wrong length,
    or the seats left without a policy.
    """
    if isinstance(policy, str) or callable(policy):
        return [_one(policy, "every seat")] * num_players
    if isinstance(policy, Mapping):
        seats: dict[int, Any] = {}
        bad = []
        for k, p in policy.items():
            if isinstance(k, str) and k == "others":
                continue
            if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or not 0 <= k < num_players:
                bad.append(k)
            else:
                seats[int(k)] = p
        if bad:
            raise InvalidValueError(
                f"invalid seat keys {bad!r} in policy: expected seats 0..{num_players - 1} or 'others'"
            )
        others = policy.get("others")
        missing = [s for s in range(num_players) if s not in seats]
        if missing and others is None:
            raise InvalidValueError(
                f"invalid policy mapping: no policy for seats {missing} (add them or an 'others' entry)"
            )
        return [_one(seats[s], f"seat {s}") if s in seats else _one(others, "'others'") for s in range(num_players)]
    if isinstance(policy, Sequence) and not isinstance(policy, (bytes, bytearray)):
        items = list(policy)
        if len(items) != num_players:
            raise InvalidValueError(
                f"invalid policy list of {len(items)} entries: expected one per seat ({num_players})"
            )
        return [_one(p, f"seat {s}") for s, p in enumerate(items)]
    raise InvalidValueError(
        f"invalid policy {policy!r}: expected 'random', 'greedy', a callable, a list per seat "
        "or a mapping {seat: policy, 'others': policy}"
    )


def describe(policies: list[str | PolicyFn]) -> str:
    """A short label for a per-seat policy list (``SimResult.policy``): the policy's name when
    every seat has the same one (``"random"``, ``"my_policy"``), else the names per seat joined
    by ``/`` (``"my_policy/greedy/greedy/greedy"``)."""
    names = [_describe(p) for p in policies]
    return names[0] if len(set(names)) == 1 else "/".join(names)


def play_deal(game: Game, seed: int, index: int, policies: list[str | PolicyFn]) -> list[int]:
    """Play deal ``index`` of ``(seed)`` with one policy per seat; its result row.

    Raises ``IllegalPlayError`` naming the move, the seat and the deal when a callable returns a
    move that is not legal (or not a move), and :class:`PolicyError` (chained to the original)
    when a callable raises.
    """
    state = game.new_deal(seed, index)
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        p = policies[seat]
        if isinstance(p, str):
            state.apply_builtin(p)
            continue
        moves = state.legal_moves()
        try:
            move = p(state.observation(seat), moves)
        except Exception as e:  # a policy bug: say where, keep the original as the cause
            raise PolicyError(
                f"the policy of seat {seat} ({_describe(p)}) raised {type(e).__name__}: "
                f"{_cut(str(e))}{_where(e)} "
                f"(deal {index}, seed {seed})",
                deal=index,
                seat=seat,
            ) from e
        if not isinstance(move, str):
            raise _core.IllegalPlayError(
                f"illegal move {_short(move)} from the policy of seat {seat} ({_describe(p)}) in "
                f"deal {index} (seed {seed}): expected a move string such as {moves[:1]!r}"
            )
        try:
            state.apply(move)
        except ZhipaiError as e:
            raise _core.IllegalPlayError(
                f"illegal move {_short(move)} from the policy of seat {seat} ({_describe(p)}) in "
                f"deal {index} (seed {seed}): {e}"
            ) from e
    return list(state.result_row())
