"""Python callables as policies: the step-wise states (`zhipai.Game(rules).new_deal`), their
observations, and `zhipai.simulate(..., policy=callable / per seat)` with its errors and CLI.

The expected rows come from the fast path (`policy="random"|"greedy"`, Rust `play_deal`), an
independent implementation of the deal loop: the step-wise states must reproduce them exactly.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter

import numpy as np
import pytest

import zhipai
from zhipai.cli import main
from zhipai.policy import seat_policies

import policy_fixtures

PRESETS = ["tractor", "eighty_points", "tractor_jj", "hong_wu", "gongzhu", "baohuang"]
CARD = re.compile(r"^(10|[2-9TJQKA])[SHDC]$|^[SB]J$")


def rows(result):
    return np.column_stack([result[c] for c in result.columns])


def play_with_builtin_text(game, seed, index, policy):
    """A deal played by `builtin_move` + `apply` (the text round trip a callable would use)."""
    s = game.new_deal(seed, index)
    while not s.is_terminal():
        s.apply(s.builtin_move(policy))
    return s.result_row()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_step_wise_states_reproduce_the_fast_path_rows(preset, policy):
    n = 25
    fast = rows(zhipai.simulate(preset, n, policy=policy, seed=11, progress=False))
    game = zhipai.Game(preset)
    stepped = np.array([play_with_builtin_text(game, 11, i, policy) for i in range(n)])
    np.testing.assert_array_equal(stepped, fast)
    # The Python loop of simulate (a per-seat list of built-ins) gives the same rows too.
    slow = zhipai.simulate(preset, n, policy=[policy] * game.num_players, seed=11, progress=False)
    np.testing.assert_array_equal(rows(slow), fast)
    assert slow.columns == game.columns


def test_two_deck_gongzhu_reproduces_too():
    rules = zhipai.rules("gongzhu", decks=2)
    fast = rows(zhipai.simulate(rules, 10, policy="random", seed=3, progress=False))
    slow = zhipai.simulate(rules, 10, policy=["random"] * 4, seed=3, progress=False)
    np.testing.assert_array_equal(rows(slow), fast)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_callable_for_one_seat_and_builtins_for_the_others(preset):
    seen = []

    def mine(obs, moves):
        seen.append(obs["seat"])
        assert obs["current_player"] == obs["seat"] and moves
        return moves[-1]

    n = 6
    a = zhipai.simulate(preset, n, policy={0: mine, "others": "greedy"}, seed=2, progress=False)
    assert set(seen) == {0}, "only seat 0 is asked"
    assert a.completed == n and a.policy.startswith("test_a_callable")
    seats = zhipai.Game(preset).num_players
    b = zhipai.simulate(preset, n, policy=[mine] + ["greedy"] * (seats - 1), seed=2, progress=False)
    np.testing.assert_array_equal(rows(a), rows(b))  # same seed, same rows: reproducible
    greedy = zhipai.simulate(preset, n, policy="greedy", seed=2, progress=False)
    assert not np.array_equal(rows(a), rows(greedy)), "seat 0's choices changed the deals"


def test_a_callable_for_every_seat_plays_whole_deals():
    r = zhipai.simulate("gongzhu", 20, policy=policy_fixtures.first_move, seed=0, progress=False)
    assert r.completed == 20 and r.policy == "first_move"
    assert (r["tricks"] == 13).all()
    assert (r["raw_0"] + r["raw_1"] + r["raw_2"] + r["raw_3"] != 0).any()


def test_progress_and_stop_in_the_python_loop():
    seen = []

    def slow(obs, moves):
        time.sleep(0.002)  # progress is reported about every 100 ms, as in the fast path
        return moves[0]

    r = zhipai.simulate(
        "gongzhu", 30, policy={0: slow, "others": "random"},
        progress=lambda done, total: (seen.append((done, total)), done < 5)[1],
    )
    assert seen and seen[-1][1] == 30
    assert r.interrupted and r.completed == seen[-1][0] < 30
    full = zhipai.simulate("gongzhu", r.completed, policy={0: policy_fixtures.first_move, "others": "random"},
                           progress=False)
    np.testing.assert_array_equal(rows(r), rows(full))  # the prefix equals a fresh run


def test_ctrl_c_in_a_policy_keeps_the_completed_prefix():
    calls = 0

    def interrupting(obs, moves):
        nonlocal calls
        calls += 1
        if calls == 200:
            raise KeyboardInterrupt
        return moves[0]

    with pytest.raises(zhipai.SimulationInterrupted) as e:
        zhipai.simulate("gongzhu", 50, policy=interrupting, progress=False)
    res = e.value.result
    assert 0 < res.completed < 50 and res.interrupted


def test_aggregate_only_in_the_python_loop():
    r = zhipai.simulate("hong_wu", 8, policy={1: policy_fixtures.first_move, "others": "random"},
                        aggregate_only=True, progress=False)
    full = zhipai.simulate("hong_wu", 8, policy={1: policy_fixtures.first_move, "others": "random"},
                           progress=False)
    assert r.summary()["score"].mean == pytest.approx(full["score"].mean())


# ----------------------------------------------------------------------------- errors


def test_an_illegal_move_names_the_move_the_seat_and_the_deal():
    def cheat(obs, moves):
        return "play BJ BJ BJ" if obs["phase"] == "playing" else moves[0]

    with pytest.raises(zhipai.IllegalPlayError, match=r"'play BJ BJ BJ'.*seat 2.*deal 0") as e:
        zhipai.simulate("tractor", 3, policy={2: cheat, "others": "random"}, progress=False)
    assert isinstance(e.value.__cause__, zhipai.ZhipaiError)


@pytest.mark.parametrize("bad", [None, 7, "not a move at all"])
def test_a_move_that_is_not_a_move_is_an_illegal_play(bad):
    with pytest.raises(zhipai.IllegalPlayError, match=re.escape(repr(bad)) + r".*seat 0.*deal 0"):
        zhipai.simulate("gongzhu", 2, policy={0: lambda o, m: bad, "others": "greedy"}, progress=False)


def test_a_policy_that_raises_is_chained_with_the_deal_index():
    def broken(obs, moves):
        if obs["tricks"] == 3:
            raise ValueError("boom")
        return moves[0]

    with pytest.raises(zhipai.PolicyError, match=r"seat 1 \(.*broken\) raised ValueError: boom \(deal 0") as e:
        zhipai.simulate("gongzhu", 2, policy={1: broken, "others": "random"}, progress=False)
    assert isinstance(e.value.__cause__, ValueError) and e.value.deal == 0 and e.value.seat == 1


@pytest.mark.parametrize(
    "policy, needle",
    [
        ({7: "random", "others": "random"}, "seat keys [7]"),
        ({"0": "random", "others": "random"}, "seat keys ['0']"),
        ({-1: "random", True: "greedy", "others": "random"}, "seat keys [-1, True]"),
        ({0: "random"}, "no policy for seats [1, 2, 3]"),
        (["random"] * 3, "list of 3 entries"),
        ({0: "smart", "others": "random"}, "policy 'smart' for seat 0"),
        ([policy_fixtures.first_move, 42, "random", "random"], "policy 42 for seat 1"),
        ("smart", "invalid policy 'smart'"),
        (3.5, "invalid policy 3.5"),
    ],
)
def test_bad_policy_specs_name_the_bad_part(policy, needle):
    with pytest.raises(zhipai.InvalidValueError, match=re.escape(needle)):
        zhipai.simulate("gongzhu", 2, policy=policy, progress=False)


def test_seat_policies_forms():
    f = policy_fixtures.first_move
    assert seat_policies(f, 4) == [f] * 4
    assert seat_policies({2: f, "others": "greedy"}, 4) == ["greedy", "greedy", f, "greedy"]
    assert seat_policies([f, "random", "greedy", "random", "random"], 5)[2] == "greedy"
    assert seat_policies({np.int64(1): f, "others": "random"}, 4)[1] is f


@pytest.mark.parametrize(
    "preset, options",
    [(p, {}) for p in PRESETS]
    + [("tractor", {"kitty_bury_restrictions": "no_points"}), ("tractor", {"kitty_bury_restrictions": "no_trumps"}),
       ("gongzhu", {"decks": 2})],
)
def test_every_listed_move_is_legal(preset, options):
    # A uniform choice among the listed moves plays whole deals; sampled listed moves apply.
    rng = random.Random(5)
    game = zhipai.Game(zhipai.rules(preset, **options))
    for i in range(3):
        s = game.new_deal(8, i)
        while not s.is_terminal():
            moves = s.legal_moves()
            assert moves and len(moves) == len(set(moves)) and len(moves) <= 1000
            for mv in rng.sample(moves, min(3, len(moves))):
                s.clone().apply(mv)
            s.apply(rng.choice(moves))
        assert len(s.result_row()) == len(game.columns)


def sub_multisets(cards):
    """Every non-empty sub-multiset of a card list, as sorted tuples."""
    counts = Counter(cards)
    out = [()]
    for card, n in counts.items():
        out = [prev + (card,) * k for prev in out for k in range(n + 1)]
    return {tuple(sorted(m)) for m in out if m}


@pytest.mark.parametrize("preset", ["tractor", "hong_wu"])
def test_short_hands_list_every_legal_lead(preset):
    # Late in a deal every legal lead is listed: compare with a brute force over every subset
    # of the hand, each tried on a copy of the state (apply is the oracle).
    checked = 0
    for s, seat in walk(preset, 3):
        o = s.observation(seat)
        hand = o["hand"].split()
        if o["current_trick"] or o["phase"] not in ("playing", "play") or len(hand) > 9:
            continue
        legal = set()
        for m in sub_multisets(hand):
            try:
                s.clone().apply("play " + " ".join(m))
                legal.add(m)
            except zhipai.IllegalPlayError:
                pass
        listed = {tuple(sorted(mv.split()[1:])) for mv in s.legal_moves()}
        assert listed == legal
        checked += 1
    assert checked >= 3


def test_state_errors():
    s = zhipai.Game("gongzhu").new_deal(0, 0)
    s.apply("end exposure")
    while s.current_player() != s.observation(0)["first_leader"] or s.observation(0)["phase"] != "play":
        s.apply("end exposure")
    seat = s.current_player()
    missing = next(c for c in ["AS", "KS", "2H", "3H"] if c not in s.observation(seat)["hand"].split())
    with pytest.raises(zhipai.IllegalPlayError, match=missing):
        s.apply(missing)
    with pytest.raises(zhipai.InvalidValueError, match="AS AS AS"):
        s.apply("AS AS AS")  # not a move of this game at all
    with pytest.raises(zhipai.InvalidValueError, match="seat"):
        s.observation(4)
    with pytest.raises(zhipai.InvalidValueError, match="not over"):
        s.result_row()
    with pytest.raises(zhipai.InvalidValueError, match="smart"):
        s.builtin_move("smart")
    with pytest.raises(zhipai.InvalidValueError, match="seed"):
        zhipai.Game("gongzhu").new_deal(-1, 0)
    with pytest.raises(zhipai.InvalidValueError, match="index"):
        zhipai.Game("gongzhu").new_deal(0, 2**64)
    while not s.is_terminal():
        s.apply_builtin("random")
    assert s.legal_moves() == [] and s.current_player() is None
    with pytest.raises(zhipai.IllegalPlayError):
        s.builtin_move("random")


def test_game_needs_rules():
    with pytest.raises(zhipai.InvalidValueError, match="rules 42"):
        zhipai.Game(42)
    with pytest.raises(zhipai.InvalidOptionError, match="mahjong"):
        zhipai.Game("mahjong")
    assert repr(zhipai.Game("tractor_jj")) == "Game('tractor_jj')"
    assert "jj_score" in zhipai.Game("tractor_jj").columns


def test_clone_replays_the_same_chance():
    s = zhipai.Game("hong_wu").new_deal(4, 1)
    c = s.clone()
    a = [s.apply_builtin("random") for _ in range(30)]
    b = [c.apply_builtin("random") for _ in range(30)]
    assert a == b


# ----------------------------------------------------------------------------- observations

KEYS = {"game", "seat", "phase", "current_player", "hand", "hand_sizes", "history"}
GAME_KEYS = {
    "shengji": {"level", "dealer", "trump", "declaration", "kitty", "current_trick", "points_won", "tricks"},
    "hong_wu": {"contract", "trump", "kitty", "current_trick", "points_won", "tricks"},
    "gongzhu": {"exposed", "closed", "taken", "current_trick", "first_leader", "tricks"},
    "baohuang": {"scepter", "emperor", "dengji_card", "guard", "mode", "play_to_beat",
                 "finishing_order", "abdications", "redeals"},
}


def card_tokens(value, skip=("hand",)):
    """Every card named anywhere in an observation value, except under the `skip` keys."""
    if isinstance(value, dict):
        return [t for k, v in value.items() if k not in skip for t in card_tokens(v, skip)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in card_tokens(v, skip)]
    if isinstance(value, str):
        return [t for t in value.replace("(", " ").replace(")", " ").split() if CARD.match(t)]
    return []


def walk(preset, seed=0, policy="random", **options):
    """Yield (state, seat to act) at every decision of one deal."""
    s = zhipai.Game(zhipai.rules(preset, **options)).new_deal(seed, 0)
    while not s.is_terminal():
        yield s, s.current_player()
        s.apply_builtin(policy)


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_keys_and_own_hand(preset):
    game = zhipai.Game(preset)
    for s, seat in walk(preset):
        for q in range(game.num_players):
            o = s.observation(q)
            assert set(o) == KEYS | GAME_KEYS[o["game"]], sorted(o)
            private_turn = o["phase"] == "dealing" and q != seat  # see the test below
            assert o["seat"] == q and o["current_player"] == (None if private_turn else seat)
            assert len(o["hand"].split()) == o["hand_sizes"][q]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_state_follows_the_protocol(preset):
    game = zhipai.Game(preset)
    s = game.new_deal(0, 0)
    assert isinstance(s, zhipai.GameState) and isinstance(s.clone(), zhipai.GameState)
    assert s.num_players == game.num_players == (5 if preset == "baohuang" else 4)
    assert game.name == s.observation(0)["game"]
    assert s.returns() == [0.0] * game.num_players
    while not s.is_terminal():
        s.apply_builtin("greedy")
    r = s.returns()
    assert len(r) == game.num_players and all(isinstance(x, float) for x in r)
    if preset != "gongzhu":  # Gongzhu's credited scores need not sum to 0 (normalisation)
        assert sum(r) == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_nothing_is_public_before_the_first_move(preset):
    game = zhipai.Game(preset)
    s = game.new_deal(9, 3)
    for q in range(game.num_players):
        assert card_tokens(s.observation(q)) == [], f"seat {q} sees cards beyond its hand"


@pytest.mark.parametrize("preset, options", [("gongzhu", {}), ("tractor", {"decks": 1})])
def test_one_deck_observations_show_no_card_of_another_hand(preset, options):
    # One deck: every card is unique, so a card of another hand in an observation is a leak
    # unless it was shown on purpose (a Gongzhu exposure, a Shengji declaration).
    for policy in ["random", "greedy"]:
        for seed in range(3):
            for s, seat in walk(preset, seed, policy, **options):
                hands = {q: set(s.observation(q)["hand"].split()) for q in range(4)}
                o = s.observation(seat)
                # A failed throw shows the cards attempted to everyone (then they go back).
                # Declarations are shown too.
                throws = [m for _, m in o["history"] if "failed throw" in m or m.startswith("declare")]
                shown = set(card_tokens([o.get("exposed", []), o.get("declaration"), throws]))
                seen = set(card_tokens(o))
                for q in range(4):
                    if q != seat:
                        assert not (seen & hands[q]) - shown, (q, seen & hands[q], o)


def test_shengji_burial_and_kitty_are_the_dealers_alone():
    checked = 0
    for s, seat in walk("tractor", 5):
        o = s.observation(seat)
        if o["phase"] != "playing":
            continue
        dealer = o["dealer"]
        for q in range(4):
            oq = s.observation(q)
            burials = [m for p, m in oq["history"] if m.startswith("bury")]
            assert len(burials) == 1
            if q == dealer:
                assert oq["kitty"] and burials[0] == f"bury {oq['kitty']}"
                assert len(oq["kitty"].split()) == 8
            else:
                assert oq["kitty"] is None and burials == ["bury"]
        checked += 1
    assert checked > 50


def test_shengji_declaration_chances_are_private():
    # A seat is asked while dealing only when it holds a legal declaration: the others must not
    # learn that it was asked, nor that it passed (its own history keeps its passes).
    asked = own_passes = 0
    for seed in range(8):
        for s, seat in walk("tractor", seed, "greedy"):
            o = s.observation(seat)
            if o["phase"] != "dealing":
                break
            asked += 1
            for q in range(4):
                oq = s.observation(q)
                assert oq["current_player"] == (seat if q == seat else None)
                assert all(m != "pass" for p, m in oq["history"] if p != q)
                own_passes += sum(1 for p, m in oq["history"] if p == q and m == "pass")
    assert asked > 5 and own_passes > 0


def test_hong_wu_kitty_is_the_dealers_alone():
    for s, seat in walk("hong_wu", 2):
        o = s.observation(seat)
        if o["phase"] != "play":
            continue
        dealer = o["contract"][0]
        for q in range(4):
            oq = s.observation(q)
            assert (oq["kitty"] is not None) == (q == dealer)
            assert ("bury" in dict(oq["history"]).values()) == (q != dealer)
        break
    else:
        pytest.fail("no play phase")


def test_baohuang_guard_is_hidden_until_revealed():
    found = 0
    for seed in range(12):
        for s, seat in walk("baohuang", seed, "greedy"):
            o = s.observation(seat)
            if o["emperor"] is None or o["phase"] != "play":
                continue
            guards = {s.observation(q)["guard"] for q in range(5)}
            # The guard sees himself; while hidden (暗保) the emperor and the others see None.
            if None in guards and len(guards) == 2:
                g = (guards - {None}).pop()
                assert s.observation(g)["guard"] == g
                assert all(s.observation(q)["guard"] is None for q in range(5) if q != g)
                found += 1
            break
    assert found > 0


def test_gongzhu_closed_declarations_are_the_declarers_alone():
    found = 0
    for seed in range(6):
        for s, seat in walk("gongzhu", seed, "random", exposure_mode="closed_open"):
            for q in range(4):
                o = s.observation(q)
                for p, m in o["history"]:
                    if m.startswith("expose closed"):
                        assert (m != "expose closed") == (p == q), (p, q, m)
                        found += p == q
                own = [m.split()[-1] for p, m in o["history"] if p == q and m.startswith("expose closed ")]
                assert sorted(o["closed"].split()) == sorted(own)
    assert found > 0


def test_baohuang_secret_choices_are_invisible_to_the_others():
    found = 0
    for seed in range(40):
        game = zhipai.Game("baohuang")
        s = game.new_deal(seed, 0)
        while not s.is_terminal():
            seat = s.current_player()
            phase = s.observation(seat)["phase"]
            if phase in ("guard_choice", "solo_choice"):
                for q in range(5):
                    o = s.observation(q)
                    if q != seat:
                        # Neither who decides nor what: the guard (or a solo emperor) stays hidden.
                        assert o["phase"] == "hidden_choice" and o["current_player"] is None
                move = s.apply_builtin("greedy")  # greedy chooses the secret option
                assert move in ("secret_guard", "secret_solo")
                for q in range(5):
                    h = s.observation(q)["history"]
                    assert ((seat, move) in h) == (q == seat)
                    assert all(m not in ("secret_guard", "secret_solo") for p, m in h if p != q)
                found += 1
                break
            s.apply_builtin("greedy")
        if found >= 3:
            break
    assert found >= 3


def test_observations_are_fresh_copies():
    s = zhipai.Game("gongzhu").new_deal(0, 0)
    for _ in range(10):
        s.apply_builtin("random")
    seat = s.current_player()
    h = s.observation(seat)["history"]
    assert len(h) == 10
    h.clear()
    assert len(s.observation(seat)["history"]) == 10
    c = s.clone()
    c.apply_builtin("random")
    assert len(c.observation(seat)["history"]) == 11 and len(s.observation(seat)["history"]) == 10


def test_history_records_plays_in_order():
    game = zhipai.Game("gongzhu")
    s = game.new_deal(1, 0)
    made = []
    while not s.is_terminal():
        seat = s.current_player()
        made.append((seat, s.apply_builtin("greedy")))
    assert s.observation(0)["history"] == made
    played = Counter(t for _, m in made for t in m.split() if CARD.match(t))
    assert sum(played.values()) == 52


# ----------------------------------------------------------------------------- CLI


def test_cli_with_a_python_policy_for_one_seat(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybot.py").write_text("def play(obs, moves):\n    return moves[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["simulate", "gongzhu", "-n", "5", "-q", "-p", "greedy", "--policy-seat", "0=mybot:play"])
    out = capsys.readouterr().out
    assert code == 0 and "5 deals" in out and "play/greedy/greedy/greedy" in out


def test_cli_python_policy_for_every_seat(capsys):
    code = main(["simulate", "hong_wu", "-n", "3", "-q", "-p", "policy_fixtures:last_move"])
    assert code == 0 and "policy last_move" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["-p", "nomodule_xyz:f"], "nomodule_xyz"),
        (["-p", "policy_fixtures:nothing"], "has no 'nothing'"),
        (["-p", "smart"], "expected random, greedy or module:function"),
        (["--policy-seat", "x=random"], "invalid --policy-seat 'x=random'"),
        (["--policy-seat", "9=random"], "seat keys [9]"),
    ],
)
def test_cli_bad_policy_arguments(argv, needle, capsys):
    code = main(["simulate", "gongzhu", "-n", "2", "-q", *argv])
    assert code == 2 and needle in capsys.readouterr().err
