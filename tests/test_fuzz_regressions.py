"""Regression tests for what the fuzzers found (issue 15, "Fuzzing that keeps running"): the Rust
targets in ``fuzz/`` and the hypothesis suite ``tests/test_fuzz_api.py``. Each test failed on the
code before its fix.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import zhipai
from zhipai import baohuang, gongzhu, shengji, testing
from zhipai.cli import main


def test_the_mask_of_a_void_follower_of_a_long_throw_returns():
    """fuzz target ``apply``: ``legal_action_mask()`` listed every legal follow to build the mask
    of a follow being built card by card. A follower void in the led suit of a 12-card throw,
    with 3 decks, has 3.9 billion legal follows: the call never returned. (Run in a child
    process so that the old behaviour fails the test instead of hanging the suite.)"""
    code = textwrap.dedent("""
        import zhipai
        R = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        rest = [r + s for s in "HDC" for r in ["2"] + R] * 3 + ["2S"] * 3 + ["SJ", "BJ"] * 3
        rest.sort(key=lambda c: (c[-1], c))
        hands = [[r + "S" for r in R] * 3 + rest[:3], [], [], []]
        for i, c in enumerate(rest[3:-6]):
            hands[1 + i % 3].append(c)
        g = zhipai.Game(zhipai.rules("eighty_points", decks=3))
        s = g.new_deal(seed=1, hands=[" ".join(h) for h in hands], kitty=" ".join(rest[-6:]),
                       level="2", trump="H", dealer=0)
        s.apply("bury " + " ".join(rest[-6:]))
        s.apply("play " + " ".join(r + "S" for r in R))
        assert s.count_legal_moves() > 10**9
        mask = s.legal_action_mask()
        assert set(s.legal_actions()) == set(mask.nonzero()[0])
        s.apply_action(s.legal_actions()[0])
        print(int(mask.sum()))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == 39  # every card of the follower's 39 (one of each kind)


def test_cases_file_without_line_breaks_is_refused(tmp_path):
    """hypothesis (CLI): ``zhipai cases /dev/zero`` read one endless line."""
    big = tmp_path / "noline.jsonl"
    big.write_text("x" * ((1 << 20) + 10))
    assert main(["cases", str(big)]) == 2
    with pytest.raises(zhipai.FileError, match="longer than"):
        list(testing.read_cases(big))


@pytest.mark.skipif(not __import__("os").path.exists("/dev/zero"), reason="no /dev/zero")
def test_cases_from_dev_zero_is_refused():
    out = subprocess.run([sys.executable, "-m", "zhipai.cli", "cases", "/dev/zero"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "zhipai: error:" in out.stderr and "/dev/zero" in out.stderr


@pytest.mark.parametrize("call", [
    lambda: shengji.Mechanics(zhipai.rules("tractor")).check_follow("", "", ""),
    lambda: shengji.Mechanics(zhipai.rules("tractor")).count_follows("", "3S"),
    lambda: zhipai.Game(""),
    lambda: zhipai.simulate("", 1),
    lambda: baohuang.beats("", "9S"),
    lambda: shengji.Match(zhipai.rules("tractor")).play_hand(""),
    lambda: zhipai.Game("tractor").new_deal(seed=1).builtin_move(" "),
])
def test_an_empty_value_is_quoted_in_the_message(call):
    """hypothesis: messages such as ``invalid lead : expected a non-empty lead`` named nothing;
    an empty or blank value is now quoted (``invalid lead "": ...``)."""
    with pytest.raises(zhipai.ZhipaiError) as e:
        call()
    msg = str(e.value)
    assert '""' in msg or "''" in msg or '" "' in msg or "' '" in msg, msg


def test_a_record_that_is_not_json_is_named():
    """hypothesis: ``Game.from_json(text)`` said ``invalid deal record (text): not JSON``."""
    with pytest.raises(zhipai.InvalidValueError, match="'not a record'"):
        zhipai.Game.from_json("not a record")
    with pytest.raises(zhipai.InvalidValueError, match="''"):
        zhipai.Game.from_json("")
    with pytest.raises(zhipai.InvalidValueError, match=r"\(100000 characters\)"):
        zhipai.Game.from_json("x" * 100_000)


def test_cards_from_array_refuses_a_string():
    """hypothesis: a string was iterated as an array, naming one of its characters."""
    with pytest.raises(zhipai.InvalidValueError, match="'00'"):
        zhipai.cards_from_array("00")


@pytest.mark.parametrize("bad", [False, 0, "tractor"])
def test_position_functions_name_a_deal_that_is_not_a_state(bad):
    """hypothesis: ``position_view(False, 0)`` said ``invalid deal bool``."""
    for call in (lambda: zhipai.position_view(bad, 0), lambda: zhipai.evaluate_position(bad, 0, samples=2)):
        with pytest.raises(zhipai.InvalidValueError) as e:
            call()
        assert repr(bad) in str(e.value), str(e.value)


def test_a_blank_path_is_quoted(tmp_path):
    """hypothesis: ``SimResult.load("\\n\\n")`` printed the newlines themselves."""
    with pytest.raises(zhipai.FileError) as e:
        zhipai.SimResult.load("\n\n.csv")
    assert r"'\n\n.csv'" in str(e.value)


def test_a_file_name_too_long_is_a_file_error(tmp_path):
    """hypothesis: ``SimResult.save`` of a 300-character file name raised a plain ``OSError``
    (ENAMETOOLONG from the path check run before writing)."""
    res = zhipai.simulate("tractor", 2, seed=1, progress=False)
    path = tmp_path / ("x" * 300 + ".csv")
    with pytest.raises(zhipai.FileError, match="too long"):
        res.save(path)
    assert main(["simulate", "tractor", "-n", "2", "-q", "--out", str(path)]) == 2


@pytest.mark.parametrize("call", [
    lambda a: gongzhu.legal_plays(a),
    lambda a: gongzhu.score(a),
    lambda a: gongzhu.legal_plays("QS", suits_led_before=a),
])
def test_gongzhu_refuses_a_zero_dimensional_array(call):
    """hypothesis: a 0-d numpy array is an ``Iterable`` that cannot be iterated: plain
    ``TypeError: iteration over a 0-d array``."""
    with pytest.raises(zhipai.InvalidValueError, match=r"array\(3\)"):
        call(np.array(3))


def test_seat_policies_checks_the_number_of_players():
    """hypothesis: ``policy.seat_policies("random", None)`` raised a plain ``TypeError``."""
    for bad in (None, 0, "4", 2.0):
        with pytest.raises(zhipai.InvalidValueError, match="num_players"):
            zhipai.policy.seat_policies("random", bad)
    assert zhipai.policy.seat_policies("random", np.int64(4)) == ["random"] * 4


def test_gongzhu_trick_winner_names_the_plays():
    """hypothesis: ``gongzhu.trick_winner([])`` said ``invalid plays 0`` (their number)."""
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid plays \[\]"):
        gongzhu.trick_winner([])
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid plays \[2S, 3S, 4S, 5S, 6S\]"):
        gongzhu.trick_winner(["2S", "3S", "4S", "5S", "6S"])


@pytest.mark.parametrize("bad", [None, np.int64(3), "01", ["random"], {"x": 1}])
def test_play_deal_checks_its_policies(bad):
    """hypothesis: ``policy.play_deal(game, 0, 0, None)`` raised a plain ``TypeError``
    (``np.int64(3)``: ``IndexError``)."""
    with pytest.raises(zhipai.InvalidValueError):
        zhipai.policy.play_deal(zhipai.Game("tractor"), 0, 0, bad)
    with pytest.raises(zhipai.InvalidValueError, match="game"):
        zhipai.policy.play_deal("tractor", 0, 0, "random")
    assert len(zhipai.policy.play_deal(zhipai.Game("tractor"), 0, 0, "random")) > 0
