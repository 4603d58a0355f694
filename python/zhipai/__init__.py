"""zhipai (纸牌): a simulation engine for Chinese card games.

The Rust core (``zhipai._core``) does the work; this package configures games and analyses results.
Card notation: rank then suit (``10H``, ``AS``, ``JS``), ``T`` for 10, jokers ``SJ``/``BJ``.
"""

from __future__ import annotations

from typing import Any

from zhipai._core import (
    Card,
    IllegalPlayError,
    ImpossibleDealError,
    InvalidCardError,
    InvalidOptionError,
    InvalidValueError,
    Rules,
    ZhipaiError,
    __version__,
    cards,
    cards_from_array,
    cards_to_array,
)
from zhipai.deal import Deal, deal, deal_batch
from zhipai._core import presets as _presets
from zhipai._core import rules as _rules
from zhipai import gongzhu as gongzhu  # noqa: E402  (game module: zhipai.gongzhu)
from zhipai import baohuang as baohuang  # noqa: E402  (Qingdao Baohuang mechanics and State)
from zhipai.evaluate import Evaluation, evaluate
from zhipai.simulate import SimResult, SimulationInterrupted, simulate

__all__ = [
    "Card",
    "Evaluation",
    "IllegalPlayError",
    "ImpossibleDealError",
    "InvalidCardError",
    "InvalidOptionError",
    "InvalidValueError",
    "Rules",
    "SimResult",
    "SimulationInterrupted",
    "ZhipaiError",
    "__version__",
    "baohuang",
    "cards",
    "cards_from_array",
    "cards_to_array",
    "hongwu",
    "evaluate",
    "presets",
    "rules",
    "simulate",
]
__all__ += ["Deal", "deal", "deal_batch"]


def rules(preset: str, **options: Any) -> Rules:
    """The rule set of ``preset`` with ``options`` overriding its values.

    ``preset`` is one of ``tractor``, ``tractor_jj``, ``eighty_points``, ``hong_wu``,
    ``gongzhu``, ``baohuang`` (shared/rules/README.md, "Presets"); option names are those of the
    game's digest, e.g. ``rules("eighty_points", decks=3)``.

    Raises:
        InvalidOptionError: unknown preset, unknown option, or a value the option does not take.
    """
    return _rules(preset, options)


def presets() -> list[dict[str, Any]]:
    """Every preset: ``{"name", "game", "description", "options": [{"name", "value", "choices", "doc"}]}``."""
    return [
        {
            "name": name,
            "game": game,
            "description": desc,
            "options": [
                {"name": o, "value": v, "choices": list(ch), "doc": doc} for o, v, ch, doc in opts
            ],
        }
        for name, game, desc, opts in _presets()
    ]


from zhipai import hongwu  # noqa: E402  (Hong Wu 红五: auction, settlement, order)
