"""Shengji family (Tractor / 升级 / 八十分, JJ 拖拉机): mechanics and scoring for analysis.

Rules: shared/rules/shengji.md. ``mechanics`` covers order, combinations, throws, following,
trick winners and the kitty multiplier; ``scoring`` covers declaring, level changes and the match.
"""

from zhipai.shengji.mechanics import *  # noqa: F401,F403
from zhipai.shengji.scoring import *  # noqa: F401,F403
