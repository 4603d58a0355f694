"""The AI interface: ``GameState.observation_tensor`` / ``observation_layout`` /
``legal_move_features`` / ``apply_move_index``, ``zhipai.observation_shape`` and
``zhipai.VectorEnv`` (rust/zhipai-core/src/env, python/zhipai/envs).

Expected values are computed independently: from a ``zhipai.GameState`` of the same deal
stepped by hand (deal ``i`` of a seed is ``Game(rules).new_deal(seed, i)``), from
the card counts of a move's text, or from the module docs' rules (shapes, dtypes,
the auto-reset convention).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
import zhipai
from zhipai.envs import VectorEnv, observation_layout, observation_shape

PRESETS = [p["name"] for p in zhipai.presets()]
SEATS = {"baohuang": 5}


def counts(cards: str) -> np.ndarray:
    """Copies of each card kind (0 = 2S ... 53 = BJ) in ``cards``."""
    return np.bincount(zhipai.cards_to_array(cards), minlength=54).astype(np.uint8) if cards.strip() else np.zeros(54, np.uint8)


def deal(preset: str, index: int = 0, seed: int = 7) -> zhipai.GameState:
    return zhipai.Game(preset).new_deal(seed=seed, index=index)


# ----------------------------------------------------------------- GameState: tensors and features


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_tensor_has_the_layout_shape_and_fills_out_in_place(preset: str) -> None:
    s = deal(preset)
    layout = s.observation_layout()
    (length,) = observation_shape(preset)
    assert zhipai.observation_shape(zhipai.rules(preset)) == (length,)
    assert observation_layout(preset) == layout
    # Fields follow each other from 0 and cover the tensor.
    offset = 0
    for name, off, n, meaning in layout:
        assert off == offset and n > 0 and name and meaning
        offset += n
    assert offset == length
    seat = s.current_player()
    t = s.observation_tensor(seat)
    assert t.dtype == np.float32 and t.shape == (length,)
    out = np.full(length, -7.0, dtype=np.float32)
    back = s.observation_tensor(seat, out=out)
    assert back is out
    np.testing.assert_array_equal(out, t)
    # The observer's hand is in the tensor: the "hand" field holds its card counts.
    hand = counts(s.observation(seat)["hand"])
    field = {name: (off, n) for name, off, n, _ in layout}
    off, n = field["hand"]
    assert n >= 54
    np.testing.assert_array_equal(t[off:off + 54], hand)


def test_perfect_observation_shows_the_other_hands() -> None:
    s = deal("gongzhu")
    a = s.observation_tensor(0)
    b = s.observation_tensor(0, perfect=True)
    assert a.shape == b.shape and not np.array_equal(a, b)
    assert b.sum() > a.sum()  # 39 more cards counted
    np.testing.assert_array_equal(s.observation_tensor(0, perfect=np.bool_(True)), b)


def test_observation_tensor_refuses_bad_arguments() -> None:
    s = deal("gongzhu")
    (length,) = observation_shape("gongzhu")
    with pytest.raises(zhipai.InvalidValueError, match="seat 4"):
        s.observation_tensor(4)
    with pytest.raises(zhipai.InvalidValueError, match="out"):
        s.observation_tensor(0, out=np.zeros(length, dtype=np.float64))
    with pytest.raises(zhipai.InvalidValueError, match=rf"\({length},\)"):
        s.observation_tensor(0, out=np.zeros(length + 1, dtype=np.float32))
    with pytest.raises(zhipai.InvalidValueError, match="out"):
        s.observation_tensor(0, out=np.zeros((2, length), dtype=np.float32)[:, 0])
    with pytest.raises(zhipai.InvalidValueError, match="perfect"):
        s.observation_tensor(0, perfect=1)
    with pytest.raises(zhipai.InvalidValueError, match="rules"):
        observation_shape(3)  # type: ignore[arg-type]
    with pytest.raises(zhipai.InvalidOptionError, match="chess"):
        observation_shape("chess")


def _to_play(s: zhipai.GameState) -> zhipai.GameState:
    while s.phase != "play":
        s.apply_builtin("greedy")
    return s


def test_legal_move_features_are_the_cards_of_the_listed_moves() -> None:
    s = _to_play(deal("gongzhu"))
    moves = s.legal_moves()
    f = s.legal_move_features()
    assert f.dtype == np.uint8 and f.shape == (len(moves), 54)
    for row, text in zip(f, moves):
        np.testing.assert_array_equal(row, counts(text))
    # A cap lists the first moves only.
    assert s.legal_move_features(limit=1).shape == (1, 54)
    # Shengji: "play <cards>" rows are the cards after "play".
    t = _to_play(deal("tractor"))
    moves = t.legal_moves(limit=20)
    f = t.legal_move_features(limit=20)
    assert f.shape == (len(moves), 54)
    for row, text in zip(f, moves):
        assert text.startswith("play ")
        np.testing.assert_array_equal(row, counts(text[len("play "):]))


def test_moves_without_cards_have_zero_rows() -> None:
    s = deal("hong_wu")
    assert s.phase == "auction"
    moves = s.legal_moves()
    f = s.legal_move_features()
    assert "pass" in moves and any(m.startswith("bid ") for m in moves)
    assert f.shape == (len(moves), 54) and not f.any()


def test_apply_move_index_applies_the_listed_move() -> None:
    s = _to_play(deal("tractor"))
    moves = s.legal_moves(limit=5)
    other = s.clone()
    assert s.apply_move_index(len(moves) - 1, limit=5) == moves[-1]
    other.apply(moves[-1])
    assert s.to_json() == other.to_json()
    before = s.to_json()
    n = len(s.legal_moves(limit=3))
    with pytest.raises(zhipai.InvalidValueError, match=f"move index {n}"):
        s.apply_move_index(n, limit=3)
    with pytest.raises(zhipai.InvalidValueError, match="move index -1"):
        s.apply_move_index(-1)
    assert s.to_json() == before


# ----------------------------------------------------------------- VectorEnv


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(mask.shape[0], dtype=np.int64)
    for i, row in enumerate(mask):
        legal = np.flatnonzero(row)
        if legal.size:
            out[i] = rng.choice(legal)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_reset_and_step_shapes_dtypes_and_deals(preset: str) -> None:
    n_players = SEATS.get(preset, 4)
    env = VectorEnv(preset, 3, 11, controlled_seats=list(range(n_players)), threads=1)
    (length,) = observation_shape(preset)
    obs, mask, info = env.reset()
    a = deal(preset).num_distinct_actions
    assert obs.shape == (3, length) and obs.dtype == np.float32
    assert mask.shape == (3, a) and mask.dtype == np.bool_
    assert env.observation_shape == (length,) and env.mask_shape == (a,) and env.num_players == n_players
    np.testing.assert_array_equal(info["deal"], [0, 1, 2])
    assert info["reset"].all()
    # All seats controlled: env i shows deal i at its first decision, as GameState does.
    for i in range(3):
        s = deal(preset, i, seed=11)
        seat = s.current_player()
        assert info["seat"][i] == seat
        np.testing.assert_array_equal(obs[i], s.observation_tensor(seat))
        np.testing.assert_array_equal(mask[i], s.legal_action_mask())
    rng = np.random.default_rng(0)
    out = env.step(_random_legal(mask, rng))
    obs2, rewards, terminated, truncated, mask2, info2 = out
    assert obs2 is obs and mask2 is mask, "the same buffers every call"
    assert rewards.shape == (3, n_players) and rewards.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.shape == (3,)
    assert not terminated.any() and not truncated.any() and not info2["reset"].any()


@pytest.mark.parametrize("preset", ["gongzhu", "tractor"])
def test_runs_are_the_same_for_any_number_of_threads(preset: str) -> None:
    def run(threads: int, style: str) -> list[np.ndarray]:
        env = VectorEnv(preset, 6, 5, controlled_seats=[0, 1], opponents="random", threads=threads, action_style=style,
                        max_moves=8)
        rng = np.random.default_rng(1)
        obs, mask, info = env.reset()
        seen = [obs.copy(), mask.copy(), info["seat"].copy()]
        for _ in range(120):
            obs, rew, term, trunc, mask, info = env.step(_random_legal(mask, rng))
            seen += [obs.copy(), rew.copy(), term.copy(), mask.copy(), info["seat"].copy(), info["deal"].copy()]
        return seen

    for style in ["actions", "moves"]:
        one, two, four = run(1, style), run(2, style), run(4, style)
        assert all(np.array_equal(x, y) and np.array_equal(y, z) for x, y, z in zip(one, two, four))
    # The run is not trivial: rewards were paid.
    assert any(x.dtype == np.float32 and x.ndim == 2 and x.shape[1] == 4 and x.any() for x in one[4::6])


def test_rewards_are_the_returns_and_the_next_step_starts_the_next_deal() -> None:
    env = VectorEnv("gongzhu", 2, 3, controlled_seats=[0, 1, 2, 3], threads=2)
    mirror = [deal("gongzhu", i, seed=3) for i in range(2)]
    obs, mask, info = env.reset()
    rng = np.random.default_rng(2)
    # Per env: 0 playing deal i, 1 deal i just ended, 2 deal i + 2 started.
    phase = [0, 0]
    for _ in range(400):
        a = _random_legal(mask, rng)
        for i in range(2):
            if phase[i] == 0:
                mirror[i].apply_action(int(a[i]))
            elif phase[i] == 1:
                a[i] = [10_000, -3][i]  # ignored: the env starts its next deal
        obs, rew, term, trunc, mask, info = env.step(a)
        for i in range(2):
            if phase[i] == 0 and mirror[i].is_terminal():
                assert term[i] and not mask[i].any() and not info["reset"][i]
                np.testing.assert_array_equal(rew[i], mirror[i].returns().astype(np.float32))
                assert rew[i].any()
                phase[i] = 1
            elif phase[i] == 0:
                assert not term[i] and not rew[i].any()
                np.testing.assert_array_equal(obs[i], mirror[i].observation_tensor(mirror[i].current_player()))
            elif phase[i] == 1:
                assert info["reset"][i] and info["deal"][i] == i + 2 and not rew[i].any() and not term[i]
                s = deal("gongzhu", i + 2, seed=3)
                np.testing.assert_array_equal(obs[i], s.observation_tensor(s.current_player()))
                np.testing.assert_array_equal(mask[i], s.legal_action_mask())
                phase[i] = 2
        if phase == [2, 2]:
            break
    assert phase == [2, 2]


def test_opponents_play_the_uncontrolled_seats() -> None:
    env = VectorEnv("baohuang", 4, 9, controlled_seats=[2], opponents="random", threads=2)
    obs, mask, info = env.reset()
    rng = np.random.default_rng(3)
    for _ in range(60):
        assert (info["seat"][~info["reset"] | True] == 2).all()
        obs, rew, term, trunc, mask, info = env.step(_random_legal(mask, rng))
        assert not rew[:, [0, 1, 3, 4]].any()


def test_moves_style_lists_legal_move_features() -> None:
    env = VectorEnv("tractor", 2, 4, controlled_seats=[0, 1, 2, 3], action_style="moves", max_moves=12, threads=1)
    obs, mask, info = env.reset()
    assert mask.shape == (2, 12) and info["move_features"].shape == (2, 12, 54)
    for i in range(2):
        s = deal("tractor", i, seed=4)
        k = info["num_moves"][i]
        assert k == len(s.legal_moves(limit=12))
        np.testing.assert_array_equal(mask[i], np.arange(12) < k)
        np.testing.assert_array_equal(info["move_features"][i, :k], s.legal_move_features(limit=12))
        assert not info["move_features"][i, k:].any()
    # Index 0 = the first listed move.
    s = deal("tractor", 1, seed=4)
    first = s.legal_moves(limit=12)[0]
    obs, rew, term, trunc, mask, info = env.step(np.array([0, 0]))
    s.apply(first)
    np.testing.assert_array_equal(obs[1], s.observation_tensor(s.current_player()))
    with pytest.raises(zhipai.IllegalPlayError, match=r"move index 12 of env 0"):
        env.step(np.array([12, 0]))


def test_illegal_and_malformed_actions_are_refused_and_change_nothing() -> None:
    env = VectorEnv("gongzhu", 3, 1, controlled_seats=[0, 1, 2, 3], threads=2)
    obs, mask, info = env.reset()
    a = _random_legal(mask, np.random.default_rng(4))
    bad = int(np.flatnonzero(~mask[1])[0])
    a_bad = a.copy()
    a_bad[1] = bad
    before = obs.copy(), mask.copy()
    with pytest.raises(zhipai.IllegalPlayError, match=rf"action {bad} .*of env 1"):
        env.step(a_bad)
    np.testing.assert_array_equal(obs, before[0])
    np.testing.assert_array_equal(mask, before[1])
    with pytest.raises(zhipai.InvalidValueError, match=r"of length 2.*\(3\)"):
        env.step(a[:2])
    with pytest.raises(zhipai.InvalidValueError, match="actions"):
        env.step(a.astype(np.float64))
    with pytest.raises(zhipai.InvalidValueError, match="actions"):
        env.step(a.reshape(3, 1))
    # Unchanged: the legal step now gives what a fresh env gives.
    obs, *_ = env.step(a)
    fresh = VectorEnv("gongzhu", 3, 1, controlled_seats=[0, 1, 2, 3], threads=1)
    fresh.reset()
    obs2, *_ = fresh.step(a)
    np.testing.assert_array_equal(obs, obs2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_envs": 0}, "num_envs 0"),
        ({"controlled_seats": [4]}, "controlled seat 4"),
        ({"controlled_seats": [1, 1]}, r"\[1, 1\]"),
        ({"controlled_seats": "0"}, "controlled_seats"),
        ({"opponents": "alphazero"}, 'opponents "alphazero"'),
        ({"opponents": "pimc(worlds=0)"}, 'opponents parameter worlds "0"'),
        ({"action_style": "cards"}, "cards"),
        ({"reward": "score"}, "score"),
        ({"rules": "baohuang", "reward": "points"}, "points"),
        ({"max_moves": 0}, "max_moves 0"),
        ({"threads": -1}, "threads -1"),
        ({"seed": -1}, "seed -1"),
        ({"rules": 5}, "rules 5"),
    ],
)
def test_bad_settings_name_the_value(kwargs: dict, match: str) -> None:
    args = {"rules": "gongzhu", "num_envs": 2, "seed": 0} | kwargs
    with pytest.raises(zhipai.ZhipaiError, match=match):
        VectorEnv(**args)


def test_reset_moves_on_and_reset_with_a_seed_starts_over() -> None:
    env = VectorEnv("hong_wu", 2, 5, threads=1)
    _, _, info = env.reset()
    np.testing.assert_array_equal(info["deal"], [0, 1])
    _, _, info = env.reset()
    np.testing.assert_array_equal(info["deal"], [2, 3])
    obs, _, info = env.reset(seed=5)
    np.testing.assert_array_equal(info["deal"], [0, 1])
    assert env.seed == 5 and "VectorEnv(num_envs=2" in repr(env)
    with pytest.raises(zhipai.InvalidValueError, match="before reset"):
        VectorEnv("hong_wu", 1, 0).step(np.array([0]))


@pytest.mark.parametrize("style", ["actions", "moves"])
def test_sample_actions_are_legal_and_reproducible(style: str) -> None:
    def run(threads: int) -> list[np.ndarray]:
        env = VectorEnv("tractor", 5, 2, controlled_seats=[0, 1, 2, 3], threads=threads, action_style=style, max_moves=8)
        obs, mask, info = env.reset()
        seen = []
        for _ in range(80):
            a = env.sample_actions()
            assert a.dtype == np.int64 and a.shape == (5,)
            for i in range(5):
                assert mask[i, a[i]] or not mask[i].any()
            seen.append(a.copy())
            obs, rew, term, trunc, mask, info = env.step(a)
        return seen

    one = run(1)
    assert all(np.array_equal(x, y) for x, y in zip(one, run(2)))
    assert len({tuple(x) for x in one}) > 10


def test_points_rewards_add_up_to_the_card_points_won_in_tricks() -> None:
    # Tractor, 2 decks: 200 card points in the deck; at the end every point not in the kitty was
    # won in a trick, so the points rewards of all four seats add up to 200 - the kitty's points.
    env = VectorEnv("tractor", 3, 6, controlled_seats=[0, 1, 2, 3], reward="points", threads=2)
    obs, mask, info = env.reset()
    total = np.zeros(3)
    ended = np.zeros(3, bool)
    mirror = [deal("tractor", i, seed=6) for i in range(3)]
    for _ in range(3000):
        a = env.sample_actions()
        for i in range(3):
            if not ended[i]:
                mirror[i].apply_action(int(a[i]))
        obs, rew, term, trunc, mask, info = env.step(a)
        total += np.where(ended, 0.0, rew.sum(axis=1))
        assert (rew[~ended] >= 0).all()
        ended |= term
        if ended.all():
            break
    assert ended.all()
    value = {"5": 5, "10": 10, "K": 10}
    for i in range(3):
        s = mirror[i]
        assert s.is_terminal()
        kitty = next(k for k in (s.observation(p)["kitty"] for p in range(4)) if k)
        kitty_points = sum(value.get(c.rank, 0) for c in zhipai.cards(kitty))
        assert total[i] == 200 - kitty_points


def test_a_second_thread_gets_a_clear_error_while_a_step_runs() -> None:
    # Opponents that search make one step long enough for a second thread to arrive during it.
    env = VectorEnv("gongzhu", 2, seed=5, controlled_seats=[0], opponents="pimc(worlds=400)", threads=1)
    env.reset()
    errors: list[BaseException] = []
    started = threading.Event()

    def stepper() -> None:
        started.set()
        for _ in range(3):
            env.step(env.sample_actions().copy())

    t = threading.Thread(target=stepper)
    t.start()
    started.wait()
    busy_seen = False
    while t.is_alive():
        assert env.num_envs == 2 and env.seed == 5 and "seed=5" in repr(env)  # never wait for the step
        try:
            env.sample_actions()
        except zhipai.InvalidValueError as e:
            assert "in use" in str(e) and "one env per thread" in str(e)
            busy_seen = True
        except BaseException as e:  # pragma: no cover - the failure being tested
            errors.append(e)
        time.sleep(0.001)
    t.join()
    assert not errors
    assert busy_seen
    env.step(env.sample_actions())  # and the env is still usable afterwards


def test_seed_none_draws_a_recorded_seed_and_big_unsigned_actions_are_named() -> None:
    env = VectorEnv("gongzhu", 3, None, controlled_seats=[0, 1, 2, 3], opponents="random", threads=1)
    again = VectorEnv("gongzhu", 3, env.seed, controlled_seats=[0, 1, 2, 3], opponents="random", threads=1)
    assert np.array_equal(env.reset()[0], again.reset()[0])
    with pytest.raises(zhipai.InvalidValueError, match="18446744073709551615.*env 0"):
        env.step(np.full(3, 2**64 - 1, dtype=np.uint64))


def test_read_only_buffers_are_named_as_such() -> None:
    env = VectorEnv("tractor", 2, 1, threads=1, opponents="random")
    obs, mask, info = env.reset()
    obs.setflags(write=False)
    with pytest.raises(zhipai.InvalidValueError, match="read-only"):
        env.step(env.sample_actions())
    obs.setflags(write=True)
    sampled = env.sample_actions()
    sampled.setflags(write=False)
    with pytest.raises(zhipai.InvalidValueError, match="read-only"):
        env.sample_actions()
    sampled.setflags(write=True)
    env.step(env.sample_actions())


def test_a_forked_child_steps_an_env_with_threads() -> None:
    """A child forked after the env's threads started has none of them: waiting for them never
    ended (reset, step and sample_actions hung for good). Run in a child process with a timeout,
    so the old behaviour fails the test instead of hanging the suite."""
    code = textwrap.dedent("""
        import os, zhipai
        env = zhipai.VectorEnv("gongzhu", 8, seed=1, controlled_seats=[0, 1, 2, 3], threads=2)
        env.reset()
        env.step(env.sample_actions())
        pid = os.fork()
        if pid == 0:
            env.reset()
            for _ in range(5):
                env.step(env.sample_actions())
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        env.step(env.sample_actions())
        print(os.waitstatus_to_exitcode(status))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"


def test_more_envs_than_memory_holds_are_refused_by_name() -> None:
    """16,777,216 Gongzhu envs need about 150 GB: numpy's failed allocation raised a Rust panic
    (``PanicException``, not an ``Exception``)."""
    with pytest.raises(zhipai.InvalidValueError, match=r"num_envs 16777216: .* needs .* of memory"):
        VectorEnv("gongzhu", 16_777_216, seed=1, threads=1)
