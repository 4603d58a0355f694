"""Argument validation of the public API: every entry point accepts exactly the documented types
(ints including numpy ints, never bools or floats) and answers bad input with a zhipai exception
naming the value — no raw TypeError/OverflowError, no hang, no abort, no silent answer."""

import numpy as np
import pytest
import zhipai
import zhipai.shengji as sj
from zhipai.cli import main

R = zhipai.rules("tractor")


@pytest.fixture
def m() -> sj.Mechanics:
    return sj.Mechanics(R, level="2", trump="S")


# --- sizes checked before anything is built or allocated ---------------------------------------

def test_huge_batch_is_refused_before_allocating():
    with pytest.raises(zhipai.InvalidValueError, match=r"invalid n 10000000000000\b"):
        zhipai.deal_batch(10**13, seed=1)


def test_huge_hand_count_is_refused_before_building_lists():
    with pytest.raises(zhipai.InvalidValueError, match="hands 1000000000"):
        zhipai.deal(hands=10**9, hand_size=0, kitty=108)
    with pytest.raises(zhipai.InvalidValueError, match="fixed hand 1000000000"):
        zhipai.deal(seed=1, fixed={10**9: "AS"})


def test_batch_may_not_run_past_the_last_deal_of_a_seed():
    with pytest.raises(zhipai.InvalidValueError, match="start 18446744073709551615"):
        zhipai.deal_batch(2, start=2**64 - 1)
    assert zhipai.deal_batch(1, start=2**64 - 1, seed=3).shape == (1, 5, 54)


# --- integer arguments ---------------------------------------------------------------------------

@pytest.mark.parametrize("call, bad", [
    (lambda m: m.follows("AH", "KH 3H", limit=-1), "limit -1"),
    (lambda m: m.follows("AH", "KH 3H", limit=2.0), "limit 2.0"),
    (lambda m: m.sample_follow("AH", "KH 3H", seed=-1), "seed -1"),
    (lambda m: m.sample_follow("AH", "KH 3H", seed=1.5), "seed 1.5"),
    (lambda m: zhipai.deal(index=2**64), "deal index 18446744073709551616"),
    (lambda m: zhipai.deal(hand_size=10**20), "hand size 100000000000000000000"),
    (lambda m: zhipai.deal(hand_size=25.9), "hand_size 25.9"),
    (lambda m: zhipai.deal(hand_size=True), "hand_size True"),
    (lambda m: zhipai.deal(decks=2.0), "decks 2.0"),
    (lambda m: zhipai.deal(seed=True), "seed True"),
    (lambda m: zhipai.deal(seed=2**64), "seed 18446744073709551616"),
    (lambda m: zhipai.deal(voids={0: 3.5}), "void of hand 0 3.5"),
    (lambda m: zhipai.deal(fixed={0: [None]}), "card None"),
    (lambda m: zhipai.deal(fixed={0: 7}), "fixed cards of hand 0 7"),
    (lambda m: zhipai.deal_batch(2.5), "n 2.5"),
    (lambda m: sj.level_change(R, None), "attacker_points None"),
    (lambda m: sj.level_change(R, 80.7), "attacker_points 80.7"),
    (lambda m: sj.level_change(R, True), "attacker_points True"),
    (lambda m: sj.jj_score(R, 10**30), "attacker_points 1000000000000000000000000000000"),
    (lambda m: zhipai.Card(None), "card None"),
    (lambda m: zhipai.Card(2**70), "card 1180591620717411303424"),
    (lambda m: zhipai.Card(True), "card True"),
    (lambda m: zhipai.Card(3.0), "card 3.0"),
    (lambda m: zhipai.cards(None), "card list None"),
    (lambda m: zhipai.cards_to_array(None), "card list None"),
])
def test_bad_argument_is_a_zhipai_error_naming_it(m, call, bad):
    with pytest.raises(zhipai.InvalidValueError) as e:
        call(m)
    assert bad in str(e.value)


def test_card_index_message_uses_an_inclusive_range():
    with pytest.raises(zhipai.InvalidValueError, match="0 to 53"):
        zhipai.Card(54)
    with pytest.raises(zhipai.InvalidValueError, match="fixed hand 4: expected an integer from 0 to 3"):
        zhipai.deal(seed=1, fixed={4: "AS"})


def test_numpy_integers_are_accepted_everywhere(m):
    i = np.int64
    assert zhipai.deal(seed=i(3), index=np.uint32(2)).seed == 3
    assert (zhipai.deal(seed=i(3), index=np.uint32(2)).counts == zhipai.deal(seed=3, index=2).counts).all()
    assert zhipai.deal_batch(i(2), seed=np.uint64(1), start=i(5)).shape == (2, 5, 54)
    assert zhipai.Card(np.int16(12)) == zhipai.Card("AS")
    assert m.follows("AH", "KH 3H 4C", limit=i(1)) == m.follows("AH", "KH 3H 4C", limit=1)
    assert m.sample_follow("AH", "KH 3H", seed=i(7)) == m.sample_follow("AH", "KH 3H", seed=7)
    assert sj.level_change(R, np.int32(80)) == sj.level_change(R, 80)


def test_mechanics_accepts_a_preset_name():
    by_name = sj.Mechanics("tractor", level="2", trump="S")
    assert by_name.winner(["AH", "3S", "KH", "2D"]) == 3  # 2D: a level card, above trump 3S
    with pytest.raises(zhipai.InvalidOptionError, match="mahjong"):
        sj.Mechanics("mahjong")


# --- impossible inputs to the Shengji mechanics ------------------------------------------------

def test_copies_are_counted_across_the_plays_of_a_trick(m):
    with pytest.raises(zhipai.InvalidValueError, match="AH appears 4 times"):
        m.winner(["AH AH", "AH AH", "KH KH", "2D 2D"])
    assert m.winner(["AH AH", "3H 4H", "KH KH", "2D 2D"]) == 3


def test_copies_are_counted_across_the_throw_and_the_other_hands(m):
    with pytest.raises(zhipai.InvalidValueError, match="KH appears 3 times"):
        m.check_throw("AH KH", ["AH", "KH KH", "3H"])
    with pytest.raises(zhipai.InvalidValueError, match="AH appears 3 times"):
        m.follows("AH", "AH AH 3H")


@pytest.mark.parametrize("plays", [["AH", "KH", "3H"], ["AH", "KH", "3H", "4H", "5H"]])
def test_a_trick_has_four_plays(m, plays):
    with pytest.raises(zhipai.InvalidValueError, match=f"expected 4 card lists.*got {len(plays)}"):
        m.winner(plays)


def test_a_throw_is_checked_against_three_hands(m):
    with pytest.raises(zhipai.InvalidValueError, match="expected 3 card lists.*got 2"):
        m.check_throw("AH KH", ["3H", "4H"])


def test_a_string_is_not_a_list_of_plays(m):
    with pytest.raises(zhipai.InvalidValueError, match="invalid plays 'AH 3S KH 2D'.*list"):
        m.winner("AH 3S KH 2D")
    with pytest.raises(zhipai.InvalidValueError, match="hand None"):
        m.follows("AH", None)


# --- numpy round trip ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64])
def test_cards_array_round_trip_any_integer_dtype(dtype):
    cards = zhipai.cards("AS 2H BJ SJ 10C")
    arr = zhipai.cards_to_array(cards)
    assert arr.dtype == np.uint8
    assert zhipai.cards_from_array(arr) == cards
    assert zhipai.cards_from_array(arr.astype(dtype)) == cards
    assert zhipai.cards_from_array([12, 13, 53]) == zhipai.cards("AS 2H BJ")


def test_cards_from_array_refuses_floats_and_2d():
    with pytest.raises(zhipai.InvalidValueError, match="integer dtype"):
        zhipai.cards_from_array(np.array([1.0, 2.0]))
    with pytest.raises(zhipai.InvalidValueError, match="1-D"):
        zhipai.cards_from_array(np.zeros((2, 2), dtype=np.uint8))
    with pytest.raises(zhipai.InvalidValueError, match="card index 54: expected an integer from 0 to 53"):
        zhipai.cards_from_array(np.array([54]))


# --- default kitty (shengji.md §1.1) -------------------------------------------------------------

@pytest.mark.parametrize("decks, hand, kitty", [(1, 12, 6), (2, 25, 8), (3, 39, 6)])
def test_default_kitty_follows_the_digest_table(decks, hand, kitty):
    d = zhipai.deal(decks=decks, seed=1)
    assert [len(h) for h in d.hands] == [hand] * 4
    assert len(d.kitty) == kitty


def test_default_kitty_with_given_hand_sizes_is_the_rest():
    d = zhipai.deal(decks=4, hand_size=[43, 43, 43, 43, 44], seed=2)
    assert len(d.kitty) == 0


def test_no_message_about_a_hand_size_the_user_did_not_pass():
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.deal(decks=1, hands=5, kitty=6, seed=1)
    assert "None" not in str(e.value) and "kitty 6" in str(e.value)


# --- package layout and docs ---------------------------------------------------------------------

def test_game_subpackages_are_imported_with_zhipai():
    import importlib
    import subprocess
    import sys

    code = "import zhipai; zhipai.shengji.Mechanics; zhipai.hongwu; zhipai.gongzhu; zhipai.baohuang"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
    pkg = importlib.import_module("zhipai")
    assert {"shengji", "hongwu", "gongzhu", "baohuang", "deal"} <= set(pkg.__all__)


def test_card_points_cite_the_card_points_section():
    assert "§7.1" in zhipai.Card.points.__doc__


# --- constrained dealing semantics (module docs of zhipai.deal) ---------------------------------

def test_fixed_card_is_placed_and_the_rest_dealt_uniformly():
    """With 2 decks, fixed={0: 'AS'}: the other AS is an unknown card, so it lands in hand 0's 24
    open places out of the 107 unplaced cards' places: P = 24/107 ≈ 0.224. (Conditioning on
    "hand 0 holds at least one AS" would give ≈ 0.126 instead.)"""
    n = 20000
    batch = zhipai.deal_batch(n, seed=11, fixed={0: "AS"})
    ace_spades = zhipai.Card("AS").index
    assert (batch[:, 0, ace_spades] >= 1).all()
    p = float((batch[:, 0, ace_spades] == 2).mean())
    se = (24 / 107 * (1 - 24 / 107) / n) ** 0.5
    assert abs(p - 24 / 107) < 5 * se, p


# --- simulate: counts and threads; CLI output checked before the run ----------------------------

@pytest.mark.parametrize("kw, bad", [
    (dict(deals=10**30), "deals 1000000000000000000000000000000"),
    (dict(deals=50.0), "deals 50.0"),
    (dict(deals=50, threads=10000), "threads 10000"),
    (dict(deals=50, threads=True), "threads True"),
    (dict(deals=50, threads=0), "threads 0"),
])
def test_simulate_counts(kw, bad):
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.simulate("tractor", **kw, progress=False)
    assert bad in str(e.value)


def test_more_threads_than_deals_is_clamped_and_changes_nothing():
    a = zhipai.simulate("tractor", 3, threads=64, seed=5, progress=False)
    b = zhipai.simulate("tractor", 3, threads=1, seed=5, progress=False)
    assert (a["attacker_points"] == b["attacker_points"]).all()


def _cli(*args: str):
    import subprocess
    import sys

    # 10**12 deals: a check made after the run would time out instead of failing fast.
    return subprocess.run([sys.executable, "-m", "zhipai.cli", *args], capture_output=True,
                          text=True, timeout=60)


def _missing(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is None


@pytest.mark.parametrize("flags, module, text", [
    (["--out", "x.parquet"], "pyarrow", "pyarrow"),
    (["--plot", "x.png"], "matplotlib", "matplotlib"),
])
def test_cli_missing_optional_package_fails_before_the_run(tmp_path, flags, module, text):
    if not _missing(module):
        pytest.skip(f"{module} is installed")
    flags = [str(tmp_path / f) if "." in f else f for f in flags]
    r = _cli("simulate", "tractor", "--deals", str(10**12), "-q", *flags)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("zhipai: error:") and text in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize("flags, text", [
    (["--out", "x.txt"], ".csv, .parquet or .npz"),
    (["--out", "x.csv", "--aggregate-only"], "--aggregate-only"),
    (["--threads", "10000"], "threads 10000"),
])
def test_cli_bad_output_fails_before_the_run(tmp_path, flags, text):
    flags = [str(tmp_path / f) if f.startswith("x.") else f for f in flags]
    r = _cli("simulate", "tractor", "--deals", str(10**12), "-q", *flags)
    assert r.returncode == 2, r.stderr
    assert text in r.stderr and r.stderr.count("\n") == 1


def test_shengji_state_arguments():
    d = zhipai.Game(R).new_deal(seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="seat 7"):
        d.observation(7)
    with pytest.raises(zhipai.InvalidValueError, match="action 1.5"):
        d.apply_action(1.5)
    with pytest.raises(zhipai.InvalidValueError, match="action -1"):
        d.apply_action(-1)
    with pytest.raises(zhipai.InvalidValueError, match="action True"):
        d.apply_action(True)
    with pytest.raises(zhipai.InvalidValueError, match="dealer 4"):
        zhipai.Game(R).new_deal(dealer=4)
    with pytest.raises(zhipai.InvalidValueError, match="level '1'"):
        zhipai.Game(R).new_deal(level="1")
    with pytest.raises(zhipai.InvalidValueError, match="trump 'X'"):
        zhipai.Game(R).new_deal(level="2", trump="X")
    with pytest.raises(zhipai.InvalidValueError, match="index -1"):
        zhipai.Game(R).new_deal(level="2", index=-1)
    assert d.observation(np.int64(0)) == d.observation(0)
    assert d.legal_moves(np.int64(2)) == d.legal_moves()[:2]


@pytest.mark.parametrize(
    "argv, named",
    [
        (["simulate", "tractor", "--decks", "1", "-o", "decks=2", "-n", "5"], "--decks 1: option decks is already set"),
        (["simulate", "tractor", "-o", "decks=2", "-o", "decks=3", "-n", "5"], "option decks is already set to '2'"),
        (["arena", "tractor", "-p", "random", "-p", "greedy", "--decks", "1", "-o", "decks=2", "-n", "2"],
         "option decks is already set"),
        (["compare", "tractor", "--base", "chaodi=true", "--base", "chaodi=false", "-o", "decks=1", "-n", "5"],
         "--base 'chaodi=false': option chaodi is already set"),
    ],
)
def test_an_option_given_twice_on_the_command_line_is_refused(argv, named, capsys) -> None:  # type: ignore[no-untyped-def]
    # Before, the last value won silently (`--decks 1 -o decks=2` simulated 2 decks).
    assert main(argv) == 2
    assert named in capsys.readouterr().err


def test_the_same_option_value_twice_is_harmless(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "tractor", "--decks", "2", "-o", "decks=2", "-n", "5", "-q"]) == 0


@pytest.mark.parametrize("preset, decks, jokers, size", [("gongzhu", 1, False, 13), ("tractor", 2, True, 25),
                                                      ("hong_wu", 2, True, 25)])
def test_given_hands_name_the_doubled_and_the_missing_card(preset: str, decks: int, jokers: bool, size: int) -> None:
    # Before (Gongzhu, Tractor): the whole pack was listed with "must be exactly 1 deck(s)".
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    pack = [r + s for _ in range(decks) for s in "SHDC" for r in ranks] + (["SJ", "BJ"] * decks if jokers else [])
    hands = [pack[k * size:(k + 1) * size] for k in range(4)]
    kitty = pack[4 * size:]
    lost, doubled = hands[1][0], hands[0][0]
    hands[1][0] = doubled
    kw = {"kitty": " ".join(kitty)} if kitty else {}
    with pytest.raises(zhipai.InvalidValueError, match=rf"extra cards: {doubled}; missing cards: {lost}"):
        zhipai.Game(preset).new_deal(seed=1, hands=[" ".join(h) for h in hands], **kw)
