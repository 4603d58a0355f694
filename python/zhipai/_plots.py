"""Figures of simulations, evaluations and rule-variant comparisons (matplotlib, no pyplot).

Every figure is drawn from exact histograms (``(value, count)`` pairs), so a rows run and an
``aggregate_only`` run of the same deals draw the same figure. One panel per key column
(:mod:`zhipai.keys`), constant columns left out:

* bars on the column's value grid — one bar per value step (5 points where points step by 5,
  1 for counts), merged into round multiples of the step only when there would be more than
  :data:`MAX_BARS` bars; the y axis is the share of deals, so groups of different sizes compare;
* the quantiles 5/25/50/75/95% marked (lines for one group; a box-and-whisker strip above the
  bars per group for several), and the mean;
* long-tailed columns (``Key.log``, e.g. Gongzhu scores): a log share axis, the x axis cut at the
  0.1% / 99.9% quantiles with what lies beyond counted in the panel;
* coded columns (trump, seats, Baohuang mode, places) labelled with their codes;
* key events as horizontal bars with 95% Wilson intervals;
* several groups (candidates of an evaluation, rule variants of a comparison) side by side,
  plus their means with 95% CIs and paired differences.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from zhipai import _report
from zhipai import keys as _keys

#: Most bars per group in a histogram panel.
MAX_BARS = 120
#: Colours of the groups (matplotlib's tab10).
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


@dataclass
class Group:
    """One distribution to draw: a label, and per column its exact histogram and count."""

    label: str
    histograms: Mapping[str, Sequence[tuple[int, int]] | None]
    counts: Mapping[str, int]
    means: Mapping[str, float]


#: Fonts with Chinese glyphs, tried in order; without one, Chinese words are left out of the
#: figures (every label also says it in English).
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
             "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "Arial Unicode MS")
_cjk_font: list[str | None] = []


def _cjk() -> str | None:
    """A font with Chinese glyphs matplotlib knows, or None."""
    if not _cjk_font:
        from matplotlib import font_manager

        names = {f.name for f in font_manager.fontManager.ttflist}
        _cjk_font.append(next((f for f in CJK_FONTS if f in names), None))
    return _cjk_font[0]


def label(text: str) -> str:
    """``text`` for a figure: as is with a Chinese font, else without its Chinese words."""
    if _cjk() is not None or not any(_is_cjk(ch) for ch in text):
        return text
    out = "".join(ch for ch in text if not _is_cjk(ch))
    out = re.sub(r"\(\s*\)", "", out)
    out = re.sub(r"\s+([,;)])", r"\1", out)
    return re.sub(r"\s{2,}", " ", out).strip()


def _is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


@contextlib.contextmanager
def style() -> Iterator[None]:
    """Draw (and save) a figure inside this: a Chinese font first when one is installed,
    without changing the caller's matplotlib settings."""
    from matplotlib import rc_context, rcParams

    font = _cjk()
    extra = {} if font is None else {"font.sans-serif": [font, *rcParams["font.sans-serif"]]}
    with rc_context(extra):
        yield


def figure(panels: int, title: str) -> Any:
    from matplotlib.figure import Figure

    cols = 1 if panels == 1 else 2
    rows = math.ceil(panels / cols)
    fig = Figure(figsize=(6.2 * cols, 3.5 * rows), layout="constrained", dpi=90)
    fig.suptitle(label(title), fontsize=11)
    axes = [fig.add_subplot(rows, cols, i + 1) for i in range(panels)]
    return fig, axes


def _pooled(groups: Sequence[Group], column: str) -> list[tuple[int, int]]:
    pooled: dict[int, int] = {}
    for g in groups:
        for v, c in g.histograms.get(column) or []:
            pooled[int(v)] = pooled.get(int(v), 0) + int(c)
    return sorted(pooled.items())


def histogram_panel(ax: Any, groups: Sequence[Group], key: _keys.Key, codes: Mapping[int, str] | None = None) -> None:
    """Bars of ``key.column`` on its value grid for each group, quantiles marked."""
    column = key.column
    pooled = _pooled(groups, column)
    if not pooled:
        ax.text(0.5, 0.5, f"{column}: no histogram kept", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    step = _keys.value_grid(pooled)
    lo, hi = pooled[0][0], pooled[-1][0]
    cut_lo, cut_hi = lo, hi
    if key.log:
        cut_lo, cut_hi = _keys.quantiles(pooled, (0.001, 0.999))
    elif not codes:
        # A thin tail (a few deals far out) would squeeze the body: cut the axis at the
        # 0.05% / 99.95% quantiles when they span less than 60% of the range, and say so.
        q_lo, q_hi = _keys.quantiles(pooled, (0.0005, 0.9995))
        if (q_hi - q_lo) < 0.6 * (hi - lo):
            cut_lo, cut_hi = q_lo, q_hi
    slots = (cut_hi - cut_lo) // step + 1
    width = step if slots <= MAX_BARS else _report.nice_width(step, slots, MAX_BARS)
    start = cut_lo - ((cut_lo - lo) % step)
    if width > step:
        start = cut_lo - (cut_lo % width) if (cut_lo - cut_lo % width - lo) % step == 0 else cut_lo
    edges = np.arange(start, cut_hi + width, width, dtype=np.int64)
    n = len(groups)
    bar = width * (0.85 if n == 1 else 0.85 / n)
    outside_notes = []
    tops = []
    for i, g in enumerate(groups):
        hist = g.histograms.get(column) or []
        total = g.counts.get(column, 0) or 1
        values = np.array([v for v, _ in hist], dtype=np.int64)
        counts = np.array([c for _, c in hist], dtype=np.float64)
        inside = (values >= edges[0]) & (values <= cut_hi)
        idx = (values[inside] - edges[0]) // width
        shares = np.bincount(idx, weights=counts[inside], minlength=len(edges)) / total * 100
        centre = edges + (width - step) / 2
        offset = 0 if n == 1 else (i - (n - 1) / 2) * bar
        colour = COLOURS[i % len(COLOURS)]
        ax.bar(centre + offset, shares, width=bar, color=colour, alpha=0.85 if n == 1 else 0.8,
               label=g.label if n > 1 else None, linewidth=0)
        tops.append(shares.max() if len(shares) else 0)
        below, above = counts[values < edges[0]].sum(), counts[values > cut_hi].sum()
        parts = ([f"{100 * below / total:.2g}% < {edges[0]}"] if below else []) + \
            ([f"{100 * above / total:.2g}% > {cut_hi}"] if above else [])
        if parts:
            outside_notes.append(f"{label(g.label) + ': ' if n > 1 else ''}{', '.join(parts)}")
    if key.log:
        ax.set_yscale("log")
    # Coded columns (seats, modes, places) are categories: no quantile lines.
    marks = "" if codes else _mark_quantiles(ax, groups, column, max(tops) if tops else 1, log=key.log)
    if codes and len(pooled) <= 12 and width == step:
        ticks = [v for v, _ in pooled]
        names = [label(codes.get(v, str(v))) for v in ticks]
        ax.set_xticks(ticks, names, fontsize=8, rotation=30 if max(len(n) for n in names) > 4 else 0)
    elif width == step and len(edges) <= 16:
        ax.set_xticks([int(e) for e in edges])  # few values: a tick on each, no half values
    grid = f"one bar per {width}" + (f" (values step by {step})" if width != step else "")
    ax.set_title(column, fontsize=10, loc="left")
    if marks:
        ax.set_title(marks, fontsize=7, loc="right", color="#333333")
    note = f"\nbeyond the axis: {'; '.join(outside_notes)}" if outside_notes else ""
    ax.set_xlabel(f"{grid}{', log scale' if key.log else ''}{note}", fontsize=8)
    ax.set_ylabel("share of deals (%)", fontsize=8)
    ax.tick_params(labelsize=8)
    if n > 1:
        ax.legend(fontsize=7, loc="upper right", frameon=False)


def _mark_quantiles(ax: Any, groups: Sequence[Group], column: str, top: float, log: bool) -> str:
    """One group: lines at the 5/25/50/75/95% quantiles (dotted 5/95%, dashed 25/75%, solid
    median) and the mean (red dash-dot); returns their values as text. Several groups: per
    group a strip above the bars — line 5–95%, box 25–75%, tick at the median, dot at the mean."""
    n = len(groups)
    if n == 1:
        g = groups[0]
        hist = g.histograms.get(column) or []
        if not hist:
            return ""
        q5, q25, q50, q75, q95 = _keys.quantiles(hist)
        ax.axvline(q50, color="black", lw=1.2)
        for v in (q25, q75):
            ax.axvline(v, color="black", lw=0.8, ls="--")
        for v in (q5, q95):
            ax.axvline(v, color="grey", lw=0.8, ls=":")
        mean = g.means.get(column, math.nan)
        text = f"5 · 25 · 50 · 75 · 95%: {q5} · {q25} · {q50} · {q75} · {q95}"
        if not math.isnan(mean):
            ax.axvline(mean, color="#d62728", lw=1.0, ls="-.")
            text += f"\nmean {mean:.4g} (red)"
        return text
    base = top * (1.15 if not log else 1.6)
    for i, g in enumerate(groups):
        hist = g.histograms.get(column) or []
        if not hist:
            continue
        q5, q25, q50, q75, q95 = _keys.quantiles(hist)
        y = base * (1 + 0.1 * i) if not log else base * (1.4 ** i)
        colour = COLOURS[i % len(COLOURS)]
        ax.plot([q5, q95], [y, y], color=colour, lw=1)
        ax.plot([q25, q75], [y, y], color=colour, lw=5, solid_capstyle="butt", alpha=0.7)
        ax.plot([q50], [y], marker="|", color="black", ms=9)
        mean = g.means.get(column, math.nan)
        if not math.isnan(mean):
            ax.plot([mean], [y], marker="o", color=colour, ms=4, mec="black", mew=0.5)
    return "strips: 5–95% line, 25–75% box,\n| median, ● mean"


def events_panel(ax: Any, labels: Sequence[str], rows: Sequence[Sequence[tuple[int, int]]],
                 events: Sequence[_keys.Event], title: str = "key events") -> None:
    """Horizontal bars: per event, the share of deals of each group with its 95% Wilson
    interval. ``rows[g][e] = (count, n)``."""
    ne, ng = len(events), len(labels)
    height = 0.8 / ng
    for g in range(ng):
        shares, lo, hi = [], [], []
        for k, n in rows[g]:
            p = 100 * k / n if n else math.nan
            a, b = _keys.wilson(k, n)
            shares.append(p)
            lo.append(max(0.0, p - 100 * a))
            hi.append(max(0.0, 100 * b - p))
        y = np.arange(ne) + (g - (ng - 1) / 2) * height
        ax.barh(y, shares, height=height * 0.9, color=COLOURS[g % len(COLOURS)], alpha=0.85,
                xerr=[lo, hi], error_kw={"lw": 0.8, "capsize": 2}, label=labels[g] if ng > 1 else None)
        if ng <= 3:
            for yy, p, h in zip(y, shares, hi):
                if not math.isnan(p):
                    ax.text(p + h + 0.5, yy, f"{p:.1f}%", va="center", fontsize=7)
    ax.set_yticks(np.arange(ne), [_wrap(label(e.label), 34) for e in events], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 112)
    ax.set_xlabel("share of deals (%), 95% CI", fontsize=8)
    ax.set_title(title, fontsize=10, loc="left")
    ax.tick_params(labelsize=8)
    if ng > 1:
        ax.legend(fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=min(ng, 4), frameon=False)


def means_panel(ax: Any, labels: Sequence[str], means: Sequence[float], cis: Sequence[tuple[float, float]],
                diffs: Sequence[float], diff_cis: Sequence[tuple[float, float]], column: str, reference: str) -> None:
    """Two strips in the panel: per group the mean of ``column`` with its 95% CI (left), and
    the paired difference to ``reference`` with its 95% CI (right; a dotted line at 0)."""
    from matplotlib.ticker import MaxNLocator

    ax.set_axis_off()
    ax.set_title(f"{column}: means and paired differences (95% CI)", fontsize=10, loc="left")
    left = ax.inset_axes((0.0, 0.0, 0.47, 0.92))
    right = ax.inset_axes((0.53, 0.0, 0.47, 0.92))
    y = np.arange(len(labels))
    for axis, values, bounds, colour, marker, xlabel in (
        (left, means, cis, "#1f77b4", "o", f"mean {column}"),
        (right, diffs, diff_cis, "#d62728", "s", f"paired difference to {label(reference)}"),
    ):
        v = np.array(values, dtype=float)
        lo = np.array([b[0] for b in bounds], dtype=float)
        hi = np.array([b[1] for b in bounds], dtype=float)
        ok = ~np.isnan(lo)
        err = [np.clip(v[ok] - lo[ok], 0, None), np.clip(hi[ok] - v[ok], 0, None)]
        axis.errorbar(v[ok], y[ok], xerr=err, fmt=marker, color=colour, ms=5,
                      capsize=3, lw=1)
        axis.plot(v[~ok], y[~ok], marker, color=colour, ms=5)
        axis.set_yticks(y, [_wrap(label(lab), 18) for lab in labels], fontsize=8)
        axis.set_ylim(len(labels) - 0.5, -0.5)
        axis.set_xlabel(xlabel, fontsize=8)
        axis.xaxis.set_major_locator(MaxNLocator(4))
        axis.tick_params(labelsize=7)
        axis.grid(axis="x", lw=0.3, alpha=0.6)
    right.axvline(0, color="#d62728", lw=0.8, ls=":")
    right.set_yticklabels([])


def shares_panel(ax: Any, labels: Sequence[str], counts: Sequence[tuple[int, int]], title: str, xlabel: str) -> None:
    """One bar per label: a share with its 95% Wilson interval."""
    y = np.arange(len(labels))
    p = np.array([100 * k / n if n else math.nan for k, n in counts])
    ci = [_keys.wilson(k, n) for k, n in counts]
    lo = np.clip(p - np.array([100 * a for a, _ in ci]), 0, None)
    hi = np.clip(np.array([100 * b for _, b in ci]) - p, 0, None)
    ax.barh(y, p, height=0.5, color=[COLOURS[(i + 1) % len(COLOURS)] for i in range(len(labels))], alpha=0.85,
            xerr=[lo, hi], error_kw={"lw": 0.8, "capsize": 3})
    for yy, v, h in zip(y, p, hi):
        ax.text(v + h + 0.5, yy, f"{v:.2f}%", va="center", fontsize=8)
    ax.set_yticks(y, [_wrap(label(lab), 28) for lab in labels], fontsize=8)
    ax.set_xlim(0, max(10.0, float(np.nanmax(p + hi)) * 1.25 if len(p) else 10.0))
    ax.set_ylim(len(labels) - 0.4, -0.6)
    ax.set_xlabel(_wrap(label(xlabel), 70), fontsize=8)
    ax.set_title(title, fontsize=10, loc="left")
    ax.tick_params(labelsize=8)


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


def save(fig: Any, target: Any, kept: str) -> None:
    from zhipai import _files

    fmt = target.suffix[1:].lower()
    _files.atomic_write([(target, lambda f: fig.savefig(f, format=fmt))], kept=kept)
