"""Environments for reinforcement learning: :class:`VectorEnv` (stepping in Rust), and adapters
to PettingZoo (:func:`pettingzoo_env`), Gymnasium (:func:`gymnasium_env`) and OpenSpiel
(``zhipai.openspiel.register()``).

``VectorEnv(rules, num_envs, seed, controlled_seats=(0,), opponents="greedy", threads=None,
action_style="actions", reward="return", max_moves=64)`` (``reward="points"`` for per-trick
shaping) steps ``num_envs`` deals of ``rules``
(a ``zhipai.Rules`` or a preset name) together, in Rust, across ``threads`` threads (``None`` or
0 = one per core, 1 = the calling thread; the calling thread is always one of them), with the GIL
released. With more than one thread, the other threads spin for up to 1 ms after each call,
waiting for the next one (a sleeping thread joined a step late on virtual machines); they yield
the core to any other runnable thread meanwhile.

Deals and reproducibility
    Env ``i`` plays deals ``i, i + num_envs, i + 2*num_envs, ...`` of ``seed`` (deal ``k`` is
    ``zhipai.Game(rules).new_deal(seed=seed, index=k)``: the cards and chance events of
    ``zhipai.simulate``). Seats not in ``controlled_seats`` are played in Rust by ``opponents``
    (``"random"``, ``"greedy"``, ``"basic"``, ``"pimc(...)"``, ``"ismcts(...)"``; built-in players
    draw from the deal's own generator, search players from the deal's search generator), so a
    run depends only on ``seed`` and the actions given — never on ``threads`` (except with a
    search opponent given a time budget, ``time_ms=...``: how far it searches then depends on
    the clock). ``seed=None``
    draws a fresh random seed, recorded in ``env.seed``.

Decisions
    After ``reset()`` and every ``step()``, each env waits for a controlled seat to decide;
    ``info["seat"][i]`` says which (the agent acts for whichever controlled seat is to move).
    ``action_style="actions"``: ``actions[i]`` is one of the game's integer actions
    (``GameState.num_distinct_actions``; multi-card moves are built card by card, one step per
    card plus the game's stop action where the size is free), ``mask`` of shape
    ``(num_envs, num_distinct_actions)`` is the exact legal-action mask.
    ``action_style="moves"``: ``actions[i]`` indexes the first ``max_moves`` legal whole moves
    in ``GameState.legal_moves`` order; ``info["move_features"]`` (uint8, shape
    ``(num_envs, max_moves, 54)``) holds their card counts as ``GameState.legal_move_features``
    (moves without cards — a pass, a bid — and the padding have zero rows),
    ``info["num_moves"]`` (int64, ``(num_envs,)``) how many are listed, and ``mask`` (bool,
    ``(num_envs, max_moves)``) is ``index < num_moves``. Where a game has more legal moves than
    ``max_moves`` (the Shengji family's and Hong Wu's leads, follows and burials) only those
    listed can be chosen.

Arrays
    ``reset(seed=None) -> (obs, mask, info)``; ``step(actions) -> (obs, rewards, terminated,
    truncated, mask, info)``. ``obs``: float32 ``(num_envs, L)``, ``L`` =
    ``observation_shape(rules)[0]``, the observation tensor (``GameState.observation_tensor``) of
    ``info["seat"]``; ``rewards``: float32 ``(num_envs, num_players)``, column ``s`` for seat
    ``s`` (0 for uncontrolled seats); ``terminated``, ``truncated``: bool ``(num_envs,)``;
    ``info``: ``seat`` (int64), ``deal`` (uint64, the deal's index), ``reset`` (bool: the env
    started a new deal in this call). The arrays are allocated once, when the env is made: every
    call writes into the same arrays (the Rust core borrows their memory) and returns them, so
    copy what you keep.

Random actions
    ``sample_actions()``: a uniformly random legal action (or move index) per env, drawn in Rust
    (int64 ``(num_envs,)``, the same array every call; 0 where the env's deal just ended) from a
    generator of each deal's own (seeded by ``seed`` and the deal's index, restarted with each
    deal), so random play too is the same for any thread count.

Rewards
    ``reward="return"``: zero on every step but the one that ends a deal, where each controlled
    seat gets its return (``GameState.returns()``: levels gained by the seat's team in the
    Shengji family, the settled score in Hong Wu, Gongzhu and Baohuang) — all controlled seats on
    that same step. ``reward="points"`` (per-trick shaping): every step gives each controlled
    seat the change in the points it has won in play since the env's previous step (the
    opponents' moves in between included) — in the Shengji family and Hong Wu the card points
    (5s, 10s, Ks) of the tricks the seat won, in Gongzhu the raw score of the cards the seat took
    with the exposure so far (the pig, the sheep, hearts, the transformer); over a deal they add
    up to the seat's points at its end, not its return (the kitty and the final scoring are not
    in them). Baohuang has no such points: ``reward="points"`` raises ``InvalidValueError``.

Auto-reset (Gymnasium's next-step mode)
    The step that ends env ``i``'s deal returns that deal's last observation (of the seat that
    acted), an all-false mask, the rewards and ``terminated[i] = True``. The next ``step`` ignores
    ``actions[i]``, starts env ``i``'s next deal and returns its first observation with zero
    rewards, ``terminated[i] = False`` and ``info["reset"][i] = True``. A deal always ends:
    ``truncated`` is always False. ``reset()`` moves every env on to its next deal;
    ``reset(seed=s)`` starts over at deal ``i`` of ``s``.

Errors
    Every ``step`` first checks all actions: an action the mask does not allow (or a move index at
    or past ``num_moves``) raises ``IllegalPlayError`` naming the env, the seat and the action, and
    no env is stepped. A wrong number of actions, non-integer actions, bad settings (``num_envs``
    < 1, a controlled seat out of range or repeated, an unknown opponent or style) raise
    ``InvalidValueError``.

Threads
    One env serves one Python thread at a time: ``reset``, ``step`` or ``sample_actions`` called
    while another thread's call on the same env runs (its GIL released) raises
    ``InvalidValueError`` ("in use"), without waiting and without touching the env; the
    attributes and ``repr`` can be read at any time. Separate envs step concurrently. A call
    returns (or raises ``KeyboardInterrupt`` after Ctrl-C) when every env has stepped: with
    searching ``opponents`` one call can take seconds.
"""

from __future__ import annotations

from typing import Any

from zhipai._core import Rules, VectorEnv
from zhipai._core import observation_layout as _observation_layout

__all__ = ["VectorEnv", "gymnasium_env", "observation_layout", "observation_shape", "pettingzoo_env"]


def observation_layout(rules: Rules | str) -> list[tuple[str, int, int, str]]:
    """The observation tensor's fields of ``rules`` as ``(name, offset, length, meaning)``.

    Raises:
        InvalidValueError: ``rules`` is neither a ``zhipai.Rules`` nor a str.
        InvalidOptionError: an unknown preset name.
    """
    return _observation_layout(rules)


def observation_shape(rules: Rules | str) -> tuple[int]:
    """``(L,)``: the shape of one observation tensor of ``rules`` (float32 entries).

    Raises:
        InvalidValueError: ``rules`` is neither a ``zhipai.Rules`` nor a str.
        InvalidOptionError: an unknown preset name.
    """
    return (sum(length for _name, _offset, length, _meaning in _observation_layout(rules)),)


def pettingzoo_env(preset: str, **options: Any) -> Any:
    """A PettingZoo AEC env of ``preset`` (see :mod:`zhipai.envs.aec`); needs ``zhipai[pettingzoo]``."""
    from zhipai.envs.aec import ZhipaiAECEnv

    return ZhipaiAECEnv(preset, **options)


def gymnasium_env(preset: str, seat: int = 0, opponents: str = "greedy", **options: Any) -> Any:
    """A single-agent Gymnasium env of ``preset`` (see :mod:`zhipai.envs.gym`); needs ``zhipai[gymnasium]``."""
    from zhipai.envs.gym import ZhipaiGymEnv

    return ZhipaiGymEnv(preset, seat=seat, opponents=opponents, **options)
