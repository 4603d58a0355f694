"""Text rendering shared by the summaries, evaluation reports and comparisons: quantile tables,
compact distributions on the value grid, event rates, and the legend of coded columns."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from zhipai import keys as _keys

#: Most rows of a compact text distribution.
MAX_ROWS = 12
#: Width of the longest bar of a text distribution.
BAR = 30


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def ljust(text: str, n: int) -> str:
    return text + " " * max(0, n - width(text))


def rjust(text: str, n: int) -> str:
    return " " * max(0, n - width(text)) + text


def pct(x: float) -> str:
    return "nan" if math.isnan(x) else f"{100 * x:.2f}%"


def ci_pct(ci: tuple[float, float]) -> str:
    return "" if math.isnan(ci[0]) else f"[{100 * ci[0]:.2f}%, {100 * ci[1]:.2f}%]"


def num(x: float, digits: int = 4) -> str:
    """A mean-like number: fixed decimals, thousands separated when large."""
    if math.isnan(x):
        return "nan"
    return f"{x:,.{digits if abs(x) < 1e4 else 1}f}"


def ci_num(ci: tuple[float, float], digits: int = 3) -> str:
    """``[lo, hi]`` with ``digits`` decimals, or two significant digits for bounds below 0.01
    (a CI of ``[-0.000, 0.001]`` says nothing)."""
    if math.isnan(ci[0]):
        return ""
    if 0 < max(abs(ci[0]), abs(ci[1])) < 0.01:
        return f"[{ci[0]:.2g}, {ci[1]:.2g}]"
    return f"[{num(ci[0], digits)}, {num(ci[1], digits)}]"


def nice_width(step: int, slots: int, rows: int) -> int:
    """The smallest of ``step × (1, 2, 4, 5, 10, 20, 25, 50, 100, …)`` that puts ``slots`` grid
    values into at most ``rows`` bins."""
    k = 1
    while True:
        for m in (1, 2, 4, 5):
            width = step * m * k
            if math.ceil(slots / (m * k)) + 1 <= rows:
                return width
        k *= 10


#: The share of deals in each tail row: long-tailed columns (``Key.log``) keep 2.5% per end
#: out of the bins, the others 0.5%.
TAILS = {True: (0.025, 0.975), False: (0.005, 0.995)}


def bins(histogram: Sequence[tuple[int, int]], long_tail: bool | None = False,
         max_rows: int = MAX_ROWS) -> list[tuple[str, int]]:
    """``(label, count)`` rows of a compact distribution on the value grid: one row per value
    when few, else bins of a round multiple of the grid step aligned on multiples of their
    width (labelled ``lo … hi``, values that can occur). The bins span the 0.5%–99.5%
    quantiles (2.5%–97.5% with ``long_tail``; the whole range with ``None``) and the rest is
    counted in a first ``< lo`` and a last ``≥ hi`` row, so a few outliers do not squeeze the
    body into one row."""
    hist = [(int(v), int(c)) for v, c in histogram if c]
    if not hist:
        return []
    step = _keys.value_grid(hist)
    lo, hi = hist[0][0], hist[-1][0]
    if (hi - lo) // step + 1 <= max_rows or len(hist) <= 2 * max_rows:
        return [(f"{v}", c) for v, c in hist]
    head, tail = (lo, hi) if long_tail is None else _keys.quantiles(hist, TAILS[long_tail])
    inner = max_rows - (head > lo) - (tail < hi)
    width = nice_width(step, (tail - head) // step + 1, inner)
    first = head - ((head - lo) % step)  # on the grid
    first = lo + ((head - lo) // width) * width if width % step == 0 else first
    # align the bins on multiples of the width where the grid allows it
    if (first % width) and ((first - first % width) - lo) % step == 0 and first - first % width >= lo:
        first -= first % width
    head = max(first, lo)
    rows: list[tuple[str, int]] = []
    if head > lo:
        rows.append((f"< {head}", sum(c for v, c in hist if v < head)))
    start = head
    while start <= tail:
        end = min(start + width - step, hi)
        count = sum(c for v, c in hist if start <= v <= end)
        rows.append((f"{start}" if end == start else f"{start} … {end}", count))
        start += width
    if start <= hi:
        rows.append((f"≥ {start}", sum(c for v, c in hist if v >= start)))
    return rows


def distribution_lines(histogram: Sequence[tuple[int, int]], total: int, long_tail: bool = False,
                       codes: Mapping[int, str] | None = None, indent: str = "  ") -> list[str]:
    """The compact distribution as text lines: ``label  share  bar``."""
    rows = bins(histogram, long_tail=long_tail)
    if not rows or total == 0:
        return []
    labels = [lab if codes is None or not _is_int(lab) else f"{lab} {codes.get(int(lab.replace(',', '')), '')}".rstrip()
              for lab, _ in rows]
    wide = max(width(lab) for lab in labels)
    top = max(c for _, c in rows) or 1
    out = []
    for lab, (_, c) in zip(labels, rows):
        bar = "█" * round(BAR * c / top) if c else ""
        if c and not bar:
            bar = "▏"
        share = f"{100 * c / total:6.2f}%" if c == 0 or 100 * c / total >= 0.005 else " <0.01%"
        out.append(f"{indent}{(ljust if codes else rjust)(lab, wide)}  {share}  {bar}")
    return out


def _is_int(text: str) -> bool:
    return text.replace(",", "").lstrip("-").isdigit()


def quantile_cells(histogram: Sequence[tuple[int, int]] | None) -> list[str]:
    if not histogram:
        return ["" for _ in _keys.QUANTILES]
    return [f"{q}" for q in _keys.quantiles(histogram)]


QUANTILE_HEADER = [f"{round(100 * q)}%" for q in _keys.QUANTILES]


def legend_lines(codes: Mapping[str, Mapping[int, str]], columns: Sequence[str]) -> list[str]:
    """The codes of the coded columns among ``columns``, columns with the same codes on one
    line: ``trump: 0 S · 1 H · …``, ``dealer, pig_taker: seat numbers``."""
    texts: dict[str, list[str]] = {}
    for c in columns:
        if c not in codes:
            continue
        table = codes[c]
        plain = {k: v for k, v in table.items() if v != f"seat {k}"}
        seats = [k for k in table if k not in plain]
        if not plain:
            text = "seat numbers"
        elif c == "level":
            text = "rank index 0 = 2, 1 = 3, …, 8 = 10, 9 = J, 10 = Q, 11 = K, 12 = A; 13 = NT (the joker-only level)"
        elif c == "dengji_card":
            negative = "; " + ", ".join(f"{k} = {v}" for k, v in plain.items() if k < 0) if min(table) < 0 else ""
            text = f"card kind index 0–53 ({table[0]}…{table[12]}, {table[13]}…, {table[52]}, {table[53]}){negative}"
        else:
            parts = [f"{k} {v}" for k, v in plain.items()]
            if seats:
                parts.append(f"{min(seats)}–{max(seats)} seat")
            text = " · ".join(parts)
        texts.setdefault(text, []).append(c)
    if not texts:
        return []
    return ["codes:"] + [f"  {', '.join(cols)}: {text}" for text, cols in texts.items()]


def event_rows(events: Sequence[tuple[_keys.Event, int, int]]) -> list[str]:
    """``key events`` table lines from ``(event, count, n)``."""
    if not events:
        return []
    labels = [str(e) for e, _, _ in events]
    wide = max(width("key events"), *(width(lab) for lab in labels))
    out = [f"{ljust('key events', wide)}  {'share':>8}  {'95% CI':>20}"]
    for lab, (_e, k, n) in zip(labels, events):
        share = k / n if n else math.nan
        out.append(f"{ljust(lab, wide)}  {pct(share):>8}  {ci_pct(_keys.wilson(k, n)):>20}")
    return out


def column_legend_line(name: str, meaning: str) -> str:
    return f"  {name}: {meaning}"


def shown(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)
