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
``result.interrupted`` true) instead of raising; a progress callable that raises stops it with
:class:`zhipai.ProgressError`, whose ``result`` holds the prefix (its ``__cause__`` is the
callable's exception).

Seeds: ``seed=None`` draws a fresh random seed, recorded in ``result.seed``.

Memory: rows mode holds ``deals × columns × 4`` bytes, allocated before the first deal; a run
whose rows do not fit in the memory available now is refused up front (``InvalidValueError``
naming the size, suggesting ``aggregate_only=True``; see :mod:`zhipai._memory`).

Files: :meth:`SimResult.save` writes the rows (CSV, Parquet, npz) atomically with their
provenance (zhipai version, preset, every option, policy per seat, seed, deal range), and
:meth:`SimResult.load` reads them back; :meth:`SimResult.concat` refuses parts of different runs.

Players per seat: ``policy`` may be a list with one policy per seat or a mapping ``{seat:
policy, "others": policy}`` (see :func:`zhipai.policy.seat_policies`). When every seat has a
player name (``"greedy"``, ``"pimc(worlds=16)"``, …) the deals run in Rust across threads
(:mod:`zhipai._seats`), with the rows of the Python loop below.

Python callables as policies (slow path): ``policy`` may also be a callable
``f(observation, legal_moves) -> move`` for every seat or at some seats of the list or mapping.
Then the deals are played one decision at a time in a Python loop over
``zhipai.Game(rules).new_deal(seed, i)`` (single-threaded, the GIL held; ``threads`` and
``chunk_size`` are ignored). Deal ``i`` is the same deal as in the fast path and the built-in
seats draw from its generator as there: a deal stepped with
``state.apply(state.builtin_move("greedy"))`` at every seat gives exactly the ``policy="greedy"``
row (checked for every game by tests/test_policy_callable.py), and results are reproducible
from the seed. Progress, Ctrl-C and the result columns work as in the fast path.
"""

from __future__ import annotations

import io
import json
import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Union

import numpy as np

from zhipai import _check, _core, _files, _memory, _report, _seats
from zhipai import keys as _keys
from zhipai import policy as _policy
from zhipai._core import InvalidValueError, Rules, ZhipaiError
from zhipai._errors import FileError, MissingDependencyError, ProgressError, UnknownKeyError

__all__ = ["ColumnSummary", "SimResult", "SimulationInterrupted", "Summary", "simulate"]

POLICIES = ("random", "greedy", "basic")

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
    ``distribution`` (value → number of deals) for small-integer columns (at most 25 values),
    else ``None``, and ``quantiles`` (``{0.05: v, 0.25: v, 0.5: v, 0.75: v, 0.95: v}``: the
    smallest value with at least that share of deals at or below it), exact from the column's
    histogram, the same from rows and from aggregates (``None`` when the aggregate kept no
    histogram: more than 65,536 distinct values outside -256..255). ``histogram``: the exact
    ``(value, count)`` pairs, ascending (or ``None``).
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
    quantiles: dict[float, int] | None = field(default=None)
    histogram: tuple[tuple[int, int], ...] | None = field(default=None, repr=False, compare=False)

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
        dist = quants = exact = None
        if hist is not None:
            exact = tuple((int(v), int(c)) for v, c in hist)
            quants = dict(zip(_keys.QUANTILES, _keys.quantiles(exact)))
            if 0 < len(hist) <= MAX_DISTRIBUTION_VALUES:
                dist = {int(v): int(c) for v, c in hist}
        return cls(name, doc, n, mean, std, ci, int(s["min"]), int(s["max"]), dist, quants, exact)

    def fraction(self, value: int) -> float:
        """Share of deals where the column equals ``value`` (an int; needs a distribution, else
        ``InvalidValueError``)."""
        value = _check.integer("value", value, -(2**31), 2**31 - 1)
        if self.distribution is None:
            raise InvalidValueError(
                f"invalid column {self.name!r} for fraction(): it has no distribution (too many "
                "distinct values or no deals); use the result's rows")
        return self.distribution.get(value, 0) / self.count


#: The aggregates of no values: ``min``/``max`` are ``None`` (the engine's sentinels
#: ``2**31 - 1`` / ``-2**31`` never reach the user).
EMPTY_STATS: dict[str, Any] = {"count": 0, "sum": 0, "sum_sq": 0, "min": None, "max": None, "histogram": []}


#: Dense histogram range of the engine (``HIST_MIN``, ``HIST_MIN + HIST_BINS``) and the most
#: distinct values outside it that a histogram keeps (``HIST_MAX_SPARSE``), as the engine's
#: ``ColumnStats``.
HIST_DENSE = (-256, 256)
HIST_MAX_SPARSE = 1 << 16


#: Widest value range counted with one ``np.bincount`` (its memory: 8 bytes per value of the range).
_BINCOUNT_SPAN = 1 << 22


def _keeps_histogram(values: np.ndarray) -> bool:
    """The engine's rule: a histogram is kept unless more than :data:`HIST_MAX_SPARSE` distinct
    values lie outside the dense range (``values``: the distinct values)."""
    outside = int(np.count_nonzero((values < HIST_DENSE[0]) | (values >= HIST_DENSE[1])))
    return outside <= HIST_MAX_SPARSE


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
    if hi - lo < _BINCOUNT_SPAN:  # one pass, no sort (Gongzhu's scores span ~200,000 values)
        counts = np.bincount(c - lo, minlength=hi - lo + 1)
        values = np.flatnonzero(counts)
        counts = counts[values]
        values = values + lo
    else:
        values, counts = np.unique(c, return_counts=True)
    hist = None
    if _keeps_histogram(values):
        hist = [(int(v), int(k)) for v, k in zip(values.tolist(), counts.tolist())]
    return {"count": n, "sum": int(c.sum()), "sum_sq": sum_sq, "min": lo, "max": hi, "histogram": hist}


def _column_name(name: Any, columns: Sequence[str]) -> str:
    """``name`` if it is one of ``columns``, else :class:`UnknownKeyError` listing them."""
    if isinstance(name, str) and name in columns:
        return name
    raise UnknownKeyError(f"invalid column {_check.shown(name)}: no such column; columns: {', '.join(columns)}")


#: What summaries and reports show: the key columns and events (default) or every column.
VIEWS = ("key", "all")


def _check_view(columns: Any) -> str:
    if isinstance(columns, str) and columns in VIEWS:
        return columns
    raise InvalidValueError(f"invalid columns {_check.shown(columns)}: expected 'key' (the key columns and events) or 'all'")


class Summary(Mapping[str, ColumnSummary]):
    """Per-column statistics of a :class:`SimResult`; ``str(summary)`` is a readable report.

    A mapping ``column → ColumnSummary`` over every column. ``str()`` leads with the game's key
    columns (:mod:`zhipai.keys`: mean, 95% CI, std, quantiles 5/25/50/75/95%, min, max), the
    key events (share of deals with a 95% Wilson interval), the distributions of the key columns
    on their value grid and the codes of coded columns; ``view="all"`` (``summary(columns="all")``,
    ``--columns all``) adds every column. ``key_columns``: the key columns' names; ``events``:
    ``[{label, test, count, share, ci95}]`` of the key events (exact, from the histograms)."""

    def __init__(self, title: str, columns: list[ColumnSummary], *, preset: str | None = None,
                 view: str = "key") -> None:
        self.title = title
        self._columns = {c.name: c for c in columns}
        self.preset = preset
        self.view = _check_view(view)
        names = list(self._columns)
        table = None if preset is None else _keys.keys_for(preset)
        found = [] if table is None else [k for k in table.columns if k.column in names]
        self._keys = [k for k in found if not self._constant(k.column)] or found
        self._table = bool(self._keys)
        if not self._table:
            self._keys = [_keys.Key(n, "") for n in names]
        self._events = [] if preset is None else [
            e for e in _keys.key_events(preset, names) if not self._constant(e.column)]
        self._codes = {} if preset is None else _keys.codes_for(preset)

    def _constant(self, name: str) -> bool:
        c = self._columns[name]
        return c.count > 0 and c.min == c.max

    def __getitem__(self, name: str) -> ColumnSummary:
        return self._columns[_column_name(name, list(self._columns))]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    @property
    def key_columns(self) -> list[str]:
        return [k.column for k in self._keys]

    @property
    def events(self) -> list[dict[str, Any]]:
        out = []
        for e in self._events:
            c = self._columns[e.column]
            if c.histogram is None:
                continue
            k = e.count(c.histogram)
            out.append({"label": e.label, "test": e.test_text, "count": k,
                        "share": k / c.count if c.count else math.nan, "ci95": _keys.wilson(k, c.count)})
        return out

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """``{column: {count, mean, std, ci95, min, max, distribution, quantiles}}`` (JSON-friendly)."""
        fields = ("count", "mean", "std", "ci95", "min", "max", "distribution", "quantiles")
        return {name: {k: getattr(c, k) for k in fields} for name, c in self._columns.items()}

    def __str__(self) -> str:
        if all(c.count == 0 for c in self._columns.values()):
            return f"{self.title}\n\nno completed deals"
        lines = [self.title, ""]
        if not self._table:
            lines += self._table_lines(list(self._columns), "column")
            lines += self._small_distributions(list(self._columns))
            return "\n".join(lines)
        keys = self._keys
        lines += self._table_lines([k.column for k in keys], "key column")
        lines += [_report.column_legend_line(k.column, k.meaning) for k in keys if k.meaning]
        events = [(e, self._event_count(e), self._columns[e.column].count) for e in self._events
                  if self._columns[e.column].histogram is not None]
        if events:
            lines += [""] + _report.event_rows(events)
        for k in keys:
            c = self._columns[k.column]
            if c.histogram is None or c.min == c.max:
                continue
            step = _keys.value_grid(c.histogram)
            how = f"{step}-point grid, " if step > 1 else ""
            lines += ["", f"{k.column} distribution ({how}share of deals):"]
            lines += _report.distribution_lines(c.histogram, c.count, long_tail=k.log, codes=self._codes.get(k.column))
        others = [n for n in self._columns if n not in self.key_columns]
        if self.view == "all":
            lines += [""] + self._table_lines(list(self._columns), "column")
            lines += self._small_distributions(others)
        varying = [n for n in self._columns if not self._constant(n)]
        legend = _report.legend_lines(self._codes, varying)
        if legend:
            lines += [""] + legend
        if self.view != "all" and others:
            lines += ["", f"other columns (summary(columns='all'), --columns all): {', '.join(others)}"]
        return "\n".join(lines)

    def _event_count(self, e: _keys.Event) -> int:
        hist = self._columns[e.column].histogram
        return 0 if hist is None else e.count(hist)

    def _table_lines(self, names: list[str], head: str) -> list[str]:
        width = max([len(head)] + [len(n) for n in names])
        qs = _report.QUANTILE_HEADER
        lines = [f"{head:<{width}}  {'mean':>11}  {'std':>10}  {'95% CI of mean':>25}  "
                 + "  ".join(f"{q:>7}" for q in qs) + f"  {'min':>8}  {'max':>8}"]
        for n in names:
            c = self._columns[n]
            if c.count == 0:
                lines.append(f"{c.name:<{width}}  (no deals)")
                continue
            ci = f"[{c.ci95[0]:.4f}, {c.ci95[1]:.4f}]"
            cells = _report.quantile_cells(c.histogram)
            lines.append(f"{c.name:<{width}}  {c.mean:>11.4f}  {c.std:>10.4f}  {ci:>25}  "
                         + "  ".join(f"{q:>7}" for q in cells) + f"  {c.min:>8}  {c.max:>8}")
        return lines

    def _small_distributions(self, names: list[str]) -> list[str]:
        lines: list[str] = []
        for n in names:
            c = self._columns[n]
            if c.distribution is None or len(c.distribution) < 2:
                continue
            lines.append("")
            lines.append(f"{c.name} distribution (value: share of deals):")
            parts = [f"{v:>4}: {100 * k / c.count:6.2f}%" for v, k in sorted(c.distribution.items())]
            for i in range(0, len(parts), 6):
                lines.append("  " + "   ".join(parts[i : i + 6]))
        return lines

    def __repr__(self) -> str:
        return f"<Summary of {len(self)} columns: {self.title}>"


#: What ``SimResult.save`` writes: extension → writer name (the rows' formats).
ROW_FORMATS = (".csv", ".parquet", ".npz")

#: The provenance format written with saved rows (``SimResult.provenance``).
PROVENANCE_FORMAT = "zhipai.SimResult rows"
PROVENANCE_VERSION = 1
#: Key of the provenance in a Parquet file's schema metadata and in an ``.npz`` archive.
PROVENANCE_KEY = "zhipai_provenance"
#: How deal ``i`` draws its randomness: the rows depend on nothing else (not threads, chunks).
RNG = "deal i draws from ChaCha8 keyed by the seed on stream i: the rows do not depend on threads or chunking"

#: Seats per game, for the provenance's policy per seat.
_SEATS = {"shengji": 4, "hong_wu": 4, "gongzhu": 4, "baohuang": 5}


def _seat_count(preset: str) -> int | None:
    games = {name: game for name, game, _desc, _opts in _core.presets()}
    return _SEATS.get(games.get(preset, ""))


def _option_value(text: Any) -> Any:
    """An option value from its text in ``Rules.options()``: bool, int, else the text (the
    form ``zhipai.rules(preset, **options)`` takes back)."""
    if not isinstance(text, str):
        return text
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _options_of(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` with its value (the whole rule set, not only the changes)."""
    return {name: _option_value(value) for name, value in rules.options()}


def _policy_name(p: Any) -> str:
    """A per-seat policy as the provenance records it: the built-in name, or ``module:name``."""
    if isinstance(p, str):
        return p
    module = getattr(p, "__module__", None) or "?"
    name = getattr(p, "__qualname__", None) or getattr(p, "__name__", None) or type(p).__name__
    return f"{module}:{name}"


def _environment() -> dict[str, str]:
    """Facts about the machine that produced a result (informative; the rows do not depend on
    them, nor on threads or chunking)."""
    return {
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": f"{platform.system()}-{platform.machine()}",
    }


class SimResult(Mapping[str, np.ndarray]):
    """The result of :func:`simulate`.

    Rows mode: ``result["heads"]`` or ``result.heads`` is an ``int32`` array of shape
    ``(completed,)``, row ``i`` = deal ``i``. ``len(result)`` = deals completed. With
    ``aggregate_only=True`` no rows are kept: column access raises, ``summary()`` works.

    Attributes: ``preset``, ``options`` (every option of the rule set: name → value, the form
    ``zhipai.rules(preset, **options)`` takes), ``policy`` (a label), ``policies`` (the policy of
    each seat: ``"random"``, ``"greedy"`` or ``"module:function"``), ``seed``, ``first_deal``
    (row ``i`` is deal ``first_deal + i`` of the seed), ``requested`` (deals asked for),
    ``completed`` (deals in the result, the prefix ``0..completed`` of the run), ``interrupted``,
    ``aggregate_only``, ``columns`` (names), ``docs`` (column name → meaning),
    ``zhipai_version``; ``provenance`` (all of it as a JSON-ready dict, what :meth:`save`
    records with the rows and :meth:`load` reads back).
    """

    def __init__(
        self,
        raw: Mapping[str, Any],
        *,
        preset: str,
        policy: str,
        seed: int,
        first_deal: int = 0,
        options: Mapping[str, Any] | None = None,
        policies: Sequence[str] | None = None,
        zhipai_version: str | None = None,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        self.preset = preset
        self.policy = policy
        self.seed = int(seed)
        self.first_deal = int(first_deal)
        self.options: dict[str, Any] | None = None if options is None else dict(options)
        if policies is None and isinstance(policy, str) and policy in POLICIES:
            n = _seat_count(preset)
            policies = None if n is None else [policy] * n
        self.policies: list[str] | None = None if policies is None else list(policies)
        self.zhipai_version = zhipai_version or _core.__version__
        self._environment = dict(environment) if environment is not None else _environment()
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
        name = _column_name(name, self.columns)
        if self.aggregate_only:
            raise UnknownKeyError(f"invalid column {name!r}: an aggregate_only result keeps no rows; use summary()")
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
        name = _column_name(name, self.columns)
        if self._stats is not None:
            s = dict(self._stats[name])
            return dict(EMPTY_STATS) if int(s["count"]) == 0 else s
        return _exact_stats(self._data[name])

    def summary(self, columns: str = "key") -> Summary:
        """Per column: mean, std, 95% CI of the mean, quantiles, min, max, distribution of small
        ints (with no completed deal: ``min``/``max`` ``None``, the rest NaN, and ``str()`` reads
        "no completed deals"). ``str()`` of it leads with the game's key columns and events
        (:mod:`zhipai.keys`); ``columns="all"`` shows every column too. The numbers are the same
        from rows and from an ``aggregate_only`` run (exact histograms)."""
        view = _check_view(columns)
        stop = f" (interrupted: {self.completed} of {self.requested})" if self.interrupted else ""
        done = f"{self.completed} deals" if self.completed else "no completed deals"
        title = f"{self.preset}: {done}{stop}, policy {self.policy}, seed {self.seed}"
        if self.first_deal:
            title += f", deals {self.first_deal}..{self.first_deal + self.completed}"
        return Summary(
            title,
            [ColumnSummary.from_stats(n, self.docs[n], self.stats(n)) for n in self.columns],
            preset=self.preset, view=view,
        )

    def _rows(self, what: str) -> dict[str, np.ndarray]:
        if self.aggregate_only:
            raise InvalidValueError(f"invalid call {what}(): an aggregate_only result keeps no rows; use summary()")
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

    # --- provenance, files ----------------------------------------------------------------
    @property
    def provenance(self) -> dict[str, Any]:
        """Where the rows come from, as saved with them (JSON-ready): ``zhipai_version``,
        ``preset``, ``options`` (every option's value), ``policy`` (one entry per seat),
        ``seed``, ``first_deal``, ``deals`` (rows, = ``completed``), ``requested``,
        ``interrupted``, ``columns``, ``docs``, ``rng`` (how deal ``i`` is drawn: the rows do not
        depend on threads or chunking), and informative facts about the machine that ran it
        (``created``, ``python``, ``numpy``, ``platform``). Re-running
        ``zhipai.simulate(zhipai.rules(preset, **options), deals, policy, seed=seed,
        first_deal=first_deal)`` gives the same rows bit for bit (same zhipai version; Python
        policies must be the same code)."""
        return {
            "format": PROVENANCE_FORMAT,
            "format_version": PROVENANCE_VERSION,
            "zhipai_version": self.zhipai_version,
            "preset": self.preset,
            "options": None if self.options is None else dict(self.options),
            "policy": None if self.policies is None else list(self.policies),
            "seed": self.seed,
            "first_deal": self.first_deal,
            "deals": self.completed,
            "requested": self.requested,
            "interrupted": self.interrupted,
            "aggregate_only": self.aggregate_only,
            "columns": list(self.columns),
            "docs": dict(self.docs),
            "rng": RNG,
            **self._environment,
        }

    def rules(self) -> Rules:
        """The rule set of the run, rebuilt from ``preset`` and ``options`` (e.g. of a result
        read back with :meth:`load`): ``zhipai.simulate(res.rules(), res.completed,
        res.policies, seed=res.seed, first_deal=res.first_deal)`` plays the same rows again.

        Raises:
            InvalidValueError: a result that does not record its options.
            InvalidOptionError: options this zhipai does not know (a file of another version).
        """
        if self.options is None:
            raise InvalidValueError(f"invalid call rules(): {self!r} does not record its options")
        return _core.rules(self.preset, dict(self.options))

    def save(self, path: str | Path) -> Path:
        """Write the rows and their :attr:`provenance` to ``path``: ``.csv`` (header + one line
        per deal; the provenance in a sidecar ``<path>.json`` with the CSV's size and SHA-256),
        ``.parquet`` (needs ``zhipai[arrow]``; provenance in the schema metadata, key
        ``zhipai_provenance``) or ``.npz`` (provenance in the entry ``zhipai_provenance``).

        The path is checked first; the file is written to a temporary file in the same folder,
        fsynced and renamed into place, so ``path`` is either the whole file or untouched.

        Raises:
            FileError: an unknown extension, a missing folder, a directory, no permission, or a
                failure while writing (full disk, …): nothing is written, the rows stay here.
            InvalidValueError: an aggregate_only result (no rows), or a path that is not a
                ``str`` / ``pathlib.Path``.
            KeyboardInterrupt: Ctrl-C while writing (nothing is written).
        """
        return self._save(path, kept=f"the {self.completed} rows are still in this SimResult")

    def _save(self, path: str | Path, *, kept: str) -> Path:
        """:meth:`save`; ``kept`` says in a failure's message what survives it."""
        rows = self._rows("save")
        p = _files.check_output(path, kinds=ROW_FORMATS)
        suffix = p.suffix.lower()
        meta = self.provenance
        if suffix == ".csv":
            sidecar = p.with_name(p.name + ".json")
            _files.check_output(sidecar, kinds=None)
            info: dict[str, Any] = {}

            def write_sidecar(f: IO[bytes]) -> None:
                record = {**meta, "data_file": p.name, "data_bytes": info["bytes"], "data_sha256": info["sha256"]}
                f.write(json.dumps(record, indent=1, ensure_ascii=False).encode("utf-8"))

            _files.atomic_write(
                [(p, lambda f: _write_csv(f, self.columns, rows, info)), (sidecar, write_sidecar)], kept=kept
            )
        elif suffix == ".parquet":
            pq = _optional("pyarrow.parquet", "save to .parquet", "arrow")
            table = self.to_arrow().replace_schema_metadata({PROVENANCE_KEY: json.dumps(meta)})
            _files.atomic_write([(p, lambda f: _write_parquet(f, table, pq))], kept=kept)
        else:
            _files.atomic_write([(p, lambda f: _write_npz(f, rows, json.dumps(meta)))], kept=kept)
        return p

    @classmethod
    def load(cls, path: str | Path) -> SimResult:
        """The rows and provenance of a file written by :meth:`save` (``.csv`` with its
        ``.csv.json`` sidecar, ``.parquet`` or ``.npz``), as a ``SimResult`` whose ``preset``,
        ``options``, ``policies``, ``seed``, ``first_deal``, ``requested``, ``interrupted`` and
        ``zhipai_version`` are those recorded. :meth:`concat` then refuses to join files of
        different runs.

        Raises:
            FileError: a missing or unreadable file, an unknown extension, no provenance (a CSV
                without its sidecar, a file not written by ``save``), a CSV whose size or
                checksum differs from its sidecar's, rows that do not match the recorded
                columns and count, or a corrupt file.
        """
        p = _files.path_arg("path", path)
        shown = _files.shown_path(path)
        suffix = p.suffix.lower()
        if suffix not in ROW_FORMATS:
            raise FileError(f"cannot load {shown}: unknown extension {p.suffix!r}; expected a .csv, .parquet or .npz file", path=shown)
        if not p.is_file():
            reason = "it is a directory" if p.is_dir() else "no such file"
            raise FileError(f"cannot load {shown}: {reason}", path=shown)
        try:
            if suffix == ".csv":
                meta, data = _load_csv(p, shown)
            elif suffix == ".parquet":
                meta, data = _load_parquet(p, shown)
            else:
                meta, data = _load_npz(p, shown)
        except (FileError, MissingDependencyError):
            raise
        except Exception as e:
            raise FileError(f"cannot load {shown}: not a readable {suffix} file of rows ({type(e).__name__}: {e})", path=shown) from e
        return _from_provenance(meta, data, shown)

    def plot(self, path: str | Path | None = None, columns: str | list[str] | None = "key") -> Any:
        """The distributions of the key columns as a ``matplotlib.figure.Figure``: one panel
        per key column of the game (:mod:`zhipai.keys`; constant columns left out) with bars on
        the column's value grid (one bar per 5 points where points step by 5, one per count),
        the 5/25/50/75/95% quantiles and the mean marked, a log share axis for long-tailed
        columns, and a panel of the key events' shares with 95% CIs. ``columns``: ``"key"``
        (default; also ``None``), ``"all"`` (every non-constant column) or a list of column
        names. Drawn from
        the exact histograms, so an ``aggregate_only`` run draws the same figure as rows. Saved
        to ``path`` when given (format from the extension: ``.png``, ``.pdf``, ``.svg``, …;
        checked before drawing and written atomically like :meth:`save`). Needs
        ``zhipai[plot]``.

        Raises:
            UnknownKeyError: a column the result does not have. InvalidValueError: ``columns``
                not ``"key"``, ``"all"`` or a list of names. FileError: as :meth:`save`."""
        _optional("matplotlib", "plot", "plot")
        from zhipai import _plots

        summary = self.summary()
        if columns is None:
            columns = "key"
        if isinstance(columns, str) and columns in VIEWS:
            if columns == "key":
                keys = [_keys.Key(n, k.meaning, k.log) for k in summary._keys for n in [k.column]]
            else:
                known = {k.column: k for k in summary._keys}
                keys = [known.get(n, _keys.Key(n, "")) for n in self.columns]
            keys = [k for k in keys if not summary._constant(k.column)] or keys[:1]
            events = summary._events if columns == "key" else []
        else:
            names = _check.items("columns", columns, "'key', 'all' or a list of column names")
            names = [_column_name(n, self.columns) for n in names]
            if not names:
                raise InvalidValueError("invalid columns []: expected at least one column name")
            known = {k.column: k for k in summary._keys}
            keys = [known.get(n, _keys.Key(n, "")) for n in names]
            events = []
        target = None if path is None else check_plot_path(path)
        group = _plots.Group(
            self.policy, {n: summary[n].histogram for n in self.columns},
            {n: summary[n].count for n in self.columns}, {n: summary[n].mean for n in self.columns})
        rates = [(e, e.count(summary[e.column].histogram or []), summary[e.column].count) for e in events
                 if summary[e.column].histogram is not None]
        mode = ", aggregate_only" if self.aggregate_only else ""
        codes = _keys.codes_for(self.preset)
        with _plots.style():
            fig, axes = _plots.figure(len(keys) + bool(rates),
                                      f"{self.preset}: {self.completed} deals, policy {self.policy}, seed {self.seed}{mode}")
            for ax, k in zip(axes, keys):
                _plots.histogram_panel(ax, [group], k, codes.get(k.column))
            if rates:
                _plots.events_panel(axes[-1], [self.policy], [[(k, n) for _, k, n in rates]], [e for e, _, _ in rates])
            if target is not None:
                _plots.save(fig, target, kept="the rows are still in this SimResult; plot() again to retry")
        return fig

    @classmethod
    def concat(cls, parts: Sequence[SimResult]) -> SimResult:
        """Join results of consecutive deal ranges of one run into one result, exactly.

        Every part must come from the same run: the same zhipai version, preset and value of
        every option, policy of every seat, seed, columns and mode; ``parts[k + 1].first_deal``
        must equal ``parts[k].first_deal + parts[k].completed``, and every part but the last must
        be complete (not interrupted). Rows are concatenated; aggregates are merged exactly
        (integer sums, min/max, histogram counts), so ``concat`` of the parts equals the run of
        the whole range. Works on results read back with :meth:`load`.

        Raises:
            InvalidValueError: ``parts`` not a non-empty list of ``SimResult``; a part of another
                run (naming every difference, e.g. the options whose values differ) or not right
                after the previous one (naming the expected first deal).
        """
        items = _check.items("parts", parts, "a list of SimResult")
        if not items:
            raise InvalidValueError("invalid parts []: expected at least one SimResult")
        for k, p in enumerate(items):
            if not isinstance(p, SimResult):
                raise InvalidValueError(f"invalid parts[{k}] {_check.shown(p)}: expected a SimResult")
        head = items[0]
        for k, (a, b) in enumerate(zip(items, items[1:]), start=1):
            differences = _run_differences(a, b)
            if differences:
                raise InvalidValueError(
                    f"invalid parts[{k}]: not the same run as parts[{k - 1}]: {'; '.join(differences)}")
            if a.interrupted or b.first_deal != a.first_deal + a.completed:
                why = (f"parts[{k - 1}] is interrupted ({a.completed} of {a.requested} deals)"
                       if a.interrupted else f"it starts at deal {b.first_deal}")
                raise InvalidValueError(
                    f"invalid parts[{k}] {b!r}: expected the deals from {a.first_deal + a.completed} "
                    f"of the same run right after a complete parts[{k - 1}] {a!r}; {why}")
        raw: dict[str, Any] = {
            "columns": head.columns,
            "docs": [head.docs[c] for c in head.columns],
            "requested": sum(p.requested for p in items),
            "completed": sum(p.completed for p in items),
            "interrupted": items[-1].interrupted,
        }
        if head.aggregate_only:
            raw["stats"] = [_merge_stats([p.stats(c) for p in items]) for c in head.columns]
        else:
            raw["data"] = [np.concatenate([p._data[c] for p in items]) for c in head.columns]
        return cls(raw, preset=head.preset, policy=head.policy, seed=head.seed, first_deal=head.first_deal,
                   options=head.options, policies=head.policies, zhipai_version=head.zhipai_version,
                   environment=head._environment)


def _run_differences(a: SimResult, b: SimResult) -> list[str]:
    """What differs between the runs of ``a`` and ``b`` (empty: the same run)."""
    out = []
    for what, x, y in (("zhipai_version", a.zhipai_version, b.zhipai_version), ("preset", a.preset, b.preset)):
        if x != y:
            out.append(f"{what} {x!r} vs {y!r}")
    if a.options is None or b.options is None:
        if a.options != b.options:
            out.append("options unknown in one part")
    else:
        for name in sorted(set(a.options) | set(b.options)):
            x, y = a.options.get(name, "(absent)"), b.options.get(name, "(absent)")
            if x != y:
                out.append(f"option {name} {x!r} vs {y!r}")
    if a.policies is not None and b.policies is not None and len(a.policies) == len(b.policies):
        out += [f"policy of seat {s} {x!r} vs {y!r}" for s, (x, y) in enumerate(zip(a.policies, b.policies)) if x != y]
    elif (a.policies, a.policy) != (b.policies, b.policy):
        out.append(f"policy {a.policy!r} vs {b.policy!r}")
    if a.seed != b.seed:
        out.append(f"seed {a.seed} vs {b.seed}")
    if a.columns != b.columns:
        out.append(f"columns {a.columns} vs {b.columns}")
    if a.aggregate_only != b.aggregate_only:
        out.append("one part keeps rows, the other aggregates only")
    return out


def check_plot_path(path: Any, what: str = "path") -> Path:
    """Refuse now (``FileError``/``InvalidValueError`` naming it) a plot file that could not be
    written: as :func:`zhipai._files.check_output`, and an image format matplotlib writes."""
    _optional("matplotlib", "plot", "plot")
    from matplotlib.backend_bases import FigureCanvasBase

    p = _files.check_output(path, kinds=None, what=what)
    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    if p.suffix[1:].lower() not in formats:
        got = f"unknown image extension {p.suffix!r}" if p.suffix else "no extension"
        raise FileError(f"cannot write {_files.shown_path(path)}: {got}; expected one of "
                        f"{', '.join('.' + f for f in formats)}", path=os.fspath(path))
    return p


# --- the writers and readers of saved rows (module-level so tests can make one fail) ------

#: Rows per block when writing CSV (bounded memory for the text, Ctrl-C seen between blocks).
_CSV_BLOCK = 1 << 16


class _Hashing:
    """A binary file wrapper that counts and hashes what is written."""

    def __init__(self, f: IO[bytes]) -> None:
        import hashlib

        self.f, self.size, self.hash = f, 0, hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.hash.update(data)
        self.size += len(data)
        return self.f.write(data)


def _write_csv(f: IO[bytes], columns: list[str], rows: Mapping[str, np.ndarray], info: dict[str, Any]) -> None:
    """Header line then one line per deal; ``info`` receives the bytes and their SHA-256."""
    out = _Hashing(f)
    out.write((",".join(columns) + "\n").encode("ascii"))
    n = len(rows[columns[0]]) if columns else 0
    line = ",".join(["%d"] * len(columns)) + "\n"
    for start in range(0, n, _CSV_BLOCK):
        block = np.column_stack([rows[c][start : start + _CSV_BLOCK] for c in columns])
        # one %-format of the whole block: the same text as np.savetxt(fmt="%d"), 2-3x faster
        out.write(((line * len(block)) % tuple(block.ravel().tolist())).encode("ascii"))
    info["bytes"], info["sha256"] = out.size, out.hash.hexdigest()


def _write_parquet(f: IO[bytes], table: Any, pq: Any) -> None:
    pq.write_table(table, f)


def _write_npz(f: IO[bytes], rows: Mapping[str, np.ndarray], meta: str) -> None:
    np.savez(f, **rows, **{PROVENANCE_KEY: np.array(meta)})


#: Most bytes of a CSV provenance sidecar read back.
_MAX_SIDECAR = 4 << 20


def _load_csv(p: Path, shown: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    import hashlib

    sidecar = p.with_name(p.name + ".json")
    if not sidecar.is_file():
        raise FileError(
            f"cannot load {shown}: no provenance ({sidecar.name} is missing next to it); "
            "SimResult.load reads files written by SimResult.save", path=shown)
    meta = _files.read_json(sidecar, limit=_MAX_SIDECAR, what="provenance")
    if not isinstance(meta, dict):
        raise FileError(f"cannot load {shown}: {sidecar.name} is not a zhipai provenance record", path=shown)
    h, size = hashlib.sha256(), 0
    with open(p, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    if size != meta.get("data_bytes") or h.hexdigest() != meta.get("data_sha256"):
        raise FileError(
            f"cannot load {shown}: the file does not match its provenance {sidecar.name} "
            f"({size:,} bytes, recorded {meta.get('data_bytes')!r}; the checksum differs): it was "
            "changed or cut after it was saved", path=shown)
    with open(p, encoding="ascii") as f:
        header = f.readline().rstrip("\n").split(",")
        if header != meta.get("columns"):
            raise FileError(f"cannot load {shown}: its columns {header} differ from its provenance's", path=shown)
        body = f.read()
    if not body.strip():
        return meta, {c: np.empty(0, np.int32) for c in header}
    table = np.loadtxt(io.StringIO(body), dtype=np.int64, delimiter=",", ndmin=2)
    if table.shape[1] != len(header):
        raise FileError(f"cannot load {shown}: rows of {table.shape[1]} values under {len(header)} columns", path=shown)
    return meta, {c: _int32(table[:, j], shown, c) for j, c in enumerate(header)}


def _load_parquet(p: Path, shown: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    pq = _optional("pyarrow.parquet", "load a .parquet file", "arrow")
    table = pq.read_table(p)
    raw = (table.schema.metadata or {}).get(PROVENANCE_KEY.encode())
    if raw is None:
        raise FileError(f"cannot load {shown}: no zhipai provenance in its metadata (not written by SimResult.save)", path=shown)
    meta = _files.parse_json(raw.decode("utf-8"), source=shown, what="provenance of")
    return meta, {c: _int32(table.column(c).to_numpy(), shown, c) for c in table.column_names}


def _load_npz(p: Path, shown: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    with np.load(p, allow_pickle=False) as z:
        if PROVENANCE_KEY not in z.files:
            raise FileError(f"cannot load {shown}: no {PROVENANCE_KEY} entry (not written by SimResult.save)", path=shown)
        meta = _files.parse_json(str(z[PROVENANCE_KEY][()]), source=shown, what="provenance of")
        data = {k: _int32(z[k], shown, k) for k in z.files if k != PROVENANCE_KEY}
    return meta, data


def _int32(col: np.ndarray, shown: str, name: str) -> np.ndarray:
    col = np.asarray(col)
    if col.ndim != 1 or col.dtype.kind not in "iu" or (col.size and (col.min() < -(2**31) or col.max() >= 2**31)):
        raise FileError(f"cannot load {shown}: column {name!r} is not int32 values", path=shown)
    return col.astype(np.int32, copy=False)


def _from_provenance(meta: Any, data: dict[str, np.ndarray], shown: str) -> SimResult:
    """A ``SimResult`` of loaded rows, after checking them against their provenance."""

    def bad(reason: str) -> FileError:
        return FileError(f"cannot load {shown}: {reason}", path=shown)

    if not isinstance(meta, dict) or meta.get("format") != PROVENANCE_FORMAT:
        raise bad("its provenance is not a zhipai rows record")
    if meta.get("format_version") != PROVENANCE_VERSION:
        raise bad(f"provenance format_version {meta.get('format_version')!r}; this zhipai reads {PROVENANCE_VERSION}")
    columns, docs = meta.get("columns"), meta.get("docs")
    if not isinstance(columns, list) or not isinstance(docs, dict) or list(data) != columns:
        raise bad(f"its columns {list(data)} differ from its provenance's {columns}")
    n = meta.get("deals")
    if any(len(col) != n for col in data.values()):
        raise bad(f"it has {len(next(iter(data.values()), []))} rows, its provenance records {n!r}")
    try:
        raw = {
            "columns": columns, "docs": [str(docs.get(c, "")) for c in columns],
            "requested": int(meta["requested"]), "completed": int(n),
            "interrupted": bool(meta["interrupted"]), "data": [data[c] for c in columns],
        }
        env = {k: str(meta[k]) for k in ("created", "python", "numpy", "platform") if k in meta}
        policies = meta.get("policy")
        return SimResult(
            raw, preset=str(meta["preset"]), seed=int(meta["seed"]), first_deal=int(meta["first_deal"]),
            policy=_policy_label(policies), options=meta.get("options"), policies=policies,
            zhipai_version=str(meta["zhipai_version"]), environment=env,
        )
    except (KeyError, TypeError, ValueError) as e:
        raise bad(f"its provenance lacks or garbles {e}") from e


def _policy_label(policies: Any) -> str:
    """``SimResult.policy`` of a loaded result, as :func:`zhipai.policy.describe` labels it."""
    if not isinstance(policies, list) or not policies:
        return "?"
    names = [str(p).rpartition(":")[2] for p in policies]
    return names[0] if len(set(names)) == 1 else "/".join(names)


def _merge_stats(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The exact aggregate of several ``count, sum, sum_sq, min, max, histogram`` dicts (as the
    engine's ``ColumnStats::merge``): sums add, min/max combine, histograms add value by value
    and are ``None`` as soon as one part has none or the union has more than
    :data:`HIST_MAX_SPARSE` distinct values outside -256..255. Parts of no values are left out
    of min/max (``None`` when every part is empty)."""
    hist: dict[int, int] | None = {}
    filled = [s for s in parts if int(s["count"]) > 0]
    for s in parts:
        if s["histogram"] is None or hist is None:
            hist = None
            continue
        for v, c in s["histogram"]:
            hist[int(v)] = hist.get(int(v), 0) + int(c)
    if hist is not None and not _keeps_histogram(np.fromiter(hist, dtype=np.int64, count=len(hist))):
        hist = None
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
        raise MissingDependencyError(
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
    """A seed in 0..2**64-1; ``None`` draws a fresh random seed, which the result records."""
    return _check.seed(seed)


def _resolve_rules(rules: Rules | str) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return _core.rules(rules, None)
    raise InvalidValueError(f"invalid rules {rules!r}: expected zhipai.Rules or a preset name")


class _Bar:
    """A tqdm bar opened on the first progress report (so a run that fails at once shows none)."""

    def __init__(self, deals: int, desc: str, disable: bool | None, unit: str = "deal") -> None:
        self.deals, self.desc, self.disable, self.unit = deals, desc, disable, unit
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=self.deals, unit=self.unit, unit_scale=True, desc=self.desc, disable=self.disable)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _UserProgress:
    """The caller's progress callable, remembering the exception it raised (so the run's error
    can be told apart from the callback's, which becomes a :class:`ProgressError`)."""

    def __init__(self, fn: Callable[[int, int], Any]) -> None:
        self.fn = fn
        self.error: BaseException | None = None

    def __call__(self, done: int, total: int) -> Any:
        try:
            return self.fn(done, total)
        except Exception as e:
            self.error = e
            raise


def _check_progress(progress: Any) -> None:
    if callable(progress) or progress is None or isinstance(progress, (bool, np.bool_)):
        return
    raise InvalidValueError(
        f"invalid progress {_check.shown(progress)}: expected True, False, None or a callable f(done, total)")


def _progress_callback(progress: ProgressArg, deals: int, desc: str, unit: str = "deal") -> tuple[Any, _Bar | None]:
    """(callback for the engine, bar to close) for the ``progress`` argument; the bar counts in
    ``unit`` (a deal, or an evaluation's sample)."""
    _check_progress(progress)
    if callable(progress):
        return _UserProgress(progress), None
    if progress is None or bool(progress):
        bar = _Bar(deals, desc, None if progress is None else False, unit)
        return bar, bar
    return None, None


def progress_error(callback: Any, exc: BaseException | None, result: Any, unit: str) -> ProgressError | None:
    """The :class:`ProgressError` to raise when ``exc`` is what the user's progress callable
    raised (``None`` otherwise)."""
    if exc is None or not isinstance(callback, _UserProgress) or callback.error is not exc:
        return None
    return ProgressError(
        f"the progress callback raised {type(exc).__name__}: {exc}; the run stopped after "
        f"{result.completed} of {result.requested} {unit}, kept in this error's .result",
        result=result)


def _check_rows_fit(rules: Rules, deals: int) -> None:
    """Refuse a rows-mode run whose rows cannot be held (``deals × columns × 4`` bytes), before
    anything is allocated (see :mod:`zhipai._memory` for where the figure comes from)."""
    try:
        columns = len(_core._columns(rules))
    except ZhipaiError:
        return  # the engine names the problem
    _memory.check_fits(
        "deals", deals, deals * columns * 4, f"rows mode (keeping {columns} int32 columns per deal)",
        "pass aggregate_only=True (zhipai simulate --aggregate-only) for exact summaries in bounded "
        "memory, or fewer deals")


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
        policy: a player name for every seat: ``"random"`` (uniform over legal choices) or
            ``"greedy"`` (the game's documented rule-based player) — the fast path — or a
            search player ``"pimc"``, ``"pimc(worlds=32,rollout=greedy)"``,
            ``"ismcts(iterations=2000)"`` (:mod:`zhipai.policy`; a bad name or parameter is an
            ``InvalidValueError`` naming it); a list with one entry per seat (``["pimc",
            "greedy", "greedy", "greedy"]``) or a mapping ``{0: "pimc", "others": "greedy"}``.
            When every seat has a name the deals run in Rust on ``threads`` threads
            (``_core._simulate_players``; one built-in name everywhere keeps the fast path) and
            the rows equal those of the Python loop with ``state.apply_builtin(name)`` at every
            seat. A Python policy (slow path, module docs) is a callable ``f(observation: dict,
            legal_moves: list[str]) -> str``, for every seat or as an entry of the list or
            mapping (``[f, "random", "greedy", "random"]``). Observation keys and move text:
            :mod:`zhipai.policy`.
        seed: an int in 0..2**64; deal ``i`` uses the generator of ``(seed, i)``. ``None``
            draws a fresh random seed, recorded in ``result.seed`` (and the summary's title and
            the saved provenance), so the run can be repeated.
        threads: worker threads, 1 to ``MAX_THREADS`` (256), default every core; more threads
            than deals are clamped to ``deals``. Results do not depend on it. A Python policy
            (a callable at any seat) runs on the calling thread.
        progress: ``None`` (default) = tqdm bar when stderr is a terminal; ``True``/``False`` =
            always/never (a bool or numpy bool; nothing else); or a callable ``f(done, total)``
            called about every 100 ms from the calling thread — returning ``False`` stops the
            run (the prefix is returned); raising stops it with :class:`zhipai.ProgressError`,
            whose ``result`` holds the completed prefix.
        chunk_size: deals per work unit ≥ 1 (scheduling only; results do not depend on it).
        aggregate_only: a bool (or numpy bool): keep exact per-column aggregates instead of
            rows (bounded memory, for 10**8 deals and more); then ``summary()`` works and column
            access raises. Rows mode holds ``deals × columns × 4`` bytes (e.g. 10**8 Tractor
            deals: 6 GB), allocated before the first deal: a rows run that does not fit in the
            memory available now is refused up front (``InvalidValueError`` naming the size).
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
        InvalidValueError: ``deals``, ``threads``, ``chunk_size``, ``seed``, ``policy`` (a bad
            player name or search parameter, named with its seat),
            ``aggregate_only``, ``progress``, ``first_deal``, ``backend``, ``ray_address`` or
            ``chunk_deals`` invalid (the message names the value, e.g. bad seat keys;
            ``backend="ray"`` with a Python policy); rows that do not fit in the available
            memory (naming the size, suggesting ``aggregate_only=True``); a failing deal's
            error names its index and seed (with Ray, also the failing chunk's deal range).
        zhipai.ProgressError: the ``progress`` callable raised (``.result``: the completed
            prefix; ``__cause__``: its exception).
        IllegalPlayError: a Python policy returned a move that is not legal (the message names
            the move, the seat and the deal index; ``.result`` holds the deals before it).
        zhipai.policy.PolicyError: a Python policy raised (chained: ``__cause__`` is its
            exception; the message names the seat and the deal index; ``.result`` holds the
            deals before it).
        InvalidOptionError: unknown preset, or a game whose simulation is not available yet.
        SimulationInterrupted: Ctrl-C; ``.result`` holds the completed prefix.
        ImportError: ``backend="ray"`` without Ray installed (names ``zhipai[ray]``).
    """
    deals = _check_count("deals", deals)
    threads = _check_threads(threads, deals)
    chunk_size = _check_count("chunk_size", chunk_size, allow_none=True)
    seed = _check_seed(seed)
    aggregate_only = _check.flag("aggregate_only", aggregate_only)
    _check_progress(progress)
    first_deal = int(_core._check_int("first_deal", first_deal, 0, 2**64 - 1))
    if first_deal + deals > 2**64 - 1:
        raise InvalidValueError(
            f"invalid first_deal {first_deal}: first_deal + deals ({deals}) exceeds 2**64 - 1"
        )
    _check_backend(backend, ray_address, chunk_deals)
    aggregate_only = _check_flag("aggregate_only", aggregate_only)
    if isinstance(policy, str):
        policy = _policy.player_name(policy)
    rules = _resolve_rules(rules)
    # Player names per seat (a search player, or different names) run in Rust too
    # (zhipai._seats); callables run the Python loop.
    policy, players = _named_seats(rules, policy)
    if backend == "ray" and players is None and not isinstance(policy, str):
        raise InvalidValueError(
            f"invalid policy {_check.shown(policy)} with backend='ray': Ray runs player names "
            "('random', 'greedy', 'pimc(...)', ...); Python policies run locally (backend='local')"
        )
    if not aggregate_only:
        _check_rows_fit(rules, deals)
    if players is None and not isinstance(policy, str):
        return _simulate_python(rules, deals, policy, seed, progress, aggregate_only, first_deal)
    label = policy if players is None else _policy.describe(list(players))
    callback, bar = _progress_callback(progress, int(deals), rules.preset)
    if backend == "ray":
        from zhipai import ray_backend

        try:
            return ray_backend.simulate(
                rules, deals, label, seed, threads, callback, chunk_size, aggregate_only,
                first_deal, address=ray_address, chunk_deals=chunk_deals, players=players,
            )
        finally:
            if bar is not None:
                bar.close()
    engine = _engine(rules) if players is None else _seats.engine(rules, players)
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
    result = SimResult(raw, preset=rules.preset, policy=label, seed=int(seed), first_deal=first_deal,
                       options=_options_of(rules), policies=players)
    exc = raw.get("exception")
    if isinstance(exc, KeyboardInterrupt):
        raise SimulationInterrupted(result) from exc
    failed = progress_error(callback, exc, result, "deals")
    if failed is not None:
        raise failed from exc
    if exc is not None:
        raise exc
    return result


def _named_seats(rules: Rules, policy: Any) -> tuple[Any, list[str] | None]:
    """How ``policy`` runs: ``(name, None)`` when every seat has the same built-in policy
    ``name`` (the fast path, ``_core._simulate``); ``(policy, names)`` when every seat has a
    player name but not all one built-in (``_core._simulate_players``: a search player, or a mix);
    ``(policy, None)`` when a seat has a callable (the Python loop). Raises what
    :func:`zhipai.policy.seat_policies` raises for a bad specification."""
    if callable(policy):
        return policy, None
    n = _seat_count(rules.preset) or _policy.Game(rules).num_players
    seats = _policy.seat_policies(policy, n)
    if not all(isinstance(p, str) for p in seats):
        return policy, None
    if len(set(seats)) == 1 and not _policy.is_search(str(seats[0])):
        return seats[0], None
    return policy, [str(p) for p in seats]


#: Seconds between progress reports of the Python loop (as the fast path's poll interval).
_REPORT_EVERY = 0.1


class _Aggregates:
    """Exact per-column aggregates of a stream of rows in bounded memory (the Python loop's
    ``aggregate_only``): the same ``count, sum, sum_sq, min, max, histogram`` as the engine's,
    with Python ints (exact) and the engine's histogram rule (kept unless more than
    :data:`HIST_MAX_SPARSE` distinct values fall outside -256..255)."""

    def __init__(self, width: int) -> None:
        self.count = 0
        self.sums = [0] * width
        self.sums_sq = [0] * width
        self.mins = [2**31 - 1] * width
        self.maxs = [-(2**31)] * width
        self.hists: list[dict[int, int] | None] = [{} for _ in range(width)]
        self.outside = [0] * width  # distinct values outside the dense range

    def add(self, row: list[int]) -> None:
        self.count += 1
        for j, v in enumerate(row):
            self.sums[j] += v
            self.sums_sq[j] += v * v
            self.mins[j] = min(self.mins[j], v)
            self.maxs[j] = max(self.maxs[j], v)
            h = self.hists[j]
            if h is not None:
                if v not in h and not HIST_DENSE[0] <= v < HIST_DENSE[1]:
                    self.outside[j] += 1
                    if self.outside[j] > HIST_MAX_SPARSE:
                        self.hists[j] = None  # too many distinct values: none (as the engine)
                        continue
                h[v] = h.get(v, 0) + 1

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

    game = _policy.Game(rules)
    policies = _policy.seat_policies(policy, game.num_players)
    label = _policy.describe(policies)
    width = len(game.columns)
    acc: _Aggregates | _Rows = _Aggregates(width) if aggregate_only else _Rows(deals, width)
    callback, bar = _progress_callback(progress, deals, rules.preset)
    options, seats = _options_of(rules), [_policy_name(p) for p in policies]
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
        return SimResult(raw, preset=rules.preset, policy=label, seed=seed, first_deal=first_deal,
                         options=options, policies=seats)

    try:
        for i in range(deals):
            try:
                acc.add(_policy.play_deal(game, seed, first_deal + i, policies))
            except ZhipaiError as e:
                # A policy that raised or returned an illegal move: the deals before it are kept
                # on the error (``e.result``), as on Ctrl-C.
                interrupted = True
                e.result = result()  # type: ignore[attr-defined]
                raise
            now = time.monotonic()
            if callback is not None and (now - last >= _REPORT_EVERY or i + 1 == deals):
                last = now
                try:
                    stop = callback(i + 1, deals) is False
                except Exception as e:
                    interrupted = True
                    failed = progress_error(callback, e, result(), "deals")
                    if failed is None:
                        raise
                    raise failed from e
                if stop:
                    interrupted = acc.count < deals
                    break
    except KeyboardInterrupt as e:
        interrupted = True
        raise SimulationInterrupted(result()) from e
    finally:
        if bar is not None:
            bar.close()
    return result()
