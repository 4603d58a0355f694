"""Gongzhu Python API as a user sees it: documentation, and bad input of every kind rejected
with a zhipai exception naming the value (never a raw TypeError / OverflowError)."""

from __future__ import annotations

import pydoc

import pytest
import zhipai
import zhipai.gongzhu as gz

BAD_INTS = [-1, 2**64, None, 1.5, "3", True]


def test_help_is_clear() -> None:
    text = pydoc.render_doc(gz, renderer=pydoc.plaintext)
    for needle in ["Chase the Pig", "InvalidValueError", "exposure decision", "first play",
                   "score(", "legal_plays(", "is_legal(", "trick_winner(", "play_match(",
                   'zhipai.Game("gongzhu").new_deal', "Integer actions", "end exposure"]:
        assert needle in text, needle
    assert "class Game" not in text  # whole deals are the one zhipai.GameState
    for name in gz.__all__:
        assert getattr(gz, name).__doc__, name
    for name in ["observation", "apply", "apply_action", "legal_moves", "returns", "result", "result_row"]:
        assert getattr(zhipai.GameState, name).__doc__, name


GAME = zhipai.Game("gongzhu")
DECK = [f"{r}{s}" for s in "SHDC" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
HANDS = [" ".join(DECK[13 * i : 13 * i + 13]) for i in range(4)]


@pytest.mark.parametrize("seed", BAD_INTS)
def test_bad_seeds(seed) -> None:
    if seed is not None:  # None: a fresh random seed, recorded (test_game_state)
        with pytest.raises(zhipai.InvalidValueError, match="seed"):
            GAME.new_deal(seed=seed)
    if seed is not None:
        with pytest.raises(zhipai.InvalidValueError, match="seed"):
            GAME.new_deal(hands=HANDS, seed=seed)
    with pytest.raises(zhipai.InvalidValueError, match="seed"):
        gz.play_match(2, seed=seed)


def test_seed_range_ends_are_accepted() -> None:
    assert GAME.new_deal(seed=0).phase == "exposure"
    assert GAME.new_deal(seed=2**64 - 1).phase == "exposure"
    assert GAME.new_deal(seed=2**64 - 1, index=2**64 - 1).phase == "exposure"


@pytest.mark.parametrize("seat", [-1, 4, 2**64, None, 1.0, "0", True])
def test_bad_seats(seat) -> None:
    g = GAME.new_deal(seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="seat"):
        g.observation(seat)
    if seat is not None:  # history(None) is every move
        with pytest.raises(zhipai.InvalidValueError, match="seat"):
            g.history(seat)
    if seat is not None:  # dealer=None is the first deal of a match
        with pytest.raises(zhipai.InvalidValueError, match="dealer"):
            GAME.new_deal(hands=HANDS, dealer=seat)


@pytest.mark.parametrize("value", [-1, 2**64, None, 2.0, "7"])
def test_bad_actions_and_counts(value) -> None:
    g = GAME.new_deal(seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="action"):
        g.apply_action(value)
    with pytest.raises(zhipai.InvalidValueError, match="action"):
        g.action_to_string(value)
    with pytest.raises(zhipai.InvalidValueError, match="deals"):
        gz.play_match(value)


@pytest.mark.parametrize("cards", [None, 5, 1.5, [None], [5], b"QS"])
def test_bad_card_arguments(cards) -> None:
    with pytest.raises(zhipai.InvalidValueError):
        gz.legal_plays(cards)
    with pytest.raises(zhipai.InvalidValueError):
        gz.is_legal("QS 3S", cards)
    with pytest.raises(zhipai.InvalidValueError):
        gz.score(["", "", "", ""], cards)
    with pytest.raises(zhipai.InvalidValueError):
        gz.trick_winner(["5S", cards])


def test_bad_structures_and_flags() -> None:
    with pytest.raises(zhipai.InvalidValueError, match="taken"):
        gz.score("QS JD")
    with pytest.raises(zhipai.InvalidValueError, match="taken"):
        gz.score(None)
    with pytest.raises(zhipai.InvalidValueError, match="plays"):
        gz.trick_winner(None)
    with pytest.raises(zhipai.InvalidValueError, match="hands"):
        GAME.new_deal(hands="2S 3S")
    with pytest.raises(zhipai.InvalidValueError, match="first_trick_of_match"):
        gz.legal_plays("2C 3C", first_trick_of_match="yes")
    with pytest.raises(zhipai.InvalidValueError, match="suits_led_before"):
        gz.legal_plays("2C 3C", "5C", suits_led_before=[1])
    with pytest.raises(zhipai.InvalidValueError, match="suit X"):
        gz.legal_plays("2C 3C", "5C", suits_led_before=["X"])
    with pytest.raises(zhipai.InvalidValueError, match="move"):
        GAME.new_deal(seed=1).apply(None)
    with pytest.raises(zhipai.InvalidValueError, match="action 3"):
        GAME.new_deal(seed=1).string_to_action(3)
    with pytest.raises(zhipai.InvalidValueError, match="policy"):
        gz.play_match(2, policy="clever")
    with pytest.raises(zhipai.InvalidValueError, match="rules"):
        gz.score(["", "", "", ""], rules="gongzhu")
    with pytest.raises(zhipai.InvalidOptionError, match="decks"):
        gz.score(["", "", "", ""], rules=zhipai.rules("gongzhu"), decks=2)


def test_good_inputs_of_other_accepted_types() -> None:
    import numpy as np

    g = GAME.new_deal(hands=HANDS, dealer=np.int64(2), seed=np.uint64(5))
    assert g.current_player() == 2
    assert g.observation(np.int32(0))["hand"] == HANDS[0]
    assert g.action_to_string(np.int16(0)) == "2S"
    # Card lists as lists of strings or of Card.
    assert gz.legal_plays(["QS", zhipai.Card("3S")], "5S") == ["3S", "QS"]


@pytest.mark.parametrize("leader", [0, 3])
def test_a_shuffled_deal_with_a_chosen_first_leader(leader) -> None:
    s = GAME.new_deal(seed=5, dealer=leader)
    first = GAME.new_deal(seed=5)
    assert s.observation(1)["hand"] == first.observation(1)["hand"]  # same cards as deal 0 of seed 5
    while s.phase == "exposure":
        s.apply("end exposure")
    assert s.current_player() == leader
    # The chosen leader leads any card (a later deal of a match, §A.8), not only the first-lead card.
    assert len(s.legal_moves()) == 13
