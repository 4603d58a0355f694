"""Rule-variant comparison: the same deals under several rule variants, paired.

``zhipai.compare(preset, variants=[{...}, {...}], deals=, seed=, policy=, threads=)`` plays deals
``0..deals`` of ``seed`` under each variant (a dict of option overrides applied to the preset).
Deal ``i`` draws from the generator of ``(seed, i)`` in every variant, so the variants deal the
same cards (when they deal the same deck) and the differences are paired deal by deal: their
confidence intervals are much narrower than those of two independent runs. Once a rule changes a
decision, the rest of the deal (and the built-in players' draws) can differ.

The result (:class:`Comparison`) has, per variant, the exact statistics of every column (a
``SimResult`` in aggregate form: ``results[v].summary()``), the paired differences of every
column's mean to the first variant with 95% CIs (:meth:`Comparison.diff`), the key events'
shares and their paired differences (:meth:`Comparison.events`), and the share of deals whose
*outcome* changed (:meth:`Comparison.changed`; the outcome per game is defined in
:mod:`zhipai.keys`: the level change in the Shengji family, whether the dealer makes the bid in
Hong Wu, the seat with the best credited result in Gongzhu, whether the emperor's side wins,
draws or loses in Baohuang), with the most frequent changes. Deals are played in blocks, so the
memory is bounded (rows of one block per variant) whatever ``deals``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from zhipai import _check, _core, _report
from zhipai import keys as _keys
from zhipai._core import InvalidValueError, Rules
from zhipai._errors import ProgressError
from zhipai.simulate import (
    POLICIES,
    ColumnSummary,
    ProgressArg,
    SimResult,
    SimulationInterrupted,
    _check_count,
    _check_progress,
    _check_seed,
    _check_threads,
    _check_view,
    _column_name,
    _exact_stats,
    _merge_stats,
    _optional,
    _options_of,
    _progress_callback,
    check_plot_path,
)
from zhipai.simulate import simulate as _simulate

__all__ = ["Comparison", "compare"]

#: Deals per block (rows of one block are held per variant).
BLOCK = 250_000
#: Variant letters in reports.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class _Paired:
    """Exact running sums of a paired difference (ints)."""

    def __init__(self) -> None:
        self.count = self.sum = self.sum_sq = 0

    def add(self, d: np.ndarray) -> None:
        d = d.astype(np.int64)
        self.count += len(d)
        self.sum += int(d.sum())
        self.sum_sq += int(np.dot(d, d))

    def summary(self) -> ColumnSummary:
        if self.count == 0:
            return ColumnSummary.from_stats("", "", {"count": 0, "sum": 0, "sum_sq": 0})
        return ColumnSummary.from_stats("", "", {"count": self.count, "sum": self.sum, "sum_sq": self.sum_sq,
                                                 "min": 0, "max": 0, "histogram": None})


class Comparison:
    """The result of :func:`compare` (see the module docs).

    ``preset``, ``variants`` (the option overrides of each variant), ``labels`` (``"A:
    kitty_multiplier=power_of_two"``, …), ``options`` (every option of each variant), ``seed``,
    ``policy``, ``deals`` (completed: the same deals in every variant), ``requested``,
    ``interrupted``, ``columns`` (those every variant has), ``results`` (per variant a
    ``SimResult`` in aggregate form: ``summary()``, ``stats()``, ``plot()``), ``outcome_doc``.
    """

    def __init__(self, preset: str, variants: list[dict[str, Any]], options: list[dict[str, Any]], seed: int,
                 policy: str, requested: int, columns: list[str], docs: dict[str, str]) -> None:
        self.preset, self.variants, self.options = preset, variants, options
        self.seed, self.policy, self.requested = seed, policy, requested
        self.columns, self.docs = columns, docs
        self.labels = [f"{LETTERS[i]}: {_variant_text(v)}" for i, v in enumerate(variants)]
        self.deals = 0
        self.interrupted = False
        table = _keys.keys_for(preset)
        self._table = table
        self.outcome_doc = "" if table is None else table.outcome_doc
        self._stats: list[dict[str, dict[str, Any]]] = [{} for _ in variants]
        self._paired: list[dict[str, _Paired]] = [{c: _Paired() for c in columns} for _ in variants]
        self._events = [] if table is None else [e for e in table.events if e.column in columns]
        self._event_paired: list[list[_Paired]] = [[_Paired() for _ in self._events] for _ in variants]
        self._changed: list[int] = [0 for _ in variants]
        self._transitions: list[Counter[tuple[int, int]]] = [Counter() for _ in variants]
        self.results: list[SimResult] = []

    # --- accumulation ------------------------------------------------------------------------
    def _add_block(self, rows: list[Mapping[str, np.ndarray]]) -> None:
        n = min(len(r[self.columns[0]]) for r in rows) if self.columns else 0
        if n == 0:
            return
        rows = [{c: r[c][:n] for c in self.columns} for r in rows]
        base = rows[0]
        base_outcome = self._outcome(base)
        base_events = [e.mask(base[e.column]).astype(np.int32) for e in self._events]
        for v, r in enumerate(rows):
            for c in self.columns:
                s = _exact_stats(r[c])
                old = self._stats[v].get(c)
                self._stats[v][c] = s if old is None else _merge_stats([old, s])
                self._paired[v][c].add(r[c].astype(np.int64) - base[c].astype(np.int64))
            for k, e in enumerate(self._events):
                self._event_paired[v][k].add(e.mask(r[e.column]).astype(np.int32) - base_events[k])
            if base_outcome is not None:
                out = self._outcome(r)
                assert out is not None
                moved = out != base_outcome
                self._changed[v] += int(moved.sum())
                pairs = np.stack([base_outcome[moved], out[moved]], axis=1)
                self._transitions[v].update(map(tuple, pairs.tolist()))
        self.deals += n

    def _outcome(self, rows: Mapping[str, np.ndarray]) -> np.ndarray | None:
        if self._table is None:
            return None
        try:
            return self._table.outcome(rows)
        except KeyError:
            return None

    def _finish(self) -> None:
        # Events on a column constant in every variant (炒底 with chaodi off) say nothing.
        def constant(c: str) -> bool:
            seen = {(st[c]["min"], st[c]["max"]) for st in self._stats if c in st}
            return len(seen) == 1 and all(lo == hi for lo, hi in seen)

        keep = [k for k, e in enumerate(self._events) if not constant(e.column)]
        self._events = [self._events[k] for k in keep]
        self._event_paired = [[row[k] for k in keep] for row in self._event_paired]
        self.results = []
        for v, opts in enumerate(self.options):
            raw = {"requested": self.requested, "completed": self.deals, "interrupted": self.interrupted,
                   "columns": self.columns, "docs": [self.docs[c] for c in self.columns],
                   "stats": [self._stats[v].get(c) or {"count": 0, "sum": 0, "sum_sq": 0, "min": None, "max": None,
                                                       "histogram": []} for c in self.columns]}
            self.results.append(SimResult(raw, preset=self.preset, policy=self.policy, seed=self.seed, options=opts))

    # --- analysis ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        stop = f" of {self.requested} (interrupted)" if self.interrupted else ""
        return f"<Comparison {self.preset}: {self.deals} deals{stop}, seed={self.seed}, variants={self.labels}>"

    def __len__(self) -> int:
        return self.deals

    def summaries(self) -> list[Any]:
        """Per variant its :class:`zhipai.simulate.Summary`."""
        return [r.summary() for r in self.results]

    def diff(self, column: str) -> list[dict[str, Any]]:
        """Per variant: ``mean`` and ``ci95`` of ``column``, and ``diff`` / ``diff_ci95``, the
        paired difference of its mean to the first variant's on the same deals (95% CI)."""
        column = _column_name(column, self.columns)
        out = []
        for v, label in enumerate(self.labels):
            s = self.results[v].summary()[column]
            d = self._paired[v][column].summary()
            out.append({"variant": label, "mean": s.mean, "ci95": s.ci95, "diff": d.mean, "diff_ci95": d.ci95,
                        "quantiles": s.quantiles})
        return out

    def events(self) -> list[dict[str, Any]]:
        """Per key event and variant: ``{event, test, variant, count, share, ci95, diff,
        diff_ci95}`` — the share of deals (95% Wilson interval) and its paired difference to the
        first variant (95% CI)."""
        out = []
        for k, e in enumerate(self._events):
            for v, label in enumerate(self.labels):
                hist = self._stats[v][e.column]["histogram"] if e.column in self._stats[v] else None
                count = e.count(hist or [])
                d = self._event_paired[v][k].summary()
                lo, hi = d.ci95  # a difference of shares lies in [-1, 1]
                out.append({"event": e.label, "test": e.test_text, "variant": label, "count": count,
                            "share": count / self.deals if self.deals else math.nan,
                            "ci95": _keys.wilson(count, self.deals), "diff": d.mean,
                            "diff_ci95": (max(lo, -1.0), min(hi, 1.0)) if lo == lo else d.ci95})
        return out

    def changed(self) -> list[dict[str, Any]]:
        """Per variant after the first: the deals whose outcome differs from the first
        variant's (``count``, ``share`` with a 95% Wilson interval ``ci95``) and the most
        frequent changes ``transitions``: ``[(from, to, count)]`` in words, most frequent
        first. Empty for a game without an outcome."""
        if self._table is None:
            return []
        name = self._table.outcome_codes
        out = []
        for v in range(1, len(self.labels)):
            k = self._changed[v]
            moves = [(name(a), name(b), c) for (a, b), c in self._transitions[v].most_common()]
            out.append({"variant": self.labels[v], "count": k, "share": k / self.deals if self.deals else math.nan,
                        "ci95": _keys.wilson(k, self.deals), "transitions": moves})
        return out

    def key_columns(self) -> list[_keys.Key]:
        keys = _keys.key_columns(self.preset, self.columns)
        varying = [k for k in keys if any(r.summary()[k.column].min != r.summary()[k.column].max for r in self.results)]
        return varying or keys[:1]

    def __str__(self) -> str:
        return self.report()

    def _header(self) -> list[str]:
        stop = f" (interrupted: {self.deals} of {self.requested})" if self.interrupted else ""
        return [f"{self.preset}: the same {self.deals} deals{stop} (seed {self.seed}, policy {self.policy}) "
                f"under {len(self.labels)} rule variants"] + [f"  {lab}" for lab in self.labels]

    def report(self, columns: str = "key") -> str:
        """The text of ``str(comparison)``: the variants, the share of deals whose outcome
        changed (with the most frequent changes), then per key column (``columns="all"``:
        every column) and variant the mean, its 95% CI, the paired difference to the first
        variant with its 95% CI and the quantiles, then the key events."""
        view = _check_view(columns)
        lines = self._header()
        if self.deals == 0:
            return "\n".join(lines + ["", "no completed deals"])
        changed = self.changed()
        if changed:
            lines += ["", f"outcome changed ({self.outcome_doc}), share of deals vs A (95% CI):"]
            for r in changed:
                top = ", ".join(f"{a} → {b} {100 * c / self.deals:.2f}%" for a, b, c in r["transitions"][:3])
                lines.append(f"  {r['variant'][:1]}: {_report.pct(r['share']):>7} {_report.ci_pct(r['ci95'])}"
                             + (f"; most often {top}" if top else ""))
        keys = self.key_columns()
        names = [k.column for k in keys]
        meanings = {k.column: k.meaning for k in keys}
        if view == "all":
            names += [c for c in self.columns if c not in names]
        for col in names:
            lines += self._column_lines(col, meanings.get(col) or self.docs[col])
        lines += self._event_lines()
        if view != "all":
            others = [c for c in self.columns if c not in names]
            moved = self.moved_columns(others)
            if moved:
                lines += ["", "other columns whose mean moved (paired difference vs A, 95% CI excludes 0):"]
                for col, rows in moved:
                    cells = "; ".join(f"{r['variant'][:1]} {r['diff']:+.4g} [{r['diff_ci95'][0]:+.3g}, {r['diff_ci95'][1]:+.3g}]"
                                      for r in rows[1:])
                    lines.append(f"  {col}: {cells}")
            if others:
                lines += ["", f"other columns (report('all'), --columns all): {', '.join(others)}"]
        return "\n".join(lines)

    def moved_columns(self, columns: Sequence[str] | None = None) -> list[tuple[str, list[dict[str, Any]]]]:
        """``[(column, diff(column))]`` for the ``columns`` (default: every column) whose mean
        differs from variant A's in some variant: the 95% CI of the paired difference
        excludes 0."""
        out = []
        for col in self.columns if columns is None else columns:
            rows = self.diff(col)
            if any(not math.isnan(r["diff_ci95"][0]) and (r["diff_ci95"][0] > 0 or r["diff_ci95"][1] < 0)
                   for r in rows[1:]):
                out.append((col, rows))
        return out

    def _column_lines(self, col: str, meaning: str) -> list[str]:
        lines = ["", f"{col}: {meaning}"]
        qs = "".join(f"{q:>8}" for q in _report.QUANTILE_HEADER)
        lines.append(f"  {'':<2}  {'mean':>11}  {'95% CI':>24}  {'vs A (paired)':>14}  {'95% CI':>24}{qs}")
        for v, r in enumerate(self.diff(col)):
            ci = _report.ci_num(r["ci95"])
            diff = f"  {'':>14}  {'':>24}" if v == 0 else f"  {r['diff']:>+14.4f}  {_report.ci_num(r['diff_ci95']):>24}"
            q = r["quantiles"] or {}
            cells = "".join(f"{q.get(x, ''):>8}" for x in _keys.QUANTILES)
            lines.append(f"  {LETTERS[v]:<2}  {r['mean']:>11.4f}  {ci:>24}{diff}{cells}")
        return lines

    def _event_lines(self) -> list[str]:
        rows = self.events()
        if not rows:
            return []
        lines = ["", "key events (share of deals, 95% CI; vs A: paired difference)"]
        per = len(self.labels)
        for i in range(0, len(rows), per):
            block = rows[i : i + per]
            lines.append(f"  {block[0]['event']} ({block[0]['test']})")
            for v, r in enumerate(block):
                diff = "" if v == 0 else (f"  {100 * r['diff']:>+7.2f} pts  "
                                          f"[{100 * r['diff_ci95'][0]:+.2f}, {100 * r['diff_ci95'][1]:+.2f}]")
                lines.append(f"    {LETTERS[v]}  {_report.pct(r['share']):>8}  {_report.ci_pct(r['ci95']):>20}{diff}")
        return lines

    def plot(self, path: str | Path | None = None, columns: str = "key") -> Any:
        """The variants side by side (``matplotlib.figure.Figure``): per key column their
        distributions on the value grid with quantiles; the paired difference of the first key
        column's mean to variant A (95% CI); the share of deals whose outcome changed; the key
        events per variant with 95% CIs. Saved to ``path`` when given. Needs ``zhipai[plot]``."""
        _optional("matplotlib", "plot", "plot")
        from zhipai import _plots

        view = _check_view(columns)
        target = None if path is None else check_plot_path(path)
        keys = self.key_columns()
        if view == "all":
            known = {k.column: k for k in keys}
            keys = [known.get(c, _keys.Key(c, "")) for c in self.columns]
        summaries = self.summaries()
        groups = [_plots.Group(LETTERS[v],
                               {c: s[c].histogram for c in self.columns}, {c: s[c].count for c in self.columns},
                               {c: s[c].mean for c in self.columns}) for v, s in enumerate(summaries)]
        first = keys[0].column
        d = self.diff(first)
        changed = self.changed()
        events = self.events()
        panels = len(keys) + 1 + bool(changed) + bool(self._events)
        codes = _keys.codes_for(self.preset)
        with _plots.style():
            head = self._header()
            fig, axes = _plots.figure(panels, head[0] + "\n" + "   ".join(x.strip() for x in head[1:]))
            for ax, k in zip(axes, keys):
                _plots.histogram_panel(ax, groups, k, codes.get(k.column))
            i = len(keys)
            _plots.means_panel(axes[i], [g.label for g in groups], [r["mean"] for r in d], [r["ci95"] for r in d],
                               [r["diff"] for r in d], [r["diff_ci95"] for r in d], first, "A")
            i += 1
            if changed:
                _plots.shares_panel(axes[i], [r["variant"][:1] for r in changed], [(r["count"], self.deals) for r in changed],
                                    "outcome changed vs A", f"share of deals (%), 95% CI; outcome = {self.outcome_doc}")
                i += 1
            if self._events:
                per = [[(r["count"], self.deals) for r in events if r["variant"] == lab] for lab in self.labels]
                _plots.events_panel(axes[i], [g.label for g in groups], per, self._events)
            if target is not None:
                _plots.save(fig, target, kept="the comparison is still in memory; plot() again to retry")
        return fig


def _variant_text(variant: Mapping[str, Any]) -> str:
    if not variant:
        return "the preset as is"
    return ", ".join(f"{k}={_option_text(v)}" for k, v in variant.items())


def _option_text(value: Any) -> str:
    """An option value as the command line writes it (``true``, ``3``, ``{5,10,K,A}``)."""
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "{" + ",".join(str(x) for x in value) + "}"
    return str(value)


def _variant_rules(preset: str, base: Mapping[str, str], variant: Any, k: int, text: bool) -> Rules:
    """The rules of variant ``k``: ``base`` (every option as text, or nothing) with its
    overrides; values are text when ``text`` (the command line, or a ``Rules`` base)."""
    if not isinstance(variant, Mapping) or not all(isinstance(n, str) for n in variant):
        raise InvalidValueError(
            f"invalid variants[{k}] {_check.shown(variant)}: expected a dict of option overrides, e.g. {{'chaodi': True}}")
    if not text:
        return _core.rules(preset, dict(variant))
    return _core.rules(preset, {**base, **{n: _option_text(v) for n, v in variant.items()}}, text=True)


def compare(
    rules: Rules | str,
    variants: Sequence[Mapping[str, Any]],
    deals: int = 10_000,
    seed: int = 0,
    policy: str = "random",
    threads: int | None = None,
    progress: ProgressArg = None,
    *,
    text: bool = False,
) -> Comparison:
    """Play the same ``deals`` deals of ``seed`` under each rule variant and compare them.

    Args:
        rules: a preset name, or a ``zhipai.Rules`` whose preset and options every variant
            starts from.
        variants: a list of dicts of option overrides, one per variant (``[{"kitty_multiplier":
            "twice_largest_unit"}, {"kitty_multiplier": "power_of_two"}]``; ``{}`` = the rules
            as given). One variant alone is compared with ``{}``. Option values as in
            :func:`zhipai.rules` (``text=True``: as the command line's text, ``"true"``, ``"3"``).
        deals: deals per variant, an int ≥ 1; the same deals in every variant (deal ``i`` from
            the generator of ``(seed, i)``).
        seed, policy, threads, progress: as in :func:`zhipai.simulate` (built-in policies:
            ``"random"`` or ``"greedy"``).

    Returns:
        :class:`Comparison`.

    Raises:
        InvalidValueError: fewer than one variant, a variant that is not a dict, two equal
            variants, bad deals / seed / policy / threads.
        InvalidOptionError: an unknown option or value in a variant (naming it).
        SimulationInterrupted: Ctrl-C; ``.result`` holds the comparison of the deals completed
            under every variant (a ``progress`` callable returning ``False`` stops the run the
            same way but returns that comparison, ``interrupted`` true).
        zhipai.ProgressError: the ``progress`` callable raised; ``.result`` holds the comparison
            of the completed deals, ``__cause__`` the callable's exception.
    """
    deals = _check_count("deals", deals)
    threads = _check_threads(threads, deals)
    seed = _check_seed(seed)
    _check_progress(progress)
    if not isinstance(policy, str) or policy not in POLICIES:
        raise InvalidValueError(f"invalid policy {_check.shown(policy)}: expected one of {', '.join(POLICIES)}")
    if isinstance(rules, Rules):
        preset, base = rules.preset, dict(rules.options())  # every option, as text
    elif isinstance(rules, str):
        preset, base = rules, {}
        _core.rules(preset, None)  # names an unknown preset
    else:
        raise InvalidValueError(f"invalid rules {_check.shown(rules)}: expected zhipai.Rules or a preset name")
    given = _check.items("variants", variants, "a list of dicts of option overrides")
    if not given:
        raise InvalidValueError("invalid variants []: expected at least one dict of option overrides")
    built = [_variant_rules(preset, base, v, k, text or bool(base)) for k, v in enumerate(given)]
    given = [dict(v) for v in given]
    if len(given) == 1:
        given = [{}, *given]
        built = [_variant_rules(preset, base, {}, 0, text or bool(base)), *built]
    options = [_options_of(r) for r in built]
    for a in range(len(options)):
        for b in range(a):
            if options[a] == options[b]:
                raise InvalidValueError(
                    f"invalid variants: {LETTERS[b]} ({_variant_text(given[b])}) and {LETTERS[a]} "
                    f"({_variant_text(given[a])}) are the same rules")
    cols = [dict(_core._columns(r)) for r in built]
    common = [c for c in cols[0] if all(c in other for other in cols[1:])]
    cmp = Comparison(preset, given, options, seed, policy, deals, common, cols[0])
    total = deals * len(built)
    callback, bar = _progress_callback(progress, total, f"{preset} compare")
    done = 0
    ctrl_c = False
    failed: ProgressError | None = None
    stop: list[bool] = []
    try:
        for start in range(0, deals, BLOCK):
            n = min(BLOCK, deals - start)
            rows: list[Mapping[str, np.ndarray]] = []
            for r in built:
                def report(d: int, _total: int, base: int = done) -> Any:
                    assert callback is not None
                    answer = callback(base + d, total)
                    if answer is False:
                        stop.append(True)  # seen even when the variant's run had just finished
                    return answer

                try:
                    res = _simulate(r, n, policy=policy, seed=seed, threads=threads, first_deal=start,
                                    progress=report if callback is not None else False)
                except (SimulationInterrupted, ProgressError) as e:
                    # The deals every variant completed are kept (the shortest prefix).
                    rows.append({c: e.result[c] for c in common})
                    cmp.interrupted = True
                    ctrl_c = isinstance(e, SimulationInterrupted)
                    failed = e if isinstance(e, ProgressError) else None
                    break
                rows.append({c: res[c] for c in common})
                done += n
                if res.interrupted or stop:  # a progress callable returned False
                    cmp.interrupted = True
                    break
            if len(rows) == len(built):
                cmp._add_block(rows)
            if cmp.interrupted:
                break
    finally:
        if bar is not None:
            bar.close()
    if cmp.interrupted and not ctrl_c and failed is None:
        cmp.interrupted = cmp.deals < deals  # a stop asked for after the last deal stops nothing
    cmp._finish()
    if ctrl_c:
        raise SimulationInterrupted(cmp)  # type: ignore[arg-type]
    if failed is not None:
        raise ProgressError(f"{failed}; the comparison of the {cmp.deals} deals every variant completed is "
                            "in this error's .result", result=cmp) from failed.__cause__
    return cmp
