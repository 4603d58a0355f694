"""zhipai (纸牌): a simulation engine for Chinese card games.

The Rust core (``zhipai._core``) does the work; this package configures games and analyses results.
Card notation: rank then suit (``10H``, ``AS``, ``JS``), ``T`` for 10, jokers ``SJ``/``BJ``.

Step-by-step play and Python policies: ``zhipai.Game(rules).new_deal(seed, index)`` and
``zhipai.simulate(rules, deals, policy=callable)`` (``zhipai.policy``). Players by name
(``"greedy"``, ``"pimc(worlds=32,rollout=greedy)"``, ``"ismcts(iterations=2000)"``) wherever a
policy goes; duplicate-deal tournaments: ``zhipai.arena(rules, ["random", "greedy"], deals=200)``.
Reinforcement learning: ``zhipai.VectorEnv`` (many deals stepped in Rust), ``zhipai.envs``
(PettingZoo and Gymnasium adapters), ``zhipai.openspiel``.

Game modules: ``zhipai.shengji`` (Tractor / 升级 / 八十分, JJ 拖拉机), ``zhipai.hongwu`` (红五),
``zhipai.gongzhu`` (拱猪), ``zhipai.baohuang`` (青岛保皇) — all imported with the package.

Arguments: counts, indices and seeds are Python ints or numpy integers (``operator.index``);
bools and floats are refused. Flags are ``bool`` or numpy bools (not strings, not ints).
``seed=None`` draws a fresh random seed that the result records (``deal``, ``simulate``,
``evaluate``, ``shengji.Match``); where nothing could record it, ``None`` is refused. Every bad
argument raises a :class:`ZhipaiError` subclass naming the value (``InvalidValueError``,
``InvalidCardError``, ``InvalidOptionError``, ``FileError``, ...); see the README's "Errors".
"""

from __future__ import annotations

from typing import Any

from zhipai import baohuang, game, gongzhu, hongwu, keys, policy, shengji  # game modules (zhipai.shengji, ...)
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
from zhipai._core import presets as _presets
from zhipai._core import rules as _rules
from zhipai._errors import FileError, MissingDependencyError, ProgressError, UnknownKeyError
from zhipai.arena import ArenaResult, arena
from zhipai.compare import Comparison, compare
from zhipai.deal import Deal, deal, deal_batch
from zhipai.envs import VectorEnv, observation_shape
from zhipai.evaluate import Evaluation, EvaluationSummary, evaluate, evaluate_position, position_view
from zhipai.game import Game, GameState
from zhipai.policy import PolicyError
from zhipai.simulate import SimResult, SimulationInterrupted, simulate

__all__ = [
    "ArenaResult",
    "Card",
    "Comparison",
    "Deal",
    "Evaluation",
    "EvaluationSummary",
    "FileError",
    "Game",
    "GameState",
    "IllegalPlayError",
    "ImpossibleDealError",
    "InvalidCardError",
    "InvalidOptionError",
    "InvalidValueError",
    "MissingDependencyError",
    "PolicyError",
    "ProgressError",
    "Rules",
    "SimResult",
    "SimulationInterrupted",
    "UnknownKeyError",
    "VectorEnv",
    "ZhipaiError",
    "__version__",
    "arena",
    "baohuang",
    "cards",
    "cards_from_array",
    "cards_to_array",
    "compare",
    "deal",
    "deal_batch",
    "evaluate",
    "evaluate_position",
    "game",
    "gongzhu",
    "hongwu",
    "keys",
    "observation_shape",
    "policy",
    "position_view",
    "presets",
    "rules",
    "shengji",
    "simulate",
]


def rules(preset: str, **options: Any) -> Rules:
    """The rule set of ``preset`` with ``options`` overriding its values.

    ``preset`` is one of ``tractor``, ``tractor_jj``, ``eighty_points``, ``hong_wu``,
    ``gongzhu``, ``baohuang`` (shared/rules/README.md, "Presets"); option names are those of the
    game's digest, e.g. ``rules("eighty_points", decks=3)``.

    Values have the option's type (``zhipai presets -v`` lists every option with its choices):
    a ``bool`` for a true/false option (not ``"true"``, ``"yes"`` or ``1``); an ``int`` or numpy
    integer for a number, inside the option's range; a ``str`` naming a choice (Baohuang's
    ``bombs``/``tribute_between_deals`` are ``"off"``/``"on"`` and also take a bool); a list of
    ranks for ``mandatory_levels``. Nothing else is converted: a str for a number, a float,
    ``None`` or an integer outside the range is refused. (The command line's ``-o NAME=VALUE``
    passes text, which each option reads by its type; ``Rules.options()`` lists that text.)

    Raises:
        InvalidOptionError: unknown preset (or one that is not a str), unknown option, or a value
            the option does not take; the message names the option, the value and what it takes.
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
