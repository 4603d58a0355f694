"""Argument checks shared by the Python layer: each refuses a bad value with a
``zhipai.InvalidValueError`` naming the argument and the value (never a plain ``TypeError``).

* booleans: a Python ``bool`` or a numpy bool — not ``"no"`` (truthy!), not ``0``/``1``;
* integers: ``zhipai._core._check_int`` (Python and numpy ints; bools and floats refused);
* seeds: ``None`` draws a fresh random seed (``secrets.randbits(64)``) that the caller records in
  its result; where no result can record it, ``seed_or_refuse`` refuses ``None`` instead;
* rules: a ``zhipai.Rules`` or a preset name.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from zhipai import _core
from zhipai._core import InvalidValueError, Rules

SEED_MAX = 2**64 - 1


def shown(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters for messages."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "…"


def invalid(what: str, value: Any, reason: str) -> InvalidValueError:
    return InvalidValueError(f"invalid {what} {shown(value)}: {reason}")


def flag(what: str, value: Any) -> bool:
    """``value`` as a bool: ``True``/``False`` or a numpy bool; anything else is refused (a
    string such as ``"no"`` is truthy, an int is not a bool)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise invalid(what, value, "expected True or False (a bool, not a string or a number)")


def integer(what: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..=hi`` (Python or numpy ints; bools and floats refused)."""
    return int(_core._check_int(what, value, lo, hi))


def action(value: Any) -> int:
    """An integer action index as environments receive it: a Python or numpy int, or a 0-d
    integer array (what a policy network's argmax gives); a float, a bool, ``None`` or text is
    refused (``int(1.7)`` would silently play action 1)."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and np.issubdtype(value.dtype, np.integer):
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise invalid("action", value, "expected an integer action index (an int or a numpy integer)")
    return int(value)


def number(what: str, value: Any) -> float:
    """A finite real number (Python or numpy int or float; bools and text refused)."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if not ok or not np.isfinite(float(value)):
        raise invalid(what, value, "expected a finite number")
    return float(value)


def seed(value: Any) -> int:
    """A seed in ``0..2**64 - 1``; ``None`` draws a fresh random one (record it!)."""
    if value is None:
        return secrets.randbits(64)
    return integer("seed", value, 0, SEED_MAX)


def seed_or_refuse(value: Any, where: str) -> int:
    """A seed in ``0..2**64 - 1`` where the result has no place to record a random one: ``None``
    is refused (it never silently means 0)."""
    if value is None:
        raise InvalidValueError(
            f"invalid seed None: {where} returns no record of its seed, so it cannot draw a random "
            "one; pass an int 0..2**64-1 (zhipai.deal, simulate and evaluate take seed=None and "
            "record the seed they draw)")
    return integer("seed", value, 0, SEED_MAX)


def text(what: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    raise invalid(what, value, "expected a string")


def rules(value: Any) -> Rules:
    """A ``zhipai.Rules``, or a preset name turned into its default rules."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return _core.rules(value, None)
    raise invalid("rules", value, "expected zhipai.rules(preset, ...) or a preset name")


def items(what: str, value: Any, expected: str) -> list[Any]:
    """The items of an iterable that is not a string, bytes or mapping."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise invalid(what, value, f"expected {expected}")
    try:
        return list(value)
    except TypeError:
        raise invalid(what, value, f"expected {expected}") from None


def pair(what: str, value: Any, expected: str) -> tuple[Any, Any]:
    """A 2-item sequence (tuple or list), e.g. ``(seat, cards)``."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (tuple, list)) or len(value) != 2:
        raise invalid(what, value, f"expected {expected}")
    return value[0], value[1]
