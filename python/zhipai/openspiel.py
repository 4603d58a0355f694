"""OpenSpiel games for every preset: ``zhipai.openspiel.register()`` (extra ``open_spiel``).

After ``register()``, ``pyspiel.load_game("python_zhipai_<preset>")`` (for ``tractor``,
``tractor_jj``, ``eighty_points``, ``hong_wu``, ``gongzhu``, ``baohuang``) is a sequential,
imperfect-information, general-sum game with terminal rewards, played by
``zhipai.GameState`` underneath:

* **Chance: one outcome per deal.** A 108-card shuffle has far too many outcomes to list, so the
  deal is one chance node at the start whose outcome ``k`` (uniform over ``0..num_deals-1``) is
  deal ``k`` of the game's ``seed``: ``zhipai.Game(preset).new_deal(seed=seed, index=k)``, the
  cards and chance events of ``zhipai.simulate``. Chance events inside a deal (a random dealer,
  a Baohuang redeal) follow from that outcome. Parameters: ``seed`` (default 0) and
  ``num_deals`` (default 1000), e.g. ``python_zhipai_gongzhu(seed=3,num_deals=100)``.
* **Actions:** the game's integer actions (``GameState.num_distinct_actions``; multi-card moves
  built card by card, the legal actions exact).
* **Returns:** ``GameState.returns()`` (levels in the Shengji family, settled score elsewhere).
  ``min_utility`` / ``max_utility`` are loose bounds (±100 levels, ±100000 points), and
  ``max_game_length`` (100000 actions) a loose bound too.
* **Observation tensor:** ``GameState.observation_tensor(player)`` (the game's documented layout;
  with ``IIGObservationType(private_info=ALL_PLAYERS)`` the ``perfect`` tensor with every hand).
  **Information-state tensor:** the same tensor — it holds the cards each seat played, the
  current trick, the cards known in each hand and the voids shown, but not the order of earlier
  tricks, so it is not perfect recall. **Strings:** the observation dict of the seat; the
  information-state string adds the seat's view of the whole history (perfect recall).
  Public-only observers (``private_info=NONE``) are not provided.
* **resample_from_infostate(player, sampler):** a world of the state as ``player`` sees it
  (``GameState.resample``: every card the player cannot see redrawn uniformly among the deals
  consistent with its knowledge), seeded from one draw of ``sampler``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised without the extra
    from zhipai._errors import MissingDependencyError

    raise MissingDependencyError("zhipai.openspiel needs OpenSpiel: pip install 'zhipai[open_spiel]'") from e

import zhipai
from zhipai.envs import observation_shape

__all__ = ["register"]

#: Loose bounds declared to OpenSpiel (module docs).
_LEVELS = 100.0
_POINTS = 100_000.0
_MAX_GAME_LENGTH = 100_000


def _game_class(preset: str) -> tuple[Any, type]:
    """The ``GameType`` and ``pyspiel.Game`` subclass of ``preset``."""
    rules = zhipai.rules(preset)
    deals = zhipai.Game(rules)
    n = deals.num_players
    num_actions = deals.new_deal(seed=0, index=0).num_distinct_actions
    (length,) = observation_shape(rules)
    bound = _LEVELS if deals.name == "shengji" else _POINTS
    game_type = pyspiel.GameType(
        short_name=f"python_zhipai_{preset}",
        long_name=f"zhipai {preset} (Python)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0, "num_deals": 1000},
    )

    class ZhipaiGame(pyspiel.Game):  # type: ignore[misc]
        """``preset`` as an OpenSpiel game (module docs)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            self.seed = int(params.get("seed", 0))
            self.num_deals = int(params.get("num_deals", 1000))
            if self.seed < 0 or self.num_deals < 1:
                raise zhipai.InvalidValueError(
                    f"invalid parameters seed={self.seed}, num_deals={self.num_deals}: expected seed >= 0 and num_deals >= 1"
                )
            info = pyspiel.GameInfo(
                num_distinct_actions=num_actions,
                max_chance_outcomes=self.num_deals,
                num_players=n,
                min_utility=-bound,
                max_utility=bound,
                max_game_length=_MAX_GAME_LENGTH,
            )
            super().__init__(game_type, info, params)
            self.deals = deals

        def new_initial_state(self) -> ZhipaiState:
            return ZhipaiState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ZhipaiObserver:
            if params:
                raise ValueError(f"observation parameters are not supported; passed {params}")
            return ZhipaiObserver(iig_obs_type, length)

    return game_type, ZhipaiGame


class ZhipaiState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: ``None`` before the chance outcome, then a ``zhipai.GameState``."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._deals: zhipai.Game = game.deals
        self._seed: int = game.seed
        self._num_deals: int = game.num_deals
        self.gs: zhipai.GameState | None = None

    def current_player(self) -> int:
        if self.gs is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = self.gs.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        assert self.gs is not None
        return self.gs.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._num_deals
        return [(k, p) for k in range(self._num_deals)]

    def _apply_action(self, action: int) -> None:
        if self.gs is None:
            self.gs = self._deals.new_deal(seed=self._seed, index=int(action))
        else:
            self.gs.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.gs is None:
            return f"deal {action}"
        return self.gs.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.gs is not None and self.gs.is_terminal()

    def returns(self) -> list[float]:
        if self.gs is None:
            return [0.0] * self.num_players()
        return [float(r) for r in self.gs.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ZhipaiState:
        """A world of this state as ``player_id`` sees it (module docs)."""
        world = self.clone()
        if self.gs is not None and not self.gs.is_terminal():
            seed = int(float(probability_sampler()) * 2**53)
            world.gs = self.gs.resample(player_id, seed)
        return world

    def __str__(self) -> str:
        if self.gs is None:
            return "chance: the deal"
        return f"{self.gs!r} moves={len(self.gs.history())}"


class ZhipaiObserver:
    """OpenSpiel's PyObserver over ``GameState.observation_tensor`` (module docs)."""

    def __init__(self, iig_obs_type: Any, length: int) -> None:
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.NONE:
            raise ValueError("zhipai games provide no public-only observation (private_info=NONE)")
        self.perfect = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(length, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ZhipaiState, player: int) -> None:
        if state.gs is None:
            self.tensor.fill(0.0)
        else:
            state.gs.observation_tensor(player, perfect=self.perfect, out=self.tensor)

    def string_from(self, state: ZhipaiState, player: int) -> str:
        if state.gs is None:
            return f"seat {player}: before the deal"
        obs = state.gs.observation(player)
        if not self.recall:
            obs.pop("history", None)
        if self.perfect:
            obs["hands"] = [state.gs.observation(s)["hand"] for s in range(state.gs.num_players)]
        return repr(sorted(obs.items()))


def register(presets: list[str] | str | None = None) -> list[str]:
    """Register ``python_zhipai_<preset>`` with OpenSpiel for each of ``presets`` (a preset
    name, a list of them, default: all); the names registered. Registering again is a no-op.

    Raises:
        InvalidOptionError: an unknown preset.
    """
    if isinstance(presets, str):
        presets = [presets]
    names = []
    known = set(pyspiel.registered_names())
    for preset in presets if presets is not None else [p["name"] for p in zhipai.presets()]:
        game_type, cls = _game_class(preset)
        if game_type.short_name not in known:
            pyspiel.register_game(game_type, cls)
        names.append(game_type.short_name)
    return names
