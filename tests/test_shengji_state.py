"""zhipai.shengji.Deal as an OpenSpiel-like state: full deals from Python, masks, replay records."""

from __future__ import annotations

import json
import random

import pytest

import zhipai
from zhipai.shengji import STOP, Deal


def play_by_actions(deal: Deal, rng: random.Random) -> None:
    while not deal.is_terminal():
        mask = deal.legal_action_mask()
        legal = deal.legal_actions()
        assert len(mask) == Deal.NUM_ACTIONS == 55
        assert [a for a in range(55) if mask[a]] == legal and legal
        deal.apply_action(rng.choice(legal))


def test_a_full_deal_by_actions_ends_with_zero_sum_returns():
    d = Deal(zhipai.rules("tractor"), "2", None, seed=4)
    assert d.current_player() in range(4)
    play_by_actions(d, random.Random(1))
    assert d.current_player() is None and d.legal_actions() == []
    r = d.result()
    assert r is not None and r["attacker_points"] % 5 == 0
    assert sum(d.returns()) == 0


def test_illegal_moves_name_the_play():
    d = Deal(zhipai.rules("tractor"), "2", 0, seed=2)
    while d.phase == "dealing":
        d.apply("pass")
    with pytest.raises(zhipai.IllegalPlayError, match="burial"):
        d.apply("bury", "BJ")  # one card, 8 needed
    illegal = next(a for a in range(54) if not d.legal_action_mask()[a])
    with pytest.raises(zhipai.IllegalPlayError):
        d.apply_action(illegal)
    with pytest.raises(zhipai.IllegalPlayError):
        d.apply_move("play", "3S")  # not a move of the burying phase


def test_a_finished_deal_replays_from_its_json_record():
    rules = zhipai.rules("eighty_points", decks=1)
    d = Deal(rules, "5", None, seed=11)
    d.play_out()
    text = d.to_json()
    record = json.loads(text)
    assert record["game"] == "shengji" and record["options"] == {"decks": "1"}
    assert record["result"] == d.result() and record["moves"]
    again = Deal.from_json(text)
    assert again.result() == d.result()
    assert again.to_json() == text
    with pytest.raises(zhipai.InvalidValueError):
        Deal.from_json(json.dumps({"game": "gongzhu"}))


def test_mixed_actions_and_moves_replay_and_clone_independently():
    d = Deal(zhipai.rules("tractor", kitty_multiplier="power_of_two"), "2", 1, seed=3)
    rng = random.Random(5)
    for _ in range(12):
        kind, cards = d.random_move()
        d.apply(kind, cards)
    c = d.clone()
    c.apply_action(c.legal_actions()[0])
    assert len(c.moves()) == len(d.moves()) + 1
    play_by_actions(c, rng)
    again = Deal.from_json(c.to_json())
    assert json.loads(c.to_json())["options"] == {"kitty_multiplier": "power_of_two"}
    assert again.result() == c.result()
    assert not d.is_terminal()
    assert STOP == 54
