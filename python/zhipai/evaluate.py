"""Monte Carlo hand evaluation: what is this hand worth, and which first action is best?

``zhipai.evaluate(rules, seat, hand, ...)`` fixes what ``seat`` knows (its hand, cards known in
other hands or in the kitty, voids), samples the unknown cards uniformly among the consistent
deals (exactly, by the engine's constrained dealer), plays every sampled deal to the end once per
candidate first action with the rollout player (a built-in policy, or a search such as
``"pimc(worlds=8)"``), and reports the outcome columns per candidate.

Candidates are compared on common random numbers: sample ``s`` deals from the generator of
``(seed, s)`` and every candidate continues from the same generator state, so the per-sample
differences are paired and their confidence intervals are narrow.

Games plug in through the Rust core's hook ``DealSimulator::play_from_deal``; a game without it
raises ``InvalidOptionError``.

``zhipai.evaluate_position(deal, seat, ...)`` evaluates a deal *in progress* (Shengji family):
what ``seat`` knows there — its hand, every card already played, the kitty when it is the dealer
who buried it, the cards each hand still holds and the voids shown by play — fixes the
determinisation; the other cards are redealt uniformly among the consistent deals, and each
candidate play is rolled out on common random numbers.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Union

import numpy as np

from zhipai import _check, _core, _memory, _report
from zhipai import keys as _keys
from zhipai._core import Card, InvalidOptionError, InvalidValueError, Rules, ZhipaiError
from zhipai._errors import UnknownKeyError
from zhipai.baohuang import candidate_cards as baohuang_candidate_cards
from zhipai.simulate import (
    ColumnSummary,
    ProgressArg,
    SimulationInterrupted,
    _check_count,
    _check_progress,
    _check_seed,
    _check_threads,
    _check_view,
    _column_name,
    _exact_stats,
    _optional,
    _progress_callback,
    _resolve_rules,
    check_plot_path,
    progress_error,
)

__all__ = ["Evaluation", "EvaluationSummary", "evaluate", "evaluate_position", "position_view"]

#: The column of what the evaluated seat gains in the deal.
SEAT_RETURN = "seat_return"

CardsArg = Union[str, Sequence[Card]]

_SUITS = {"S": "S", "H": "H", "D": "D", "C": "C"}
_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _cards_text(value: CardsArg, what: str) -> str:
    """Card notation for ``value`` (a string or a list of Cards), validated by the engine."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, Sequence) and all(isinstance(c, Card) for c in value):
        text = " ".join(str(c) for c in value)
    else:
        raise InvalidValueError(f"invalid {what} {value!r}: expected cards like 'AS 10H SJ' or a list of Card")
    _core.cards(text)  # raises InvalidCardError naming the bad token
    return text


def _void_text(value: CardsArg, seat: int) -> str:
    """Cards of a void: suit letters stand for the 13 cards of the suit, separated (``"S H"``)
    or run together (``"SHDC"``); other tokens are cards."""
    if isinstance(value, str):
        parts = []
        for tok in value.split():
            if all(ch in _SUITS for ch in tok.upper()):
                parts += [" ".join(r + _SUITS[ch] for r in _RANKS) for ch in tok.upper()]
            else:
                parts.append(tok)
        value = " ".join(parts)
    return _cards_text(value, f"void of seat {seat}")


def _seat(value: Any, what: str) -> int:
    """A seat number ≥ 0 (the game checks its upper bound); bools and floats refused."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise InvalidValueError(
            f"invalid {what} {value}: expected a seat of the game, 0 to 3 (0 to 4 in Baohuang)")
    return int(_core._check_int(what, value, 0, 255))


def _check_own_known(seat: int, hand: str, hands: list[tuple[int, str]]) -> None:
    """Known cards given for the evaluated seat itself must be cards of its hand."""
    held = Counter(str(c) for c in _core.cards(hand))
    for s, text in hands:
        if s != seat:
            continue
        missing = Counter(str(c) for c in _core.cards(text)) - held
        if missing:
            names = " ".join(sorted(missing.elements()))
            raise InvalidValueError(
                f"invalid known cards of seat {seat}: {names} not in its hand (the evaluated seat's "
                "known cards must be cards of its hand)")


def _engine(rules: Rules) -> Callable[..., dict[str, Any]]:
    """The native evaluator of ``rules`` (tests replace this with the internal toy game)."""

    def run(**kwargs: Any) -> dict[str, Any]:
        return _core._evaluate(rules, **kwargs)

    return run


class Evaluation:
    """The rollouts of :func:`evaluate`.

    ``candidates``: labels (``"policy"`` when the policy chose the first action, ``"pass"`` for the
    empty action — ``"abdicate"`` for a Baohuang scepter holder — else the cards in kind order);
    a label, ``""`` or the cards in any order and case select a candidate;
    ``columns``: outcome column names; ``outcomes(c)``: ``{column: int32 array (samples,)}`` for
    candidate ``c`` (index or label), sample ``s`` being the same deal for every candidate;
    ``summary()`` (every candidate; ``summary(c)``: one); ``compare(column, against=0)``: per
    candidate the mean and the paired difference to candidate ``against`` (the first by default,
    ``"best"`` = highest mean) with 95% confidence intervals; ``best(column)``; ``events()``: the
    key events' shares per candidate; ``report()`` / ``str()``: the deciding numbers first;
    ``plot()``.

    Every evaluation has the column ``seat_return``, what the seat gains in the deal
    (:mod:`zhipai.keys`: levels for its team in the Shengji family, negative when the other team
    gains; its result in Hong Wu, the dealer's or an attacker's; its credited score in Gongzhu;
    its score in Baohuang) — from the engine where it computes it (:func:`evaluate_position`),
    else derived from the outcome columns.
    """

    def __init__(
        self, raw: Mapping[str, Any], *, preset: str, seat: int, policy: str, seed: int, empty_label: str = "pass"
    ) -> None:
        self.preset, self.seat, self.policy, self.seed = preset, seat, policy, seed
        self.columns: list[str] = list(raw["columns"])
        self.docs: dict[str, str] = dict(zip(raw["columns"], raw["docs"], strict=False))
        self._empty = empty_label
        self.candidates: list[str] = [_label(c, empty_label) for c in raw["candidates"]]
        self.requested: int = int(raw["requested"])
        self.completed: int = int(raw["completed"])
        self.interrupted: bool = bool(raw["interrupted"])
        #: Legal moves of the seat in the evaluated position (:func:`evaluate_position` only;
        #: ``None`` for a hand evaluation): more than ``len(candidates)`` when ``limit`` cut them.
        self.legal: int | None = raw.get("legal")
        k = len(self.columns)
        data = list(raw["data"])
        self._data = [
            dict(zip(self.columns, data[c * k : (c + 1) * k], strict=False)) for c in range(len(self.candidates))
        ]
        self._add_seat_return()

    def _add_seat_return(self) -> None:
        """The ``seat_return`` column from the outcome columns, when the engine did not give it."""
        table = _keys.keys_for(self.preset)
        if table is None or SEAT_RETURN in self.columns:
            return
        try:
            derived = [table.seat_return(d, self.seat) for d in self._data]
        except KeyError:
            return  # not this game's columns (the internal toy game of the tests)
        for d, x in zip(self._data, derived):
            d[SEAT_RETURN] = x
        self.columns.append(SEAT_RETURN)
        self.docs[SEAT_RETURN] = f"seat {self.seat}'s return: {table.seat_return_doc}"

    def __len__(self) -> int:
        return self.completed

    def __repr__(self) -> str:
        stop = f" of {self.requested} (interrupted)" if self.interrupted else ""
        return (
            f"<Evaluation {self.preset} seat {self.seat}: {self.completed} samples{stop}, "
            f"candidates={self.candidates}, columns={self.columns}>"
        )

    def _index(self, candidate: int | str) -> int:
        """The index of ``candidate`` (a label, cards in any order and case, or an index; numpy
        ints accepted), else :class:`zhipai.UnknownKeyError` (also a ``KeyError``) naming it."""
        if isinstance(candidate, str):
            label = _label(candidate, self._empty)
            if label not in self.candidates:
                label = _normal_cards(candidate) or label  # "bj 9c" finds "9C BJ"
            if label not in self.candidates:
                raise UnknownKeyError(f"invalid candidate {candidate!r}: no such candidate; candidates: {self.candidates}")
            return self.candidates.index(label)
        if isinstance(candidate, (bool, np.bool_)) or not isinstance(candidate, (int, np.integer)) \
                or not 0 <= candidate < len(self.candidates):
            raise UnknownKeyError(
                f"invalid candidate {_check.shown(candidate)}: expected a label or an index 0 to "
                f"{len(self.candidates) - 1}; candidates: {self.candidates}")
        return int(candidate)

    def outcomes(self, candidate: int | str = 0) -> dict[str, np.ndarray]:
        """``{column: int32 array of shape (samples,)}`` for ``candidate`` (index or label)."""
        return dict(self._data[self._index(candidate)])

    def summary(self, candidate: int | str | None = None, columns: str = "key") -> Any:
        """Per column mean, std, 95% CI, quantiles, min, max, distribution. With no
        ``candidate``: an :class:`EvaluationSummary` of every candidate (``str()`` shows them
        all; ``columns="all"``: every column, else the key columns); ``summary(c)``: the dict
        ``{column: ColumnSummary}`` of candidate ``c`` (index or label)."""
        view = _check_view(columns)
        if candidate is not None:
            data = self._data[self._index(candidate)]
            return {n: ColumnSummary.from_stats(n, self.docs[n], _exact_stats(data[n])) for n in self.columns}
        return EvaluationSummary(self, view)

    def compare(self, column: str, against: int | str = 0) -> list[dict[str, Any]]:
        """Per candidate: ``mean`` and ``ci95`` of ``column``, and ``diff``/``diff_ci95``, the
        paired difference to the candidate ``against`` (index or label, default the first;
        ``"best"`` = the one with the highest mean of ``column``) on the same deals and
        randomness. CIs are normal 95% intervals (mean ± 1.96·s/√n; NaN below 2 samples)."""
        column = _column_name(column, self.columns)
        if isinstance(against, str) and against == "best" and "best" not in self.candidates:
            means = [float(np.mean(d[column])) if len(d[column]) else 0.0 for d in self._data]
            against = int(np.argmax(means))
        base = self._data[self._index(against)][column].astype(np.int64)
        rows = []
        for c, label in enumerate(self.candidates):
            x = self._data[c][column]
            s = ColumnSummary.from_stats(column, "", _exact_stats(x))
            d = ColumnSummary.from_stats(column, "", _exact_stats((x.astype(np.int64) - base).astype(np.int32)))
            rows.append({"candidate": label, "mean": s.mean, "ci95": s.ci95, "diff": d.mean, "diff_ci95": d.ci95,
                         "quantiles": s.quantiles})
        return rows

    def best(self, column: str) -> str:
        """The candidate with the highest mean of ``column``."""
        return max(self.compare(column), key=lambda r: r["mean"])["candidate"]

    def key_columns(self) -> list[_keys.Key]:
        """The key columns of this evaluation: ``seat_return`` first, then the game's (see
        :mod:`zhipai.keys`) that are not one constant value under every candidate."""
        keys = _keys.key_columns(self.preset, self.columns, seat=self.seat)
        varying = [k for i, k in enumerate(keys) if i == 0 or not self._constant(k.column)]
        return varying

    def _constant(self, column: str) -> bool:
        values = [d[column] for d in self._data if len(d[column])]
        return bool(values) and len({int(v.min()) for v in values} | {int(v.max()) for v in values}) == 1

    def events(self, against: int | str = 0) -> list[dict[str, Any]]:
        """The key events from the seat's point of view (:mod:`zhipai.keys`: taking the pig,
        finishing first, the dealer making the bid, …): per event and candidate ``{event, test,
        candidate, count, share, ci95, diff, diff_ci95}`` — the share of samples with its 95%
        Wilson interval, and the paired difference of the share to candidate ``against`` with
        its 95% CI."""
        base_index = self._index(against)
        out = []
        for e in _keys.key_events(self.preset, self.columns, seat=self.seat):
            base = e.mask(self._data[base_index][e.column]).astype(np.int32)
            for c, label in enumerate(self.candidates):
                hit = e.mask(self._data[c][e.column]).astype(np.int32)
                k, n = int(hit.sum()), len(hit)
                d = ColumnSummary.from_stats(e.column, "", _exact_stats(hit - base))
                lo, hi = d.ci95  # a difference of shares lies in [-1, 1]
                out.append({"event": e.label, "test": e.test_text, "candidate": label, "count": k,
                            "share": k / n if n else math.nan, "ci95": _keys.wilson(k, n),
                            "diff": d.mean, "diff_ci95": (max(lo, -1.0), min(hi, 1.0)) if lo == lo else d.ci95})
        return out

    def __str__(self) -> str:
        return self.report()

    def _header(self) -> str:
        stop = f" (interrupted: {self.completed} of {self.requested})" if self.interrupted else ""
        return f"{self.preset}: seat {self.seat}, {self.completed} samples{stop}, policy {self.policy}, seed {self.seed}"

    def played_shares(self) -> dict[str, float] | None:
        """Per candidate, the share of samples in which it was played: candidates evaluated as
        the seat's next decision (move text while another seat is to act) are not legal in
        every sample (column ``candidate_played``); ``None`` when every candidate is played in
        every sample by construction."""
        if "candidate_played" not in self.columns or self.completed == 0:
            return None
        return {c: float(np.mean(self.outcomes(c)["candidate_played"])) for c in self.candidates}

    def headline(self) -> str | None:
        """"best for seat S: CANDIDATE — seat_return MEAN [CI]; +D [CI] over NEXT (paired)",
        the candidate with the highest mean seat return and by how much it leads the next one
        (None with one candidate or no samples). Candidates never played (not legal at the
        seat's turn in any sample, :meth:`played_shares`) are left out."""
        if SEAT_RETURN not in self.columns or len(self.candidates) < 2 or self.completed < 2:
            return None
        rows = self.compare(SEAT_RETURN)
        played = self.played_shares() or {}
        # A candidate never legal at the seat's turn was never played: it is no answer.
        order = sorted((i for i in range(len(rows)) if played.get(self.candidates[i], 1.0) > 0),
                       key=lambda i: -rows[i]["mean"])
        if len(order) < 2:
            return None
        best, nxt = order[0], order[1]
        lead = self.compare(SEAT_RETURN, against=nxt)[best]
        sure = "" if lead["diff_ci95"][0] > 0 else " (not significant: the CI includes 0)"
        return (f"best for seat {self.seat}: {rows[best]['candidate']} — {SEAT_RETURN} "
                f"{_report.num(rows[best]['mean'])} {_report.ci_num(rows[best]['ci95'])}; "
                f"{lead['diff']:+.4f} {_report.ci_num(lead['diff_ci95'])} over {rows[nxt]['candidate']}, "
                f"the next best (paired, 95% CI){sure}")

    def report(self, columns: Sequence[str] | str | None = "key") -> str:
        """The text of ``str(result)``, deciding numbers first: which candidate is best for the
        seat and by how much (:meth:`headline`), then per key column (``seat_return`` first)
        and candidate the mean, its 95% CI, the paired difference to the first candidate and the
        5/25/50/75/95% quantiles, then the key events' shares (95% Wilson interval) and their
        paired differences. ``columns``: ``"key"`` (default), ``"all"`` or ``None`` (every
        column after the key ones), or a list of the columns to show (each must be one of
        ``self.columns``, else ``UnknownKeyError`` naming it; no events then). With 0
        completed samples (interrupted at once): the header and "no completed samples"."""
        wanted: list[str] | None = None
        if columns is None or (isinstance(columns, str) and columns == "all"):
            view = "all"
        elif isinstance(columns, str):
            view = _check_view(columns)
        else:
            view = "list"
            wanted = [_column_name(c, self.columns) for c in _check.items("columns", columns, "a list of column names")]
            if not wanted:
                raise InvalidValueError("invalid columns []: expected at least one column name, or None for all")
        lines = [self._header()]
        if self.completed == 0:
            return "\n".join(lines + ["no completed samples"])
        if view == "list":
            assert wanted is not None
            shown = [c for c in self.columns if c in wanted]
            for col in shown:
                lines += self._column_lines(col, self.docs[col])
            return "\n".join(lines)
        head = self.headline()
        if head:
            lines.append(head)
        played = self.played_shares()
        if played and min(played.values()) < 1:
            shares = ", ".join(f"{c} {100 * v:.1f}%" for c, v in played.items())
            lines.append(f"candidate played at the seat's turn (else not legal there and the policy "
                         f"decided; Baohuang: at its first decision where legal): {shares}")
        keys = self.key_columns()
        key_names = [k.column for k in keys]
        for k in keys:
            lines += self._column_lines(k.column, k.meaning or self.docs[k.column])
        lines += self._event_lines()
        if view == "all":
            for col in self.columns:
                if col not in key_names:
                    lines += self._column_lines(col, self.docs[col])
            legend = _report.legend_lines(_keys.codes_for(self.preset), self.columns)
            if legend:
                lines += [""] + legend
        else:
            others = [c for c in self.columns if c not in key_names]
            if others:
                lines += ["", f"other columns (report('all'), --columns all): {', '.join(others)}"]
        return "\n".join(lines)

    def _column_lines(self, col: str, meaning: str) -> list[str]:
        width = max([len("candidate")] + [len(c) for c in self.candidates])
        qs = "".join(f"{q:>8}" for q in _report.QUANTILE_HEADER)
        lines = ["", f"{col}: {meaning}"]
        several = len(self.candidates) > 1
        vs = f"  {'vs first':>10}  {'95% CI':>22}" if several else ""
        lines.append(f"  {'candidate':<{width}}  {'mean':>10}  {'95% CI':>22}{vs}{qs}")
        for r in self.compare(col):
            ci = f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]" if not math.isnan(r["ci95"][0]) else ""
            diff = ""
            if several and r["candidate"] == self.candidates[0]:
                diff = f"  {'(first)':>10}  {'':>22}"
            elif several:
                dci = f"[{r['diff_ci95'][0]:.3f}, {r['diff_ci95'][1]:.3f}]" if not math.isnan(r["diff_ci95"][0]) else ""
                diff = f"  {r['diff']:>+10.4f}  {dci:>22}"
            q = r["quantiles"] or {}
            cells = "".join(f"{q.get(x, ''):>8}" for x in _keys.QUANTILES)
            lines.append(f"  {r['candidate']:<{width}}  {r['mean']:>10.4f}  {ci:>22}{diff}{cells}")
        return lines

    def _event_lines(self) -> list[str]:
        rows = self.events()
        if not rows:
            return []
        several = len(self.candidates) > 1
        width = max([len("candidate")] + [len(c) for c in self.candidates])
        title = "key events (share of samples, 95% CI" + ("; vs first: paired difference)" if several else ")")
        lines = ["", title]
        for i in range(0, len(rows), len(self.candidates)):
            block = rows[i : i + len(self.candidates)]
            lines.append(f"  {block[0]['event']} ({block[0]['test']})")
            for r in block:
                diff = ""
                if several and r["candidate"] == self.candidates[0]:
                    diff = f"  {'(first)':>12}"
                elif several:
                    dci = "" if math.isnan(r["diff_ci95"][0]) else \
                        f"[{100 * r['diff_ci95'][0]:+.2f}, {100 * r['diff_ci95'][1]:+.2f}]"
                    diff = f"  {100 * r['diff']:>+8.2f} pts  {dci:>18}"
                lines.append(f"    {r['candidate']:<{width}}  {_report.pct(r['share']):>8}  "
                             f"{_report.ci_pct(r['ci95']):>20}{diff}")
        return lines

    def plot(self, path: str | Path | None = None, columns: str = "key") -> Any:
        """The candidates side by side, as a ``matplotlib.figure.Figure``: per key column
        (``seat_return`` first; ``columns="all"``: every non-constant column) the candidates'
        distributions on the value grid with their quantiles, a panel of the mean seat return
        per candidate with its 95% CI and the paired difference to the first candidate, and the
        key events' shares with 95% CIs. Saved to ``path`` when given (checked first, written
        atomically). Needs ``zhipai[plot]``."""
        _optional("matplotlib", "plot", "plot")
        from zhipai import _plots

        view = _check_view(columns)
        target = None if path is None else check_plot_path(path)
        summaries = [self.summary(c) for c in range(len(self.candidates))]
        keys = self.key_columns()
        if view == "all":
            known = {k.column: k for k in keys}
            keys = [known.get(c, _keys.Key(c, "")) for c in self.columns]

        def constant(col: str) -> bool:
            values = [(s[col].min, s[col].max) for s in summaries if s[col].count]
            return bool(values) and all(lo == hi for lo, hi in values) and len(set(values)) == 1

        keys = [k for k in keys if not constant(k.column)] or keys[:1]
        groups = [_plots.Group(label, {n: s[n].histogram for n in self.columns}, {n: s[n].count for n in self.columns},
                               {n: s[n].mean for n in self.columns}) for label, s in zip(self.candidates, summaries)]
        events = _keys.key_events(self.preset, self.columns, seat=self.seat)
        rates = self.events()
        first = keys[0].column
        means = self.compare(first)
        panels = len(keys) + (len(self.candidates) > 1) + bool(events)
        codes = _keys.codes_for(self.preset)
        with _plots.style():
            fig, axes = _plots.figure(panels, self._header())
            for ax, k in zip(axes, keys):
                _plots.histogram_panel(ax, groups, k, codes.get(k.column))
            i = len(keys)
            if len(self.candidates) > 1:
                _plots.means_panel(axes[i], self.candidates, [r["mean"] for r in means], [r["ci95"] for r in means],
                                   [r["diff"] for r in means], [r["diff_ci95"] for r in means], first,
                                   self.candidates[0])
                i += 1
            if events:
                per = [[(r["count"], self.completed) for r in rates if r["candidate"] == c] for c in self.candidates]
                _plots.events_panel(axes[i], self.candidates, per, events)
            if target is not None:
                _plots.save(fig, target, kept="the outcomes are still in this Evaluation; plot() again to retry")
        return fig


class EvaluationSummary(Mapping[str, dict[str, ColumnSummary]]):
    """The statistics of every candidate of an :class:`Evaluation`: ``summary[candidate]`` is
    ``{column: ColumnSummary}`` (a label, as in ``Evaluation.candidates``); with one candidate
    ``summary[column]`` is that candidate's ``ColumnSummary`` too. ``str()`` shows every
    candidate: per key column (``columns="all"``: every column) mean, std, 95% CI, quantiles,
    min and max."""

    def __init__(self, ev: Evaluation, view: str) -> None:
        self._ev, self.view = ev, view
        self._by = {label: ev.summary(i) for i, label in enumerate(ev.candidates)}

    def __getitem__(self, key: str) -> dict[str, ColumnSummary]:
        if isinstance(key, str) and key in self._by:
            return self._by[key]
        if isinstance(key, str) and len(self._by) == 1 and key in self._ev.columns:
            return next(iter(self._by.values()))[key]  # type: ignore[return-value]
        if isinstance(key, str) and key in self._ev.columns:
            raise UnknownKeyError(
                f"invalid key {key!r}: a column, but this evaluation has {len(self._by)} candidates; use "
                f"summary()[candidate][{key!r}] or summary(candidate); candidates: {list(self._by)}")
        try:
            return self._by[self._ev.candidates[self._ev._index(key)]]
        except UnknownKeyError:
            raise UnknownKeyError(f"invalid candidate {key!r}: no such candidate; candidates: {list(self._by)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._by)

    def __len__(self) -> int:
        return len(self._by)

    def __repr__(self) -> str:
        return f"<EvaluationSummary of {len(self)} candidates: {self._ev._header()}>"

    def __str__(self) -> str:
        ev = self._ev
        lines = [ev._header()]
        if ev.completed == 0:
            return "\n".join(lines + ["no completed samples"])
        keys = ev.key_columns()
        names = [k.column for k in keys]
        if self.view == "all":
            names += [c for c in ev.columns if c not in names]
        meaning = {k.column: k.meaning for k in keys}
        width = max([len("candidate")] + [len(c) for c in ev.candidates])
        for col in names:
            lines += ["", f"{col}: {meaning.get(col) or ev.docs[col]}"]
            lines.append(f"  {'candidate':<{width}}  {'mean':>10}  {'std':>10}  {'95% CI':>22}"
                         + "".join(f"{q:>8}" for q in _report.QUANTILE_HEADER) + f"  {'min':>7}  {'max':>7}")
            for label, cols in self._by.items():
                c = cols[col]
                ci = f"[{c.ci95[0]:.3f}, {c.ci95[1]:.3f}]" if not math.isnan(c.ci95[0]) else ""
                cells = "".join(f"{q:>8}" for q in _report.quantile_cells(c.histogram))
                lines.append(f"  {label:<{width}}  {c.mean:>10.4f}  {c.std:>10.4f}  {ci:>22}{cells}  {c.min:>7}  {c.max:>7}")
        if self.view != "all":
            others = [c for c in ev.columns if c not in names]
            if others:
                lines += ["", f"other columns (summary(columns='all')): {', '.join(others)}"]
        return "\n".join(lines)


def _known_parts(
    known: Mapping[str, Any] | None, seat_of: Callable[[Any, str], int]
) -> tuple[list[tuple[int, str]], str, list[tuple[int, str]]]:
    """``known`` → (known hands by seat, known kitty, voids by seat), each checked and named."""
    if known is None:
        known = {}
    if not isinstance(known, Mapping):
        raise InvalidValueError(
            f"invalid known {_check.shown(known)}: expected a dict with keys 'hands', 'kitty', 'voids'")
    unknown_keys = [k for k in known if k not in ("hands", "kitty", "voids")]
    if unknown_keys:
        raise InvalidValueError(f"invalid known key {_check.shown(unknown_keys[0])}: expected hands, kitty or voids")

    def per_seat(key: str) -> dict[Any, Any]:
        value = known.get(key)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise InvalidValueError(
                f"invalid known[{key!r}] {_check.shown(value)}: expected a dict {{seat: cards}}")
        return dict(value)

    hands = [(seat_of(s, "known hand seat"), _cards_text(c, f"known cards of seat {s}"))
             for s, c in per_seat("hands").items()]
    kitty = known.get("kitty")
    kitty = _cards_text("" if kitty is None else kitty, "known kitty")
    voids = [(seat_of(s, "void seat"), _void_text(c, s)) for s, c in per_seat("voids").items()]
    return hands, kitty, voids


def _run(
    engine: Callable[..., dict[str, Any]], progress: ProgressArg, samples: int, desc: str,
    preset: str, seat: int, policy: str, seed: int, empty_label: str = "pass",
) -> Evaluation:
    """Run ``engine(progress=callback)`` with a progress bar and turn its result into an
    :class:`Evaluation`; raises the engine's exception (Ctrl-C as :class:`SimulationInterrupted`
    holding the completed samples)."""
    callback, bar = _progress_callback(progress, samples, desc, "sample")
    try:
        raw = engine(progress=callback)
    finally:
        if bar is not None:
            bar.close()
    result = Evaluation(raw, preset=preset, seat=seat, policy=policy, seed=seed, empty_label=empty_label)
    exc = raw.get("exception")
    if isinstance(exc, KeyboardInterrupt):
        raise SimulationInterrupted(result) from exc  # type: ignore[arg-type]
    failed = progress_error(callback, exc, result, "samples")
    if failed is not None:
        raise failed from exc
    if exc is not None:
        raise exc
    return result


def _check_samples_fit(samples: int, candidates: int, columns: int) -> None:
    """Refuse ``samples`` whose outcomes (``samples × candidates × columns`` int32) cannot be
    held, before anything is allocated."""
    _memory.check_fits(
        "samples", samples, samples * candidates * columns * 4,
        f"keeping {columns} int32 outcome columns for {candidates} candidate(s) per sample",
        "pass fewer samples (or fewer candidates)")


def _candidate_list(candidates: Any) -> list[Any]:
    """``candidates`` as a list: ``None`` → ``[None]`` (the policy decides); a list or tuple
    otherwise (a single string is refused: it would be read letter by letter)."""
    if candidates is None:
        return [None]
    out = _check.items("candidates", candidates, "a list of candidate actions (cards, '' or None)")
    if not out:
        raise InvalidValueError("invalid candidates []: expected at least one candidate, or None")
    return out


def evaluate(
    rules: Rules | str,
    seat: int,
    hand: CardsArg,
    known: Mapping[str, Any] | None = None,
    candidates: Sequence[CardsArg | None] | None = None,
    samples: int = 10_000,
    policy: str = "random",
    seed: int = 0,
    threads: int | None = None,
    progress: ProgressArg = None,
    dealer: int | None = None,
    chunk_size: int | None = None,
    level: str | None = None,
    trump: str | None = None,
) -> Evaluation:
    """Evaluate ``seat``'s ``hand`` by Monte Carlo over the deals consistent with what it knows.

    Example::

        ev = zhipai.evaluate("tractor", seat=0, hand="BJ SJ 5H 5H ...", level="5", trump="H",
                             dealer=0, samples=10_000)
        ev.summary()["attacker_points"].mean

    Args:
        rules: a ``zhipai.Rules`` or a preset name.
        seat: the evaluated seat (0-based, the game's seat order).
        hand: the seat's whole hand, e.g. ``"BJ SJ 2S 2S ..."`` or a list of ``Card``.
        known: what else the seat knows, a dict with optional keys ``"hands"`` (``{seat: cards}``
            known in other hands), ``"kitty"`` (cards known in the kitty) and ``"voids"``
            (``{seat: cards or suit letters}``: the seat holds no card of these kinds, e.g.
            ``{2: "H"}`` when seat 2 showed out of hearts; letters may be run together,
            ``{1: "SHDC"}``). Known cards of ``seat`` itself must be cards of ``hand``.
        candidates: first actions of ``seat`` to compare (cards it plays/buries/declares first;
            ``""`` = pass, ``None`` = let the policy choose). Default: ``[None]``. Shengji family
            (the Rust core's ``play_from_deal`` of the Shengji game): ``""`` =
            pass at the seat's first declaring chance; a declaration shape (identical level
            cards, or identical jokers — never one joker — at most one per deck, shengji.md
            §2.2) while ``trump`` is not given = that declaration, made at the seat's first
            declaring chance at which the bid is legal (passing before; when it never becomes
            legal in a sample the seat passes throughout and the policy plays on); exactly the
            kitty size (8 with 2 decks) for the dealer = its burial (of cards of ``hand`` and of
            ``known["kitty"]``, the kitty it picks up); anything else = the seat's
            first play — for the dealer after the policy's burial chosen from its other cards,
            so with ``trump`` and ``dealer=seat`` known ``"3C"`` is the dealer's first lead.
            A card candidate not legal at that point in a sample (a follow of another suit, a
            burial the rules refuse; in every game) is not played there: the policy decides,
            and the column ``candidate_played`` (0) counts it (:meth:`Evaluation.played_shares`,
            a line in the report) — never an abort.
            Baohuang: see :mod:`zhipai.baohuang` (the scepter holder's accession decision, or
            a play / pass made at the seat's first decision where it is legal).
            Hong Wu and Gongzhu (and the Shengji family with ``trump`` and ``dealer`` given and
            ``seat`` not the dealer) also take **move text** (``"bid 60"``, ``"pass"``, ``"trump
            H"``, ``"expose QS"``, ``"play AC"``, …: a first word of letters): the seat's next
            decision (with one move-text candidate every candidate is read as a move, so a bare card
            is a play: ``"QS"`` beside ``"end exposure"`` is *play* QS, not *expose* QS), evaluated
            by :func:`evaluate_position` on a deal that gives the seat ``hand`` (the other cards
            redrawn in every sample, consistent with ``known``; the auction opener / first leader is
            ``dealer``, default drawn from ``seed``). A candidate not legal at the seat's turn in a
            sample is counted (column ``candidate_played``), not an error; search players
            (``"pimc(...)"``) are taken as ``policy`` on this path.
        samples: sampled deals, an int ≥ 1; the outcomes (``samples × candidates × columns ×
            4`` bytes) must fit in the available memory, else ``InvalidValueError`` up front.
        policy: the rollout player of every seat (the evaluated seat's too, after its
            candidate): a built-in policy (``"random"``, ``"greedy"``, ``"basic"`` the
            first-generation greedy) or a search player (``"pimc"``, ``"pimc(worlds=8,
            rollout=greedy)"``, ``"ismcts(iterations=200)"``: :mod:`zhipai.policy`). A search
            player plays each sample's deal step by step (the core's ``eval::evaluate_player``):
            the same sampled deals, starting states and candidate reading as a built-in policy,
            then every decision by the search, which draws from a generator of its own derived
            from ``seed`` and the sample index (the same for every candidate), so the result
            depends on ``seed`` only, never on ``threads``. Where a candidate implies a move it
            does not give (the Shengji dealer's burial before a forced first lead) that move is
            the search's rollout policy's. A search runs at every decision of every seat: with
            the default ``"pimc"`` a sample costs about 20 ms (Gongzhu) to 0.5 s (Baohuang) on
            one thread (README, "Players by name"), so ask for few samples.
        seed, threads, progress, chunk_size: as in :func:`zhipai.simulate` (``seed=None``
            draws a random seed, recorded in ``Evaluation.seed``; a raising ``progress`` is a
            :class:`zhipai.ProgressError` holding the completed samples).
        dealer: the dealer seat, when known; default: the game decides (Shengji: the
            declarations in hand 1, or a random seat when ``trump`` is given).
        level: the level rank (级牌) of the deal, ``"2"`` … ``"A"``, or ``"NT"`` (the joker-only
            level, only with the option ``after_A=no_trump_level``; column ``level`` = 13)
            (Shengji family; default ``"2"``, hand 1). shengji.md §2.1.
        trump: the trump when the declaration is known, ``"S"``, ``"H"``, ``"D"``, ``"C"`` or
            ``"NT"`` (Shengji family): the deal skips declaring (§2.2) and goes straight to the
            dealer's burial. Default: declared during the deal by the policy.

    Returns:
        :class:`Evaluation`.

    Raises:
        InvalidValueError: bad seat, hand size, sample count, policy (an unknown name, or a search
            parameter out of range such as ``"pimc(worlds=0)"``, naming it) or card list, known
            cards of ``seat`` that are not in ``hand`` (named).
        InvalidCardError: a card that does not parse.
        IllegalPlayError: a candidate the hand does not hold, or the game finds illegal.
        ImpossibleDealError: knowledge that no deal satisfies.
        InvalidOptionError: unknown preset, a game without hand evaluation yet, or ``level`` /
            ``trump`` for a game outside the Shengji family.
        SimulationInterrupted: Ctrl-C (``.result`` holds the completed samples).
    """
    seat = _seat(seat, "seat")
    level = _text_or_none(level, "level")
    trump = _text_or_none(trump, "trump")
    samples = _check_count("samples", samples)
    threads = _check_threads(threads, samples)
    chunk_size = _check_count("chunk_size", chunk_size, allow_none=True)
    seed = _check_seed(seed)
    _check_progress(progress)
    # Baohuang's whole-hand candidates are words of their own ("grab", "ascend 9C"): its path.
    if _move_candidates(candidates) and _resolve_rules(rules).preset != "baohuang":
        if not (_resolve_rules(rules).preset in _MOVE_TEXT_GAMES
                or (trump is not None and dealer is not None and dealer != seat)):
            raise InvalidValueError(
                f"invalid candidates {_check.shown(list(candidates))}: move text is the seat's next decision, "
                "taken in Hong Wu and Gongzhu, and in the Shengji family with trump and dealer given and "
                "seat not the dealer; give cards here")
        return _evaluate_moves(_resolve_rules(rules), seat, hand, known, list(candidates or []), samples,
                               policy, seed, threads, progress, dealer, chunk_size, level, trump)
    from zhipai.policy import player_name

    policy = player_name(_check.text("policy", policy))  # canonical; a bad name or parameter named
    known_hands, known_kitty, known_voids = _known_parts(known, _seat)
    knowledge = {
        "seat": seat,
        "hand": _cards_text(hand, "hand"),
        "hands": known_hands,
        "kitty": known_kitty,
        "voids": known_voids,
        "dealer": None if dealer is None else _seat(dealer, "dealer"),
        "level": level,
        "trump": trump,
        "candidates": _candidate_list(candidates),
    }
    _check_own_known(seat, knowledge["hand"], knowledge["hands"])
    rules = _resolve_rules(rules)
    knowledge["candidates"] = _candidates(knowledge["candidates"], knowledge["hand"], rules)
    try:
        columns = len(_core._columns(rules))
    except ZhipaiError:
        columns = 1  # the engine names the problem
    _check_samples_fit(samples, len(knowledge["candidates"]), columns)
    engine = functools.partial(
        _engine(rules),
        knowledge=knowledge,
        samples=int(samples),
        policy=policy,
        seed=int(seed),
        threads=None if threads is None else int(threads),
        chunk_size=None if chunk_size is None else int(chunk_size),
    )
    # A Baohuang scepter holder's "" is 让位 (the dealer, or the seat itself when it holds a BJ).
    d = knowledge["dealer"]
    holder = d == seat if d is not None else "BJ" in knowledge["hand"].upper().split()
    empty = "abdicate" if rules.preset == "baohuang" and holder else "pass"
    desc = f"{rules.preset} seat {seat}"
    return _run(engine, progress, int(samples), desc, rules.preset, seat, policy, int(seed), empty)


#: Games whose hand evaluation also takes candidates as move text (their hands are dealt at
#: once, so the seat's whole hand is known at its first decision): preset → (pack, kitty size).
#: The Shengji family takes move text too once the declaration is known (``trump`` and
#: ``dealer`` given, the seat not the dealer: every hand is whole at the burial).
_MOVE_TEXT_GAMES = {"hong_wu": ("jokers", 8), "gongzhu": ("no_jokers", 0)}


def _move_candidates(candidates: Any) -> bool:
    """Whether any candidate is move text (``"bid 60"``, ``"pass"``, ``"expose QS"``): its first
    word is a word of letters (3 or more: no card is written so)."""
    if not isinstance(candidates, (list, tuple)):
        return False
    for c in candidates:
        if isinstance(c, str) and c.split():
            word = c.split()[0]
            if word.isalpha() and len(word) >= 3:
                return True
    return False


def _evaluate_moves(
    rules: Rules, seat: int, hand: Any, known: Any, candidates: list[Any], samples: int, policy: str,
    seed: int | None, threads: int | None, progress: ProgressArg, dealer: int | None,
    chunk_size: int | None, level: Any, trump: Any,
) -> Evaluation:
    """:func:`evaluate` with move-text candidates: the seat's next decision in deals that give it
    ``hand`` (the other cards drawn per sample, consistent with ``known``), through
    :func:`evaluate_position` on a deal whose other hands are placeholders (hidden from the seat,
    so every sample redraws them). A candidate not legal at the seat's turn in a sample is
    counted in the column ``candidate_played`` (0), and the policy decides there."""
    from zhipai.game import Game

    game = Game(rules)
    shengji = rules.preset not in _MOVE_TEXT_GAMES
    if not shengji:
        for name, value in (("level", level), ("trump", trump)):
            if value is not None:
                raise InvalidOptionError(f"invalid option {name}={value!r}: {rules.preset} has no {name}")
    players = game.num_players
    seat = int(_core._check_int("seat", seat, 0, players - 1))
    if dealer is not None:
        dealer = int(_core._check_int("dealer", dealer, 0, players - 1))
    cards = [str(c) for c in _core.cards(_cards_text(hand, "hand"))]
    if shengji:  # hand sizes at the burial: the dealer's holds the kitty then
        dealt = game.new_deal(seed=0, dealer=0)
        while dealt.phase == "dealing":
            dealt.apply_builtin("random")
        held = [len(dealt.observation(s)["hand"].split()) for s in range(players)]
        sizes = [held[1]] * players
        jokers, kitty_size = "jokers", sum(held) - players * held[1]
    else:
        sizes = [len(game.new_deal(seed=0).observation(s)["hand"].split()) for s in range(players)]
        jokers, kitty_size = _MOVE_TEXT_GAMES[rules.preset]
    if len(cards) != sizes[seat]:
        raise InvalidValueError(
            f"invalid hand {_check.shown(hand)}: {len(cards)} cards; {rules.preset} deals {sizes[seat]}")
    for c in candidates:
        _check_held(c, cards, seat)
    kinds = 54 if jokers == "jokers" else 52
    decks = (sum(sizes) + kitty_size) // kinds
    rest = Counter(str(c) for c in _core.cards_from_array(np.arange(kinds)) for _ in range(decks))
    rest.subtract(cards)
    if min(rest.values()) < 0:
        raise InvalidValueError(f"invalid hand {_check.shown(hand)}: more copies of a card than {decks} deck(s) hold")
    # Placeholder hands for the others: hidden from the seat, redrawn in every sample.
    others = sorted(rest.elements(), key=lambda c: Card(c).index)
    hands, k = [], 0
    for s in range(players):
        if s == seat:
            hands.append(" ".join(cards))
        else:
            hands.append(" ".join(others[k:k + sizes[s]]))
            k += sizes[s]
    kitty = " ".join(others[k:]) if kitty_size else None
    extra = {"level": level, "trump": trump} if shengji else {}
    state = game.new_deal(seed=0 if seed is None else seed, hands=hands, kitty=kitty, dealer=dealer, **extra)
    return evaluate_position(state, seat, known=known, candidates=candidates, samples=samples, seed=seed,
                             policy=policy, threads=threads, progress=progress, chunk_size=chunk_size)


def _check_held(candidate: Any, hand: list[str], seat: int) -> None:
    """Refuse up front a move-text candidate naming cards the seat does not hold (``"play 3D"``,
    ``"expose JD"``): it could never be played. Text whose words after the first are not all
    cards (``"bid 60"``, ``"trump H"``) is left to the game."""
    if not isinstance(candidate, str) or len(candidate.split()) < 2:
        return
    words = candidate.split()
    try:
        named = [str(c) for c in _core.cards(" ".join(words[1:]))]
    except ZhipaiError:
        return
    want, held = Counter(named), Counter(hand)
    short = sorted(card for card in want if want[card] > held[card])
    if short:
        missing = ", ".join(f"{card} ×{want[card]} (holds {held[card]})" for card in short)
        raise _core.IllegalPlayError(f"illegal candidate {candidate!r}: seat {seat} does not hold {missing}")


#: A game's move words for evaluation candidates: ``(text, hand, rules) -> cards text``.
_CANDIDATE_WORDS: dict[str, Callable[[str, str, Rules], str]] = {"baohuang": baohuang_candidate_cards}


def _candidates(given: Sequence[CardsArg | None], hand: str, rules: Rules) -> list[str | None]:
    """Candidate texts as cards: ``"pass"`` (any case) = ``""``, and the game's own move words
    (Baohuang: :func:`zhipai.baohuang.candidate_cards`). Two candidates that are the same action
    are refused (their results could not be told apart)."""
    words = _CANDIDATE_WORDS.get(rules.preset, lambda text, _hand, _rules: text)
    out: list[str | None] = []
    for c in given:
        text = None if c is None else _cards_text(c, "candidate") if not isinstance(c, str) else c
        if text is not None:
            text = "" if text.strip().lower() == "pass" else _cards_text(words(text, hand, rules), "candidate")
        same = [o for o in out if o is not None and text is not None and _normal_cards(o) == _normal_cards(text)]
        if same or (text is None and None in out):
            raise InvalidValueError(f"invalid candidates: {c!r} is given twice (as {text!r})")
        out.append(text)
    return out


def _text_or_none(value: Any, what: str) -> str | None:
    """``None`` or a string (the engine checks its content and names it when bad)."""
    if value is None or isinstance(value, str):
        return value
    raise InvalidValueError(f"invalid {what} {value!r}: expected a string")


def evaluate_position(
    deal: Any,
    seat: int,
    candidates: Sequence[str | None] | None = None,
    samples: int = 10_000,
    policy: str = "random",
    seed: int | None = 0,
    threads: int | None = None,
    progress: ProgressArg = None,
    limit: int = 64,
    chunk_size: int | None = None,
    known: Mapping[str, Any] | None = None,
) -> Evaluation:
    """Evaluate a deal in progress of any game from ``seat``'s point of view (PIMC).

    What ``seat`` knows is kept (the game's determinisation, ``GameState`` of the core): its own
    hand; every card already played; how many cards each hand still holds; the kitty when
    ``seat`` buried it; cards shown and still held (declarations, failed throws, Gongzhu
    exposures, Baohuang's revealed roles); and the voids shown by play. The other cards are dealt
    uniformly among the deals consistent with that knowledge (exact constrained dealing, no
    rejection). Each candidate is then applied and the deal played to the end with ``policy`` for
    every seat; sample ``s`` uses the same hidden cards and the same randomness for every
    candidate (common random numbers), so ``compare`` differences are paired. Each game's
    ``seat_view`` documents what it does not condition on (e.g. what other players' choices
    reveal).

    Args:
        deal: a :class:`zhipai.GameState` of any game, not over and with no card-by-card move
            half built.
        seat: the evaluating seat.
        candidates: the seat's moves to compare, as move text (``"play 9C 9C"``, ``"bid 60"``,
            ``"expose QS"``, …: ``GameState.legal_moves``); ``None`` entries let the policy
            decide. Default: when ``seat`` is to move, its legal moves in the game's order, at
            most ``limit`` (``Evaluation.legal`` says how many there were); otherwise one
            candidate, ``"policy"`` (the value of the position). Candidates given while another
            seat is to move are ``seat``'s **next decision**: in each sample the policy plays up
            to its turn; a candidate not legal there is not played (the policy decides) and the
            extra int32 column ``candidate_played`` (1/0) records it per sample
            (:meth:`Evaluation.played_shares`, and a line in the report).
        samples: sampled worlds, an int ≥ 1 (checked against the available memory as in
            :func:`evaluate`, counting ``limit`` candidates when ``candidates`` is ``None``).
        policy: the rollout player of every seat: ``"random"``, ``"greedy"``, ``"basic"``,
            ``"pimc(...)"`` or ``"ismcts(...)"``.
        seed, threads, progress, chunk_size: as in :func:`zhipai.simulate`.
        limit: most default candidates (an int ≥ 1; default 64).
        known: extra knowledge, as in :func:`evaluate`: ``{"hands": {seat: cards still held},
            "kitty": cards, "voids": {seat: cards or suit letters}}``. Merged kind by kind with
            the deal's own record; contradictions raise ``ImpossibleDealError``.

    Returns:
        :class:`Evaluation`: ``outcomes(c)[column]`` is an int32 array of shape ``(samples,)``
        per candidate; the columns are those of :func:`zhipai.simulate` for the preset plus
        ``seat_return``: the seat's own return (levels gained by its team in the Shengji
        family, its score in Hong Wu, Gongzhu and Baohuang; negative when it loses).
        ``compare("seat_return", against="best")`` gives per candidate the mean, its 95% CI and
        the paired difference to the best.

    Raises:
        InvalidValueError: a seat out of range, a deal over, a half-built card-by-card move, bad
            samples/policy/threads/limit (named).
        IllegalPlayError: a candidate that is not legal now while ``seat`` is to move (naming
            it and the rule).
        ImpossibleDealError: knowledge no deal satisfies (naming the constraint).
        SimulationInterrupted: Ctrl-C (``.result`` holds the completed samples).
    """
    state = _game_state(deal)
    seat = int(_core._check_int("seat", seat, 0, state.num_players - 1))
    samples = _check_count("samples", samples)
    limit = _check_count("limit", limit)
    threads = _check_threads(threads, samples)
    chunk_size = _check_count("chunk_size", chunk_size, allow_none=True)
    seed = _check_seed(seed)
    _check_progress(progress)
    from zhipai.policy import player_name

    policy = player_name(_check.text("policy", policy))  # canonical; a bad name or parameter named
    cands = None if candidates is None else [
        None if c is None else _check.text("candidate", c) for c in _candidate_list(candidates)]
    extra_hands, extra_kitty, extra_voids = _known_parts(
        known, lambda s, what: int(_core._check_int(what, s, 0, state.num_players - 1)))
    preset = state.rules.preset
    columns = len(_core._columns(state.rules)) + 1  # + seat_return
    _check_samples_fit(samples, limit if cands is None else len(cands), columns)
    engine = functools.partial(
        _core._evaluate_position,
        state,
        seat,
        cands,
        int(limit),
        int(samples),
        policy,
        int(seed),
        threads=None if threads is None else int(threads),
        chunk_size=None if chunk_size is None else int(chunk_size),
        hands=extra_hands,
        kitty=extra_kitty,
        voids=extra_voids,
    )
    return _run(engine, progress, int(samples), f"{preset} seat {seat} position", preset, seat, policy, int(seed))


def _game_state(deal: Any) -> _core.GameState:
    """``deal`` when it is a ``zhipai.GameState``, else ``InvalidValueError`` naming it."""
    if not isinstance(deal, _core.GameState):
        raise InvalidValueError(f"invalid deal {_check.shown(deal)}: expected a zhipai.GameState")
    return deal


def position_view(deal: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` knows in a deal in progress of any game (the knowledge
    :func:`evaluate_position` conditions on): ``holding`` (cards each place still holds: the
    seats, then the undealt stock while a Shengji deal is dealing), ``kitty`` (kitty size),
    ``gone`` (the cards out of play), ``fixed`` (per place, the cards known to be there:
    ``seat``'s whole hand, cards shown and still held), ``known_kitty`` (the kitty when ``seat``
    buried it, else ``""``) and ``voids`` (per place, the card kinds it has shown to hold none
    of). Raises as :func:`evaluate_position`."""
    state = _game_state(deal)
    return dict(_core._position_view(state, int(_core._check_int("seat", seat, 0, state.num_players - 1))))


def _normal_cards(text: str) -> str | None:
    """``text`` as the engine writes a card list (kind order, upper case), or None if it is not
    one."""
    try:
        return " ".join(str(c) for c in sorted(_core.cards(text), key=lambda c: c.index))
    except ZhipaiError:
        return None


def _label(candidate: str | None, empty: str = "pass") -> str:
    """How a candidate first action is shown: ``policy`` (None), ``empty`` (""; ``pass``, or
    ``abdicate`` for a Baohuang scepter holder), else its cards."""
    if candidate is None:
        return "policy"
    return candidate if candidate.strip() else empty
