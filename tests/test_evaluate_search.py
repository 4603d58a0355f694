"""zhipai.evaluate (a whole hand) with a search player as the rollout policy, every game.

Kept fast: tiny searches (``worlds=2``, two candidates) on two or three samples.
"""

from __future__ import annotations

import _thread
import threading

import numpy as np
import pytest
import zhipai
from zhipai.cli import main

SEARCH = "pimc(worlds=2,candidates=2,widen=0)"
GAMES = ["tractor", "hong_wu", "gongzhu", "baohuang"]


def whole_hand(preset: str) -> tuple[int, str]:
    """A seat and its whole hand as evaluation takes it (Shengji: a non-dealer after dealing;
    Baohuang: the 44-card hand, seat 0)."""
    s = zhipai.Game(preset).new_deal(seed=3)
    if preset == "tractor":
        while s.phase == "dealing":
            s.apply_builtin("random")
        seat = (s.current_player() + 1) % 4
        return seat, s.observation(seat)["hand"]
    if preset == "baohuang":
        return 0, max((s.observation(q)["hand"] for q in range(5)), key=lambda h: len(h.split()))
    return 1, s.observation(1)["hand"]


def run(preset: str, policy: str, threads: int = 1, samples: int = 2, **kw) -> zhipai.Evaluation:
    seat, hand = whole_hand(preset)
    kw.setdefault("candidates", [None, ""])
    return zhipai.evaluate(preset, seat, hand, samples=samples, policy=policy, seed=4, threads=threads,
                           progress=False, **kw)


def table(ev: zhipai.Evaluation) -> dict[tuple[str, str], list[int]]:
    return {(c, k): ev.outcomes(c)[k].tolist() for c in ev.candidates for k in ev.columns}


@pytest.mark.parametrize("preset", GAMES)
def test_search_rollouts_are_reproducible_and_thread_independent(preset):
    a = run(preset, SEARCH, threads=1)
    b = run(preset, SEARCH, threads=2)
    assert a.completed == 2 and a.policy == "pimc(worlds=2,rollout=greedy,candidates=2,widen=0,threads=1)"
    assert table(a) == table(b)
    assert "seat_return" in a.columns and "candidate_played" in a.columns


@pytest.mark.parametrize("preset", GAMES)
def test_search_rollouts_are_not_the_builtin_ones(preset):
    # A random-rollout search plays other moves than greedy on the same sampled deals.
    search = run(preset, "pimc(worlds=2,rollout=random,candidates=2,widen=0)", samples=3)
    greedy = run(preset, "greedy", samples=3)
    assert search.columns == greedy.columns and table(search) != table(greedy)


def test_ismcts_and_a_known_declaration_shengji():
    seat, hand = whole_hand("tractor")
    kw = dict(samples=2, seed=1, progress=False, trump="H", level="5", dealer=seat)
    cards = hand.split()
    # The dealer's burial (8 cards), and a forced lead after the rollout policy's burial.
    cands = [None, " ".join(cards[:8]), cards[-1]]
    a = zhipai.evaluate("tractor", seat, hand, candidates=cands, policy="ismcts(iterations=8)", threads=1, **kw)
    b = zhipai.evaluate("tractor", seat, hand, candidates=cands, policy="ismcts(iterations=8)", threads=2, **kw)
    assert table(a) == table(b) and len(a.candidates) == 3
    assert a.outcomes(1)["candidate_played"].tolist() == [1, 1]


def test_builtin_names_keep_their_path():
    # The canonical spelling of a built-in name is the built-in policy: same numbers.
    assert table(run("gongzhu", " Greedy ")) == table(run("gongzhu", "greedy"))


@pytest.mark.parametrize(("policy", "needle"), [
    ("pimc(worlds=0)", r"invalid policy 'pimc\(worlds=0\)'.*worlds \"0\".*from 1 to"),
    ("ismcts(iterations=ten)", r"iterations \"ten\""),
    ("alphazero", r"invalid policy 'alphazero': expected random"),
    ("pimc(depth=3)", r"\"depth\""),
])
def test_bad_search_parameters_are_named(policy, needle):
    seat, hand = whole_hand("gongzhu")
    with pytest.raises(zhipai.InvalidValueError, match=needle):
        zhipai.evaluate("gongzhu", seat, hand, samples=2, policy=policy, progress=False)


def test_cli_evaluate_takes_a_search_policy(capsys):
    seat, hand = whole_hand("hong_wu")
    rc = main(["evaluate", "hong_wu", "--hand", hand, "--seat", str(seat), "-n", "2", "-t", "1", "-c", "policy",
               "-c", "pass", "--policy", "pimc(worlds=2, candidates=2)", "-q"])
    out = capsys.readouterr().out
    assert rc == 0 and "2 samples" in out and "policy pimc(worlds=2," in out
    assert main(["evaluate", "hong_wu", "--hand", hand, "-n", "2", "--policy", "pimc(worlds=0)", "-q"]) == 2
    assert "worlds" in capsys.readouterr().err


def test_ctrl_c_keeps_the_completed_prefix():
    seat, hand = whole_hand("gongzhu")
    kw = dict(candidates=[None, ""], policy=SEARCH, seed=4, progress=False)
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    with pytest.raises(zhipai.SimulationInterrupted) as info:
        zhipai.evaluate("gongzhu", seat, hand, samples=1_000_000, threads=2, **kw)
    timer.cancel()
    part = info.value.result
    assert part.interrupted and 0 < part.completed < 1_000_000
    n = min(part.completed, 20)
    full = zhipai.evaluate("gongzhu", seat, hand, samples=n, threads=1, **kw)
    for c in full.candidates:
        for k in full.columns:
            np.testing.assert_array_equal(part.outcomes(c)[k][:n], full.outcomes(c)[k])
