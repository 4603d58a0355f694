"""The OpenSpiel registration (python/zhipai/openspiel.py): OpenSpiel's own random simulation
test on every preset, MCTS play, and the information-state resampling against what the seat
knows (its hand and observation unchanged, the other hands redrawn from the unseen cards)."""

from __future__ import annotations

import numpy as np
import pytest
import zhipai

pyspiel = pytest.importorskip("pyspiel")
zos = pytest.importorskip("zhipai.openspiel")

PRESETS = [p["name"] for p in zhipai.presets()]


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    names = zos.register()
    assert names == [f"python_zhipai_{p}" for p in PRESETS]
    assert zos.register() == names  # again: a no-op


@pytest.mark.parametrize("preset", PRESETS)
def test_random_sim_test(preset: str) -> None:
    game = pyspiel.load_game(f"python_zhipai_{preset}(num_deals=50)")
    assert game.num_players() == (5 if preset == "baohuang" else 4)
    assert game.max_chance_outcomes() == 50
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_outcome_k_is_deal_k_of_the_seed() -> None:
    game = pyspiel.load_game("python_zhipai_gongzhu(seed=9)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1000 and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    state.apply_action(17)
    ref = zhipai.Game("gongzhu").new_deal(seed=9, index=17)
    p = state.current_player()
    assert p == ref.current_player()
    assert state.legal_actions() == ref.legal_actions()
    np.testing.assert_array_equal(np.asarray(state.observation_tensor(p), np.float32), ref.observation_tensor(p))
    np.testing.assert_array_equal(np.asarray(state.information_state_tensor(p), np.float32), ref.observation_tensor(p))
    assert "history" in state.information_state_string(p) and "history" not in state.observation_string(p)


@pytest.mark.parametrize("preset", PRESETS)
def test_resample_from_infostate_keeps_what_the_seat_knows(preset: str) -> None:
    game = pyspiel.load_game(f"python_zhipai_{preset}")
    state = game.new_initial_state()
    state.apply_action(3)
    rng = np.random.default_rng(0)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    gs = state.gs
    world = state.resample_from_infostate(seat, rng.random)
    assert world.gs is not gs and world.current_player() == seat
    np.testing.assert_array_equal(world.gs.observation_tensor(seat), gs.observation_tensor(seat))
    assert world.legal_actions() == state.legal_actions()
    # Some other hand differs in some world, and every world deals the same unseen cards.
    others = [s for s in range(gs.num_players) if s != seat]
    unseen = sorted(c for s in others for c in zhipai.cards(gs.observation(s)["hand"]))
    differs = False
    for _ in range(5):
        w = state.resample_from_infostate(seat, rng.random).gs
        # (Games with a kitty may deal unseen cards between the kitty and the other hands.)
        has_kitty = preset not in ("gongzhu", "baohuang")
        assert has_kitty or sorted(c for s in others for c in zhipai.cards(w.observation(s)["hand"])) == unseen
        sizes = [len(zhipai.cards(x.observation(s)["hand"])) for x in (w, gs) for s in others]
        assert sizes[:len(others)] == sizes[len(others):]
        differs |= any(w.observation(s)["hand"] != gs.observation(s)["hand"] for s in others)
    assert differs
    with pytest.raises(zhipai.InvalidValueError, match="world"):
        world.gs.to_json()


def test_mcts_bot_plays_a_few_moves() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_zhipai_gongzhu(num_deals=10)")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert not state.is_terminal() and len(state.history()) == 4
