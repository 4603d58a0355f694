"""Baohuang Python API as a user: bad input of any type or size raises a zhipai exception that
names the value — never a raw TypeError / OverflowError / ValueError, and never a silent answer."""

from __future__ import annotations

import numpy as np
import pytest

import zhipai
from zhipai import baohuang as bh

H = "BJ 9C 9C 9C KD"
ROUND = [(0, "3S"), (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass")]
GAME = bh.Game()


def state() -> bh.State:
    return GAME.new_deal(seed=1)


# (label, call, text the message must contain)
BAD = [
    ("play_error None", lambda: bh.play_error(None), "None"),
    ("play_error int", lambda: bh.play_error(5), "cards 5"),
    ("beats None", lambda: bh.beats(None, "3S"), "play None"),
    ("beats previous list", lambda: bh.beats("4S", ["3S"]), "previous ['3S']"),
    ("beats rules int", lambda: bh.beats("4S", "3S", rules=5), "rules 5"),
    ("ascension None", lambda: bh.ascension_options(None), "hand None"),
    ("ascension flag int", lambda: bh.ascension_options(H, scepter_in_hand=2), "scepter_in_hand 2"),
    ("next_leader seat -1", lambda: bh.next_leader([(-1, "3S")]), "-1"),
    ("next_leader seat huge", lambda: bh.next_leader([(2**70, "3S")]), str(2**70)),
    ("next_leader seat float", lambda: bh.next_leader([(1.5, "3S")]), "1.5"),
    ("next_leader seat 5", lambda: bh.next_leader([(5, "3S")]), "5"),
    ("next_leader action None", lambda: bh.next_leader([(0, None)]), "action None"),
    ("next_leader not a pair", lambda: bh.next_leader([0]), "action 0"),
    ("next_leader actions None", lambda: bh.next_leader(None), "actions None"),
    ("next_leader out 9", lambda: bh.next_leader(ROUND, out=[9]), "out seat 9"),
    ("next_leader out -1", lambda: bh.next_leader(ROUND, out=[-1]), "out seat -1"),
    ("score place huge", lambda: bh.score("normal", 2**70, 1), str(2**70)),
    ("score place float", lambda: bh.score("normal", 1.0, 2), "1.0"),
    ("score place -1", lambda: bh.score("normal", -1, 2), "-1"),
    ("score place bool", lambda: bh.score("normal", True, 2), "True"),
    ("score mode None", lambda: bh.score(None, 1, 2), "mode None"),
    ("legal_plays limit -1", lambda: bh.legal_plays(H, limit=-1), "limit -1"),
    ("legal_plays limit float", lambda: bh.legal_plays(H, limit=1.5), "limit 1.5"),
    ("legal_plays hand None", lambda: bh.legal_plays(None), "hand None"),
    ("count_plays previous int", lambda: bh.count_plays(H, 5), "previous 5"),
    ("sample seed -1", lambda: bh.sample_play(H, seed=-1), "seed -1"),
    ("sample seed 2**64", lambda: bh.sample_play(H, seed=2**64), str(2**64)),
    ("sample seed None", lambda: bh.sample_play(H, seed=None), "seed None"),
    ("sample seed float", lambda: bh.sample_play(H, seed=1.5), "seed 1.5"),
    ("play_reason None", lambda: bh.play_reason(H, None), "play None"),
    ("new_deal seed -1", lambda: GAME.new_deal(seed=-1), "seed -1"),
    ("new_deal seed 2**64", lambda: GAME.new_deal(seed=2**64), str(2**64)),
    ("new_deal index -1", lambda: GAME.new_deal(index=-1), "index -1"),
    ("new_deal seed float", lambda: GAME.new_deal(seed=1.5), "seed 1.5"),
    ("Game rules int", lambda: bh.Game(5).new_deal(), "rules 5"),
    ("Game rules of another game", lambda: bh.Game(zhipai.rules("tractor")).new_deal(), "tractor"),
    ("from_hands scepter 9", lambda: GAME.from_hands(["BJ"] * 5, 9), "scepter 9"),
    ("from_hands scepter -1", lambda: GAME.from_hands(["BJ"] * 5, -1), "scepter -1"),
    ("from_hands 4 hands", lambda: GAME.from_hands(["BJ"] * 4, 0), "4"),
    ("from_hands None", lambda: GAME.from_hands(None, 0), "hands None"),
    ("from_hands a string", lambda: GAME.from_hands("BJ BJ", 0), "hands 'BJ BJ'"),
    ("from_hands first_dealt huge", lambda: GAME.from_hands(["BJ"] * 5, 0, 2**70), str(2**70)),
    ("hand 9", lambda: state().hand(9), "seat 9"),
    ("hand -1", lambda: state().hand(-1), "seat -1"),
    ("hand huge", lambda: state().hand(2**70), str(2**70)),
    ("hand None", lambda: state().hand(None), "seat None"),
    ("sample_action -1", lambda: state().sample_action(-1), "seed -1"),
    ("sample_action 2**64", lambda: state().sample_action(2**64), str(2**64)),
    ("apply_action None", lambda: state().apply_action(None), "action None"),
    ("apply_action int", lambda: state().apply_action(5), "action 5"),
    ("action_error None", lambda: state().action_error(None), "action None"),
    ("tribute short", lambda: state().apply_tribute([1, 2]), "[1, 2]"),
    ("tribute 300", lambda: state().apply_tribute([1, 2, 3, 4, 300]), "300"),
    ("tribute None", lambda: state().apply_tribute(None), "None"),
    ("stop flag int", lambda: state().set_stop_when_decided(5), "on 5"),
    ("stop flag None", lambda: state().set_stop_when_decided(None), "on None"),
]


@pytest.mark.parametrize("call,needle", [(c, n) for _, c, n in BAD], ids=[label for label, _, _ in BAD])
def test_bad_input_raises_a_zhipai_error_naming_the_value(call, needle) -> None:
    with pytest.raises(zhipai.ZhipaiError) as info:
        call()
    assert needle in str(info.value), str(info.value)


def test_type_errors_are_invalid_value_errors() -> None:
    with pytest.raises(zhipai.InvalidValueError, match="seed -1"):
        bh.sample_play(H, seed=-1)
    with pytest.raises(zhipai.InvalidValueError, match="seat None"):
        state().hand(None)


def test_good_input_of_other_int_types_is_accepted() -> None:
    # numpy integers are ints; the largest seed is fine; defaults still work.
    s = GAME.new_deal(seed=np.uint64(2**64 - 1), index=np.int64(3))
    assert s.hand(np.int8(2)) == s.hand(2)
    assert bh.sample_play(H, seed=2**64 - 1) is not None
    assert bh.score("normal", np.int64(1), np.int32(2)) == {"emperor": 6, "guard": 3, "rebel": -3}
    assert bh.next_leader(ROUND) == 0
    assert bh.next_leader(iter(ROUND), out=(np.int64(0),)) == 1
    assert bh.legal_plays("3S 3H", limit=2**70) == bh.legal_plays("3S 3H")
    assert bh.ascension_options(H) == {"9C": "guard"}
    s.set_stop_when_decided(True)


def _two_bj_seat() -> tuple[bh.State, int]:
    for seed in range(50):
        s = GAME.new_deal(seed=seed)
        for seat in range(5):
            if zhipai.cards(s.hand(seat)).count(zhipai.Card("BJ")) == 2:
                return s, seat
    raise AssertionError("no deal with a 2-BJ hand")


def test_messages_say_what_is_short_and_name_phases_and_spellings() -> None:
    # A seat with 2 BJ playing three: the message says how many it holds.
    s, seat = _two_bj_seat()
    while s.current_player() != seat or s.phase != "play":
        s.apply_action(s.legal_actions()[-1] if s.phase != "play" else "pass"
                       if s.action_error("pass") is None else s.legal_actions()[0])
    with pytest.raises(zhipai.IllegalPlayError, match=r"BJ ×3 \(holds 2\)"):
        s.apply_action("BJ BJ BJ")
    # Phases are named as the API names them, not as Rust enums.
    with pytest.raises(zhipai.IllegalPlayError, match="phase accession"):
        state().apply_action("3S")
    assert "current_player=" in repr(state()) and "Some(" not in repr(state())
    # bombs and tribute_between_deals are spelled off | on (baohuang.md options list).
    with pytest.raises(zhipai.InvalidOptionError, match="off or on"):
        zhipai.rules("baohuang", bombs="maybe")
    # A long bad card token is cut in the message.
    with pytest.raises(zhipai.InvalidCardError) as info:
        state().apply_action("X" * 1000)
    assert len(str(info.value)) < 300
    # Baohuang deals no kitty: a known kitty is refused as such.
    hand = zhipai.cards(state().hand(1))
    with pytest.raises(zhipai.InvalidValueError, match="no kitty"):
        zhipai.evaluate("baohuang", seat=1, hand=hand, samples=5, known={"kitty": "3S"})


def test_bad_ascend_card_is_quoted_as_given_and_rules_repr_shows_overrides() -> None:
    with pytest.raises(zhipai.InvalidCardError, match='"9C 9C"'):
        state().apply_action("Ascend 9C 9C")
    assert repr(zhipai.rules("baohuang", bombs="on")) == "Rules('baohuang', bombs='on')"
    assert repr(zhipai.rules("baohuang")) == "Rules('baohuang')"
    # Move generation names what the hand lacks.
    assert "BJ ×3 (holds 2)" in bh.play_reason("BJ BJ 3S", "BJ BJ BJ")
