"""Shengji greedy policy and Monte Carlo hand evaluation (shengji.md §2, §4-§8).

Greedy rules: rust/zhipai-core/src/games/shengji/policy.rs. Evaluation hook: `play_from_deal` in
games/shengji/state.rs (a candidate is a card list: "" = pass at the first declaration chance,
kitty-size cards while dealer = the burial, anything else = the first play).
"""

from __future__ import annotations

import math

import zhipai
from zhipai.cli import main


def mean_se(values) -> tuple[float, float]:
    n = len(values)
    m = sum(values) / n
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var / n)


def test_greedy_simulation_runs_and_is_reproducible():
    rules = zhipai.rules("tractor")
    a = zhipai.simulate(rules, deals=200, policy="greedy", seed=5, progress=False)
    b = zhipai.simulate(rules, deals=200, policy="greedy", seed=5, progress=False)
    pa, pb = a.stats("attacker_points"), b.stats("attacker_points")
    assert pa == pb
    assert pa["count"] == 200 and pa["sum"] % 5 == 0
    # At most 25 tricks (pairs and tractors take several cards); the greedy player never throws.
    assert a.stats("tricks")["max"] <= 25 and a.stats("failed_throws")["max"] == 0


def test_greedy_differs_from_random():
    rules = zhipai.rules("tractor")
    g = zhipai.simulate(rules, deals=400, policy="greedy", seed=1, progress=False)
    r = zhipai.simulate(rules, deals=400, policy="random", seed=1, progress=False)
    # Random leaders throw (and fail) often; the greedy player never throws.
    assert r.stats("failed_throws")["sum"] > 100
    assert g.stats("failed_throws")["sum"] == 0


def test_cli_simulate_greedy(capsys):
    assert main(["simulate", "tractor", "--policy", "greedy", "-n", "50", "--seed", "2"]) == 0
    assert "attacker_points" in capsys.readouterr().out


STRONG = "BJ BJ SJ SJ 2S 2S 2H 2H 2D 2D 2C 2C AS AS KS KS QS QS JS JS 10S 10S 9S 9S 8S"
WEAK = "3H 3H 4H 4D 6D 7D 8D 9C 3C 4C 6C 7C 8C 9C 3D 4S 6S 7S 8S 9S 6H 7H 8H 9H 9D"


def evaluate(hand, **kw):
    kw.setdefault("samples", 300)
    kw.setdefault("seed", 3)
    kw.setdefault("progress", False)
    return zhipai.evaluate("tractor", seat=0, hand=hand, dealer=0, **kw)


def test_a_strong_dealer_hand_concedes_fewer_points():
    strong = evaluate(STRONG).outcomes()["attacker_points"].tolist()
    weak = evaluate(WEAK).outcomes()["attacker_points"].tolist()
    (ms, ss), (mw, sw) = mean_se(strong), mean_se(weak)
    assert mw - ms > 3 * math.hypot(ss, sw), (ms, mw)
    # The dealer's team keeps the deal when holding every joker and level card.
    assert ms < 80


def test_candidates_force_the_burial_and_the_first_lead():
    burial = "3H 3H 4H 4D 6D 7D 8D 9C"  # 8 cards = the kitty: buried by the dealer
    mixed = "3H 3C"  # not 8 cards: the dealer's first lead, never legal (two suits, §4.3)
    r = evaluate(WEAK, candidates=[None, burial, "3C"], samples=200)
    assert r.candidates == ["policy", burial, "3C"]
    kitty = r.outcomes(burial)["kitty_points"]
    assert (kitty == 0).all(), "the forced burial has no points"
    assert len(r.outcomes("3C")["attacker_points"]) == 200
    assert r.played_shares() == {"policy": 1.0, burial: 1.0, "3C": 1.0}
    # An illegal lead is not played in any sample (the policy leads): counted, not an abort.
    assert evaluate(WEAK, candidates=[mixed], samples=10).played_shares() == {mixed: 0.0}


def test_evaluation_is_reproducible():
    a = evaluate(STRONG, samples=100, seed=9).outcomes()["attacker_points"]
    b = evaluate(STRONG, samples=100, seed=9).outcomes()["attacker_points"]
    assert (a == b).all()
