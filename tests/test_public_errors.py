"""Issue 15 items 7, 8, 9: every public entry point raises a named ``zhipai.ZhipaiError`` for bad
input (never a plain TypeError/KeyError/…), careless values are refused instead of read loosely,
``seed=None`` means one thing everywhere, a failing progress callback keeps the completed deals,
and a policy module cannot shadow the modules zhipai imports.
"""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np
import pytest
import zhipai
from zhipai import baohuang, gongzhu, hongwu, shengji
from zhipai.cli import build_parser, main

sim_module = importlib.import_module("zhipai.simulate")
R = zhipai.rules("tractor")
HAND = "BJ SJ 2S 2S AS AS KS QS JS 10S 2H AH KH KH QH 9D 9D 8D 5D 3C 4C 6C 7C 8C QC"


def named(exc_info, *needles):
    msg = str(exc_info.value)
    for n in needles:
        assert n in msg, (n, msg)


# --- item 7: the reported plain exceptions ------------------------------------------------


def test_declare_with_a_bid_that_is_not_a_pair():
    with pytest.raises(zhipai.InvalidValueError) as e:
        shengji.declare(R, "2", [(0,)])
    named(e, "(0,)", "bid")


def test_chaodi_with_a_declaration_that_is_not_a_pair():
    with pytest.raises(zhipai.InvalidValueError) as e:
        shengji.chaodi(R, "2", {"a": 1}, 0, [])
    named(e, "declaration", "{'a': 1}")


@pytest.mark.parametrize("bad", [[], "", 5, ("2S",), (0, "2S", 1)])
def test_chaodi_declaration_shapes(bad):
    with pytest.raises(zhipai.InvalidValueError, match="declaration"):
        shengji.chaodi(R, "2", bad, 0, [])


@pytest.mark.parametrize("bad", [None, 5, "zz", [None], [(0, "2S", 1)], [[1, 2, 3]]])
def test_declare_and_chaodi_sequences(bad):
    with pytest.raises(zhipai.InvalidValueError):
        shengji.declare(R, "2", bad)
    with pytest.raises(zhipai.InvalidValueError):
        shengji.chaodi(R, "2", None, 0, bad)


def test_baohuang_candidate_cards_with_none():
    with pytest.raises(zhipai.InvalidValueError) as e:
        baohuang.candidate_cards(None, "")
    named(e, "None", "candidate")
    with pytest.raises(zhipai.InvalidValueError, match="hand"):
        baohuang.candidate_cards("ascend 9C", None)


def test_concat_with_none():
    res = zhipai.simulate(R, 5, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match="None"):
        zhipai.SimResult.concat([res, None])


# --- item 7: a raising progress callback keeps the completed deals ------------------------


def _raising_after(n):
    calls = []

    def progress(done, total):
        if done > 0:  # (under load the first reports may come before any deal is complete)
            calls.append(done)
        if len(calls) >= n:
            raise RuntimeError("progress bar broke")

    return progress


def test_a_raising_progress_callback_keeps_the_completed_deals():
    with pytest.raises(zhipai.ProgressError) as e:
        zhipai.simulate(R, 5_000_000, seed=2, progress=_raising_after(2), aggregate_only=True)
    err = e.value
    assert isinstance(err, zhipai.ZhipaiError)
    assert isinstance(err.__cause__, RuntimeError) and "progress bar broke" in str(err)
    assert err.result.interrupted and 0 < err.result.completed < 5_000_000
    assert str(err.result.completed) in str(err)


def test_a_raising_progress_callback_keeps_the_rows_in_rows_mode():
    def progress(done, total):
        if done > 0:
            raise ValueError("nope")

    with pytest.raises(zhipai.ProgressError) as e:
        zhipai.simulate(R, 3_000_000, seed=2, progress=progress)
    res = e.value.result
    assert 0 < len(res) < 3_000_000
    again = zhipai.simulate(R, len(res), seed=2, progress=False)
    assert np.array_equal(again["attacker_points"], res["attacker_points"])


def test_a_raising_progress_callback_in_the_python_loop():
    with pytest.raises(zhipai.ProgressError) as e:
        zhipai.simulate("gongzhu", 200, policy=lambda obs, moves: moves[0], progress=_raising_after(1))
    assert isinstance(e.value.__cause__, RuntimeError)
    assert e.value.result.completed >= 1


def test_a_raising_progress_callback_in_evaluate():
    with pytest.raises(zhipai.ProgressError) as e:
        zhipai.evaluate("tractor", 0, HAND, samples=2_000_000, progress=_raising_after(2))
    assert isinstance(e.value.__cause__, RuntimeError)
    assert 0 < e.value.result.completed < 2_000_000


def test_a_progress_callback_raising_keyboardinterrupt_is_an_interrupt():
    def progress(done, total):
        raise KeyboardInterrupt

    with pytest.raises(zhipai.SimulationInterrupted):
        zhipai.simulate(R, 2_000_000, progress=progress, aggregate_only=True)


# --- item 7: the audit of the other public functions --------------------------------------


NOT_RULES = [None, 5, 1.5, [], {}, object()]
RULES_CALLS = {
    "declare": lambda r: shengji.declare(r, "2", [(0, "2S")]),
    "chaodi": lambda r: shengji.chaodi(r, "2", None, 0, []),
    "level_change": lambda r: shengji.level_change(r, 50),
    "jj_score": lambda r: shengji.jj_score(r, 50),
    "level_advance": lambda r: shengji.level_advance(r, "2", "2", 50),
    "Match": lambda r: shengji.Match(r, 0),
    "run_auction": lambda r: hongwu.run_auction(r, 0, []),
    "settle": lambda r: hongwu.settle(r, 60, 100),
    "settle_deal": lambda r: hongwu.settle_deal(r, 60, xianjia_tricks=100, dealer_tricks=100, kitty=0,
                                                xianjia_won_last=False, last_multiplier=2),
    "levels": lambda r: hongwu.levels(r),
}


@pytest.mark.parametrize("bad", NOT_RULES)
@pytest.mark.parametrize("name", list(RULES_CALLS))
def test_rules_of_the_wrong_type_are_named(name, bad):
    if name == "levels" and bad is None:
        pytest.skip("levels(rules=None) is the default Hong Wu table")
    with pytest.raises(zhipai.InvalidValueError) as e:
        RULES_CALLS[name](bad)
    assert "rules" in str(e.value)


@pytest.mark.parametrize("name", ["declare", "chaodi", "level_change", "jj_score", "level_advance", "Match"])
def test_a_preset_name_is_accepted_where_rules_are(name):
    RULES_CALLS[name]("tractor")


@pytest.mark.parametrize("bad", [None, 5, True, ["random"]])
def test_match_arguments_of_the_wrong_type(bad):
    with pytest.raises(zhipai.InvalidValueError, match="policy"):
        shengji.Match(R).play_hand(bad)
    with pytest.raises(zhipai.InvalidValueError, match="deal"):
        shengji.Match(R).record(bad)


@pytest.mark.parametrize("bad", [5, 1.5, [], {}, object()])
def test_mechanics_rules_of_the_wrong_type(bad):
    with pytest.raises(zhipai.InvalidValueError, match="rules"):
        shengji.Mechanics(bad)


@pytest.mark.parametrize("bad", [None, 5, [], b"2"])
def test_levels_and_texts_of_the_wrong_type(bad):
    with pytest.raises(zhipai.InvalidValueError, match="level"):
        shengji.declare(R, bad, [])
    with pytest.raises(zhipai.InvalidValueError, match="level"):
        shengji.chaodi(R, bad, None, 0, [])


def _res():
    return zhipai.simulate(R, 10, progress=False)


@pytest.mark.parametrize("bad", ["nope", None, 3, [], {}])
def test_unknown_columns_are_named_zhipai_errors_that_are_also_key_errors(bad):
    res = _res()
    for call in (lambda: res[bad], lambda: res.stats(bad), lambda: res.summary()[bad],
                 lambda: res.plot(columns=[bad])):
        with pytest.raises(zhipai.ZhipaiError) as e:
            call()
        assert isinstance(e.value, KeyError) or "columns" in str(e.value)
        assert repr(bad) in str(e.value) or str(bad) in str(e.value)
        assert not str(e.value).startswith(("'", '"'))  # not KeyError's quoted message


def test_plot_columns_must_be_a_list_of_names():
    pytest.importorskip("matplotlib")
    with pytest.raises(zhipai.InvalidValueError, match="columns"):
        _res().plot(columns=5)
    with pytest.raises(zhipai.InvalidValueError, match="columns"):
        _res().plot(columns="dealer")


def test_rows_of_an_aggregate_result_are_a_named_error():
    agg = zhipai.simulate(R, 10, aggregate_only=True, progress=False)
    for call in (agg.to_pandas, agg.to_arrow, lambda: agg.save("x.csv"), lambda: agg["dealer"]):
        with pytest.raises(zhipai.ZhipaiError, match="aggregate_only"):
            call()


def test_fraction_without_a_distribution_is_a_named_error():
    res = zhipai.simulate(R, 10, progress=False)
    col = sim_module.ColumnSummary.from_stats("attacker_points", "", sim_module.EMPTY_STATS)
    assert col.distribution is None
    with pytest.raises(zhipai.InvalidValueError, match=col.name):
        col.fraction(0)
    with pytest.raises(zhipai.InvalidValueError, match="value"):
        res.summary()["dealer"].fraction([])


def test_missing_optional_package_is_a_zhipai_error_and_an_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(zhipai.MissingDependencyError) as e:
        _res().to_pandas()
    assert isinstance(e.value, ImportError) and isinstance(e.value, zhipai.ZhipaiError)
    assert "zhipai[pandas]" in str(e.value)


@pytest.fixture(scope="module")
def ev():
    return zhipai.evaluate("tractor", 0, HAND, samples=20, candidates=[None, ""], progress=False)


@pytest.mark.parametrize("bad", [None, 1.5, "zz", -1, 2, True, [], np.float64(1.0)])
def test_evaluation_candidates_are_named(ev, bad):
    calls = [lambda: ev.outcomes(bad), lambda: ev.compare("attacker_points", against=bad)]
    if bad is not None:  # summary() with no candidate is every candidate's summary
        calls.append(lambda: ev.summary(bad))
    for call in calls:
        with pytest.raises(zhipai.ZhipaiError, match="candidate"):
            call()


def test_evaluation_candidate_numpy_index(ev):
    assert ev.outcomes(np.int64(1)).keys() == ev.outcomes(1).keys()


@pytest.mark.parametrize("bad", [None, 3, "nope", [], {}])
def test_evaluation_columns_are_named(ev, bad):
    for call in (lambda: ev.compare(bad), lambda: ev.best(bad)):
        with pytest.raises(zhipai.ZhipaiError, match="column"):
            call()


@pytest.mark.parametrize("known", [True, 1.5, "zz", -1, b"x", np.int64(3), [("hands", {})]])
def test_evaluate_known_of_the_wrong_type(known):
    with pytest.raises(zhipai.InvalidValueError, match="known"):
        zhipai.evaluate("tractor", 0, HAND, known=known, samples=5, progress=False)


@pytest.mark.parametrize("known", [{"hands": 5}, {"hands": [1, 2]}, {"voids": "S"}, {"kitty": 5}])
def test_evaluate_known_parts_of_the_wrong_type(known):
    with pytest.raises(zhipai.ZhipaiError):
        zhipai.evaluate("tractor", 0, HAND, known=known, samples=5, progress=False)


@pytest.mark.parametrize("bad", [5, None, True, [1], {}])
def test_evaluate_candidates_of_the_wrong_type(bad):
    with pytest.raises(zhipai.InvalidValueError, match="candidate"):
        zhipai.evaluate("tractor", 0, HAND, candidates=bad if bad is not None else [5], samples=5, progress=False)


@pytest.mark.parametrize("bad", [None, True, 1.5, -1, "zz", [], {}, np.float64(1.0)])
def test_case_runner_paths_and_cases(bad, tmp_path):
    from zhipai import testing

    with pytest.raises(zhipai.ZhipaiError):
        testing.check_cases(bad)
    with pytest.raises(zhipai.ZhipaiError):
        list(testing.read_cases(bad))
    if not isinstance(bad, dict):
        with pytest.raises(zhipai.InvalidValueError, match="case"):
            testing.check_case(bad)


def test_case_runner_file_problems_are_file_errors(tmp_path):
    from zhipai import testing

    with pytest.raises(zhipai.FileError, match="nope.jsonl"):
        testing.check_cases(tmp_path / "nope.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n{not json\n')
    with pytest.raises(zhipai.FileError, match="bad.jsonl:2"):
        testing.check_cases(bad)
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(zhipai.FileError, match="UTF-8"):
        testing.check_cases(binary)


def test_case_runner_never_reads_stdout_as_a_file(capsys):
    from zhipai import testing

    with pytest.raises(zhipai.InvalidValueError):
        testing.check_cases(1)  # an int is not a path (open(1) would read and close stdout)
    print("stdout still open")
    assert "stdout still open" in capsys.readouterr().out


# --- item 8: careless values -------------------------------------------------------------


@pytest.mark.parametrize("bad", ["no", "yes", 0, 1, None, 1.0, [], np.int64(1)])
def test_deal_jokers_must_be_a_bool(bad):
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.deal(jokers=bad)
    named(e, "jokers", repr(bad) if not isinstance(bad, np.integer) else "1")
    with pytest.raises(zhipai.InvalidValueError, match="jokers"):
        zhipai.deal_batch(2, jokers=bad)


def test_deal_jokers_accepts_bools_and_numpy_bools():
    assert sum(len(h) for h in zhipai.deal(jokers=False, seed=1).hands) + len(zhipai.deal(jokers=False, seed=1).kitty) == 104
    assert len(zhipai.deal(jokers=np.bool_(True), seed=1).kitty) == 8


@pytest.mark.parametrize("bad", ["no", "yes", 0, 1, None, 1.0, np.int64(0)])
def test_simulate_aggregate_only_must_be_a_bool(bad):
    with pytest.raises(zhipai.InvalidValueError, match="aggregate_only"):
        zhipai.simulate(R, 5, aggregate_only=bad, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match="aggregate_only"):
        zhipai.simulate("gongzhu", 5, policy=lambda o, m: m[0], aggregate_only=bad, progress=False)


def test_simulate_aggregate_only_accepts_numpy_bools():
    assert zhipai.simulate(R, 5, aggregate_only=np.bool_(True), progress=False).aggregate_only


@pytest.mark.parametrize("bad", [1, 0, "yes", 1.0])
def test_progress_must_be_a_bool_none_or_a_callable(bad):
    with pytest.raises(zhipai.InvalidValueError, match="progress"):
        zhipai.simulate(R, 5, progress=bad)
    with pytest.raises(zhipai.InvalidValueError, match="progress"):
        zhipai.evaluate("tractor", 0, HAND, samples=5, progress=bad)


@pytest.mark.parametrize("bad", ["yes", 1, 0, None])
def test_level_advance_single_jack_must_be_a_bool(bad):
    with pytest.raises(zhipai.InvalidValueError, match="last_trick_single_jack"):
        shengji.level_advance(R, "2", "2", 50, last_trick_single_jack=bad)


def test_numpy_bools_are_bools_in_the_python_wrappers():
    assert baohuang.ascension_options("BJ 9S 9S 9S", scepter_in_hand=np.bool_(True))
    HW = zhipai.rules("hong_wu")
    a = hongwu.settle_deal(HW, 60, xianjia_tricks=100, dealer_tricks=100, kitty=0,
                           xianjia_won_last=np.bool_(False), last_multiplier=2)
    b = hongwu.settle_deal(HW, 60, xianjia_tricks=100, dealer_tricks=100, kitty=0,
                           xianjia_won_last=False, last_multiplier=2)
    assert a == b
    assert shengji.level_advance(R, "2", "2", 50, last_trick_single_jack=np.bool_(False))


def test_seed_none_is_a_fresh_random_seed_recorded_in_the_result():
    a = zhipai.simulate(R, 20, seed=None, progress=False)
    b = zhipai.simulate(R, 20, seed=None, progress=False)
    assert isinstance(a.seed, int) and 0 <= a.seed < 2**64 and a.seed != b.seed
    again = zhipai.simulate(R, 20, seed=a.seed, progress=False)
    assert np.array_equal(again["attacker_points"], a["attacker_points"])
    assert f"seed {a.seed}" in str(a.summary())


def test_seed_none_in_the_python_loop_and_evaluate():
    a = zhipai.simulate("gongzhu", 3, policy=lambda o, m: m[0], seed=None, progress=False)
    assert isinstance(a.seed, int)
    again = zhipai.simulate("gongzhu", 3, policy=lambda o, m: m[0], seed=a.seed, progress=False)
    assert np.array_equal(again["final_0"], a["final_0"])
    ev = zhipai.evaluate("tractor", 0, HAND, samples=10, seed=None, progress=False)
    ev2 = zhipai.evaluate("tractor", 0, HAND, samples=10, seed=ev.seed, progress=False)
    assert isinstance(ev.seed, int) and np.array_equal(ev.outcomes(0)["attacker_points"], ev2.outcomes(0)["attacker_points"])


def test_seed_none_in_a_match_is_random_and_recorded():
    m1, m2 = shengji.Match(R, None), shengji.Match(R, None)
    assert isinstance(m1.seed, int) and m1.seed != m2.seed
    assert shengji.Match(R, 5).seed == 5


def test_seed_none_where_nothing_records_it_is_refused_not_zero():
    with pytest.raises(zhipai.InvalidValueError, match="seed None"):
        zhipai.deal_batch(2, seed=None)
    with pytest.raises(zhipai.InvalidValueError, match="seed None"):
        gongzhu.play_match(1, seed=None)


def test_evaluate_huge_samples_are_not_called_deals():
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.evaluate("tractor", 0, HAND, samples=2**62, progress=False)
    assert "samples" in str(e.value) and "deals" not in str(e.value)


def test_report_refuses_an_unknown_column(ev):
    with pytest.raises(zhipai.InvalidValueError, match="nope"):
        ev.report(["nope"])
    with pytest.raises(zhipai.InvalidValueError, match="columns"):
        ev.report("attacker_points")
    assert "attacker_points" in ev.report(["attacker_points"])


@pytest.mark.parametrize("value", [np.int8(2), np.int32(2), np.uint64(2), np.int64(2)])
def test_numpy_integers_are_accepted_wherever_ints_are(value):
    res = zhipai.simulate(R, value * 5, seed=value, threads=value, chunk_size=value,
                          first_deal=value, progress=False)
    assert len(res) == 10 and res.seed == 2 and res.first_deal == 2 and type(res.seed) is int
    ev = zhipai.evaluate("tractor", value - 2, HAND, samples=value * 3, seed=value, threads=value, progress=False)
    assert ev.completed == 6 and type(ev.seed) is int
    assert zhipai.deal(decks=value, seed=value, index=value).index == 2
    assert zhipai.deal_batch(value, decks=value, seed=value).shape[0] == 2
    assert shengji.level_change(R, value * 25)["levels"] >= 0
    assert gongzhu.play_match(value, seed=value)[0] <= 2
    m = shengji.Match(R, value)
    assert m.seed == 2


# --- item 9: a policy module is imported without shadowing zhipai's own imports -----------


def test_policy_import_appends_the_current_directory(tmp_path, monkeypatch):
    from zhipai import cli

    (tmp_path / "mybot.py").write_text("def play(obs, moves):\n    return moves[0]\n")
    (tmp_path / "tqdm").mkdir()
    (tmp_path / "tqdm" / "__init__.py").write_text("raise SystemExit('local tqdm ran')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd(), str(tmp_path))])
    cli._load_policy("mybot:play")
    assert sys.path[-1] == str(tmp_path) and sys.path.index(str(tmp_path)) == len(sys.path) - 1
    monkeypatch.delitem(sys.modules, "tqdm", raising=False)
    import tqdm  # noqa: F401 - the installed tqdm, not ./tqdm

    assert "local tqdm" not in repr(sys.modules["tqdm"])
    assert not sys.modules["tqdm"].__file__.startswith(str(tmp_path))


def test_cli_with_a_local_tqdm_runs_the_installed_one(tmp_path, monkeypatch, capsys):
    (tmp_path / "mybot.py").write_text("def play(obs, moves):\n    return moves[0]\n")
    (tmp_path / "tqdm").mkdir()
    (tmp_path / "tqdm" / "__init__.py").write_text("raise SystemExit('local tqdm ran')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "tqdm", raising=False)
    monkeypatch.delitem(sys.modules, "tqdm.auto", raising=False)
    rc = main(["simulate", "gongzhu", "-n", "3", "-q", "--policy-seat", "0=mybot:play"])
    assert rc == 0
    sim_module._Bar(3, "x", False)(1, 3)  # the progress bar imports tqdm: the installed one
    assert not sys.modules["tqdm"].__file__.startswith(str(tmp_path))


def test_help_and_readme_say_a_policy_module_is_arbitrary_code():
    sub = build_parser()._subparsers._group_actions[0].choices["simulate"]
    text = " ".join(sub.format_help().split())
    assert "arbitrary code" in text
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8").read()
    assert "arbitrary code" in readme and "appended" in readme


# --- README -------------------------------------------------------------------------------


def test_readme_errors_section_lists_every_exception_class():
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8").read()
    section = readme.split("## Errors", 1)[1].split("\n## ", 1)[0]
    for name in ["ZhipaiError", "InvalidCardError", "InvalidValueError", "InvalidOptionError",
                 "IllegalPlayError", "ImpossibleDealError", "FileError", "ProgressError",
                 "MissingDependencyError", "UnknownKeyError", "PolicyError", "SimulationInterrupted"]:
        assert f"`{name}`" in section, name
        assert hasattr(zhipai, name), name
    for words in ["atomic", "ctrl-c", "progress callback", "__cause__", "completed prefix"]:
        assert words in section.lower(), words


# --- the completed prefix on a failing Python policy; the base class's public name --------


def test_a_failing_python_policy_keeps_the_deals_before_it():
    calls = []

    def flaky(obs, moves):
        calls.append(1)
        if len(calls) > 2000:  # seat 0 decides 13 times a deal: fails in deal ~150
            raise RuntimeError("bot crashed")
        return moves[0]

    with pytest.raises(zhipai.PolicyError) as e:
        zhipai.simulate("gongzhu", 1000, policy={0: flaky, "others": "random"}, seed=3, progress=False)
    res = e.value.result
    assert res.interrupted and 0 < res.completed < 1000 and len(res["final_0"]) == res.completed
    assert isinstance(e.value.__cause__, RuntimeError)


def test_the_base_class_shows_its_public_name():
    assert zhipai.ZhipaiError.__name__ == "ZhipaiError"
    assert zhipai.FileError.__module__ == "zhipai" and zhipai.ProgressError.__module__ == "zhipai"
