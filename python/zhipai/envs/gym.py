"""Gymnasium adapter: ``zhipai.envs.gymnasium_env(preset, seat=0, opponents="greedy", **options)``
(extra ``gymnasium``).

A single agent plays ``seat``; the other seats are played in Rust by ``opponents`` (a player
name, as for :class:`zhipai.envs.VectorEnv`, on which this env runs with one env and one
thread). Observation: ``{"observation": float32 (L,), "action_mask": int8 (A,)}`` (the seat's
observation tensor and the exact mask of the game's integer actions; all zeros at the end).
Action: ``Discrete(A)``, one of the game's integer actions (multi-card moves are built card by
card). Reward: 0 until the deal ends, then the seat's return (``GameState.returns()``). An
episode is one deal: ``reset(seed=s)`` deals deal 0 of seed ``s``, a later ``reset()`` the next
deal of the same seed.

An action outside the mask (``illegal_action``): ``"end"`` (the default, PettingZoo's convention
for classic games) ends the episode with reward ``illegal_reward`` (default -1.0) and
``info["illegal_action"] = True``, leaving the deal unfinished; ``"raise"`` raises
``IllegalPlayError`` and changes nothing.

Other options: ``seed`` (int, default 0: the seed of the deals before any ``reset(seed=...)``),
``render_mode`` (``None`` or ``"ansi"``) and any rule option of the preset.

Bad arguments raise ``InvalidValueError`` naming the value: a seed outside ``0..2**64-1`` or not
an int (also in ``reset``), an ``illegal_reward`` that is not a finite number, an action that is
not an integer (a float, ``None``, text; a 0-d integer array is taken).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - exercised without the extra
    from zhipai._errors import MissingDependencyError

    raise MissingDependencyError("zhipai.envs.gymnasium_env needs Gymnasium: pip install 'zhipai[gymnasium]'") from e

import zhipai
from zhipai import _check
from zhipai.envs import VectorEnv

__all__ = ["ZhipaiGymEnv"]


class ZhipaiGymEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of ``preset`` against ``opponents`` (module docs)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        preset: str,
        seat: int = 0,
        opponents: str = "greedy",
        seed: int = 0,
        illegal_action: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal_action not in ("end", "raise"):
            raise zhipai.InvalidValueError(f"invalid illegal_action {illegal_action!r}: expected 'end' or 'raise'")
        if render_mode not in (None, "ansi"):
            raise zhipai.InvalidValueError(f"invalid render_mode {render_mode!r}: expected None or 'ansi'")
        self.render_mode = render_mode
        self._illegal_reward = _check.number("illegal_reward", illegal_reward)
        self.rules = zhipai.rules(preset, **options)
        seed = _check.integer("seed", seed, 0, _check.SEED_MAX)
        self._env = VectorEnv(self.rules, 1, seed, controlled_seats=[seat], opponents=opponents, threads=1)
        self.seat = seat
        self._illegal_action = illegal_action
        (length,) = self._env.observation_shape
        n = self._env.num_distinct_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(length,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self._mask = np.zeros(n, dtype=bool)
        self._over = True

    def _obs(self, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        self._mask = mask[0].copy()
        return {"observation": obs[0].copy(), "action_mask": self._mask.astype(np.int8)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is not None:  # before Gymnasium's own check, which raises its own error type
            seed = _check.integer("seed", seed, 0, _check.SEED_MAX)
        super().reset(seed=seed)
        obs, mask, info = self._env.reset(seed=seed)
        self._over = False
        return self._obs(obs, mask), {"deal": int(info["deal"][0])}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise zhipai.InvalidValueError("invalid call step() after the end of an episode: call reset() first")
        a = _check.action(action)
        if not (0 <= a < self._mask.size and self._mask[a]) and self._illegal_action == "end":
            self._over = True
            mask = np.zeros_like(self._mask)
            last = {"observation": np.zeros(self.observation_space["observation"].shape, np.float32), "action_mask": mask.astype(np.int8)}
            return last, self._illegal_reward, True, False, {"illegal_action": True}
        obs, rewards, terminated, truncated, mask, info = self._env.step(np.array([a], dtype=np.int64))
        self._over = bool(terminated[0])
        out = self._obs(obs, mask)
        if self.render_mode == "ansi":
            print(self.render())
        return out, float(rewards[0, self.seat]), self._over, bool(truncated[0]), {"deal": int(info["deal"][0])}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return f"zhipai {self.rules.preset} seat {self.seat}: {int(self._mask.sum())} legal actions"
