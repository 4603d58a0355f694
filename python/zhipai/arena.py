"""Duplicate-deal tournaments: ``zhipai.arena(rules, policies=[...], deals=N, seed=S)``.

**Duplicate deals.** Deal ``i`` of a run seeded ``s`` is the deal of ``simulate`` (the same
cards, ``Game(rules).new_deal(s, i)``). With ``k`` policies at ``n`` seats it is played once per
*lineup*: the distinct assignments "seat ``t`` gets policy ``((t + r) mod n) mod k``" for ``r`` in
``0..n`` (``rust/zhipai-core/src/arena.rs``; ``ArenaResult.lineups``). Two policies at a 4-seat
table play ``A B A B`` and ``B A B A``, so each holds every hand and, in the partnership games,
every team once per deal; 2 policies at Baohuang's 5 seats play 5 lineups (3 seats : 2), 4
policies at 4 seats the 4 rotations. Every lineup of a deal starts from the same cards and the
same generators: a built-in seat draws from the deal's generator, a search seat from the deal's
search generator, so luck of the cards is shared and the lineups of one deal are paired.

**Statistics** (``R[l, t, i]`` = the return of seat ``t`` in lineup ``l`` of deal ``i``, the
game's ``GameState.returns()``: levels for the Shengji family, points for Gongzhu / Hong Wu /
Baohuang; ``D`` = completed deals):

* *mean return* of policy ``p``: the mean of ``R[l, t, i]`` over every seat ``t`` it held, every
  lineup ``l`` and every deal ``i``. Its 95% CI comes from the per-deal means
  ``m_p(i)`` = mean over the (lineup, seat) cells of ``p`` in deal ``i`` (the same number of cells
  every deal, so the mean of the ``m_p(i)`` is the mean return): deals are independent, the
  lineups of a deal are not, so the deal is the unit: ``mean ± 1.96 · sd(m_p) / √D`` (sample sd,
  divisor ``D - 1``; normal approximation as ``simulate``'s; NaN below two deals).
* *pairs*: for policies ``a`` before ``b`` in the list, ``x_ab(l, i)`` = a's mean return over its
  seats in lineup ``l`` of deal ``i`` minus b's; ``d_ab(i)`` = the mean of ``x_ab(l, i)`` over the
  lineups; ``mean_diff`` = mean of ``d_ab`` over the deals (a's return minus b's on the same hands)
  with the 95% CI ``± 1.96 · sd(d_ab) / √D``. Also the counts of lineups (over every deal) where
  ``x_ab`` is > 0 (a wins), = 0 (draw), < 0 (b wins).
* *Elo*: a Bradley–Terry model ``P(a beats b) = π_a / (π_a + π_b)`` fitted by maximum likelihood
  (Hunter's MM iteration) to those per-lineup wins, a draw counting half a win to each side, with
  one virtual draw added to every pair (a prior that keeps the ratings finite when a policy wins
  every comparison; negligible over hundreds of deals). Ratings are ``400 · log10(π)`` shifted so
  their mean is 1500: a 400-point gap means 10 : 1 odds of winning a lineup comparison. With two
  policies it is ``1500 ± 200 · log10((wins + draws/2 + 1/2) / (losses + draws/2 + 1/2))``.
  The rating counts wins, not margins: it is fair between policies that hold the same number
  of seats in every lineup (the number of policies divides the seats); otherwise a policy whose
  lineup mean averages more seats wins and loses differently (identical ``greedy`` players at
  Baohuang's 5 seats: 1495 vs 1505 over 200 deals) — prefer ``mean_diff`` there.
* *seconds per decision*: each policy's time choosing moves divided by its decisions, over every
  lineup and deal (wall time on the thread that decided: it grows when threads share cores; in
  the Python loop it includes the Python call around each decision).

Results do not depend on ``threads`` or the backend (only the clock does). Means are computed
from exact integer sums (one rounding), so identical policies differ by exactly 0.

**Partners.** The lineups are rotations, and in the partnership games (the Shengji family and
Hong Wu: partners sit opposite, seats ``t`` and ``t + 2``) two policies give every policy itself
as partner, but with four policies A always partners C and B partners D (their difference is 0
by construction), and with three one policy holds two seats per lineup and the policies have
different partners. Compare two policies at a time in those games; in Gongzhu (no partners) and
Baohuang (roles dealt by the cards) any number works.
"""

from __future__ import annotations

import functools
import importlib
import json
import math
import statistics
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from zhipai import _check, _core, _memory
from zhipai import policy as _policy
from zhipai._core import InvalidValueError, Rules, ZhipaiError

__all__ = ["ArenaResult", "PairStats", "PolicyStats", "arena"]

_Z95 = statistics.NormalDist().inv_cdf(0.975)

#: Elo scale: the mean rating, and the points per factor 10 of Bradley–Terry strength.
ELO_MEAN = 1500.0
ELO_SCALE = 400.0
#: Virtual draws added to every pair before fitting (module docs).
ELO_PRIOR_DRAWS = 1.0


@dataclass(frozen=True)
class PolicyStats:
    """One policy of an arena: ``name``, ``mean_return`` with its 95% CI ``ci95`` (module docs;
    units of the game's returns), ``elo``, ``seconds_per_decision`` (NaN without a decision),
    ``decisions`` and ``seconds`` (totals), ``seats`` (the (lineup, seat) cells it holds per
    deal)."""

    name: str
    mean_return: float
    ci95: tuple[float, float]
    elo: float
    seconds_per_decision: float
    decisions: int
    seconds: float
    seats: int


@dataclass(frozen=True)
class PairStats:
    """Policies ``a`` and ``b`` on the same hands: ``mean_diff`` (a's mean return minus b's,
    per deal averaged over the lineups) with its 95% CI ``ci95``; ``wins`` / ``draws`` /
    ``losses``: lineups (over every deal) where a's mean return was above / equal to / below
    b's."""

    a: str
    b: str
    mean_diff: float
    ci95: tuple[float, float]
    wins: int
    draws: int
    losses: int


def _mean_ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    """Mean and normal 95% CI of ``x`` (NaN where undefined: no values, or one)."""
    n = len(x)
    if n == 0:
        return math.nan, (math.nan, math.nan)
    mean = float(np.mean(x))
    if n < 2:
        return mean, (math.nan, math.nan)
    half = _Z95 * float(np.std(x, ddof=1)) / math.sqrt(n)
    return mean, (mean - half, mean + half)


def bradley_terry(wins: np.ndarray, prior: float = ELO_PRIOR_DRAWS, tol: float = 1e-12) -> np.ndarray:
    """Elo ratings from a ``(k, k)`` matrix ``wins[a, b]`` = comparisons a won against b (draws
    already split as half a win to each side), with ``prior`` virtual draws added to every pair;
    Bradley–Terry strengths by Hunter's MM iteration, as ``ELO_MEAN + ELO_SCALE · log10(π)``
    centred on ``ELO_MEAN`` (module docs)."""
    w = np.asarray(wins, dtype=np.float64).copy()
    k = w.shape[0]
    off = ~np.eye(k, dtype=bool)
    w[off] += prior / 2
    games = w + w.T
    total = w.sum(axis=1)
    pi = np.ones(k)
    for _ in range(100_000):
        denom = np.sum(games / (pi[:, None] + pi[None, :]), axis=1)  # the diagonal of games is 0
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), 1.0)
        new = new / np.exp(np.mean(np.log(new)))
        done = np.max(np.abs(new - pi) / pi) < tol
        pi = new
        if done:
            break
    r = ELO_SCALE * np.log10(pi)
    return np.asarray(ELO_MEAN + r - np.mean(r))


#: Presets without fixed partners (unless Gongzhu's ``partnership`` option): any number of
#: policies compares fairly there.
_NO_PARTNERS = {"gongzhu", "baohuang"}


def _ci_text(ci: tuple[float, float]) -> str:
    """A 95% CI for the table: ``[lo, hi]``, or ``n/a`` when undefined (fewer than 2 deals)."""
    if math.isnan(ci[0]) or math.isnan(ci[1]):
        return "n/a"
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]"


class ArenaResult:
    """The result of :func:`arena` (module docs for every statistic).

    Attributes: ``preset``, ``options`` (every option's value), ``seed``, ``names`` (one label per
    policy: the canonical player name, or ``module:function`` style for a callable, ``#2``... for
    repeats), ``lineups`` (``lineups[l][seat]`` = policy index), ``returns`` (``int32`` array of
    shape ``(lineups, seats, completed)``: the return of each seat in each lineup of each deal,
    in the game's units), ``clock`` (per policy ``(seconds, decisions)``), ``requested``,
    ``completed`` (deals in the result, the prefix ``0..completed``), ``interrupted``.
    ``policies`` (list of :class:`PolicyStats`), ``pairs`` (list of :class:`PairStats`, every pair
    in list order), ``elo`` (name → rating); ``to_dict()`` / ``to_json()``; ``str()`` a table.
    """

    def __init__(
        self,
        raw: dict[str, Any],
        *,
        preset: str,
        names: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.preset, self.seed, self.options = preset, int(seed), options
        self.names = list(names)
        self.lineups: list[list[int]] = [list(map(int, lineup)) for lineup in raw["lineups"]]
        seats = len(self.lineups[0])
        self.requested = int(raw["requested"])
        self.completed = int(raw["completed"])
        self.interrupted = bool(raw["interrupted"])
        cols = [np.asarray(c, dtype=np.int32) for c in raw["returns"]]
        if len(cols) != len(self.lineups) * seats or any(len(c) != self.completed for c in cols):
            raise InvalidValueError(
                f"invalid arena returns: expected {len(self.lineups) * seats} arrays of {self.completed} deals")
        self.returns = (
            np.stack(cols).reshape(len(self.lineups), seats, self.completed)
            if cols else np.empty((len(self.lineups), seats, 0), dtype=np.int32))
        self.clock: list[tuple[float, int]] = [(float(t), int(d)) for t, d in raw["clock"]]

    # --- the numbers --------------------------------------------------------------------------
    @property
    def seats(self) -> int:
        return int(self.returns.shape[1])

    def _scaled(self) -> tuple[np.ndarray, int]:
        """``(scaled, m)``: ``scaled[l, p, i]`` = ``m`` × policy ``p``'s mean return over its
        seats in lineup ``l`` of deal ``i``, exactly as an ``int64`` (``m`` = the least common
        multiple of the seat counts), so sums and comparisons are exact and a mean is rounded
        once (self-play differences are exactly 0)."""
        k = len(self.names)
        counts = [[sum(q == p for q in lineup) for p in range(k)] for lineup in self.lineups]
        m = math.lcm(*[c for row in counts for c in row if c])
        out = np.zeros((len(self.lineups), k, self.completed), dtype=np.int64)
        for li, lineup in enumerate(self.lineups):
            held = np.asarray(lineup)
            for p in range(k):
                if counts[li][p]:
                    out[li, p] = self.returns[li, held == p].sum(axis=0, dtype=np.int64) * (m // counts[li][p])
        return out, m

    def lineup_means(self) -> np.ndarray:
        """``float64`` array ``(lineups, policies, completed)``: each policy's mean return over its
        seats in each lineup of each deal."""
        scaled, m = self._scaled()
        return np.asarray(scaled / m)

    def deal_means(self, policy: int | str) -> np.ndarray:
        """``float64`` array ``(completed,)``: policy's mean return over every (lineup, seat)
        cell it held in each deal (the values its CI is computed from)."""
        p = self._index(policy)
        held = np.asarray(self.lineups) == p  # (lineups, seats)
        return np.asarray(self.returns[held].sum(axis=0, dtype=np.int64) / int(held.sum()))

    def deal_diffs(self, a: int | str, b: int | str) -> np.ndarray:
        """``float64`` array ``(completed,)``: per deal, the mean over lineups of a's mean return
        minus b's (the values ``mean_diff`` and its CI come from)."""
        scaled, m = self._scaled()
        x = scaled[:, self._index(a)] - scaled[:, self._index(b)]
        return np.asarray(x.sum(axis=0) / (len(self.lineups) * m))

    def _index(self, policy: int | str) -> int:
        if isinstance(policy, str) and policy in self.names:
            return self.names.index(policy)
        if isinstance(policy, (int, np.integer)) and not isinstance(policy, bool) and 0 <= policy < len(self.names):
            return int(policy)
        raise InvalidValueError(f"invalid policy {_check.shown(policy)}: expected one of {self.names} or its index")

    def _wins(self) -> np.ndarray:
        """``wins[a, b]``: lineups where a's mean return beat b's, draws as half to each."""
        m, _ = self._scaled()
        k = len(self.names)
        w = np.zeros((k, k))
        for a in range(k):
            for b in range(k):
                if a != b:
                    w[a, b] = np.sum(m[:, a] > m[:, b]) + 0.5 * np.sum(m[:, a] == m[:, b])
        return w

    @property
    def elo(self) -> dict[str, float]:
        """Name → Elo-style rating (module docs); 1500 each with no completed deal."""
        return dict(zip(self.names, map(float, bradley_terry(self._wins())), strict=True))

    @property
    def policies(self) -> list[PolicyStats]:
        elo = self.elo
        out = []
        for p, name in enumerate(self.names):
            mean, ci = _mean_ci(self.deal_means(p)) if self.completed else (math.nan, (math.nan, math.nan))
            seconds, decisions = self.clock[p]
            per = seconds / decisions if decisions else math.nan
            seats = sum(q == p for lineup in self.lineups for q in lineup)
            out.append(PolicyStats(name, mean, ci, elo[name], per, decisions, seconds, seats))
        return out

    @property
    def pairs(self) -> list[PairStats]:
        m, _ = self._scaled()
        out = []
        for a in range(len(self.names)):
            for b in range(a + 1, len(self.names)):
                mean, ci = _mean_ci(self.deal_diffs(a, b))
                x = m[:, a] - m[:, b]
                out.append(PairStats(self.names[a], self.names[b], mean, ci,
                                     int(np.sum(x > 0)), int(np.sum(x == 0)), int(np.sum(x < 0))))
        return out

    # --- output -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """``{"preset", "deals" (completed), "policies": [{"name", "mean_return", "ci95": [lo,
        hi], "seconds_per_decision", "elo", "decisions"}], "pairs": [{"a", "b", "mean_diff",
        "ci95", "wins", "draws", "losses"}], "seed", "requested", "interrupted", "lineups",
        "options" (every rule option's value, so two arenas under different rules are told
        apart)}``;
        undefined numbers (NaN: fewer than two deals, no decision) are ``None``."""
        def num(x: float) -> float | None:
            return None if math.isnan(x) else float(x)

        return {
            "preset": self.preset,
            "deals": self.completed,
            "policies": [
                {"name": s.name, "mean_return": num(s.mean_return), "ci95": [num(s.ci95[0]), num(s.ci95[1])],
                 "seconds_per_decision": num(s.seconds_per_decision), "elo": num(s.elo),
                 "decisions": s.decisions}
                for s in self.policies
            ],
            "pairs": [
                {"a": q.a, "b": q.b, "mean_diff": num(q.mean_diff), "ci95": [num(q.ci95[0]), num(q.ci95[1])],
                 "wins": q.wins, "draws": q.draws, "losses": q.losses}
                for q in self.pairs
            ],
            "seed": self.seed,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "lineups": [list(lineup) for lineup in self.lineups],
            "options": None if self.options is None else dict(self.options),
        }

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text (strict JSON: ``null`` for undefined numbers)."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False, ensure_ascii=False)

    def title(self) -> str:
        stop = f" (interrupted: {self.completed} of {self.requested})" if self.interrupted else ""
        deals = f"{self.completed} duplicate deals" if self.completed else "no completed deals"
        return f"{self.preset} arena: {deals}{stop} × {len(self.lineups)} lineups, seed {self.seed}"

    def __str__(self) -> str:
        lines = [self.title()]
        letters = [chr(ord("A") + p) if p < 26 else f"[{p}]" for p in range(len(self.names))]
        lines.append("lineups (policy per seat): " + ", ".join(
            "".join(letters[p] for p in lineup) for lineup in self.lineups))
        if not self.completed:
            return "\n".join(lines + ["", "no completed deals"])
        stats = self.policies
        w = max([len("policy")] + [len(s.name) + 3 for s in stats])
        lines += ["", f"{'policy':<{w}}  {'mean return':>12}  {'95% CI':>22}  {'Elo':>6}  {'s/decision':>10}"]
        for letter, s in zip(letters, stats, strict=True):
            ci = _ci_text(s.ci95)
            per = "-" if math.isnan(s.seconds_per_decision) else f"{s.seconds_per_decision:.3g}"
            lines.append(f"{letter + '  ' + s.name:<{w}}  {s.mean_return:>12.3f}  {ci:>22}  {s.elo:>6.0f}  {per:>10}")
        pairs = self.pairs
        labels = [f"{letters[self.names.index(q.a)]} - {letters[self.names.index(q.b)]}" for q in pairs]
        pw = max([len("a - b")] + [len(x) for x in labels])
        lines += ["", f"{'a - b':<{pw}}  {'mean diff':>10}  {'95% CI':>22}  {'a wins':>7}  {'draws':>7}  {'b wins':>7}"]
        for label, q in zip(labels, pairs, strict=True):
            ci = _ci_text(q.ci95)
            lines.append(f"{label:<{pw}}  {q.mean_diff:>10.3f}  {ci:>22}  {q.wins:>7}  {q.draws:>7}  {q.losses:>7}")
        lines += ["", "mean return: per seat held, every lineup and deal; CIs over deals (paired lineups); "
                  "a - b: a's return minus b's on the same hands; wins/draws: lineups compared"]
        if self.completed < 2:
            lines.append("(a CI needs at least 2 deals: n/a)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        stop = f" of {self.requested} (interrupted)" if self.interrupted else ""
        return f"<ArenaResult {self.preset}: {self.completed} deals{stop}, policies={self.names}, seed={self.seed}>"

    # --- parts (Ray) --------------------------------------------------------------------------
    @classmethod
    def concat(cls, parts: Sequence[ArenaResult], requested: int) -> ArenaResult:
        """Consecutive deal ranges of one arena joined in order (returns concatenated, clocks
        added) as one result of ``requested`` deals.

        Raises ``InvalidValueError`` for parts that are not a non-empty list of ``ArenaResult``,
        parts of different arenas (naming what differs: preset, rule options, policies, seed,
        lineups), a part other than the last that stopped early, or more completed deals than
        ``requested``. (A part does not record its first deal: that the ranges follow each
        other is the caller's promise.)"""
        if not isinstance(parts, (list, tuple)) or not parts or not all(isinstance(p, ArenaResult) for p in parts):
            raise InvalidValueError(
                f"invalid parts {_check.shown(parts)}: expected a non-empty list of ArenaResult")
        first = parts[0]
        for i, p in enumerate(parts[1:], 1):
            for what, a, b in (("preset", first.preset, p.preset), ("rule options", first.options, p.options),
                               ("policies", first.names, p.names), ("seed", first.seed, p.seed),
                               ("lineups", first.lineups, p.lineups)):
                if a != b:
                    raise InvalidValueError(f"invalid parts: part {i} is another arena ({what} {b!r} vs {a!r})")
        for i, p in enumerate(parts[:-1]):
            if p.completed < p.requested:
                raise InvalidValueError(
                    f"invalid parts: part {i} stopped after {p.completed} of {p.requested} deals; only "
                    "the last part may be cut short")
        total = sum(p.completed for p in parts)
        if isinstance(requested, bool) or not isinstance(requested, (int, np.integer)) or requested < total:
            raise InvalidValueError(
                f"invalid requested {_check.shown(requested)}: expected an int ≥ the {total} completed deals")
        k = len(first.names)
        raw = {
            "lineups": first.lineups,
            "returns": [np.concatenate([p.returns[li, t] for p in parts])
                        for li in range(len(first.lineups)) for t in range(first.seats)],
            "clock": [(sum(p.clock[q][0] for p in parts), sum(p.clock[q][1] for p in parts)) for q in range(k)],
            "requested": requested,
            "completed": sum(p.completed for p in parts),
            "interrupted": False,
        }
        out = cls(raw, preset=first.preset, names=first.names, seed=first.seed, options=first.options)
        out.interrupted = out.completed < requested
        return out


def _labels(entries: Sequence[str | Callable[..., Any]]) -> list[str]:
    """One distinct label per policy: the canonical name or the callable's name, ``#2``, ``#3``
    for repeats."""
    out: list[str] = []
    for e in entries:
        base = e if isinstance(e, str) else _policy._describe(e)
        label, n = base, 1
        while label in out:
            n += 1
            label = f"{base}#{n}"
        out.append(label)
    return out


def _empty_raw(lineups: list[list[int]], seats: int, k: int, requested: int) -> dict[str, Any]:
    return {
        "lineups": lineups,
        "returns": [np.empty(0, dtype=np.int32)] * (len(lineups) * seats),
        "clock": [(0.0, 0)] * k,
        "requested": requested,
        "completed": 0,
        "interrupted": True,
    }


def _native(rules: Rules, names: tuple[str, ...], **kwargs: Any) -> dict[str, Any]:
    """The Rust arena (``_core._arena``) with keyword arguments (a Ray task's engine; tests
    replace :data:`_ENGINE`)."""
    kwargs.pop("policy", None)
    kwargs.pop("aggregate_only", None)
    return _core._arena(rules, list(names), kwargs.pop("deals"), kwargs.pop("seed"), **kwargs)


def _engine(rules: Rules, names: Sequence[str]) -> Callable[..., dict[str, Any]]:
    """The engine of name-only arenas (module attribute so tests can replace it)."""
    return functools.partial(_native, rules, tuple(names))


def arena(
    rules: Rules | str,
    policies: Sequence[str | Callable[..., Any]],
    deals: int = 1000,
    seed: int | None = 0,
    threads: int | None = None,
    progress: Any = None,
    backend: str = "local",
    ray_address: str | None = None,
    chunk_deals: int | None = None,
) -> ArenaResult:
    """Play a duplicate-deal tournament between ``policies`` (module docs).

    Example::

        res = zhipai.arena("gongzhu", ["random", "greedy"], deals=200, seed=1)
        print(res)                      # table: mean returns, CIs, Elo, pairs
        res.pairs[0].mean_diff          # random's mean return minus greedy's, same hands
        res.to_json()

    Args:
        rules: a ``zhipai.Rules`` or a preset name.
        policies: 2 to seats (4; Baohuang 5) policies: player names (``"random"``, ``"greedy"``,
            ``"pimc"``, ``"pimc(worlds=32,rollout=greedy)"``, ``"ismcts(iterations=2000)"``, …;
            :mod:`zhipai.policy`) or Python callables ``f(observation, legal_moves) -> move``
            (as in :func:`zhipai.simulate`). With names only the deals run in Rust on
            ``threads`` threads (GIL released); with a callable they run in a Python loop over
            ``zhipai.Game(rules).new_deal(seed, i)`` on the calling thread (named seats played
            by ``state.apply_builtin(name)``), the same lineups, and — for names — the same
            returns as the Rust path. Search players (``pimc``, ``ismcts``) need the game's
            determinisation; a game without it raises ``InvalidOptionError`` when they decide.
        deals: duplicate deals, an int ≥ 1 (each played once per lineup).
        seed: an int in ``0..2**64 - 1``; ``None`` draws a fresh seed, recorded in ``result.seed``.
        threads: worker threads 1..256 (default every core; Rust path only). Results do not
            depend on it.
        progress: as in :func:`zhipai.simulate`: ``None`` a tqdm bar when stderr is a terminal,
            ``True``/``False``, or ``f(done, total)`` (returning ``False`` stops the run and
            returns the completed prefix; raising stops it with :class:`zhipai.ProgressError`).
        backend: ``"local"`` or ``"ray"`` (names only): the deals are split into Ray tasks of
            ``chunk_deals`` consecutive deals as ``simulate(backend="ray")`` does
            (:mod:`zhipai.ray_backend`), with the same result as a local run.
        ray_address, chunk_deals: ``backend="ray"`` only, as in :func:`zhipai.simulate`.

    Returns:
        :class:`ArenaResult`.

    Raises:
        InvalidValueError: fewer than 2 or more policies than seats; a bad player name or
            parameter (named, with its position in ``policies``); bad ``deals``, ``seed``,
            ``threads``, ``progress``, ``backend``, ``ray_address``, ``chunk_deals``; a Python
            policy with ``backend="ray"``.
        zhipai.policy.PolicyError / IllegalPlayError: a Python policy raised or returned an
            illegal move (``.result``: the deals completed before).
        zhipai.ProgressError: the progress callable raised (``.result``: the completed prefix).
        SimulationInterrupted: Ctrl-C; ``.result`` holds the completed prefix (an
            :class:`ArenaResult`).
        InvalidOptionError: unknown preset; a search player in a game without determinisation.

    Warns:
        UserWarning: more than 2 policies in a partnership game (the Shengji family, Hong Wu,
            Gongzhu with ``partnership=True``), where a policy's return mixes in its partner's
            (module docs, "Partners").
    """
    _sim = importlib.import_module("zhipai.simulate")  # the module (zhipai.simulate is the function)

    deals = _sim._check_count("deals", deals)
    threads = _sim._check_threads(threads, deals)
    seed = _sim._check_seed(seed)
    _sim._check_progress(progress)
    _sim._check_backend(backend, ray_address, chunk_deals)
    rules = _sim._resolve_rules(rules)
    seats = _sim._seat_count(rules.preset) or _policy.Game(rules).num_players
    if isinstance(policies, (str, bytes)) or not isinstance(policies, Sequence):
        raise InvalidValueError(
            f"invalid policies {_check.shown(policies)}: expected a list of 2 to {seats} policies "
            "(player names or callables)")
    if not 2 <= len(policies) <= seats:
        raise InvalidValueError(
            f"invalid policies {_check.shown(list(policies))}: an arena of {rules.preset} takes 2 to "
            f"{seats} policies, got {len(policies)}")
    entries: list[str | Callable[..., Any]] = []
    for j, p in enumerate(policies):
        if isinstance(p, str):
            entries.append(_policy.player_name(p, f" (policies[{j}])"))
        elif callable(p):
            entries.append(p)
        else:
            raise InvalidValueError(f"invalid policy {_check.shown(p)} (policies[{j}]): {_policy.EXPECTED}")
    names = _labels(entries)
    partners = rules.preset not in _NO_PARTNERS or dict(rules.options()).get("partnership") == "true"
    if len(entries) > 2 and partners:
        warnings.warn(
            f"an arena of {len(entries)} policies at {rules.preset}: partners sit opposite, so the policies "
            "do not partner themselves and their returns mix in their partners' (module docs, 'Partners'); "
            "compare two policies at a time in this game", UserWarning, stacklevel=2)
    python = not all(isinstance(e, str) for e in entries)
    if backend == "ray" and python:
        raise InvalidValueError(
            "invalid policies with backend='ray': Ray runs player names only ('random', 'greedy', "
            "'pimc(...)', ...); Python policies run locally (backend='local')")
    options = _sim._options_of(rules)
    lineups = [list(x) for x in _core._arena_lineups(rules, len(entries))]
    # Every return is kept (the driver's rows): refuse up front what cannot be held.
    _memory.check_fits(
        "deals", deals, deals * len(lineups) * seats * 4,
        f"the returns ({len(lineups)} lineups × {seats} seats, int32 per deal)",
        "play fewer deals per call (runs with first deals apart are independent samples)")
    make = functools.partial(ArenaResult, preset=rules.preset, names=names, seed=seed, options=options)
    callback, bar = _sim._progress_callback(progress, deals, f"{rules.preset} arena")
    try:
        if python:
            return _python_loop(rules, entries, deals, seed, callback, lineups, make)
        engine = _engine(rules, [str(e) for e in entries])
        if backend == "ray":
            return _on_ray(engine, rules, deals, seed, threads, callback, ray_address, chunk_deals, lineups, make)
        raw = engine(deals=deals, seed=seed, threads=threads, progress=callback)
    finally:
        if bar is not None:
            bar.close()
    result = make(raw)
    exc = raw.get("exception")
    if isinstance(exc, KeyboardInterrupt):
        raise _sim.SimulationInterrupted(result) from exc  # type: ignore[arg-type]
    failed = _sim.progress_error(callback, exc, result, "deals")
    if failed is not None:
        raise failed from exc
    if exc is not None:
        raise exc
    return result


def _on_ray(
    engine: Callable[..., dict[str, Any]], rules: Rules, deals: int, seed: int, threads: int | None,
    progress: Any, address: str | None, chunk_deals: int | None, lineups: list[list[int]],
    make: Callable[[dict[str, Any]], ArenaResult],
) -> ArenaResult:
    """``backend="ray"``: chunks of deals as Ray tasks (:func:`zhipai.ray_backend.drive`), the
    completed prefix joined with :meth:`ArenaResult.concat`."""
    from zhipai import ray_backend
    from zhipai.simulate import SimulationInterrupted

    seats, k = len(lineups[0]), 1 + max(max(lineup) for lineup in lineups)

    def join(parts: list[ArenaResult], requested: int) -> ArenaResult:
        if not parts:
            return make(_empty_raw(lineups, seats, k, requested))
        return ArenaResult.concat(parts, requested)

    run = ray_backend._Run(None, engine, rules.preset, {"seed": seed, "chunk_size": None}, [],
                           part=lambda raw, first: make(raw), join=join)
    return ray_backend.drive(run, deals, 0, threads, progress, address, chunk_deals,
                             SimulationInterrupted)  # type: ignore[arg-type]


def _whole(values: Sequence[float], index: int, seed: int) -> list[int]:
    """Returns as ints (the Rust arena's ``whole_return``): every game's returns are whole."""
    out = []
    for v in values:
        if not float(v).is_integer() or abs(v) > 2**31 - 1:
            raise InvalidValueError(
                f"invalid return {v!r} in deal {index} (seed {seed}): returns are kept as whole numbers in int32")
        out.append(int(v))
    return out


def _python_loop(
    rules: Rules,
    entries: list[str | Callable[..., Any]],
    deals: int,
    seed: int,
    callback: Any,
    lineups: list[list[int]],
    make: Callable[[dict[str, Any]], ArenaResult],
) -> ArenaResult:
    """The arena with Python policies: deal ``i``, lineup ``l`` played from
    ``Game(rules).new_deal(seed, i)`` with ``entries[lineups[l][seat]]`` at each seat."""
    from zhipai.simulate import SimulationInterrupted, progress_error

    game = _policy.Game(rules)
    seats, k = game.num_players, len(entries)
    try:
        returns = np.empty((len(lineups) * seats, deals), dtype=np.int32)
    except (MemoryError, ValueError, OverflowError):
        raise InvalidValueError(f"invalid deals {deals}: cannot hold the returns of so many deals") from None
    clock = [[0.0, 0] for _ in range(k)]
    done = 0
    interrupted = False

    def result() -> ArenaResult:
        return make({
            "lineups": lineups,
            "returns": [returns[j, :done] for j in range(returns.shape[0])],
            "clock": [tuple(c) for c in clock],
            "requested": deals,
            "completed": done,
            "interrupted": interrupted,
        })

    try:
        for i in range(deals):
            try:
                for li, lineup in enumerate(lineups):
                    state = game.new_deal(seed, i)
                    at_seat = [entries[p] for p in lineup]
                    while not state.is_terminal():
                        t = time.perf_counter()
                        seat = _policy.play_turn(state, at_seat, seed, i)
                        c = clock[lineup[seat]]
                        c[0] += time.perf_counter() - t
                        c[1] += 1
                    returns[li * seats:(li + 1) * seats, i] = _whole(state.returns(), i, seed)
            except ZhipaiError as e:
                interrupted = True
                e.result = result()  # type: ignore[attr-defined]
                raise
            done = i + 1
            # Every deal: a Python policy costs far more per deal than one call, and a
            # callable that says stop after deal 3 must stop there, however fast the deals.
            if callback is not None:
                try:
                    stop = callback(done, deals) is False
                except Exception as e:
                    interrupted = True
                    failed = progress_error(callback, e, result(), "deals")
                    if failed is None:
                        raise
                    raise failed from e
                if stop:
                    interrupted = done < deals
                    break
    except KeyboardInterrupt as e:
        interrupted = True
        raise SimulationInterrupted(result()) from e  # type: ignore[arg-type]
    return result()
