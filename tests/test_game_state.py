"""The one deal state of every game: ``zhipai.Game(rules).new_deal(...)`` /
``zhipai.Game.from_json(text)`` -> ``zhipai.GameState`` (python/zhipai/game.py).

Expected values come from the rules digests (``shared/rules/*.md``) and the action tables in
each game's docs (``rust/zhipai-core/src/games/<game>/game.rs``), or are computed here
independently (cards dealt, points won), never read back from the code under test.
"""

from __future__ import annotations

import collections
import copy
import json
import pickle
import random

import numpy as np
import pytest
import zhipai
from zhipai import shengji

PRESETS = [p["name"] for p in zhipai.presets()]
GAMES = {"tractor": "shengji", "tractor_jj": "shengji", "eighty_points": "shengji",
         "hong_wu": "hong_wu", "gongzhu": "gongzhu", "baohuang": "baohuang"}
#: Size of the integer action space per game (the action tables of each game's docs).
NUM_ACTIONS = {"shengji": 55, "hong_wu": 89, "gongzhu": 1439, "baohuang": 119}
#: Rule sets beyond the presets whose deals take other paths (decks, phases, tribute).
VARIANTS = {
    "tractor 1 deck": zhipai.rules("tractor", decks=1),
    "tractor 3 decks": zhipai.rules("tractor", decks=3),
    "tractor chaodi": zhipai.rules("tractor", chaodi=True, throw_fail_penalty="structured"),
    "gongzhu 2 decks": zhipai.rules("gongzhu", decks=2),
    "gongzhu closed_open partnership": zhipai.rules("gongzhu", exposure_mode="closed_open", partnership=True),
    "hong_wu base 2": zhipai.rules("hong_wu", base_score_k=2, red5_penalty_per_card=15),
    "baohuang tribute": zhipai.rules("baohuang", tribute_between_deals="on"),
    "baohuang 168": zhipai.rules("baohuang", deck=168, guard_card_rank="above_big_joker"),
}
ALL_RULES = {p: zhipai.rules(p) for p in PRESETS} | VARIANTS

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
#: Card kinds by index (cards.rs: S 2…A = 0…12, H 13…25, D 26…38, C 39…51, SJ 52, BJ 53).
KINDS = [f"{r}{s}" for s in "SHDC" for r in RANKS] + ["SJ", "BJ"]
POINTS = {"5": 5, "10": 10, "K": 10}


def pack(decks: int, jokers: bool = True) -> list[str]:
    return (KINDS if jokers else KINDS[:52]) * decks


def hand(s: zhipai.GameState, seat: int) -> list[str]:
    return s.observation(seat)["hand"].split()


def points(cards: list[str]) -> int:
    return sum(POINTS.get(c[:-1], 0) for c in cards)


def finish(s: zhipai.GameState, policy: str = "random") -> zhipai.GameState:
    """Finish a half-built card-by-card move with actions, then play the built-in policy."""
    while s.pending_cards and not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    while not s.is_terminal():
        s.apply_builtin(policy)
    return s


def snapshot(s: zhipai.GameState) -> dict:
    """Everything a seat or a program can read of a state."""
    return {
        "phase": s.phase,
        "current_player": s.current_player(),
        "terminal": s.is_terminal(),
        "observations": [s.observation(q) for q in range(s.num_players)],
        "history": s.history(),
        "views": [s.history(q) for q in range(s.num_players)],
        "legal_moves": s.legal_moves(),
        "count": s.count_legal_moves(),
        "legal_actions": s.legal_actions(),
        "pending": s.pending_cards,
        "returns": s.returns().tolist(),
        "result": s.result(),
    }


def assert_same_state(a: zhipai.GameState, b: zhipai.GameState) -> None:
    assert type(b) is zhipai.GameState
    assert snapshot(a) == snapshot(b)
    assert a.to_json() == b.to_json()


def assert_same_future(a: zhipai.GameState, b: zhipai.GameState) -> None:
    """Both play on alike: the same generator gives the same built-in moves and result."""
    a, b = a.clone(), b.clone()
    while a.pending_cards and not a.is_terminal():
        act = a.legal_actions()[0]
        a.apply_action(act)
        b.apply_action(act)
    while not a.is_terminal():
        assert a.apply_builtin("random") == b.apply_builtin("random")
    assert b.is_terminal() and a.result() == b.result()


# ------------------------------------------------------------------ one class for every game


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_deals_the_one_class(preset):
    game = zhipai.Game(preset)
    assert game.name == GAMES[preset] and game.num_players == (5 if preset == "baohuang" else 4)
    s = game.new_deal(seed=1)
    again = zhipai.Game.from_json(s.to_json())
    states = [s, s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s)), again]
    assert all(type(x) is zhipai.GameState for x in states)
    assert zhipai.GameState is zhipai.game.GameState
    assert s.num_players == game.num_players
    assert s.num_distinct_actions == NUM_ACTIONS[game.name]
    assert s.observation(0)["game"] == game.name and s.rules == game.rules
    assert repr(s).startswith(f"GameState(preset='{preset}'")
    # The removed per-game state classes are gone, not aliased.
    for gone in ("ShengjiDeal", "GongzhuState", "HongWuState", "BaohuangState", "ShengjiGameState",
                 "GongzhuGameState", "HongWuGameState", "BaohuangGameState"):
        assert not hasattr(zhipai._core, gone), gone
    assert not hasattr(zhipai.shengji, "Deal") and not hasattr(zhipai.gongzhu, "Game")
    assert not hasattr(zhipai.hongwu, "Game") and not hasattr(zhipai.baohuang, "Game")


def test_match_hands_are_the_one_class_too():
    m = shengji.Match(zhipai.rules("tractor_jj"), seed=2)
    d = m.next_deal()
    assert type(d) is zhipai.GameState and d.phase == "dealing"


# ------------------------------------------------------------------ integer actions


@pytest.mark.parametrize("name", list(ALL_RULES))
def test_the_mask_is_the_legal_actions_at_every_step(name):
    rules = ALL_RULES[name]
    game = zhipai.Game(rules)
    rng = random.Random(7)
    for index in range(2):
        s = game.new_deal(seed=5, index=index)
        n = s.num_distinct_actions
        steps = 0
        while True:
            mask = s.legal_action_mask()
            legal = s.legal_actions()
            assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (n,)
            assert np.flatnonzero(mask).tolist() == legal == sorted(set(legal))
            if s.is_terminal():
                assert legal == [] and not mask.any() and s.current_player() is None
                break
            assert legal, (name, s.phase)
            if steps % 7 == 0:
                # Every action names itself; an action not in the mask is refused, state unchanged.
                for a in legal:
                    assert s.string_to_action(s.action_to_string(a)) == a
                illegal = next((a for a in range(n) if not mask[a]), None)
                if illegal is not None:
                    before = s.to_json()
                    with pytest.raises(zhipai.IllegalPlayError):
                        s.apply_action(illegal)
                    assert s.to_json() == before
            s.apply_action(rng.choice(legal))
            steps += 1
        r = s.result()
        assert r is not None and list(r) == game.columns


def test_the_action_tables():
    """The documented tables: game.rs of each game (and the module docs)."""
    tractor = zhipai.Game("tractor").new_deal()
    hong_wu = zhipai.Game("hong_wu").new_deal()
    gongzhu = zhipai.Game("gongzhu").new_deal()
    baohuang = zhipai.Game("baohuang").new_deal()
    for s in (tractor, hong_wu, baohuang):  # card by card: 0..53 add a card, 54 ends a lead
        assert [s.action_to_string(k) for k in range(54)] == KINDS
        assert s.action_to_string(54) == "stop"
    assert hong_wu.action_to_string(55) == "pass"
    assert [hong_wu.action_to_string(56 + (p - 60) // 5) for p in range(60, 205, 5)] == [
        f"bid {p}" for p in range(60, 205, 5)]
    assert [hong_wu.action_to_string(a) for a in range(85, 89)] == ["trump S", "trump H", "trump D", "trump C"]
    words = ["pass", "yield", "jiefeng", "abdicate", "grab", "decline", "open_guard", "secret_guard",
             "open_solo", "secret_solo"]
    assert [baohuang.action_to_string(a) for a in range(55, 65)] == words
    assert [baohuang.action_to_string(65 + k) for k in range(54)] == [f"ascend {c}" for c in KINDS]
    assert [gongzhu.action_to_string(k) for k in range(52)] == KINDS[:52]
    for a in range(52):
        for b in range(a, 52):
            code = 52 + 52 * a - a * (a - 1) // 2 + (b - a)
            assert gongzhu.string_to_action(f"{KINDS[a]} {KINDS[b]}") == code
    assert gongzhu.action_to_string(1429) == "AC AC"
    exposable = ["QS", "JD", "10C", "AH"]
    assert [gongzhu.action_to_string(a) for a in range(1430, 1434)] == [f"expose {c}" for c in exposable]
    assert [gongzhu.action_to_string(a) for a in range(1434, 1438)] == [f"expose closed {c}" for c in exposable]
    assert gongzhu.action_to_string(1438) == "end exposure"
    for s in (tractor, hong_wu, gongzhu, baohuang):
        with pytest.raises(zhipai.InvalidValueError, match="action"):
            s.action_to_string(s.num_distinct_actions)


def test_a_move_built_card_by_card_shows_its_pending_cards():
    s = zhipai.Game("tractor").new_deal(level="2", dealer=0, seed=2)
    while s.phase == "dealing":
        s.apply("pass")
    held = hand(s, 0)
    for i, a in enumerate(s.legal_actions()[:3]):  # three cards of the 8-card burial
        s.apply_action(a)
        assert len(s.pending_cards.split()) == i + 1
    assert all(c in held for c in s.pending_cards.split())
    with pytest.raises(zhipai.IllegalPlayError, match="being built"):
        s.apply_builtin("random")
    while s.pending_cards:
        s.apply_action(s.legal_actions()[0])
    assert s.phase == "play" and s.history()[-1]["move"].startswith("bury ")
    assert len(s.history()[-1]["move"].split()) == 9  # bury + 8 cards (shengji.md §1.1)


# ------------------------------------------------------------------ records, pickling, copies


def _simulated(name, seed, index, moves):
    s = zhipai.Game(ALL_RULES[name]).new_deal(seed=seed, index=index)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_builtin("random")
    return s


def _with_actions(name, moves, extra_actions):
    """A deal played by built-in moves, then a few actions (often leaving cards pending)."""
    s = _simulated(name, 3, 1, moves)
    rng = random.Random(moves)
    for _ in range(extra_actions):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def _previous_places():
    s = zhipai.Game(VARIANTS["baohuang tribute"]).new_deal(seed=4, index=2, previous_places=[3, 1, 5, 2, 4])
    assert s.observation(1)["tribute"] == [3, 1, 5, 2, 4]
    for _ in range(20):
        s.apply_builtin("greedy")
    return s


def redealt(rules=None, seed=7, index=1061):
    """A Baohuang deal where every seat abdicates and nobody holds exactly 3 identical cards:
    void (黄局, baohuang.md §C.3.4) and redealt from the deal's generator."""
    s = zhipai.Game(rules or zhipai.rules("baohuang")).new_deal(seed=seed, index=index)
    for q in range(5):
        assert 3 not in collections.Counter(hand(s, q)).values()
    while s.observation(0)["redeals"] == 0:
        moves = s.legal_moves()
        assert s.phase in ("accession", "grab_window", "forced")
        s.apply("abdicate" if "abdicate" in moves else "decline" if "decline" in moves else moves[0])
    return s


def _match_hand(play: bool):
    m = shengji.Match(zhipai.rules("tractor"), seed=11)
    m.play_hand()
    d = m.next_deal()
    if play:
        finish(d, "greedy")
    else:
        for _ in range(40):
            d.apply_builtin("random")
    return d


def _shengji_hands(trump):
    deck = pack(2)
    random.Random(3).shuffle(deck)
    hands = [" ".join(deck[25 * i: 25 * i + 25]) for i in range(4)]
    return zhipai.Game("tractor").new_deal(hands=hands, kitty=" ".join(deck[100:]), level="5", trump=trump,
                                           dealer=1, seed=9)


def _hong_wu_hands():
    deck = pack(2)
    random.Random(4).shuffle(deck)
    hands = [" ".join(deck[25 * i: 25 * i + 25]) for i in range(4)]
    s = zhipai.Game("hong_wu").new_deal(hands=hands, kitty=" ".join(deck[100:]), dealer=2, seed=1)
    for _ in range(12):
        s.apply_builtin("greedy")
    return s


def _gongzhu_hands():
    deck = pack(2, jokers=False)
    random.Random(5).shuffle(deck)
    hands = [" ".join(deck[26 * i: 26 * i + 26]) for i in range(4)]
    s = zhipai.Game(VARIANTS["gongzhu 2 decks"]).new_deal(hands=hands, seed=2)
    for _ in range(30):
        s.apply_builtin("random")
    return s


def _baohuang_hands():
    src = zhipai.Game("baohuang").new_deal(seed=8)
    s = zhipai.Game("baohuang").new_deal(hands=[" ".join(hand(src, q)) for q in range(5)],
                                         dealer=src.current_player(), seed=8)
    for _ in range(25):
        s.apply_builtin("random")
    return s


SCENARIOS = {
    **{f"{p} fresh": (lambda p=p: _simulated(p, 1, 0, 0)) for p in PRESETS},
    **{f"{p} in progress": (lambda p=p: _simulated(p, 2, 3, 17)) for p in PRESETS},
    **{f"{p} pending cards": (lambda p=p: _with_actions(p, 12, 3)) for p in PRESETS},
    **{f"{p} finished": (lambda p=p: finish(_simulated(p, 2, 4, 0))) for p in PRESETS},
    **{f"{v} finished": (lambda v=v: finish(_simulated(v, 6, 1, 0), "greedy")) for v in VARIANTS},
    "shengji level and dealer": lambda: finish(zhipai.Game("eighty_points").new_deal(level="J", dealer=3, seed=4)),
    "shengji joker-only level": lambda: _simulated_nt(),
    "baohuang previous_places": _previous_places,
    "baohuang previous_places finished": lambda: finish(_previous_places()),
    "baohuang redeal": redealt,
    "baohuang redeal finished": lambda: finish(redealt()),
    "baohuang tribute redeal": lambda: finish(redealt(VARIANTS["baohuang tribute"])),
    "match hand in progress": lambda: _match_hand(False),
    "match hand finished": lambda: _match_hand(True),
    "shengji hands with trump": lambda: _shengji_hands("H"),
    "shengji hands declared": lambda: finish(_shengji_hands(None)),
    "hong_wu hands": _hong_wu_hands,
    "gongzhu hands": _gongzhu_hands,
    "baohuang hands": _baohuang_hands,
    "baohuang hands finished": lambda: finish(_baohuang_hands()),
}


def _simulated_nt():
    rules = zhipai.rules("tractor", after_A="no_trump_level")
    s = zhipai.Game(rules).new_deal(level="NT", dealer=0, seed=3)
    for _ in range(30):
        s.apply_builtin("random")
    return s


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_a_record_replays_to_the_same_state(scenario):
    s = SCENARIOS[scenario]()
    text = s.to_json()
    record = json.loads(text)
    assert record["format"] == "zhipai-deal" and record["version"] == 1
    assert record["preset"] == s.rules.preset and record["phase"] == s.phase
    assert [tuple(o) for o in record["options"]] == list(s.rules.options())
    assert len(record["moves"]) == len(s.history())
    assert record["result"] == (s.result_row() if s.is_terminal() else None)
    again = zhipai.Game.from_json(text)
    assert_same_state(s, again)
    assert_same_future(s, again)


@pytest.mark.parametrize("scenario", ["tractor in progress", "hong_wu pending cards", "gongzhu finished",
                                      "baohuang previous_places", "baohuang redeal", "match hand in progress",
                                      "shengji hands with trump"])
def test_pickle_copy_and_clone_are_independent_equal_states(scenario):
    s = SCENARIOS[scenario]()
    copies = [s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))]
    for c in copies:
        assert c is not s
        assert_same_state(s, c)
        assert_same_future(s, c)
    # A copy moves on alone.
    before = s.to_json()
    for c in copies:
        finish(c)
    assert s.to_json() == before
    # A GameState pickles as its record (replayed on load).
    rebuild, args = s.__reduce__()
    assert args == (s.to_json(),) and rebuild(*args).to_json() == s.to_json()


# ------------------------------------------------------------------ result(), returns()


@pytest.mark.parametrize("name", list(ALL_RULES))
def test_result_is_the_row_by_column_and_returns_follow_it(name):
    game = zhipai.Game(ALL_RULES[name])
    s = game.new_deal(seed=12, index=1)
    assert s.result() is None and not s.returns().any()
    with pytest.raises(zhipai.InvalidValueError):
        s.result_row()
    finish(s)
    r = s.result()
    assert list(r) == game.columns and list(r.values()) == s.result_row()
    assert all(type(v) is int for v in r.values())
    ret = s.returns()
    assert ret.dtype == np.float64 and ret.shape == (game.num_players,)
    if game.name == "shengji":  # shengji.md §8: the side that gains +levels, the other -levels
        dealer_team = {r["dealer"], (r["dealer"] + 2) % 4}
        gaining = dealer_team if r["side"] == 0 else set(range(4)) - dealer_team
        assert ret.tolist() == [r["levels"] if q in gaining else -r["levels"] for q in range(4)]
        o = s.observation(0)
        assert r["dealer"] == o["dealer"] and r["trick_points"] == sum(
            o["points_won"][q] for q in range(4) if q not in dealer_team)
    elif game.name == "hong_wu":  # hongwu.md §B.11: the dealer against three 闲家, zero-sum
        assert ret.tolist() == [r["dealer_result"] if q == r["dealer"] else r["each_other_result"]
                                for q in range(4)]
        assert r["dealer_result"] == -3 * r["each_other_result"]
        assert (r["dealer"], r["bid"]) == s.observation(1)["contract"]
    elif game.name == "gongzhu":
        assert ret.tolist() == [r[f"final_{q}"] for q in range(4)]
    else:  # baohuang.md §C.9/§C.10
        assert ret.tolist() == [r[f"score_{q}"] for q in range(5)] and ret.sum() == 0
        assert sorted(r[f"place_{q}"] for q in range(5)) == [1, 2, 3, 4, 5]


# ------------------------------------------------------------------ new_deal(hands=...)


def test_new_deal_of_given_shengji_hands():
    deck = pack(2)
    random.Random(11).shuffle(deck)
    hands = [" ".join(deck[25 * i: 25 * i + 25]) for i in range(4)]
    kitty = " ".join(deck[100:])
    game = zhipai.Game("tractor")
    # The declaration known: the deal starts at the dealer's burial (shengji.md §1.1).
    s = game.new_deal(hands=hands, kitty=kitty, level="5", trump="S", dealer=2, seed=1)
    o = s.observation(2)
    assert s.phase == "burying" and s.current_player() == 2
    assert (o["level"], o["trump"], o["dealer"]) == ("5", "S", 2)
    assert sorted(o["hand"].split()) == sorted(hands[2].split() + deck[100:])  # the kitty taken up
    for q in (0, 1, 3):
        assert sorted(hand(s, q)) == sorted(hands[q].split())
    # Declared while dealing: every seat ends up with its given hand.
    t = game.new_deal(hands=hands, kitty=kitty, dealer=0, seed=1)
    assert t.phase == "dealing" and t.observation(1)["dealer"] == 0
    while t.phase == "dealing":
        t.apply("pass")
    assert t.observation(0)["trump"] == "NT"  # nobody declared (shengji.md §2)
    assert sorted(hand(t, 1)) == sorted(hands[1].split())
    assert sorted(hand(t, 0)) == sorted(hands[0].split() + deck[100:])
    # One deck: 12 cards each and a 6-card kitty.
    one = pack(1)
    one_hands = [" ".join(one[12 * i: 12 * i + 12]) for i in range(4)]
    u = zhipai.Game(zhipai.rules("tractor", decks=1)).new_deal(hands=one_hands, kitty=" ".join(one[48:]),
                                                               trump="NT", level="A", dealer=3)
    assert u.phase == "burying" and len(hand(u, 3)) == 18


def test_new_deal_of_given_hong_wu_hands():
    deck = pack(2)
    random.Random(12).shuffle(deck)
    hands = [" ".join(deck[25 * i: 25 * i + 25]) for i in range(4)]
    s = zhipai.Game("hong_wu").new_deal(hands=hands, kitty=" ".join(deck[100:]), dealer=3, seed=2)
    assert s.phase == "auction" and s.current_player() == 3  # dealer = the seat that opens (§B.2)
    assert [sorted(hand(s, q)) for q in range(4)] == [sorted(h.split()) for h in hands]
    s.apply("bid 60")
    for _ in range(3):
        s.apply("pass")
    s.apply("trump D")
    assert sorted(hand(s, 3)) == sorted(hands[3].split() + deck[100:])  # §B.3: the kitty


def test_new_deal_of_given_gongzhu_hands():
    deck = pack(1, jokers=False)
    random.Random(13).shuffle(deck)
    hands = [" ".join(deck[13 * i: 13 * i + 13]) for i in range(4)]
    game = zhipai.Game("gongzhu")
    holder = next(q for q in range(4) if "2C" in hands[q].split())
    first = game.new_deal(hands=hands)  # the first deal of a match: the ♣2 holder leads (§A.8)
    assert first.observation(0)["first_leader"] == holder and first.current_player() == holder
    later = game.new_deal(hands=hands, dealer=(holder + 1) % 4)
    assert later.observation(0)["first_leader"] == (holder + 1) % 4
    assert [sorted(hand(later, q)) for q in range(4)] == [sorted(h.split()) for h in hands]


def test_new_deal_of_given_baohuang_hands_and_a_void_deal():
    src = zhipai.Game("baohuang").new_deal(seed=7, index=1061)  # nobody holds 3 identical cards
    hands = [" ".join(hand(src, q)) for q in range(5)]
    scepter = src.current_player()
    s = zhipai.Game("baohuang").new_deal(hands=hands, dealer=scepter)
    assert s.current_player() == scepter and s.observation(0)["scepter"] == scepter
    assert [sorted(hand(s, q)) for q in range(5)] == [sorted(h.split()) for h in hands]
    # Everybody declines and nobody must ascend: 黄局 (§C.3.4). A deal of given hands is not
    # redealt: it ends, scored 0.
    while not s.is_terminal():
        moves = s.legal_moves()
        s.apply("abdicate" if "abdicate" in moves else "decline")
    assert s.phase == "done" and not s.returns().any() and s.result()["emperor"] == -1


@pytest.mark.parametrize("preset, setup, field", [
    ("gongzhu", {"kitty": "2S"}, "kitty"),
    ("gongzhu", {"level": "5"}, "level"),
    ("gongzhu", {"trump": "H"}, "trump"),
    ("baohuang", {"kitty": "2S"}, "kitty"),
    ("baohuang", {"level": "5"}, "level"),
    ("baohuang", {"trump": "NT"}, "trump"),
    ("hong_wu", {"level": "5"}, "level"),
    ("hong_wu", {"trump": "S"}, "trump"),
    ("hong_wu", {"kitty": None}, "kitty"),
    ("tractor", {"kitty": None}, "kitty"),
    ("tractor", {"level": "NT"}, "no_trump_level"),
    ("tractor", {"dealer": 4}, "dealer"),
    ("hong_wu", {"dealer": 4}, "dealer"),
    ("gongzhu", {"dealer": 4}, "dealer"),
    ("baohuang", {"dealer": 5}, "dealer"),
    ("tractor", {"previous_places": [1, 2, 3, 4, 5]}, "previous_places"),
])
def test_new_deal_refuses_what_the_game_cannot_take_by_name(preset, setup, field):
    args = dict(valid_setup(preset), **setup)
    zhipai.Game(preset).new_deal(**valid_setup(preset))  # the setup without the change is a deal
    with pytest.raises(zhipai.ZhipaiError, match=field) as e:
        zhipai.Game(preset).new_deal(**args)
    assert isinstance(e.value, (zhipai.InvalidValueError, zhipai.InvalidOptionError))


def valid_setup(preset: str) -> dict:
    """Whole hands (and kitty) of ``preset`` shuffled here."""
    if preset == "baohuang":
        s = zhipai.Game(preset).new_deal(seed=3)
        return {"hands": [" ".join(hand(s, q)) for q in range(5)], "dealer": s.current_player()}
    deck = pack(1, jokers=False) if preset == "gongzhu" else pack(2)
    random.Random(preset).shuffle(deck)
    size = 13 if preset == "gongzhu" else 25
    hands = [" ".join(deck[size * i: size * i + size]) for i in range(4)]
    return {"hands": hands} | ({} if preset == "gongzhu" else {"kitty": " ".join(deck[4 * size:])})


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("hands, needle", [
    (["2S"], "hand"),
    ("2S 3S", "hands"),
    (None, None),
    ([1, 2, 3, 4], "hands"),
    (["ZZ", "", "", ""], "ZZ"),
])
def test_new_deal_refuses_bad_hands(preset, hands, needle):
    if hands is None:  # no hands at all: a simulated deal
        assert zhipai.Game(preset).new_deal(hands=None).phase
        return
    with pytest.raises(zhipai.ZhipaiError, match=needle):
        zhipai.Game(preset).new_deal(hands=hands, kitty="2S" if GAMES[preset] in ("shengji", "hong_wu") else None)


# ------------------------------------------------------------------ forged records


def _finished_tractor():
    return finish(zhipai.Game("tractor").new_deal(seed=1, index=2))


def _forge(state, change):
    record = json.loads(state.to_json())
    change(record)
    return json.dumps(record)


def _wrong_seat(r):
    r["moves"][5]["seat"] = (r["moves"][5]["seat"] + 1) % 4


def _changed_result(r):
    r["result"][r["result"].index(max(r["result"]))] += 5


def _replaced_move(r):
    m = r["moves"][-1]
    m.pop("builtin", None)
    m["move"] = "play BJ BJ"


FORGERIES = [
    ("a changed result", _changed_result, "result"),
    ("a result for a deal in progress", lambda r: r.update(result=[0] * len(r["result"]), phase="play"), "result|phase"),
    ("no result for a finished deal", lambda r: r.update(result=None), "result"),
    ("a dropped last move", lambda r: r["moves"].pop(), "phase"),
    ("a dropped first move", lambda r: r["moves"].pop(0), r"moves\[\d+\]"),
    ("a move by the wrong seat", _wrong_seat, r"moves\[5\]\.seat"),
    ("a replaced last move", _replaced_move, r"moves\[\d+\]"),
    ("a built-in move the policy does not choose", lambda r: r["moves"][1].update(builtin="greedy"), r"moves\[\d+\]"),
    ("an unknown policy", lambda r: r["moves"][0].update(builtin="clever"), r"moves\[0\]\.builtin"),
    ("an unknown field", lambda r: r.update(comment="hello"), "comment"),
    ("an unknown field of a move", lambda r: r["moves"][0].update(note=1), "note"),
    ("a missing field", lambda r: r.pop("phase"), "phase"),
    ("a wrong version", lambda r: r.update(version=2), "version"),
    ("another format", lambda r: r.update(format="zhipai-match"), "format"),
    ("an unknown preset", lambda r: r.update(preset="poker"), "poker"),
    ("an unknown option", lambda r: r["options"].append(["speed", "1"]), "speed"),
    ("a bad option value", lambda r: r["options"].__setitem__(0, ["decks", "9"]), "decks"),
    ("a changed option", lambda r: r["options"].__setitem__(0, ["decks", "3"]), "moves|phase|result"),
    ("pending cards after the end", lambda r: r.update(pending=[3]), r"pending\[0\]"),
    ("a seat beyond the table", lambda r: r["moves"][0].update(seat=9), r"moves\[0\]\.seat"),
]

#: Values of the wrong JSON type: refused naming the field and the type it takes.
MISTYPED = [
    ("a version as text", lambda r: r.update(version="1"), "field version"),
    ("a move that is not text", lambda r: r["moves"][0].update(move=5), r"field moves\[0\]\.move"),
    ("a seat that is negative", lambda r: r["moves"][0].update(seat=-1), r"field moves\[0\]\.seat"),
    ("moves that are not a list", lambda r: r.update(moves="pass"), "field moves"),
    ("options as a dict", lambda r: r.update(options={"decks": "2"}), "field options"),
    ("an origin seed beyond 2**64", lambda r: r["origin"].update(seed=2**64), r"field origin\.seed"),
    ("a result of text", lambda r: r.update(result="done"), "field result"),
]


@pytest.mark.parametrize("what, change, field", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_a_forged_record_is_refused_naming_the_field(what, change, field):
    s = _finished_tractor()
    with pytest.raises(zhipai.ZhipaiError, match=field):
        zhipai.Game.from_json(_forge(s, change))


@pytest.mark.parametrize("what, change, field", MISTYPED, ids=[f[0] for f in MISTYPED])
def test_a_mistyped_record_is_refused(what, change, field):
    with pytest.raises(zhipai.InvalidValueError, match=field):
        zhipai.Game.from_json(_forge(_finished_tractor(), change))


@pytest.mark.parametrize("text, needle", [
    ("not JSON at all", "JSON"),
    ("", "JSON"),
    ("[]", "record"),
    ("null", "record"),
    ('{"format": "zhipai-deal"}', "version|missing"),
    ("[" * 100_000, "JSON|record"),
    ("x" * (5 << 20), "4 MiB"),
    (json.dumps({"moves": ["x" * (5 << 20)]}), "4 MiB"),
])
def test_text_that_is_no_record_is_refused(text, needle):
    with pytest.raises(zhipai.InvalidValueError, match=needle) as e:
        zhipai.Game.from_json(text)
    assert len(str(e.value)) < 400


@pytest.mark.parametrize("value", [None, 5, b"{}", ["{}"], {"format": "zhipai-deal"}])
def test_from_json_takes_text_only(value):
    with pytest.raises(zhipai.InvalidValueError, match="record"):
        zhipai.Game.from_json(value)


@pytest.mark.parametrize("preset", ["tractor", "baohuang"])
def test_any_damage_to_a_record_raises_a_zhipai_error(preset):
    """Issue 15 item 5: a damaged record raises a ZhipaiError subclass, never KeyError,
    TypeError, OverflowError, a panic … (every field and a move field replaced by odd values);
    a record that is still read replays to the same deal (e.g. ``options: []`` = the preset's)."""
    s = zhipai.Game(preset).new_deal(seed=3)
    for _ in range(15):
        s.apply_builtin("random")
    record = json.loads(s.to_json())
    odd = [None, True, -1, 2**64, 2**70, 1.5, "", "x" * 300, [], {}, [1, "a"], {"seed": -1}]
    paths = [(k,) for k in record] + [("origin", k) for k in record["origin"]] + [
        ("moves", 0, k) for k in record["moves"][0]] + [("options", 0)]
    read = []
    for path in paths:
        for value in odd:
            r = json.loads(s.to_json())
            target = r
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            try:
                again = zhipai.Game.from_json(json.dumps(r))
            except zhipai.ZhipaiError:
                continue  # any other exception fails the test here
            assert_same_state(s, again)
            read.append(path)
    assert len(read) < 5, read


# ------------------------------------------------------------------ built-in play = simulate rows


@pytest.mark.parametrize("name", list(ALL_RULES))
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_apply_builtin_gives_the_simulate_rows(name, policy):
    rules = ALL_RULES[name]
    n = 6
    fast = zhipai.simulate(rules, n, policy=policy, seed=21, progress=False)
    game = zhipai.Game(rules)
    for i in range(n):
        s = game.new_deal(seed=21, index=i)
        assert type(s) is zhipai.GameState
        while not s.is_terminal():
            s.apply_builtin(policy)
        assert s.result_row() == [int(fast[c][i]) for c in fast.columns], (name, i)
        assert s.result() == {c: int(fast[c][i]) for c in game.columns}


# ------------------------------------------------------------------ bugs found by the migration, fixed


@pytest.mark.parametrize("preset", ["tractor", "gongzhu"])
def test_asking_a_builtin_move_keeps_the_record_replayable(preset):
    s = zhipai.Game(preset).new_deal(seed=0)
    s.apply(s.builtin_move("random"))  # what a Python policy wrapping a built-in does
    for _ in range(30):
        s.apply_builtin("random")
    assert_same_state(s, zhipai.Game.from_json(s.to_json()))
    # Only looked at, never applied: the generator advanced all the same, and the record keeps it.
    t = zhipai.Game(preset).new_deal(seed=0)
    t.builtin_move("random")
    for _ in range(30):
        t.apply_builtin("random")
    assert_same_state(t, zhipai.Game.from_json(t.to_json()))
    assert_same_state(t, pickle.loads(pickle.dumps(t)))


def test_an_unknown_origin_field_is_named():
    s = _finished_tractor()
    with pytest.raises(zhipai.InvalidValueError, match="origin"):
        zhipai.Game.from_json(_forge(s, lambda r: r["origin"].update(extra=1)))


def test_the_history_restarts_with_a_redeal():
    s = redealt()
    assert s.observation(0)["redeals"] == 1
    assert s.observation(1)["history"] == [] and s.history(1) == []


def test_fields_that_need_the_hands_are_named_without_them() -> None:
    with pytest.raises(zhipai.InvalidValueError, match="invalid dealer 1: a chosen scepter holder needs the 5 hands"):
        zhipai.Game("baohuang").new_deal(seed=1, dealer=1)
    with pytest.raises(zhipai.InvalidValueError, match="invalid trump H: given without the hands"):
        zhipai.Game("tractor").new_deal(seed=1, trump="H")
    with pytest.raises(zhipai.InvalidValueError, match="invalid kitty AS: given without the hands"):
        zhipai.Game("tractor").new_deal(seed=1, kitty="AS")
