"""zhipai.evaluate and `zhipai evaluate`, on the engine's internal toy coin game.

The toy deal: one deck without jokers, 4 seats of 12 cards, kitty 4. Rolling out: 10 coin flips,
each ace the evaluated seat keeps (after its forced first action discards cards) adds 10 points
to the heads rate (50% + 10% per ace); column `score` = aces in the kitty, `greedy` = the dealer.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest
import zhipai
from zhipai import _core
from zhipai.cli import main

ev_module = importlib.import_module("zhipai.evaluate")  # `zhipai.evaluate` is the function

HAND = "AS AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"


@pytest.fixture
def toy(monkeypatch, test_hooks):
    monkeypatch.setattr(ev_module, "_engine", lambda rules: (lambda **kw: _core._evaluate_toy(**kw)))


def ev(samples=3000, **kw):
    kw.setdefault("progress", False)
    kw.setdefault("seat", 1)
    return zhipai.evaluate("gongzhu", hand=kw.pop("hand", HAND), samples=samples, **kw)


def test_candidates_are_compared_on_the_same_deals(toy):
    r = ev(candidates=[None, "AS", "AS AH"], dealer=2)
    assert r.candidates == ["policy", "AS", "AS AH"] and len(r) == 3000
    # same sampled deal for every candidate: aces in the kitty agree sample by sample
    assert np.array_equal(r.outcomes(0)["score"], r.outcomes("AS AH")["score"])
    assert (r.outcomes(1)["greedy"] == 2).all()  # the dealer reached the game
    rows = r.compare("heads")
    # 10 flips at 70%, 60%, 50%: means 7, 6, 5 (3000 samples: within ±0.15)
    for row, mean in zip(rows, [7, 6, 5]):
        assert abs(row["mean"] - mean) < 0.15
    # Paired difference: excludes 0, and its CI is narrower than that of a difference between
    # independent runs, sqrt(w0² + w2²) (expected ratio: per flip var 0.16 vs 0.21 + 0.25 → 0.59).
    d = rows[2]
    width = lambda ci: ci[1] - ci[0]  # noqa: E731
    assert d["diff_ci95"][1] < 0
    assert width(d["diff_ci95"]) < 0.75 * np.hypot(width(rows[0]["ci95"]), width(d["ci95"]))
    assert r.best("heads") == "policy"
    text = str(r)
    assert "seat 1, 3000 samples" in text and "vs first" in text and "AS AH" in text


def test_knowledge_constrains_the_samples(toy):
    # Unknown: the other two aces among 40 cards, 4 of which go to the kitty → E[aces] = 0.2.
    free = ev(samples=20_000).summary()["score"].mean
    assert abs(free - 0.2) < 0.02
    assert ev(samples=300, known={"hands": {0: "AD AC"}}).summary()["score"].max == 0
    voids = {0: "AD AC", 2: "AD AC", 3: "AD AC"}
    assert ev(samples=300, known={"voids": voids}).summary()["score"].min == 2
    assert ev(samples=300, known={"kitty": "AD"}).summary()["score"].min == 1
    # a suit letter voids the whole suit: seats 0, 2, 3 hold no diamonds → all in the kitty? No:
    # 13 diamonds cannot fit a 4-card kitty, so that knowledge is impossible.
    with pytest.raises(zhipai.ImpossibleDealError):
        ev(samples=10, known={"voids": {0: "D", 2: "D", 3: "D"}})


def test_deterministic_for_any_threads(toy):
    a = ev(samples=500, candidates=[None, "AH"], threads=1)
    b = ev(samples=500, candidates=[None, "AH"], threads=2, chunk_size=7)
    for c in (0, 1):
        for col in a.columns:
            assert np.array_equal(a.outcomes(c)[col], b.outcomes(c)[col])


@pytest.mark.parametrize(
    ("kwargs", "exc", "needle"),
    [
        ({"hand": "AS AH"}, zhipai.InvalidValueError, "seat 1 holds 12"),
        ({"seat": 4}, zhipai.InvalidValueError, "seat 4"),
        ({"seat": -1}, zhipai.InvalidValueError, "seat -1: expected a seat of the game, 0 to 3"),
        ({"samples": 0}, zhipai.InvalidValueError, "samples 0"),
        ({"policy": "smart"}, zhipai.InvalidValueError, "smart"),
        ({"dealer": 9}, zhipai.InvalidValueError, "dealer 9"),
        ({"candidates": ["KD"]}, zhipai.IllegalPlayError, "KD"),
        ({"hand": HAND.replace("JS", "XX")}, zhipai.InvalidCardError, "XX"),
        ({"known": {"hands": {0: "AS"}}}, zhipai.ImpossibleDealError, ""),
        ({"known": {"walls": {}}}, zhipai.InvalidValueError, "walls"),
    ],
)
def test_bad_input_names_the_value(toy, kwargs, exc, needle):
    with pytest.raises(exc, match=needle or None):
        ev(**{"samples": 10, **kwargs})


def test_voids_accept_a_run_of_suit_letters(toy):
    a = ev(samples=200, known={"voids": {0: "D C"}}, seed=4)
    b = ev(samples=200, known={"voids": {0: "DC"}}, seed=4)
    assert all(np.array_equal(a.outcomes()[c], b.outcomes()[c]) for c in a.columns)
    assert main(["evaluate", "gongzhu", "--hand", HAND, "--seat", "1", "-n", "50", "--void", "0:DC", "-q"]) == 0


def test_no_completed_samples_prints_no_table():
    raw = {"columns": ["score"], "docs": ["aces"], "candidates": [None, "AS"], "requested": 100,
           "completed": 0, "interrupted": True, "data": [np.zeros(0, np.int32)] * 2}
    text = str(ev_module.Evaluation(raw, preset="gongzhu", seat=1, policy="random", seed=0))
    assert "no completed samples" in text and "nan" not in text and len(text.splitlines()) == 2


def test_unknown_candidate_and_column(toy):
    r = ev(samples=10)
    with pytest.raises(KeyError, match="KS"):
        r.outcomes("KS")
    with pytest.raises(KeyError, match="nope"):
        r.compare("nope")


def test_a_hand_of_the_wrong_size_is_named():
    # Every game evaluates hands now (Shengji since its play_from_deal): the hand size is checked.
    with pytest.raises(zhipai.InvalidValueError, match="holds 25"):
        zhipai.evaluate("tractor", 0, "AS KS", samples=5, progress=False)


def test_cli_evaluate(toy, capsys):
    rc = main(["evaluate", "gongzhu", "--hand", HAND, "--seat", "1", "-n", "500", "-c", "policy", "-c", "AS",
               "--void", "0:D", "--dealer", "2", "-q"])
    out = capsys.readouterr().out
    assert rc == 0 and "seat 1, 500 samples" in out and "AS" in out


def test_cli_evaluate_errors_exit_2(capsys):
    assert main(["evaluate", "gongzhu", "--hand", HAND, "--void", "D"]) == 2
    assert "--void 'D'" in capsys.readouterr().err
    assert main(["evaluate", "gongzhu", "--hand", HAND, "--known", "H"]) == 2
    err = capsys.readouterr().err
    assert "--known 'H'" in err and "2:H" not in err
    p = subprocess.run([sys.executable, "-m", "zhipai.cli", "evaluate", "tractor", "--hand", "AS"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "invalid hand AS" in p.stderr


HONG_WU_HAND = "BJ SJ 5H 5H AS AS KS QS JS 10S 9S 8S AH KH QH JH 10H AD KD QD JD 10D AC KC QC"


def test_real_game_hook_hong_wu():
    # Hong Wu implements DealSimulator::play_from_deal: same columns as simulate, deterministic
    # for any threads, and knowledge no deal satisfies is refused.
    a = zhipai.evaluate("hong_wu", 0, HONG_WU_HAND, samples=60, dealer=0, threads=1, progress=False)
    b = zhipai.evaluate("hong_wu", 0, HONG_WU_HAND, samples=60, dealer=0, threads=2, chunk_size=7, progress=False)
    # The columns of simulate, then what the seat gains (the dealer's or an attacker's result).
    assert len(a) == 60 and a.columns == [*zhipai.simulate("hong_wu", 1, progress=False).columns, "seat_return"]
    for col in a.columns:
        assert np.array_equal(a.outcomes(0)[col], b.outcomes(0)[col]), col
    with pytest.raises(zhipai.ImpossibleDealError):
        three_big_jokers = "BJ BJ BJ SJ 5H AS AS KS QS JS 10S 9S 8S AH KH QH JH 10H AD KD QD JD 10D AC KC"
        zhipai.evaluate("hong_wu", 0, three_big_jokers, samples=5, progress=False)


def test_a_dealer_buries_kitty_cards_it_knows() -> None:
    # Dealer seat 0 with trump known; the kitty it picked up holds both side aces.
    hand = "2S 7S 8S 9S 5H 6H 9H 9H 10H JH 2D 2D 3D 4D 4D 6D 7D AD AD 3C 4C JC QC SJ SJ"
    kitty = "4S QS AS 8H 3C 8C 9C AC"
    keep, aces = "4S 7S 8S 6H 8H 3C 3C 4C", "4S 7S AS 6H 3C 3C 4C AC"
    ev = zhipai.evaluate("tractor", 0, hand, known={"kitty": kitty}, candidates=[keep, aces], samples=30,
                         seed=3, dealer=0, level="2", trump="D", policy="greedy")
    assert list(ev.played_shares().values()) == [1.0, 1.0]  # both burials made in every sample
    with pytest.raises(zhipai.IllegalPlayError, match="does not hold"):
        zhipai.evaluate("tractor", 0, hand, candidates=[aces], samples=3, dealer=0, level="2", trump="D")
    with pytest.raises(zhipai.IllegalPlayError, match="does not hold"):  # only the dealer picks it up
        zhipai.evaluate("tractor", 1, hand, known={"kitty": kitty}, candidates=[aces], samples=3, dealer=0,
                        level="2", trump="D")
