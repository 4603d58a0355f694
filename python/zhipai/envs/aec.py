"""PettingZoo AEC adapter: ``zhipai.envs.pettingzoo_env(preset, **options)`` (extra ``pettingzoo``).

Agents ``"seat_0"`` … ``"seat_{n-1}"`` (``n`` = 4, 5 in Baohuang); the agent to act is the seat
to move (not round-robin: a trick's winner leads, Baohuang seats pass). Observation of an agent:
``{"observation": float32 (L,), "action_mask": int8 (A,)}`` — its observation tensor
(``GameState.observation_tensor``) and, for the agent to act, the game's exact legal-action mask
(all zeros for the others and at the end). Actions: the game's integer actions ``0..A-1``
(``A`` = ``GameState.num_distinct_actions``; multi-card moves are built card by card). Rewards:
0 until the deal ends, then every agent's return (``GameState.returns()``), and every agent is
terminated (never truncated: a deal always ends). ``reset(seed=s)`` deals deal 0 of seed ``s``;
a later ``reset()`` the next deal of the same seed. An illegal action raises
``IllegalPlayError`` (the state unchanged).

Options: ``seed`` (int, default 0; the seed of the deals before any ``reset(seed=...)``),
``render_mode`` (``None`` or ``"ansi"``), and any rule option of the preset
(``zhipai.rules(preset, **options)``).

Bad arguments raise ``InvalidValueError`` naming the value: a seed outside ``0..2**64-1`` or not
an int, an unknown agent in ``observe``, an action that is not an integer (``None`` is taken
only for an agent already terminated, PettingZoo's dead step).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - exercised without the extra
    from zhipai._errors import MissingDependencyError

    raise MissingDependencyError("zhipai.envs.pettingzoo_env needs PettingZoo: pip install 'zhipai[pettingzoo]'") from e

import zhipai
from zhipai import _check
from zhipai.envs import observation_shape

__all__ = ["ZhipaiAECEnv"]


class ZhipaiAECEnv(AECEnv):  # type: ignore[misc]
    """One deal at a time of ``preset`` as a PettingZoo AEC env (module docs)."""

    metadata = {"render_modes": ["ansi"], "name": "zhipai", "is_parallelizable": False}

    def __init__(self, preset: str, seed: int = 0, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise zhipai.InvalidValueError(f"invalid render_mode {render_mode!r}: expected None or 'ansi'")
        self.render_mode = render_mode
        self.rules = zhipai.rules(preset, **options)
        self.game = zhipai.Game(self.rules)
        self.metadata = {**self.metadata, "name": f"zhipai_{preset}"}
        n = self.game.num_players
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        (length,) = observation_shape(self.rules)
        first = self.game.new_deal(seed=0, index=0)
        self._num_actions = first.num_distinct_actions
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(length,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(self._num_actions)
        self._seed = _check.integer("seed", seed, 0, _check.SEED_MAX)
        self._next_deal = 0
        self.state: zhipai.GameState = first

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[override]
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[override]
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = _check.integer("seed", seed, 0, _check.SEED_MAX)
            self._next_deal = 0
        self.state = self.game.new_deal(seed=self._seed, index=self._next_deal)
        self._next_deal += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _agent_seat(self, agent: Any) -> int:
        try:
            return self._seat[agent]
        except (KeyError, TypeError):
            raise _check.invalid("agent", agent, f"expected one of {', '.join(self.possible_agents)}") from None

    def _select(self) -> None:
        p = self.state.current_player()
        if p is not None:
            self.agent_selection = self.possible_agents[p]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._agent_seat(agent)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if self.state.current_player() == seat:
            mask[self.state.legal_action_mask()] = 1
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply_action(_check.action(action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return f"{self.state!r} history={self.state.history()[-1:]}"

    def close(self) -> None:
        pass
