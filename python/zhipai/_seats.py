"""Simulation with a player name per seat, in Rust (``_core._simulate_players``).

``zhipai.simulate`` uses this engine when every seat is given a player *name* but the seats are
not all the same built-in policy — a search player (``"pimc(...)"``, ``"ismcts(...)"``) or a mix
such as ``["greedy", "random", "greedy", "random"]``. The deals run on the Rust thread pool with
the GIL released, and the rows equal those of the Python loop (``zhipai.policy.play_deal`` with
``state.apply_builtin(name)`` at every seat), because both play deal ``i`` from
``Game.new_deal(seed, i)`` with the built-in seats drawing from the deal's generator and the
search seats from the deal's search generator.

:func:`engine` returns a callable taking the keyword arguments of ``_core._simulate`` (so the
local path and the Ray tasks of :mod:`zhipai.ray_backend` run it like the built-in engine). The
native function keeps rows; ``aggregate_only=True`` runs it in blocks of
:data:`AGGREGATE_BLOCK` deals and merges their exact aggregates, so memory stays bounded.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from zhipai import _core
from zhipai._core import Rules

#: Deals per native call in ``aggregate_only`` mode (about 60 MB of rows at most at a time).
AGGREGATE_BLOCK = 1_000_000


def engine(rules: Rules, players: Sequence[str]) -> Callable[..., dict[str, Any]]:
    """The engine of ``players`` (canonical names, one per seat) on ``rules``: a picklable
    callable with ``_core._simulate``'s keywords (``deals, seed, threads, chunk_size,
    aggregate_only, progress, first_deal``; ``policy`` is accepted and ignored) returning its
    dict (``columns, docs, data`` or ``stats``, ``requested, completed, interrupted,
    exception``) plus ``clock`` (per seat ``(seconds, decisions)``)."""
    return functools.partial(run, rules, tuple(players))


def run(
    rules: Rules,
    players: tuple[str, ...],
    *,
    deals: int,
    seed: int,
    threads: int | None = None,
    chunk_size: int | None = None,
    aggregate_only: bool = False,
    progress: Any = None,
    first_deal: int = 0,
    policy: Any = None,
) -> dict[str, Any]:
    """One run of :func:`engine` (module docs)."""
    del policy  # the players are per seat
    if not aggregate_only:
        return _core._simulate_players(rules, list(players), deals, seed, threads, chunk_size, progress, first_deal)
    from zhipai.simulate import _exact_stats, _merge_stats

    out: dict[str, Any] = {"requested": deals, "completed": 0, "interrupted": False, "exception": None}
    stats: list[dict[str, Any]] | None = None
    clock: list[tuple[float, int]] | None = None
    for start in range(0, deals, AGGREGATE_BLOCK):
        count = min(AGGREGATE_BLOCK, deals - start)
        report = None if progress is None else _Offset(progress, start, deals)
        raw = _core._simulate_players(
            rules, list(players), count, seed, threads, chunk_size, report, first_deal + start
        )
        out["columns"], out["docs"] = raw["columns"], raw["docs"]
        part = [_exact_stats(col) for col in raw["data"]]
        stats = part if stats is None else [_merge_stats([a, b]) for a, b in zip(stats, part, strict=True)]
        step = [(float(t), int(d)) for t, d in raw["clock"]]
        clock = step if clock is None else [(a + t, b + d) for (a, b), (t, d) in zip(clock, step, strict=True)]
        out["completed"] += int(raw["completed"])
        if raw["interrupted"] or raw["exception"] is not None:
            out["interrupted"], out["exception"] = True, raw["exception"]
            break
        if report is not None and report.stopped and start + count < deals:
            out["interrupted"] = True  # the block's last report asked to stop: no next block
            break
    out["stats"], out["clock"] = stats, clock
    return out


class _Offset:
    """A block's progress reports as the whole run's (``start + done`` of ``total``),
    remembering whether the callable asked to stop (returned ``False``)."""

    def __init__(self, progress: Callable[[int, int], Any], start: int, total: int) -> None:
        self.progress, self.start, self.total, self.stopped = progress, start, total, False

    def __call__(self, done: int, _block: int) -> Any:
        answer = self.progress(self.start + done, self.total)
        if answer is False:
            self.stopped = True
        return answer
