"""The PettingZoo and Gymnasium adapters (python/zhipai/envs/aec.py, gym.py), checked by the
libraries' own test suites (``pettingzoo.test.api_test``, ``gymnasium.utils.env_checker.check_env``)
on every preset, and their rewards against a ``zhipai.GameState`` of the same deal."""

from __future__ import annotations

import re

import numpy as np
import pytest
import zhipai
from zhipai.envs import gymnasium_env, pettingzoo_env

PRESETS = [p["name"] for p in zhipai.presets()]


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_test(preset: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    env = zhipai.envs.pettingzoo_env(preset, seed=3)
    api_test(env, num_cycles=400)


def test_pettingzoo_plays_a_whole_deal_with_the_returns() -> None:
    pytest.importorskip("pettingzoo")
    env = zhipai.envs.pettingzoo_env("gongzhu")
    env.reset(seed=5)
    mirror = zhipai.Game("gongzhu").new_deal(seed=5, index=0)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert agent == f"seat_{mirror.current_player()}"
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), mirror.legal_action_mask())
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        mirror.apply_action(action)
        env.step(action)
    assert mirror.is_terminal()
    assert [totals[a] for a in env.possible_agents] == list(mirror.returns())
    # A later reset deals the seed's next deal.
    env.reset()
    second = zhipai.Game("gongzhu").new_deal(seed=5, index=1)
    np.testing.assert_array_equal(env.observe(f"seat_{second.current_player()}")["observation"],
                                  second.observation_tensor(second.current_player()))


@pytest.mark.parametrize("preset", PRESETS)
def test_gymnasium_check_env(preset: str) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    env = zhipai.envs.gymnasium_env(preset, seat=1, opponents="random")
    check_env(env, skip_render_check=True)


def test_gymnasium_episode_is_one_deal_against_the_opponents() -> None:
    pytest.importorskip("gymnasium")
    env = zhipai.envs.gymnasium_env("hong_wu", seat=2, opponents="greedy", illegal_action="raise")
    obs, info = env.reset(seed=8)
    assert info["deal"] == 0
    total, steps, terminated = 0.0, 0, False
    rng = np.random.default_rng(1)
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        total += reward
        steps += 1
    assert steps > 10 and not obs["action_mask"].any()
    # The same deal through VectorEnv gives the same reward for seat 2.
    v = zhipai.VectorEnv("hong_wu", 1, 8, controlled_seats=[2], opponents="greedy", threads=1)
    _, mask, _ = v.reset()
    rng = np.random.default_rng(1)
    while True:
        _, rew, term, _, mask, _ = v.step(np.array([rng.choice(np.flatnonzero(mask[0]))]))
        if term[0]:
            break
    assert rew[0, 2] == total
    with pytest.raises(zhipai.InvalidValueError, match="reset"):
        env.step(0)
    env.reset()
    bad = int(np.flatnonzero(~env._mask)[0])
    with pytest.raises(zhipai.IllegalPlayError, match=f"action {bad}"):
        env.step(bad)


def test_gymnasium_illegal_action_ends_the_episode_by_default() -> None:
    pytest.importorskip("gymnasium")
    env = zhipai.envs.gymnasium_env("gongzhu")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and reward == -1.0 and info == {"illegal_action": True}
    with pytest.raises(zhipai.InvalidValueError, match="illegal_action 'ignore'"):
        zhipai.envs.gymnasium_env("gongzhu", illegal_action="ignore")


def test_adapters_refuse_bad_arguments_with_a_named_zhipai_error() -> None:
    # Before: TypeError / KeyError / Gymnasium's own error, or a float action silently truncated.
    bad_calls = [
        (lambda: gymnasium_env("gongzhu", illegal_reward="a"), "illegal_reward 'a'"),
        (lambda: gymnasium_env("gongzhu", illegal_reward=float("nan")), "illegal_reward nan"),
        (lambda: gymnasium_env("gongzhu", seed=-1), "seed -1"),
        (lambda: gymnasium_env("gongzhu").reset(seed=-1), "seed -1"),
        (lambda: gymnasium_env("gongzhu").reset(seed=1.5), "seed 1.5"),
        (lambda: pettingzoo_env("gongzhu", seed="abc"), "seed 'abc'"),
        (lambda: pettingzoo_env("gongzhu").reset(seed=-5), "seed -5"),
    ]
    for call, named in bad_calls:
        with pytest.raises(zhipai.InvalidValueError, match=re.escape(named)):
            call()
    env = gymnasium_env("gongzhu")
    obs, _ = env.reset(seed=2**64 - 1)  # the whole seed range
    for action in (None, 1.5, "3", True):
        with pytest.raises(zhipai.InvalidValueError, match="invalid action"):
            env.step(action)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    assert env.step(np.array(legal))[2] in (True, False)  # a 0-d integer array is an action
    aec = pettingzoo_env("gongzhu")
    aec.reset(seed=2)
    with pytest.raises(zhipai.InvalidValueError, match="agent 'nobody'.*seat_0"):
        aec.observe("nobody")
    with pytest.raises(zhipai.InvalidValueError, match="invalid action 2.0"):
        aec.step(2.0)
