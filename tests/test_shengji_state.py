"""A Shengji deal through the one state (``zhipai.Game(rules).new_deal``): full deals from
Python, masks, replay records. Formerly the tests of ``zhipai.shengji.Deal``."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import zhipai

#: The card-by-card action that ends a bid (a pass when nothing was added) or a lead
#: (``rust/zhipai-core/src/games/shengji/game.rs``: 0..=53 card kinds, 54 ``stop``).
STOP = 54


def play_by_actions(deal: zhipai.GameState, rng: random.Random) -> None:
    while not deal.is_terminal():
        mask = deal.legal_action_mask()
        legal = deal.legal_actions()
        assert mask.dtype == np.bool_ and mask.shape == (deal.num_distinct_actions,) == (55,)
        assert [a for a in range(55) if mask[a]] == legal and legal
        deal.apply_action(rng.choice(legal))


def test_a_full_deal_by_actions_ends_with_zero_sum_returns():
    d = zhipai.Game("tractor").new_deal(level="2", seed=4)  # hand 1: the dealer is declared
    assert d.phase == "dealing" and d.observation(0)["dealer"] is None
    assert d.current_player() in range(4)
    play_by_actions(d, random.Random(1))
    assert d.current_player() is None and d.legal_actions() == []
    r = d.result()
    assert r is not None and r["attacker_points"] % 5 == 0  # card points are 5s, 10s and Ks
    assert sum(d.returns()) == 0


def test_illegal_moves_name_the_play():
    d = zhipai.Game("tractor").new_deal(level="2", dealer=0, seed=2)
    while d.phase == "dealing":
        d.apply("pass")
    with pytest.raises(zhipai.IllegalPlayError, match="burial"):
        d.apply("bury BJ")  # one card, 8 needed
    illegal = next(a for a in range(54) if not d.legal_action_mask()[a])
    with pytest.raises(zhipai.IllegalPlayError):
        d.apply_action(illegal)
    with pytest.raises(zhipai.IllegalPlayError):
        d.apply("play 3S")  # not a move of the burying phase
    assert d.phase == "burying" and d.pending_cards == ""


def test_a_finished_deal_replays_from_its_json_record():
    rules = zhipai.rules("eighty_points", decks=1)
    game = zhipai.Game(rules)
    d = game.new_deal(level="5", seed=11)
    while not d.is_terminal():
        d.apply_builtin("random")
    text = d.to_json()
    record = json.loads(text)
    assert record["preset"] == "eighty_points" and dict(record["options"])["decks"] == "1"
    assert record["origin"]["level"] == "5" and record["moves"] and record["phase"] == "done"
    assert dict(zip(game.columns, record["result"])) == d.result()
    again = zhipai.Game.from_json(text)
    assert again.result() == d.result()
    assert again.to_json() == text
    with pytest.raises(zhipai.InvalidValueError):
        zhipai.Game.from_json(json.dumps({"game": "gongzhu"}))


def test_mixed_actions_and_moves_replay_and_clone_independently():
    rules = zhipai.rules("tractor", kitty_multiplier="power_of_two")
    d = zhipai.Game(rules).new_deal(level="2", dealer=1, seed=3)
    rng = random.Random(5)
    for i in range(12):
        if i % 3 == 0:
            d.apply(rng.choice(d.legal_moves()))  # a move of our own choice, as text
        else:
            d.apply_builtin("random")
    c = d.clone()
    c.apply_action(c.legal_actions()[0])
    # The action finished a move (history) or started one (pending cards); d is untouched.
    assert len(c.history()) == len(d.history()) + 1 or c.pending_cards
    assert d.pending_cards == ""
    play_by_actions(c, rng)
    record = json.loads(c.to_json())
    assert dict(record["options"])["kitty_multiplier"] == "power_of_two"
    again = zhipai.Game.from_json(c.to_json())
    assert again.result() == c.result() and again.phase == "done"
    assert not d.is_terminal()
    assert c.action_to_string(STOP) == "stop" and c.string_to_action("stop") == STOP
