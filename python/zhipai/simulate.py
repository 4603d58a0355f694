"""Batch simulation: play many complete deals in Rust and analyse the result columns.

``zhipai.simulate(rules, deals, ...)`` plays ``deals`` deals on a Rust thread pool (the GIL is
released) and returns a :class:`SimResult`: one ``int32`` numpy array per result column (the
columns are the game's: scores, attacker points, level change, …), or, with
``aggregate_only=True``, exact per-column aggregates whose memory does not grow with ``deals``.

Reproducibility: deal ``i`` draws all its randomness from a generator seeded by ``(seed, i)``
(ChaCha8, stream ``i``), so the result is identical for any ``threads`` and ``chunk_size``.
``first_deal=a`` plays deals ``a..a + deals`` of the seed (rows equal that slice of a run from
deal 0), and :meth:`SimResult.concat` joins consecutive ranges exactly — which is how
``backend="ray"`` (:mod:`zhipai.ray_backend`) splits one run over many machines and still
returns the arrays of a local run.

Interruption: Ctrl-C stops the workers and raises :class:`SimulationInterrupted` (a
``KeyboardInterrupt``) whose ``result`` holds the completed prefix of deals ``0..n``; a progress
callable returning ``False`` stops the run the same way but returns the prefix (with
``result.interrupted`` true) instead of raising.

Python callables as policies (slow path): ``policy`` may also be a callable
``f(observation, legal_moves) -> move`` for every seat, a list with one policy per seat, or a
mapping ``{seat: policy, "others": policy}`` (see :func:`zhipai.policy.seat_policies`). Then
the deals are played one decision at a time in a Python loop over
``zhipai.Game(rules).new_deal(seed, i)`` (single-threaded, the GIL held; ``threads`` and
``chunk_size`` are ignored). Deal ``i`` is the same deal as in the fast path and the built-in
seats draw from its generator as there: a deal stepped with
``state.apply(state.builtin_move("greedy"))`` at every seat gives exactly the ``policy="greedy"``
row (checked for every game by tests/test_policy_callable.py), and results are reproducible
from the seed. Progress, Ctrl-C and the result columns work as in the fast path.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import numpy as np

from zhipai import _core
from zhipai import policy as _policy
from zhipai._core import InvalidValueError, Rules

__all__ = ["ColumnSummary", "SimResult", "SimulationInterrupted", "Summary", "simulate"]

POLICIES = ("random", "greedy")

#: A column whose values all lie in -256..255 and that takes at most this many distinct values
#: gets its distribution in the summary (level changes, seats, counts of tricks, …).
MAX_DISTRIBUTION_VALUES = 25

_Z95 = statistics.NormalDist().inv_cdf(0.975)

ProgressArg = Union[bool, None, Callable[[int, int], Any]]


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a simulation; ``result`` holds the completed prefix of deals."""

    def __init__(self, result: SimResult) -> None:
        super().__init__(
            f"simulation interrupted after {result.completed} of {result.requested} deals"
        )
        self.result = result


@dataclass(frozen=True)
class ColumnSummary:
    """Statistics of one result column over ``count`` deals.

    ``mean`` with its 95% confidence interval ``ci95`` (normal approximation, ``mean ± 1.96·std/√n``;
    NaN below two deals), sample standard deviation ``std`` (divisor ``n - 1``), ``min``/``max``,
    and ``distribution`` (value → number of deals) for small-integer columns, else ``None``.
    Mean and variance come from exact integer sums, so they do not depend on summation order.
    With no deals (``count == 0``, e.g. a run stopped before any deal completed) ``min`` and
    ``max`` are ``None`` and ``mean``/``std``/``ci95`` NaN (undefined, as ``std`` below two
    deals; floats, so callers formatting them keep working).
    """

    name: str
    doc: str
    count: int
    mean: float
    std: float
    ci95: tuple[float, float]
    min: int | None
    max: int | None
    distribution: dict[int, int] | None = field(default=None)

    @classmethod
    def from_stats(cls, name: str, doc: str, s: Mapping[str, Any]) -> ColumnSummary:
        """From the exact aggregates ``count, sum, sum_sq, min, max, histogram`` of the engine."""
        n, total, total_sq = int(s["count"]), int(s["sum"]), int(s["sum_sq"])
        if n == 0:
            return cls(name, doc, 0, math.nan, math.nan, (math.nan, math.nan), None, None, None)
        mean = total / n
        if n >= 2:
            var = (n * total_sq - total * total) / (n * (n - 1))  # exact ints, one rounding
            std = math.sqrt(max(var, 0.0))
            half = _Z95 * std / math.sqrt(n)
            ci = (mean - half, mean + half)
        else:
            std, ci = math.nan, (math.nan, math.nan)
        hist = s.get("histogram")
        dist = None
        if hist is not None and 0 < len(hist) <= MAX_DISTRIBUTION_VALUES:
            dist = {int(v): int(c) for v, c in hist}
        return cls(name, doc, n, mean, std, ci, int(s["min"]), int(s["max"]), dist)

    def fraction(self, value: int) -> float:
        """Share of deals where the column equals ``value`` (needs a distribution)."""
        if self.distribution is None:
            raise ValueError(f"column {self.name!r} has no distribution (too many values or no deals)")
        return self.distribution.get(value, 0) / self.count


#: The aggregates of no values: ``min``/``max`` are ``None`` (the engine's sentinels
#: ``2**31 - 1`` / ``-2**31`` never reach the user).
EMPTY_STATS: dict[str, Any] = {"count": 0, "sum": 0, "sum_sq": 0, "min": None, "max": None, "histogram": []}


def _exact_stats(col: np.ndarray) -> dict[str, Any]:
    """The engine's aggregates of an int32 column, computed exactly with numpy + Python ints."""
    n = len(col)
    if n == 0:
        return dict(EMPTY_STATS)
    c = col.astype(np.int64)
    lo, hi = int(c.min()), int(c.max())
    biggest_sq = max(lo * lo, hi * hi, 1)
    block = max(1, (2**62) // biggest_sq)  # rows per block whose int64 sum of squares cannot overflow
    sum_sq = sum(int(np.dot(c[i : i + block], c[i : i + block])) for i in range(0, n, block))
    hist = None
    if lo >= -256 and hi < 256:
        counts = np.bincount(c + 256, minlength=512)
        hist = [(int(v) - 256, int(k)) for v, k in zip(np.flatnonzero(counts), counts[counts > 0], strict=False)]
    return {"count": n, "sum": int(c.sum()), "sum_sq": sum_sq, "min": lo, "max": hi, "histogram": hist}


class Summary(Mapping[str, ColumnSummary]):
    """Per-column statistics of a :class:`SimResult`; ``str(summary)`` is a readable table."""

    def __init__(self, title: str, columns: list[ColumnSummary]) -> None:
        self.title = title
        self._columns = {c.name: c for c in columns}

    def __getitem__(self, name: str) -> ColumnSummary:
        try:
            return self._columns[name]
        except KeyError:
            raise KeyError(f"no column {name!r}; columns: {', '.join(self._columns)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """``{column: {count, mean, std, ci95, min, max, distribution}}`` (JSON-friendly)."""
        return {
            name: {k: getattr(c, k) for k in ("count", "mean", "std", "ci95", "min", "max", "distribution")}
            for name, c in self._columns.items()
        }

    def __str__(self) -> str:
        if all(c.count == 0 for c in self._columns.values()):
            return f"{self.title}\n\nno completed deals"
        width = max([len("column")] + [len(n) for n in self._columns])
        lines = [self.title, ""]
        lines.append(
            f"{'column':<{width}}  {'mean':>11}  {'std':>10}  {'95% CI of mean':>25}  {'min':>8}  {'max':>8}"
        )
        for c in self._columns.values():
            ci = f"[{c.ci95[0]:.4f}, {c.ci95[1]:.4f}]"
            lines.append(
                f"{c.name:<{width}}  {c.mean:>11.4f}  {c.std:>10.4f}  {ci:>25}  {c.min:>8}  {c.max:>8}"
            )
        for c in self._columns.values():
            if c.distribution is None or len(c.distribution) < 2:
                continue
            lines.append("")
            lines.append(f"{c.name} distribution (value: share of deals):")
            parts = [f"{v:>4}: {100 * k / c.count:6.2f}%" for v, k in sorted(c.distribution.items())]
            for i in range(0, len(parts), 6):
                lines.append("  " + "   ".join(parts[i : i + 6]))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Summary of {len(self)} columns: {self.title}>"


class SimResult(Mapping[str, np.ndarray]):
    """The result of :func:`simulate`.

    Rows mode: ``result["heads"]`` or ``result.heads`` is an ``int32`` array of shape
    ``(completed,)``, row ``i`` = deal ``i``. ``len(result)`` = deals completed. With
    ``aggregate_only=True`` no rows are kept: column access raises, ``summary()`` works.

    Attributes: ``preset``, ``policy``, ``seed``, ``first_deal`` (row ``i`` is deal
    ``first_deal + i`` of the seed), ``requested`` (deals asked for), ``completed`` (deals in the
    result, the prefix ``0..completed`` of the run), ``interrupted``, ``aggregate_only``,
    ``columns`` (names), ``docs`` (column name → meaning).
    """

    def __init__(
        self, raw: Mapping[str, Any], *, preset: str, policy: str, seed: int, first_deal: int = 0
    ) -> None:
        self.preset = preset
        self.policy = policy
        self.seed = seed
        self.first_deal = first_deal
        self.requested: int = int(raw["requested"])
        self.completed: int = int(raw["completed"])
        self.interrupted: bool = bool(raw["interrupted"])
        self.columns: list[str] = list(raw["columns"])
        self.docs: dict[str, str] = dict(zip(raw["columns"], raw["docs"], strict=False))
        self.aggregate_only = "stats" in raw
        self._data: dict[str, np.ndarray] = dict(zip(self.columns, raw.get("data") or [], strict=False))
        self._stats: dict[str, Any] | None = (
            dict(zip(self.columns, raw["stats"], strict=False)) if self.aggregate_only else None
        )

    # --- mapping / attribute access -------------------------------------------------------
    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.docs:
            raise KeyError(f"no column {name!r}; columns: {', '.join(self.columns)}")
        if self.aggregate_only:
            raise KeyError(f"column {name!r}: an aggregate_only result keeps no rows; use summary()")
        return self._data[name]

    def __getattr__(self, name: str) -> np.ndarray:
        if name.startswith("_") or name not in self.__dict__.get("docs", {}):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(e.args[0]) from None

    def __iter__(self) -> Iterator[str]:
        return iter([] if self.aggregate_only else self.columns)

    def __len__(self) -> int:
        return self.completed

    def __repr__(self) -> str:
        mode = "aggregate_only" if self.aggregate_only else "rows"
        stop = f" of {self.requested} (interrupted)" if self.interrupted else ""
        return (
            f"<SimResult {self.preset}: {self.completed} deals{stop}, policy={self.policy!r}, "
            f"seed={self.seed}, {mode}, columns={self.columns}>"
        )

    # --- analysis -------------------------------------------------------------------------
    def stats(self, name: str) -> dict[str, Any]:
        """Exact aggregates of one column: ``count, sum, sum_sq, min, max, histogram``
        (``min``/``max`` ``None`` when ``count`` is 0)."""
        if name not in self.docs:
            raise KeyError(f"no column {name!r}; columns: {', '.join(self.columns)}")
        if self._stats is not None:
            s = dict(self._stats[name])
            return dict(EMPTY_STATS) if int(s["count"]) == 0 else s
        return _exact_stats(self._data[name])

    def summary(self) -> Summary:
        """Per column: mean, std, 95% CI of the mean, min, max, distribution of small ints
        (with no completed deal: ``min``/``max`` ``None``, the rest NaN, and ``str()`` reads
        "no completed deals")."""
        stop = f" (interrupted: {self.completed} of {self.requested})" if self.interrupted else ""
        done = f"{self.completed} deals" if self.completed else "no completed deals"
        title = f"{self.preset}: {done}{stop}, policy {self.policy}, seed {self.seed}"
        if self.first_deal:
            title += f", deals {self.first_deal}..{self.first_deal + self.completed}"
        return Summary(
            title,
            [ColumnSummary.from_stats(n, self.docs[n], self.stats(n)) for n in self.columns],
        )

    def _rows(self, what: str) -> dict[str, np.ndarray]:
        if self.aggregate_only:
            raise ValueError(f"{what}: an aggregate_only result keeps no rows; use summary()")
        return dict(self._data)

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame``, one int32 column per result column (needs ``zhipai[pandas]``)."""
        rows = self._rows("to_pandas")
        pd = _optional("pandas", "to_pandas", "pandas")
        return pd.DataFrame(rows, copy=False)

    def to_arrow(self) -> Any:
        """A ``pyarrow.Table``, one int32 column per result column (needs ``zhipai[arrow]``)."""
        rows = self._rows("to_arrow")
        pa = _optional("pyarrow", "to_arrow", "arrow")
        return pa.table(rows)

    def save(self, path: str | Path) -> Path:
        """Write the rows to ``path``: ``.csv`` (header + one line per deal), ``.parquet``
        (needs ``zhipai[arrow]``) or ``.npz``. Raises ``ValueError`` naming another suffix."""
        path = Path(path)
        rows = self._rows("save")
        suffix = path.suffix.lower()
        if suffix == ".csv":
            matrix = np.column_stack([rows[c] for c in self.columns]) if rows else np.empty((0, 0))
            np.savetxt(path, matrix, fmt="%d", delimiter=",", header=",".join(self.columns), comments="")
        elif suffix == ".parquet":
            pq = _optional("pyarrow.parquet", "save to .parquet", "arrow")
            pq.write_table(self.to_arrow(), path)
        elif suffix == ".npz":
            np.savez(path, **rows)
        else:
            raise ValueError(f"cannot save to {str(path)!r}: expected a .csv, .parquet or .npz file")
        return path

    def plot(self, path: str | Path | None = None, columns: list[str] | None = None) -> Any:
        """Histograms of ``columns`` (default: all) as a ``matplotlib.figure.Figure``; saved to
        ``path`` when given. Works for aggregate_only results on small-integer columns.
        Needs ``zhipai[plot]``."""
        _optional("matplotlib", "plot", "plot")
        from matplotlib.figure import Figure

        names = list(columns) if columns is not None else list(self.columns)
        for n in names:
            if n not in self.docs:
                raise KeyError(f"no column {n!r}; columns: {', '.join(self.columns)}")
        fig = Figure(figsize=(4.5 * min(len(names), 3), 3.2 * math.ceil(len(names) / 3)), layout="constrained")
        for i, n in enumerate(names):
            ax = fig.add_subplot(math.ceil(len(names) / 3), min(len(names), 3), i + 1)
            s = self.stats(n)
            if s["histogram"] is not None and len(s["histogram"]) <= 64:
                values, counts = zip(*s["histogram"], strict=False) if s["histogram"] else ((), ())
                ax.bar(values, counts, width=0.8)
            elif not self.aggregate_only:
                ax.hist(self._data[n], bins=50)
            else:
                ax.text(0.5, 0.5, "no histogram kept\n(values outside -256..255)", ha="center", va="center")
            ax.set_title(n)
            ax.set_ylabel("deals")
        fig.suptitle(f"{self.preset}: {self.completed} deals, policy {self.policy}")
        if path is not None:
            fig.savefig(path)
        return fig

    @classmethod
    def concat(cls, parts: Sequence[SimResult]) -> SimResult:
        """Join results of consecutive deal ranges of one run into one result, exactly.

        ``parts[k + 1].first_deal`` must equal ``parts[k].first_deal + parts[k].completed``, and
        every part but the last must be complete (not interrupted); all parts share preset,
        policy, seed, columns and mode. Rows are concatenated; aggregates are merged exactly
        (integer sums, min/max, histogram counts), so ``concat`` of the parts equals the run of
        the whole range. Raises ``InvalidValueError`` naming the first part that does not fit.
        """
        parts = list(parts)
        if not parts:
            raise InvalidValueError("invalid parts []: expected at least one SimResult")
        head = parts[0]
        for k, (a, b) in enumerate(zip(parts, parts[1:], strict=False), start=1):
            same = (a.preset, a.policy, a.seed, a.columns, a.aggregate_only) == (
                b.preset, b.policy, b.seed, b.columns, b.aggregate_only
            )
            if not same or a.interrupted or b.first_deal != a.first_deal + a.completed:
                raise InvalidValueError(
                    f"invalid parts[{k}] {b!r}: expected the deals from {a.first_deal + a.completed} "
                    f"of the same run right after a complete parts[{k - 1}] {a!r}"
                )
        raw: dict[str, Any] = {
            "columns": head.columns,
            "docs": [head.docs[c] for c in head.columns],
            "requested": sum(p.requested for p in parts),
            "completed": sum(p.completed for p in parts),
            "interrupted": parts[-1].interrupted,
        }
        if head.aggregate_only:
            raw["stats"] = [_merge_stats([p.stats(c) for p in parts]) for c in head.columns]
        else:
            raw["data"] = [np.concatenate([p._data[c] for p in parts]) for c in head.columns]
        return cls(raw, preset=head.preset, policy=head.policy, seed=head.seed, first_deal=head.first_deal)


def _merge_stats(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The exact aggregate of several ``count, sum, sum_sq, min, max, histogram`` dicts (as the
    engine's ``ColumnStats::merge``): sums add, min/max combine, histograms add bin by bin and are
    ``None`` as soon as one part has a value outside -256..255. Parts of no values are left
    out of min/max (``None`` when every part is empty)."""
    hist: dict[int, int] | None = {}
    filled = [s for s in parts if int(s["count"]) > 0]
    for s in parts:
        if s["histogram"] is None or hist is None:
            hist = None
            continue
        for v, c in s["histogram"]:
            hist[int(v)] = hist.get(int(v), 0) + int(c)
    return {
        "count": sum(int(s["count"]) for s in parts),
        "sum": sum(int(s["sum"]) for s in parts),
        "sum_sq": sum(int(s["sum_sq"]) for s in parts),
        "min": min((int(s["min"]) for s in filled), default=None),
        "max": max((int(s["max"]) for s in filled), default=None),
        "histogram": None if hist is None else sorted(hist.items()),
    }


def _optional(module: str, what: str, extra: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f"{what} needs the optional package {module.split('.')[0]!r}: "
            f"pip install 'zhipai[{extra}]'"
        ) from None


def _engine(rules: Rules) -> Callable[..., dict[str, Any]]:
    """The native runner of ``rules`` (tests replace this with the internal toy game)."""

    def run(**kwargs: Any) -> dict[str, Any]:
        return _core._simulate(rules, **kwargs)

    return run


# Most worker threads: more only thrash the machine (each thread owns a rayon worker and buffers).
MAX_THREADS = 256
_MAX_COUNT = 2**63 - 1


def _check_count(name: str, value: Any, *, allow_none: bool = False, hi: int = _MAX_COUNT) -> Any:
    """``value`` as an int from 1 to ``hi`` (ints and numpy ints; bools and floats refused), or
    ``None`` when allowed; else ``InvalidValueError`` naming it (the binding's shared check)."""
    if value is None and allow_none:
        return None
    return int(_core._check_int(name, value, 1, hi))


def _check_threads(threads: Any, work: int) -> int | None:
    """Worker threads: 1 to :data:`MAX_THREADS` (else ``InvalidValueError`` naming ``threads``),
    clamped to ``work`` (one deal or sample per thread at most; extra threads would idle)."""
    t = _check_count("threads", threads, allow_none=True, hi=MAX_THREADS)
    return None if t is None else min(t, work)


def _check_flag(name: str, value: Any) -> bool:
    """``value`` as a bool when it is one (numpy bools too); else ``InvalidValueError`` naming it
    — ``"no"``, ``0`` or ``None`` are not read by their truth value."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidValueError(f"invalid {name} {value!r}: expected True or False")
    return bool(value)


BACKENDS = ("local", "ray")


def _check_backend(backend: Any, ray_address: Any, chunk_deals: Any) -> None:
    """``backend`` is one of :data:`BACKENDS`; ``ray_address`` (a string) and ``chunk_deals``
    (an int ≥ 1) only with ``backend="ray"``. Else ``InvalidValueError`` naming the value."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise InvalidValueError(f"invalid backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if ray_address is not None and not isinstance(ray_address, str):
        raise InvalidValueError(f"invalid ray_address {ray_address!r}: expected a string such as 'auto'")
    _check_count("chunk_deals", chunk_deals, allow_none=True)
    if backend != "ray":
        for name, value in (("ray_address", ray_address), ("chunk_deals", chunk_deals)):
            if value is not None:
                raise InvalidValueError(f"invalid {name} {value!r}: only used with backend='ray'")


def _check_seed(seed: Any) -> int:
    return int(_core._check_int("seed", seed, 0, 2**64 - 1))


def _resolve_rules(rules: Rules | str) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return _core.rules(rules, None)
    raise InvalidValueError(f"invalid rules {rules!r}: expected zhipai.Rules or a preset name")


class _Bar:
    """A tqdm bar opened on the first progress report (so a run that fails at once shows none)."""

    def __init__(self, deals: int, desc: str, disable: bool | None) -> None:
        self.deals, self.desc, self.disable = deals, desc, disable
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=self.deals, unit="deal", unit_scale=True, desc=self.desc, disable=self.disable)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _progress_callback(progress: ProgressArg, deals: int, desc: str) -> tuple[Any, _Bar | None]:
    """(callback for the engine, bar to close) for the ``progress`` argument."""
    if callable(progress):
        return progress, None
    if progress is False:
        return None, None
    if progress not in (True, None):
        raise InvalidValueError(f"invalid progress {progress!r}: expected True, False, None or a callable")
    bar = _Bar(deals, desc, None if progress is None else False)
    return bar, bar


def simulate(
    rules: Rules | str,
    deals: int,
    policy: _policy.SeatPolicies = "random",
    seed: int = 0,
    threads: int | None = None,
    progress: ProgressArg = None,
    chunk_size: int | None = None,
    aggregate_only: bool = False,
    first_deal: int = 0,
    backend: str = "local",
    ray_address: str | None = None,
    chunk_deals: int | None = None,
) -> SimResult:
    """Play ``deals`` complete deals of ``rules`` and return their result columns.

    Args:
        rules: a ``zhipai.Rules`` (``zhipai.rules(preset, **options)``) or a preset name.
        deals: number of deals, an int from 1 to ``2**63 - 1`` (numpy ints accepted; bools and
            floats refused).
        policy: ``"random"`` (uniform over legal choices) or ``"greedy"`` (the game's documented
            rule-based player), used for every seat and decision; or a Python policy (slow
            path, module docs): a callable ``f(observation: dict, legal_moves: list[str]) ->
            str`` for every seat, a list with one entry per seat (``[f, "random", "greedy",
            "random"]``), or a mapping ``{0: f, "others": "greedy"}``. Observation keys and
            move text: :mod:`zhipai.policy`.
        seed: an int in 0..2**64; deal ``i`` uses the generator of ``(seed, i)``.
        threads: worker threads, 1 to ``MAX_THREADS`` (256), default every core; more threads
            than deals are clamped to ``deals``. Results do not depend on it. A Python policy
            (any non-string ``policy``, even a list of built-ins) runs on the calling thread.
        progress: ``None`` (default) = tqdm bar when stderr is a terminal; ``True``/``False`` =
            always/never; or a callable ``f(done, total)`` called about every 100 ms from the
            calling thread — returning ``False`` stops the run (the prefix is returned).
        chunk_size: deals per work unit ≥ 1 (scheduling only; results do not depend on it).
        aggregate_only: keep exact per-column aggregates instead of rows (bounded memory, for
            10**8 deals and more); then ``summary()`` works and column access raises. Rows mode
            holds ``deals × columns × 4`` bytes (e.g. 10**8 Tractor deals: 5.2 GB).
        first_deal: index of the first deal played, an int ≥ 0 (default 0): the run plays deals
            ``first_deal .. first_deal + deals`` of ``seed`` and row ``i`` is deal
            ``first_deal + i`` — the same rows as that slice of a run from deal 0.
            ``first_deal + deals`` must not exceed ``2**64 - 1``.
        backend: ``"local"`` (default: this machine's cores) or ``"ray"``: the deals are split
            into chunks of ``chunk_deals`` consecutive deals, one Ray task each, and the chunks'
            results joined in deal order (:meth:`SimResult.concat`) — the arrays are identical
            to a local run of the same ``rules``, ``deals``, ``seed``, ``policy`` and
            ``first_deal``. Needs ``pip install "zhipai[ray]"``; see :mod:`zhipai.ray_backend`
            (``threads`` is then the threads of each task, default 1 per task = 1 Ray CPU).
        ray_address: ``backend="ray"`` only: the cluster to connect to (``"auto"``,
            ``"ray://host:10001"``, ``"host:6379"``); default ``RAY_ADDRESS``, else a cluster
            started on this machine. Ignored when Ray is already initialised.
        chunk_deals: ``backend="ray"`` only: deals per Ray task, ≥ 1 (default: about four tasks
            per cluster CPU, 10,000 to 1,000,000 deals each). Results do not depend on it.

    Returns:
        :class:`SimResult`.

    Raises:
        InvalidValueError: ``deals``, ``threads``, ``chunk_size``, ``seed``, ``policy``,
            ``aggregate_only`` (a bool only), ``first_deal``, ``backend``, ``ray_address`` or
            ``chunk_deals`` invalid (the message
            names the value, e.g. bad seat keys; ``backend="ray"`` with a Python policy); a
            failing deal's error names its index and seed (with Ray, also the failing chunk's
            deal range).
        IllegalPlayError: a Python policy returned a move that is not legal (the message names
            the move, the seat and the deal index).
        zhipai.policy.PolicyError: a Python policy raised (chained: ``__cause__`` is its
            exception; the message names the seat and the deal index).
        InvalidOptionError: unknown preset, or a game whose simulation is not available yet.
        SimulationInterrupted: Ctrl-C; ``.result`` holds the completed prefix.
        ImportError: ``backend="ray"`` without Ray installed (names ``zhipai[ray]``).
    """
    deals = _check_count("deals", deals)
    threads = _check_threads(threads, deals)
    chunk_size = _check_count("chunk_size", chunk_size, allow_none=True)
    seed = _check_seed(seed)
    first_deal = int(_core._check_int("first_deal", first_deal, 0, 2**64 - 1))
    if first_deal + deals > 2**64 - 1:
        raise InvalidValueError(
            f"invalid first_deal {first_deal}: first_deal + deals ({deals}) exceeds 2**64 - 1"
        )
    _check_backend(backend, ray_address, chunk_deals)
    aggregate_only = _check_flag("aggregate_only", aggregate_only)
    if isinstance(policy, str) and policy not in POLICIES:
        raise InvalidValueError(f"invalid policy {policy!r}: expected one of {', '.join(POLICIES)}")
    if backend == "ray" and not isinstance(policy, str):
        raise InvalidValueError(
            f"invalid policy {policy!r} with backend='ray': Ray runs the built-in policies "
            "('random', 'greedy'); Python policies run locally (backend='local')"
        )
    rules = _resolve_rules(rules)
    if not isinstance(policy, str):
        return _simulate_python(rules, deals, policy, seed, progress, aggregate_only, first_deal)
    callback, bar = _progress_callback(progress, int(deals), rules.preset)
    if backend == "ray":
        from zhipai import ray_backend

        try:
            return ray_backend.simulate(
                rules, deals, policy, seed, threads, callback, chunk_size, aggregate_only,
                first_deal, address=ray_address, chunk_deals=chunk_deals,
            )
        finally:
            if bar is not None:
                bar.close()
    engine = _engine(rules)
    try:
        raw = engine(
            deals=int(deals),
            policy=policy,
            seed=int(seed),
            threads=None if threads is None else int(threads),
            chunk_size=None if chunk_size is None else int(chunk_size),
            aggregate_only=aggregate_only,
            progress=callback,
            first_deal=first_deal,
        )
    finally:
        if bar is not None:
            bar.close()
    result = SimResult(raw, preset=rules.preset, policy=policy, seed=int(seed), first_deal=first_deal)
    exc = raw.get("exception")
    if isinstance(exc, KeyboardInterrupt):
        raise SimulationInterrupted(result) from exc
    if exc is not None:
        raise exc
    return result


#: Seconds between progress reports of the Python loop (as the fast path's poll interval).
_REPORT_EVERY = 0.1


class _Aggregates:
    """Exact per-column aggregates of a stream of rows in bounded memory (the Python loop's
    ``aggregate_only``): the same ``count, sum, sum_sq, min, max, histogram`` as the engine's,
    with Python ints (exact) and a histogram kept while every value lies in -256..255."""

    def __init__(self, width: int) -> None:
        self.count = 0
        self.sums = [0] * width
        self.sums_sq = [0] * width
        self.mins = [2**31 - 1] * width
        self.maxs = [-(2**31)] * width
        self.hists: list[dict[int, int] | None] = [{} for _ in range(width)]

    def add(self, row: list[int]) -> None:
        self.count += 1
        for j, v in enumerate(row):
            self.sums[j] += v
            self.sums_sq[j] += v * v
            self.mins[j] = min(self.mins[j], v)
            self.maxs[j] = max(self.maxs[j], v)
            h = self.hists[j]
            if h is not None:
                if -256 <= v < 256:
                    h[v] = h.get(v, 0) + 1
                else:
                    self.hists[j] = None  # out of the histogram range: none (as the engine)

    def stats(self) -> list[dict[str, Any]]:
        return [
            {
                "count": self.count,
                "sum": self.sums[j],
                "sum_sq": self.sums_sq[j],
                "min": self.mins[j],
                "max": self.maxs[j],
                "histogram": None if h is None else sorted(h.items()),
            }
            for j, h in enumerate(self.hists)
        ]


class _Rows:
    """The rows of the Python loop, preallocated as the fast path does (one int32 array per
    column), so an impossible ``deals`` is refused up front with the same error."""

    def __init__(self, deals: int, width: int) -> None:
        try:
            self.data = np.empty((width, deals), dtype=np.int32)
        except (MemoryError, ValueError, OverflowError):
            raise InvalidValueError(
                f"invalid deals {deals}: cannot allocate {width} columns of {deals} rows; "
                "use aggregate mode"
            ) from None
        self.count = 0

    def add(self, row: list[int]) -> None:
        self.data[:, self.count] = row
        self.count += 1

    def columns(self) -> list[np.ndarray]:
        return [self.data[j, : self.count] for j in range(self.data.shape[0])]


def _simulate_python(
    rules: Rules,
    deals: int,
    policy: _policy.SeatPolicies,
    seed: int,
    progress: ProgressArg,
    aggregate_only: bool,
    first_deal: int = 0,
) -> SimResult:
    """The slow path of :func:`simulate`: deals ``first_deal..first_deal + deals`` played one
    decision at a time. ``aggregate_only`` keeps exact aggregates in bounded memory; rows mode
    preallocates the columns (refusing a ``deals`` that cannot be held, as the fast path does)."""
    import time

    game = _policy.Game(rules)
    policies = _policy.seat_policies(policy, game.num_players)
    label = _policy.describe(policies)
    width = len(game.columns)
    acc: _Aggregates | _Rows = _Aggregates(width) if aggregate_only else _Rows(deals, width)
    callback, bar = _progress_callback(progress, deals, rules.preset)
    interrupted = False
    last = time.monotonic()

    def result() -> SimResult:
        raw: dict[str, Any] = {
            "requested": deals,
            "completed": acc.count,
            "interrupted": interrupted,
            "columns": game.columns,
            "docs": [game.docs[c] for c in game.columns],
        }
        if isinstance(acc, _Aggregates):
            raw["stats"] = acc.stats()
        else:
            raw["data"] = acc.columns()
        return SimResult(raw, preset=rules.preset, policy=label, seed=seed, first_deal=first_deal)

    try:
        for i in range(deals):
            acc.add(_policy.play_deal(game, seed, first_deal + i, policies))
            now = time.monotonic()
            if callback is not None and (now - last >= _REPORT_EVERY or i + 1 == deals):
                last = now
                if callback(i + 1, deals) is False:
                    interrupted = acc.count < deals
                    break
    except KeyboardInterrupt as e:
        interrupted = True
        raise SimulationInterrupted(result()) from e
    finally:
        if bar is not None:
            bar.close()
    return result()
