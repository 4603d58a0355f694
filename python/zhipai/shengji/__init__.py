"""Shengji family (Tractor / 升级 / 八十分, JJ 拖拉机): mechanics and scoring for analysis.

Rules: shared/rules/shengji.md. ``mechanics`` covers order, combinations, throws, following,
trick winners and the kitty multiplier; ``scoring`` covers declaring, level changes and the match.
Whole deals are played with ``zhipai.Game("tractor").new_deal(...)`` (one ``zhipai.GameState`` for
every game).

Integer actions of a Shengji-family ``GameState`` (55): ``0..54`` add one card of that kind
(``suit*13 + rank``, suits S H D C, rank ``2`` = 0; 52 ``SJ``, 53 ``BJ``) to the bid, burial or
play being built; ``54`` ``stop`` ends a bid while dealing or in a 炒底 offer (a ``pass`` when
nothing was added) or a lead. A burial ends by itself at the kitty size and a follow at the lead's
number of cards; the mask holds exactly the actions that can still be completed to a legal move.
"""

from zhipai.shengji.mechanics import *  # noqa: F403
from zhipai.shengji.scoring import *  # noqa: F403
