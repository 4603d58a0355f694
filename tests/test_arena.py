"""`zhipai.arena` (duplicate-deal tournaments) and players by name wherever a policy goes.

* the statistics against a hand computation on a tiny fixed data set;
* the Rust path (`_core._arena`, `_core._simulate_players`) against the Python loop over
  `Game.new_deal(seed, i)` + `apply_builtin(name)`: the same lineups, returns and rows;
* identical results for any thread count and on Ray (the in-driver fake cluster of
  tests/test_ray_backend.py, and a local Ray cluster when Ray is installed);
* bad policies and parameters named; the JSON shape; the command line.

Tests that need a search player (`pimc`, `ismcts`) run in the first game whose determinisation
is available (`search_preset`) and are skipped until one is.
"""

from __future__ import annotations

import _thread
import importlib
import json
import math
import sys
import threading
import warnings

import numpy as np
import pytest
import zhipai
from test_ray_backend import InlineRay
from zhipai import _core
from zhipai.cli import main
from zhipai.policy import play_deal

arena_module = importlib.import_module("zhipai.arena")
simulate_module = importlib.import_module("zhipai.simulate")
seats_module = importlib.import_module("zhipai._seats")

PRESETS = ["tractor", "hong_wu", "gongzhu", "baohuang"]


def first_move(observation, legal_moves):
    return legal_moves[0]


def search_available(preset):
    try:
        zhipai.Game(preset).new_deal(0, 0).builtin_move("pimc(worlds=1,rollout=random)")
        return True
    except zhipai.InvalidOptionError:
        return False


@pytest.fixture(scope="module")
def search_preset():
    """A game whose search players work (gongzhu first); skip while none has determinisation."""
    for preset in ["gongzhu", "hong_wu", "tractor", "baohuang"]:
        if search_available(preset):
            return preset
    pytest.skip("search players need a game's determinisation (seat_view / with_hidden), not merged yet")


# --- the statistics on a hand-computed data set ------------------------------------------

#: R[l][seat] = returns of deals 0, 1, 2; lineups A B A B and B A B A.
HAND = {
    "lineups": [[0, 1, 0, 1], [1, 0, 1, 0]],
    "returns": [
        [4, 0, -2], [-1, 3, 0], [2, 0, -2], [-3, 1, 0],   # lineup 0, seats 0..3
        [1, -2, 0], [2, 2, 1], [-1, 0, 0], [0, 2, 3],     # lineup 1
    ],
    "clock": [(0.5, 100), (3.0, 200)],
    "requested": 3,
    "completed": 3,
    "interrupted": False,
    "exception": None,
}


def hand_result():
    raw = dict(HAND, returns=[np.array(r, dtype=np.int32) for r in HAND["returns"]])
    return arena_module.ArenaResult(raw, preset="gongzhu", names=["A", "B"], seed=7)


def test_statistics_equal_the_hand_computation():
    r = hand_result()
    z = 1.959963984540054
    # A holds (lineup 0: seats 0, 2) and (lineup 1: seats 1, 3): per deal (4+2+2+0)/4 = 2,
    # (0+0+2+2)/4 = 1, (-2-2+1+3)/4 = 0 -> mean 1, sd 1.
    a, b = r.policies
    assert np.allclose(r.deal_means("A"), [2, 1, 0])
    assert a.mean_return == pytest.approx(1.0)
    assert a.ci95 == pytest.approx((1 - z / math.sqrt(3), 1 + z / math.sqrt(3)))
    # B: (-1-3+1-1)/4 = -1, (3+1-2+0)/4 = 0.5, 0 -> mean -1/6, sd of [-1, 0.5, 0].
    assert np.allclose(r.deal_means(1), [-1, 0.5, 0])
    sd_b = np.std([-1, 0.5, 0], ddof=1)
    assert b.mean_return == pytest.approx(-1 / 6)
    assert b.ci95 == pytest.approx((-1 / 6 - z * sd_b / math.sqrt(3), -1 / 6 + z * sd_b / math.sqrt(3)))
    assert (a.seats, b.seats) == (4, 4)
    # Per lineup: A's mean - B's mean. Lineup 0: 3-(-2)=5, 0-2=-2, -2-0=-2; lineup 1: 1-0=1,
    # 2-(-1)=3, 2-0=2. Per deal (mean of the lineups): 3, 0.5, 0.
    (pair,) = r.pairs
    assert (pair.a, pair.b) == ("A", "B")
    assert np.allclose(r.deal_diffs("A", "B"), [3, 0.5, 0])
    sd = np.std([3, 0.5, 0], ddof=1)
    assert pair.mean_diff == pytest.approx(3.5 / 3)
    assert pair.ci95 == pytest.approx((3.5 / 3 - z * sd / math.sqrt(3), 3.5 / 3 + z * sd / math.sqrt(3)))
    assert (pair.wins, pair.draws, pair.losses) == (4, 0, 2)
    # Elo, two policies: 1500 ± 200·log10((4 + 1/2) / (2 + 1/2)) (one virtual draw).
    half = 200 * math.log10(4.5 / 2.5)
    assert r.elo == pytest.approx({"A": 1500 + half, "B": 1500 - half})
    assert a.elo == pytest.approx(1500 + half)
    # Clock: seconds / decisions per policy.
    assert (a.seconds_per_decision, b.seconds_per_decision) == (0.005, 0.015)


def test_bradley_terry_solves_the_likelihood_equations_and_handles_draws():
    # 3 policies; wins[a, b] with draws already split. The MLE (prior included) satisfies, for
    # every a: sum_b w_ab = sum_b n_ab * pi_a / (pi_a + pi_b).
    wins = np.array([[0, 30, 12.5], [10, 0, 20], [7.5, 5, 0]])
    elo = arena_module.bradley_terry(wins)
    assert np.mean(elo) == pytest.approx(1500)
    pi = 10 ** ((elo - 1500) / 400)
    w = wins + 0.5 * (1 - np.eye(3))
    n = w + w.T
    for a in range(3):
        expected = sum(n[a, b] * pi[a] / (pi[a] + pi[b]) for b in range(3) if b != a)
        assert w[a].sum() == pytest.approx(expected, rel=1e-9)
    assert elo[0] > elo[1] > elo[2]
    # A policy that wins every comparison gets a finite rating (the prior); equal records tie.
    assert np.all(np.isfinite(arena_module.bradley_terry(np.array([[0, 50], [0, 0]]))))
    assert arena_module.bradley_terry(np.array([[0, 5], [5, 0]])) == pytest.approx([1500, 1500])


def test_draws_count_half_and_lineup_means_average_several_seats():
    raw = dict(HAND, returns=[np.zeros(3, dtype=np.int32) for _ in range(8)])
    r = arena_module.ArenaResult(raw, preset="gongzhu", names=["A", "B"], seed=0)
    (pair,) = r.pairs
    assert (pair.wins, pair.draws, pair.losses, pair.mean_diff) == (0, 6, 0, 0)
    assert r.elo == {"A": 1500.0, "B": 1500.0}


def test_json_shape_and_table():
    r = hand_result()
    d = json.loads(r.to_json())
    assert list(d)[:4] == ["preset", "deals", "policies", "pairs"]
    assert (d["preset"], d["deals"], d["seed"], d["lineups"]) == ("gongzhu", 3, 7, [[0, 1, 0, 1], [1, 0, 1, 0]])
    for p in d["policies"]:
        assert {"name", "mean_return", "ci95", "seconds_per_decision"} <= set(p)
        assert isinstance(p["ci95"], list) and len(p["ci95"]) == 2
    assert [p["name"] for p in d["policies"]] == ["A", "B"]
    (q,) = d["pairs"]
    assert {"a", "b", "mean_diff", "ci95"} <= set(q) and (q["a"], q["b"]) == ("A", "B")
    assert q["mean_diff"] == pytest.approx(3.5 / 3)
    text = str(r)
    assert "gongzhu arena: 3 duplicate deals" in text and "ABAB, BABA" in text
    assert "A - B" in text and "1.167" in text and "1551" in text
    # One deal: no CI (None in JSON, strict JSON); no deal: "no completed deals".
    one = dict(HAND, returns=[np.array(x[:1], dtype=np.int32) for x in HAND["returns"]], completed=1,
               interrupted=True)
    r1 = arena_module.ArenaResult(one, preset="gongzhu", names=["A", "B"], seed=7)
    d1 = json.loads(r1.to_json())
    assert d1["policies"][0]["ci95"] == [None, None] and d1["interrupted"] is True
    none = arena_module._empty_raw([[0, 1, 0, 1], [1, 0, 1, 0]], 4, 2, 10)
    r0 = arena_module.ArenaResult(none, preset="gongzhu", names=["A", "B"], seed=7)
    assert "no completed deals" in str(r0) and json.loads(r0.to_json())["deals"] == 0


def test_arena_runs_the_engine_and_reports_its_result(monkeypatch):
    seen = {}

    def fake(rules, names):
        def run(**kw):
            seen.update(kw, names=names)
            return dict(HAND, returns=[np.array(x, dtype=np.int32) for x in HAND["returns"]])
        return run

    monkeypatch.setattr(arena_module, "_engine", fake)
    r = zhipai.arena("gongzhu", [" Greedy", "random"], deals=3, seed=7, threads=2, progress=False)
    assert seen["names"] == ["greedy", "random"] and (seen["deals"], seen["seed"], seen["threads"]) == (3, 7, 2)
    assert r.names == ["greedy", "random"]
    assert r.policies[0].mean_return == pytest.approx(1.0)


# --- the real engine ---------------------------------------------------------------------


def python_loop(preset, entries, deals, seed):
    """The arena's Python loop on names (the path callables take)."""
    rules = zhipai.rules(preset)
    lineups = [list(x) for x in _core._arena_lineups(rules, len(entries))]
    make = lambda raw: arena_module.ArenaResult(raw, preset=preset, names=list(entries), seed=seed)  # noqa: E731
    return arena_module._python_loop(rules, list(entries), deals, seed, None, lineups, make)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("k", [2, 3])
def test_python_loop_returns_equal_the_rust_arena(preset, k):
    entries = ["random", "greedy", "random"][:k]
    rust = zhipai.arena(preset, entries, deals=12, seed=4, progress=False)
    loop = python_loop(preset, entries, 12, 4)
    assert rust.lineups == loop.lineups
    assert rust.returns.dtype == loop.returns.dtype == np.int32
    assert rust.returns.shape == (len(rust.lineups), 5 if preset == "baohuang" else 4, 12)
    np.testing.assert_array_equal(rust.returns, loop.returns)
    assert [d for _, d in rust.clock] == [d for _, d in loop.clock]  # the same decisions


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("k", [2, 3])
def test_self_play_differences_are_exactly_zero(preset, k):
    # Identical policies play identical deals in every lineup; each policy's seats cover every
    # seat equally often over the lineups, so every difference is 0 — exactly (integer sums).
    r = zhipai.arena(preset, ["greedy"] * k, deals=20, seed=2, progress=False)
    assert r.names == ["greedy", "greedy#2", "greedy#3"][:k]
    for q in r.pairs:
        assert (q.mean_diff, q.ci95) == (0.0, (0.0, 0.0)), (q.a, q.b)
    if (5 if preset == "baohuang" else 4) % k == 0:  # equal seats per lineup: equal records too
        assert all(e == pytest.approx(1500) for e in r.elo.values())


def test_every_policy_holds_every_seat_and_lineups_come_from_rust():
    assert zhipai.arena("gongzhu", ["random", "greedy"], 2, progress=False).lineups == [[0, 1, 0, 1], [1, 0, 1, 0]]
    for preset, n in (("tractor", 4), ("baohuang", 5)):
        for k in range(2, n + 1):
            lineups = _core._arena_lineups(zhipai.rules(preset), k)
            for p in range(k):
                assert all(any(lineup[s] == p for lineup in lineups) for s in range(n)), (preset, k, p)
    with pytest.raises(zhipai.InvalidValueError, match="2 to 4"):
        _core._arena_lineups(zhipai.rules("tractor"), 5)


def test_a_python_policy_plays_its_seats_through_the_loop():
    r = zhipai.arena("gongzhu", [first_move, "greedy"], deals=6, seed=2, progress=False)
    assert r.names[0].endswith("first_move") and r.completed == 6
    # Lineup 0 of deal i is play_deal with the callable at seats 0 and 2 (the same loop).
    game = zhipai.Game("gongzhu")
    for i in range(6):
        state = game.new_deal(2, i)
        policies = [first_move, "greedy", first_move, "greedy"]
        while not state.is_terminal():
            zhipai.policy.play_turn(state, policies, 2, i)
        assert list(r.returns[0, :, i]) == [int(x) for x in state.returns()]
    assert r.clock[0][1] > 0 and r.clock[1][1] > 0


def test_results_do_not_depend_on_threads():
    one = zhipai.arena("tractor", ["random", "greedy"], deals=60, seed=9, threads=1, progress=False)
    two = zhipai.arena("tractor", ["random", "greedy"], deals=60, seed=9, threads=2, progress=False)
    np.testing.assert_array_equal(one.returns, two.returns)
    assert json.loads(one.to_json())["pairs"] == json.loads(two.to_json())["pairs"]


def test_greedy_beats_random_in_gongzhu_sanity_check():
    r = zhipai.arena("gongzhu", ["random", "greedy"], deals=200, seed=1, progress=False)
    rnd, greedy = r.policies
    assert greedy.mean_return > rnd.mean_return
    assert r.pairs[0].mean_diff < 0 and r.elo["greedy"] > r.elo["random"]


def test_progress_false_keeps_the_prefix_and_ctrl_c_raises_with_it():
    full = zhipai.arena("gongzhu", ["random", "greedy"], deals=2000, seed=5, threads=1, progress=False)
    part = zhipai.arena("gongzhu", ["random", "greedy"], deals=2_000_000, seed=5, threads=2,
                        progress=lambda done, total: done < 200)
    assert part.interrupted and 0 < part.completed < 2_000_000
    n = min(part.completed, 2000)
    np.testing.assert_array_equal(part.returns[:, :, :n], full.returns[:, :, :n])
    assert "interrupted" in part.title()
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    with pytest.raises(zhipai.SimulationInterrupted) as info:
        zhipai.arena("gongzhu", ["random", "greedy"], deals=5_000_000, seed=5, threads=2, progress=False)
    timer.cancel()
    res = info.value.result
    assert isinstance(res, zhipai.ArenaResult) and res.interrupted and 0 < res.completed < 5_000_000
    n = min(res.completed, 2000)
    np.testing.assert_array_equal(res.returns[:, :, :n], full.returns[:, :, :n])


def test_python_loop_progress_stop_and_policy_errors_keep_the_prefix():
    r = zhipai.arena("gongzhu", [first_move, "random"], deals=50, seed=1,
                     progress=lambda done, total: done < 3)
    assert r.interrupted and 3 <= r.completed < 50

    calls = {"n": 0}

    def breaks_later(obs, moves):
        calls["n"] += 1
        if calls["n"] > 60:
            raise ValueError("tired")
        return moves[0]

    with pytest.raises(zhipai.PolicyError, match="raised ValueError: tired") as info:
        zhipai.arena("gongzhu", [breaks_later, "random"], deals=50, seed=1, progress=False)
    assert isinstance(info.value.result, zhipai.ArenaResult) and info.value.result.completed < 50


@pytest.mark.parametrize(
    ("policies", "needle"),
    [
        (["random"], "takes 2 to 4 policies, got 1"),
        (["random"] * 5, "takes 2 to 4 policies, got 5"),
        ("random", "expected a list of 2 to 4 policies"),
        (["random", "alphazero"], "invalid policy 'alphazero' (policies[1]): expected random, greedy"),
        (["pimc(worlds=0)", "random"], "invalid policy 'pimc(worlds=0)' (policies[0]): "),
        (["pimc(depth=3)", "random"], '"depth"'),
        (["ismcts(c=-1)", "random"], "from 0 to 100"),
        (["greedy(x=1)", "random"], "only pimc"),
        (["random", 42], "invalid policy 42 (policies[1])"),
        # A space inside a token is refused, never dropped (worlds=1 0 was read as 10).
        (["pimc(worlds=1 0)", "random"], "holds a space"),
        (["gre edy", "random"], "holds a space"),
    ],
)
def test_bad_policies_and_parameters_are_named(policies, needle):
    with pytest.raises(zhipai.InvalidValueError) as info:
        zhipai.arena("gongzhu", policies, deals=2, progress=False)
    assert needle in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [({"deals": 0}, "deals 0"), ({"threads": 0}, "threads 0"), ({"seed": -1}, "seed"),
     ({"progress": "yes"}, "progress 'yes'"), ({"backend": "dask"}, "backend 'dask'"),
     ({"chunk_deals": 5}, "only used with backend='ray'")],
)
def test_bad_arguments_are_named(kwargs, needle):
    args = {"deals": 2, "progress": False, **kwargs}
    with pytest.raises(zhipai.InvalidValueError, match=needle):
        zhipai.arena("gongzhu", ["random", "greedy"], **args)


def test_returns_that_cannot_be_held_are_refused_up_front(monkeypatch):
    monkeypatch.setattr(importlib.import_module("zhipai._memory"), "available_bytes",
                        lambda: (10_000, "a test"))
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid deals 1000: the returns .* needs"):
        zhipai.arena("gongzhu", ["random", "greedy"], deals=1000, progress=False)


def test_a_python_policy_on_ray_is_refused():
    with pytest.raises(zhipai.InvalidValueError, match="backend='ray'"):
        zhipai.arena("gongzhu", [first_move, "greedy"], deals=2, backend="ray", progress=False)


# --- Ray ---------------------------------------------------------------------------------


def test_arena_on_the_fake_cluster_equals_local(monkeypatch):
    fake = InlineRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    here = zhipai.arena("hong_wu", ["random", "greedy", "random"], deals=250, seed=3, progress=False)
    seen = []
    there = zhipai.arena("hong_wu", ["random", "greedy", "random"], deals=250, seed=3,
                         progress=lambda done, total: seen.append(done), backend="ray", chunk_deals=60, threads=1)
    assert fake.submitted == 5 and seen[-1] == 250
    assert there.lineups == here.lineups and there.names == here.names == ["random", "greedy", "random#2"]
    np.testing.assert_array_equal(there.returns, here.returns)
    assert [d for _, d in there.clock] == [d for _, d in here.clock]
    assert json.loads(there.to_json())["pairs"] == json.loads(here.to_json())["pairs"]
    # Stopped after the first chunk: the completed prefix, as locally.
    stop = InlineRay()
    monkeypatch.setitem(sys.modules, "ray", stop)
    part = zhipai.arena("hong_wu", ["random", "greedy"], deals=250, seed=3, backend="ray", chunk_deals=60,
                        threads=1, progress=lambda done, total: done < 60)
    assert part.interrupted and part.completed == 60
    np.testing.assert_array_equal(part.returns, zhipai.arena("hong_wu", ["random", "greedy"], 60, seed=3,
                                                             progress=False).returns)
    # Stopped before any chunk: no deals, still a result.
    none = zhipai.arena("hong_wu", ["random", "greedy"], deals=250, seed=3, backend="ray", chunk_deals=60,
                        threads=1, progress=lambda done, total: False)
    assert none.completed == 0 and none.interrupted and "no completed deals" in str(none)


def test_simulate_per_seat_names_on_the_fake_cluster_equal_local(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", InlineRay())
    seats = ["greedy", "random", "random", "greedy"]
    for aggregate_only in (False, True):
        here = zhipai.simulate("gongzhu", 300, policy=seats, seed=2, aggregate_only=aggregate_only, progress=False)
        there = zhipai.simulate("gongzhu", 300, policy=seats, seed=2, aggregate_only=aggregate_only,
                                backend="ray", chunk_deals=70, threads=1, progress=False)
        assert there.policies == here.policies == seats
        for c in here.columns:
            if aggregate_only:
                assert there.stats(c) == here.stats(c), c
            else:
                np.testing.assert_array_equal(there[c], here[c])


@pytest.fixture(scope="module")
def cluster():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()


def test_arena_on_a_local_ray_cluster_equals_local(cluster, capsys):
    here = zhipai.arena("gongzhu", ["random", "greedy"], deals=120, seed=6, progress=False)
    there = zhipai.arena("gongzhu", ["random", "greedy"], deals=120, seed=6, progress=False, backend="ray",
                         chunk_deals=50)
    np.testing.assert_array_equal(there.returns, here.returns)
    args = ["arena", "gongzhu", "-p", "random", "-p", "greedy", "-n", "120", "-s", "6", "-q", "--json"]
    assert main(args) == 0
    local_json = json.loads(capsys.readouterr().out)
    assert main(args + ["--backend", "ray", "--chunk-deals", "40"]) == 0
    ray_json = json.loads(capsys.readouterr().out)
    assert ray_json["pairs"] == local_json["pairs"]
    assert [p["mean_return"] for p in ray_json["policies"]] == [p["mean_return"] for p in local_json["policies"]]


# --- players by name in simulate, apply_builtin, evaluate ---------------------------------


def test_simulate_per_seat_names_run_in_rust_and_equal_the_python_loop(monkeypatch):
    seats = ["greedy", "random", "greedy", "random"]
    loop = simulate_module._simulate_python(zhipai.rules("hong_wu"), 40, seats, 3, False, False)

    def boom(*a, **k):
        raise AssertionError("names per seat ran the Python loop")

    monkeypatch.setattr(simulate_module, "_simulate_python", boom)
    rust = zhipai.simulate("hong_wu", 40, policy=seats, seed=3, threads=2, progress=False)
    assert rust.columns == loop.columns and rust.policies == seats and rust.policy == "greedy/random/greedy/random"
    for c in rust.columns:
        np.testing.assert_array_equal(rust[c], loop[c])
    one = zhipai.simulate("hong_wu", 40, policy={0: "greedy", 2: "greedy", "others": "random"}, seed=3,
                          threads=1, progress=False)
    for c in rust.columns:
        np.testing.assert_array_equal(one[c], rust[c])
    raw = _core._simulate_players(zhipai.rules("hong_wu"), seats, 5, 3)
    assert len(raw["clock"]) == 4 and all(d > 0 for _, d in raw["clock"])


def test_a_uniform_builtin_list_takes_the_fast_path(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("the slow path ran")

    monkeypatch.setattr(simulate_module, "_simulate_python", boom)
    monkeypatch.setattr(seats_module, "run", boom)
    fast = zhipai.simulate("gongzhu", 20, policy="greedy", seed=1, progress=False)
    listed = zhipai.simulate("gongzhu", 20, policy=["greedy"] * 4, seed=1, progress=False)
    named = zhipai.simulate("gongzhu", 20, policy=" GREEDY ", seed=1, progress=False)
    for c in fast.columns:
        assert np.array_equal(listed[c], fast[c]) and np.array_equal(named[c], fast[c])
    assert listed.policy == named.policy == "greedy"


def test_per_seat_names_aggregate_in_blocks_exactly(monkeypatch):
    seats = ["random", "greedy", "random", "greedy"]
    rows = zhipai.simulate("tractor", 50, policy=seats, seed=8, progress=False)
    monkeypatch.setattr(seats_module, "AGGREGATE_BLOCK", 7)
    seen = []
    agg = zhipai.simulate("tractor", 50, policy=seats, seed=8, aggregate_only=True,
                          progress=lambda done, total: seen.append((done, total)))
    assert agg.aggregate_only and agg.completed == 50
    for c in rows.columns:
        assert agg.stats(c) == rows.stats(c), c
    assert seen[-1] == (50, 50) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    stopped = zhipai.simulate("tractor", 50, policy=seats, seed=8, aggregate_only=True,
                              progress=lambda done, total: done < 10)
    assert stopped.interrupted and 10 <= stopped.completed < 50


def test_bad_names_per_seat_are_named():
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid policy 'pimc\(worlds=0\)' for seat 2: "):
        zhipai.simulate("gongzhu", 2, policy={2: "pimc(worlds=0)", "others": "random"}, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid policy 'alphazero': expected random"):
        zhipai.simulate("gongzhu", 2, policy="alphazero", progress=False)


def test_apply_builtin_takes_names_and_names_bad_parameters():
    s = zhipai.Game("gongzhu").new_deal(1, 0)
    s.apply_builtin(" Greedy ")
    with pytest.raises(zhipai.InvalidValueError, match="worlds"):
        s.apply_builtin("pimc(worlds=0)")
    with pytest.raises(zhipai.InvalidValueError, match="iterations"):
        s.builtin_move("ismcts(iterations=ten)")


def test_evaluate_and_evaluate_position_name_bad_search_parameters():
    # Whole-hand evaluate takes search players (tests/test_evaluate_search.py): a bad one is named.
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid policy 'pimc\(worlds=0\)'"):
        zhipai.evaluate("gongzhu", seat=0, hand="2S", samples=2, policy="pimc(worlds=0)", progress=False)
    state = zhipai.Game("gongzhu").new_deal(1, 0)
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid policy 'pimc\(widen=-1\)'"):
        zhipai.evaluate_position(state, seat=0, samples=2, policy="pimc(widen=-1)", progress=False)


# --- search players (need the game's determinisation) ------------------------------------


def test_search_players_rust_equals_python_loop_and_threads(search_preset):
    entries = ["pimc(worlds=3,rollout=random,candidates=4)", "greedy"]
    rust = zhipai.arena(search_preset, entries, deals=2, seed=1, threads=2, progress=False)
    again = zhipai.arena(search_preset, entries, deals=2, seed=1, threads=1, progress=False)
    loop = python_loop(search_preset, [zhipai.policy.player_name(e) for e in entries], 2, 1)
    np.testing.assert_array_equal(rust.returns, loop.returns)
    np.testing.assert_array_equal(rust.returns, again.returns)
    assert rust.policies[0].seconds_per_decision > 0


def test_search_seats_in_simulate_equal_the_python_loop(search_preset):
    n = 5 if search_preset == "baohuang" else 4
    seats = ["ismcts(iterations=20,rollout=random)"] + ["random"] * (n - 1)
    rust = zhipai.simulate(search_preset, 2, policy=seats, seed=4, progress=False)
    game = zhipai.Game(search_preset)
    names = [zhipai.policy.player_name(p) for p in seats]
    for i in range(2):
        assert [int(rust[c][i]) for c in rust.columns] == play_deal(game, 4, i, names)
    uniform = zhipai.simulate(search_preset, 1, policy="pimc(worlds=2,rollout=random)", seed=4, progress=False)
    assert uniform.policies == [zhipai.policy.player_name("pimc(worlds=2,rollout=random)")] * n
    assert uniform.policy.startswith("pimc(worlds=2,rollout=random")


def test_cli_search_player(search_preset, capsys):
    assert main(["arena", search_preset, "-p", "pimc(worlds=2,rollout=random)", "-p", "random", "-n", "1", "-q",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["policies"][0]["name"].startswith("pimc(worlds=2")


# --- the command line --------------------------------------------------------------------


def test_cli_table_and_json(capsys):
    assert main(["arena", "gongzhu", "--policy", "random", "--policy", "greedy", "--deals", "30", "--seed", "1",
                 "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("gongzhu arena: 30 duplicate deals") and "A - B" in out and "Elo" in out
    assert main(["arena", "gongzhu", "-p", "random", "-p", "greedy", "-n", "30", "-s", "1", "-q", "--json"]) == 0
    out = capsys.readouterr().out
    d = json.loads(out)  # the JSON object only
    api = zhipai.arena("gongzhu", ["random", "greedy"], deals=30, seed=1, progress=False)
    assert d["pairs"] == json.loads(api.to_json())["pairs"] and d["deals"] == 30 and d["preset"] == "gongzhu"
    assert main(["arena", "tractor", "-p", "random", "-p", "greedy", "-n", "4", "-q", "-o", "decks=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 4
    # A Python policy from a module (the Python loop), against a named player.
    assert main(["arena", "gongzhu", "-p", "policy_fixtures:first_move", "-p", "greedy", "-n", "3", "-q",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["policies"][0]["name"].endswith("first_move") and d["deals"] == 3


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["-p", "random"], "at least two --policy"),
        (["-p", "random", "-p", "alphazero"], "invalid policy 'alphazero'"),
        (["-p", "random", "-p", "pimc(worlds=0)"], "worlds"),
        (["-p", "random", "-p", "greedy", "-n", "0"], "deals 0"),
        (["-p", "random", "-p", "greedy", "-o", "bogus=1"], "bogus"),
        (["-p", "random", "-p", "nosuchmodule_xyz:play"], "nosuchmodule_xyz"),
    ],
)
def test_cli_errors_are_one_line_exit_2(argv, needle, capsys):
    assert main(["arena", "gongzhu", "-q", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("zhipai: error: ") and needle in err and len(err.strip().splitlines()) == 1, err


def test_cli_simulate_takes_names_per_seat(capsys):
    assert main(["simulate", "gongzhu", "-n", "20", "-q", "-p", "random", "--policy-seat", "0=greedy",
                 "--policy-seat", "2=greedy"]) == 0
    captured = capsys.readouterr()
    assert "policy greedy/random/greedy/random" in captured.out and "ignored" not in captured.err
    # Names per seat run on threads: no note that --threads is ignored.
    assert main(["simulate", "gongzhu", "-n", "20", "-q", "-t", "2", "--policy-seat", "0=greedy"]) == 0
    assert "ignored" not in capsys.readouterr().err
    assert main(["simulate", "gongzhu", "-n", "2", "-q", "--policy-seat", "1=pimc(worlds=0)"]) == 2
    err = capsys.readouterr().err
    assert "invalid policy 'pimc(worlds=0)'" in err and len(err.strip().splitlines()) == 1


def test_concat_refuses_parts_of_other_arenas_and_bad_counts() -> None:
    a = zhipai.arena("gongzhu", ["random", "greedy"], deals=3, seed=1, progress=False)
    b = zhipai.arena("gongzhu", ["random", "greedy"], deals=2, seed=5, progress=False)
    c = zhipai.arena("gongzhu", ["random", "basic"], deals=2, seed=1, progress=False)
    joined = zhipai.ArenaResult.concat([a, a], 6)
    assert joined.completed == 6 and np.array_equal(joined.returns[:, :, 3:], a.returns)
    with pytest.raises(zhipai.InvalidValueError, match="seed 5 vs 1"):
        zhipai.ArenaResult.concat([a, b], 5)
    with pytest.raises(zhipai.InvalidValueError, match="policies"):
        zhipai.ArenaResult.concat([a, c], 5)
    with pytest.raises(zhipai.InvalidValueError, match="non-empty list"):
        zhipai.ArenaResult.concat([], 0)
    with pytest.raises(zhipai.InvalidValueError, match="requested 1"):
        zhipai.ArenaResult.concat([a], 1)
    assert a.to_dict()["options"]["decks"] == 1  # the rules travel with the result


def test_one_deal_prints_no_nan_confidence_intervals() -> None:
    # A CI needs two deals: the table says n/a instead of [nan, nan]; to_json gives null.
    res = zhipai.arena("gongzhu", ["random", "greedy"], deals=1, seed=1, progress=False)
    text = str(res)
    assert "nan" not in text and "n/a" in text
    assert json.loads(res.to_json())["policies"][0]["ci95"] == [None, None]


def test_a_player_parameter_given_twice_is_refused() -> None:
    with pytest.raises(zhipai.InvalidValueError, match='"worlds" is given twice'):
        zhipai.arena("gongzhu", ["pimc(worlds=2, worlds=3)", "greedy"], deals=2, seed=1, progress=False)


def test_more_than_two_policies_with_partners_warn() -> None:
    with pytest.warns(UserWarning, match="partners sit opposite"):
        zhipai.arena("tractor", ["random", "greedy", "basic"], deals=2, seed=1, progress=False)
    with pytest.warns(UserWarning, match="partners"):
        zhipai.arena(zhipai.rules("gongzhu", partnership=True), ["random", "greedy", "basic"], deals=2, seed=1,
                     progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zhipai.arena("gongzhu", ["random", "greedy", "basic"], deals=2, seed=1, progress=False)
        zhipai.arena("tractor", ["random", "greedy"], deals=2, seed=1, progress=False)


@pytest.mark.parametrize("name", ["greedy\u200b", "greedy\x00", "rand\x7fom"])
def test_invisible_characters_in_a_name_are_reported_once(name):
    """The core's prefix ``invalid policy "...": `` was kept when its quoting of such characters
    differed from json's: the message said "invalid policy" twice."""
    with pytest.raises(zhipai.InvalidValueError) as info:
        zhipai.policy.player_name(name)
    assert str(info.value).count("invalid policy") == 1, str(info.value)
