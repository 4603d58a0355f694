"""Python policies: per-seat policy specifications and the slow simulation loop.

A policy is a player name or a callable. Names (:func:`player_name`) are the players of the Rust
core (``rust/zhipai-core/src/search/player.rs``): the built-in policies ``"random"`` and
``"greedy"`` (and ``"basic"`` where the engine has it), and the search players ``"pimc"`` /
``"pimc(worlds=32,rollout=greedy,candidates=12,widen=4,time_ms=50,threads=1)"`` and
``"ismcts"`` / ``"ismcts(iterations=2000,rollout=greedy,c=0.7,candidates=12,widen=4,time_ms=50)"``
(any subset of the parameters, in any order; letter case and spaces free). A callable is
``f(observation, legal_moves) -> move``: ``observation`` is the dict of
:meth:`zhipai.GameState.observation` for the seat to act and ``legal_moves`` the list of
:meth:`zhipai.GameState.legal_moves`; it returns one of them (any legal move is accepted).
``zhipai.simulate(rules, deals, policy=f)`` runs the loop of :func:`play_deal` for every deal —
the slow path: single-threaded, the GIL held; with a trivial policy 30 to 250 times slower than
the built-in policies on one thread (see BENCHMARKS.md). Deal ``i`` is the same deal as in the
fast path and the built-in seats draw from its generator, so a deal where every seat plays
``state.builtin_move(p)`` gives exactly the row of ``policy=p``.

Move text, observation keys and phases per game: ``help(zhipai.game)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Union

import numpy as np

from zhipai import _core
from zhipai._core import InvalidValueError, ZhipaiError
from zhipai.game import Game

__all__ = [
    "PolicyError", "PolicyFn", "SeatPolicies", "play_deal", "player_name", "seat_policies",
]

#: A Python policy: ``f(observation: dict, legal_moves: list[str]) -> str`` (a legal move).
PolicyFn = Callable[[dict, list], str]

#: What ``simulate(policy=...)`` accepts: a player name, one callable for every seat, a list
#: with one entry per seat, or a mapping ``{seat: policy, ..., "others": policy}``.
SeatPolicies = Union[str, PolicyFn, Sequence[Any], Mapping[Any, Any]]

BUILTIN = ("random", "greedy", "basic")

#: Players that search (``"pimc(...)"``, ``"ismcts(...)"``): slower, drawing from the deal's
#: search generator; every other name is a built-in policy.
SEARCH = ("pimc", "ismcts")

#: What a bad policy is told it may be.
EXPECTED = "expected random, greedy, basic, pimc(...), ismcts(...) or a callable"


def player_name(name: str, where: str = "") -> str:
    """The canonical name of player ``name`` (``" Greedy "`` → ``"greedy"``,
    ``"pimc(rollout=random, worlds=32)"`` → every parameter spelled out; default parameters →
    ``"pimc"``). Raises ``InvalidValueError`` ``"invalid policy 'NAME'{where}: REASON"`` naming
    a bad name, parameter or value and what it takes (``where`` e.g. ``" for seat 1"``)."""
    if not isinstance(name, str):
        raise InvalidValueError(f"invalid policy {_short(name)}{where}: {EXPECTED}")
    try:
        return _core._player_name(name)
    except InvalidValueError as e:
        reason = str(e)
        # The core's own prefix `invalid policy "NAME": ` (its quoting of control and invisible
        # characters is Rust's, not json's: cut at the end of the quoted name instead).
        if reason.startswith('invalid policy "') and (end := reason.find('": ', 16)) != -1:
            reason = reason[end + 3:]
        raise InvalidValueError(f"invalid policy {_short(name)}{where}: {reason}") from None


def is_search(name: str) -> bool:
    """Whether the canonical player ``name`` is a search player (``pimc``, ``ismcts``); a
    helper of the simulate/arena layers (not in ``__all__``), given names already checked."""
    return name.split("(", 1)[0] in SEARCH


class PolicyError(ZhipaiError):
    """A Python policy raised an exception. ``__cause__`` is that exception; ``deal`` and
    ``seat`` say where it happened."""

    def __init__(self, message: str, *, deal: int, seat: int) -> None:
        super().__init__(message)
        self.deal = deal
        self.seat = seat


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
        return player_name(p, f" for {where}")
    if callable(p):
        return p  # type: ignore[no-any-return]
    raise InvalidValueError(f"invalid policy {_short(p)} for {where}: {EXPECTED}")


def seat_policies(policy: SeatPolicies, num_players: int) -> list[str | PolicyFn]:
    """One policy per seat from what ``simulate(policy=...)`` accepts:

    * a player name (``"random"``, ``"greedy"``, ``"pimc(worlds=32)"``, …; canonicalised by
      :func:`player_name`) or a callable: every seat;
    * a list/tuple with exactly one entry per seat (``[f, "random", "greedy", "random"]``);
    * a mapping ``{seat: policy, ..., "others": policy}`` (seats are ints 0..n-1; ``"others"``
      covers every seat not named and is required unless every seat is named).

    Raises ``InvalidValueError`` naming a bad policy, bad seat keys, a list of the wrong length,
    the seats left without a policy, or a ``num_players`` that is not an int from 1 to 16.
    """
    num_players = int(_core._check_int("num_players", num_players, 1, 16))
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
                f"invalid policy mapping {_short(policy)}: no policy for seats {missing} (add them or an "
                "'others' entry)"
            )
        return [_one(seats[s], f"seat {s}") if s in seats else _one(others, "'others'") for s in range(num_players)]
    if isinstance(policy, Sequence) and not isinstance(policy, (bytes, bytearray)):
        items = list(policy)
        if len(items) != num_players:
            raise InvalidValueError(
                f"invalid policy list {_short(items)} of {len(items)} entries: expected one per seat "
                f"({num_players})"
            )
        return [_one(p, f"seat {s}") for s, p in enumerate(items)]
    raise InvalidValueError(
        f"invalid policy {_short(policy)}: expected a player name (random, greedy, basic, pimc(...), "
        "ismcts(...)), a callable, a list per seat or a mapping {seat: policy, 'others': policy}"
    )


def describe(policies: list[str | PolicyFn]) -> str:
    """A short label for a per-seat policy list (``SimResult.policy``): the policy's name when
    every seat has the same one (``"random"``, ``"my_policy"``), else the names per seat joined
    by ``/`` (``"my_policy/greedy/greedy/greedy"``)."""
    names = [_describe(p) for p in policies]
    return names[0] if len(set(names)) == 1 else "/".join(names)


def play_deal(game: Game, seed: int, index: int, policies: list[str | PolicyFn]) -> list[int]:
    """Play deal ``index`` of ``(seed)`` with one policy per seat (``policies``: anything
    :func:`seat_policies` takes); its result row.

    Raises ``IllegalPlayError`` naming the move, the seat and the deal when a callable returns a
    move that is not legal (or not a move), :class:`PolicyError` (chained to the original)
    when a callable raises, and ``InvalidValueError`` for a ``game`` that is not a
    ``zhipai.Game`` or policies :func:`seat_policies` refuses.
    """
    if not isinstance(game, Game):
        raise InvalidValueError(f"invalid game {_short(game)}: expected a zhipai.Game")
    policies = seat_policies(policies, game.num_players)
    state = game.new_deal(seed, index)
    while not state.is_terminal():
        play_turn(state, policies, seed, index)
    return list(state.result_row())


def play_turn(state: Any, policies: list[str | PolicyFn], seed: int, index: int) -> int:
    """Let the seat to move in ``state`` (deal ``index`` of ``seed``) play with
    ``policies[seat]``: a player name through ``state.apply_builtin`` (as the Rust runs), a
    callable through ``state.apply``. Returns the seat. Errors as :func:`play_deal`. The step
    of :func:`play_deal` and the arena's Python loop (not in ``__all__``: its arguments are
    checked by them)."""
    seat = state.current_player()
    assert seat is not None
    p = policies[seat]
    if isinstance(p, str):
        state.apply_builtin(p)
        return int(seat)
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
    return int(seat)
