"""Option values are checked, never wrapped or coerced (issue 15): what the binding converts from
Python (bools, ints and numpy ints, huge ints, str, lists, None, floats), the integer ranges (Hong
Wu's base_score_k keeps every i32 result column exact), and the command line's text form."""

from __future__ import annotations

import numpy as np
import pytest
import zhipai
from zhipai import _core
from zhipai.cli import main

# The largest base_score_k: the result table's largest entry is 9 units and the columns are i32.
K_MAX = (2**31 - 1) // 9


def opts(rules: zhipai.Rules) -> dict[str, str]:
    return dict(rules.options())


# ---- integers: ints and numpy integers, inside the declared range -------------------------------


@pytest.mark.parametrize("value", [np.int64(3), np.int32(3), np.uint8(3), np.int16(3)])
def test_numpy_integers_are_integers(value):
    assert opts(zhipai.rules("tractor", decks=value))["decks"] == "3"
    assert opts(zhipai.rules("hong_wu", base_score_k=value))["base_score_k"] == "3"
    assert opts(zhipai.rules("tractor", level_cap=value))["level_cap"] == "3"
    assert opts(zhipai.rules("baohuang", deck=np.int64(168)))["deck"] == "168"


@pytest.mark.parametrize("preset, name, value, reason", [
    ("tractor", "base", 2**63, "expected an integer from 1 to 1000000"),
    ("tractor", "base", -(2**63) - 1, "expected an integer from 1 to 1000000"),
    ("tractor", "base", 10**30, "expected an integer from 1 to 1000000"),
    ("tractor", "base", 0, "expected an integer from 1 to 1000000"),
    ("tractor", "decks", 2**64, "expected one of 1, 2, 3"),
    ("tractor", "level_cap", 2**70, "expected none or an integer from 1 to 12"),
    ("hong_wu", "base_score_k", 2**40, f"expected an integer from 1 to {K_MAX}"),
    ("hong_wu", "base_score_k", 2**31 - 1, f"expected an integer from 1 to {K_MAX}"),
    ("hong_wu", "base_score_k", K_MAX + 1, f"expected an integer from 1 to {K_MAX}"),
    ("hong_wu", "red5_penalty_per_card", np.int64(7), "expected a multiple of 5 from 0 to 200"),
    ("gongzhu", "multiplier_two_deck", 2, "expected one of 1, 12"),
])
def test_integers_outside_the_range_are_refused_naming_value_and_range(preset, name, value, reason):
    with pytest.raises(zhipai.InvalidOptionError) as info:
        zhipai.rules(preset, **{name: value})
    assert str(info.value).startswith(f"invalid option {name}={int(value)}: {reason}")


# ---- types that are not the option's: refused with InvalidOptionError naming the value ---------


@pytest.mark.parametrize("preset, name, value, shown", [
    ("tractor", "chaodi", "yes", "chaodi=yes"),
    ("tractor", "chaodi", "true", "chaodi=true"),  # a str is not a bool (text is for the CLI)
    ("tractor", "chaodi", 1, "chaodi=1"),
    ("tractor", "chaodi", "on", "chaodi=on"),
    ("gongzhu", "partnership", "no", "partnership=no"),
    ("tractor", "base", [1], "base=[1]"),
    ("tractor", "base", "1", "base=1"),
    ("tractor", "base", 1.0, "base=1.0"),
    ("tractor", "base", None, "base=None"),
    ("tractor", "decks", "3", "decks=3"),
    ("tractor", "decks", 3.0, "decks=3.0"),
    ("tractor", "decks", True, "decks=true"),
    ("tractor", "throw_compare", ["all_components"], "throw_compare=[all_components]"),
    ("tractor", "throw_compare", None, "throw_compare=None"),
    ("tractor", "mandatory_levels", 5, "mandatory_levels=5"),
    ("tractor", "mandatory_levels", [5.0], "mandatory_levels=[5.0]"),
    ("hong_wu", "base_score_k", 2.5, "base_score_k=2.5"),
    ("hong_wu", "base_score_k", {"k": 1}, "base_score_k={'k': 1}"),
    ("baohuang", "bombs", "yes", "bombs=yes"),
    ("baohuang", "bombs", 1, "bombs=1"),
    ("baohuang", "deck", "168", "deck=168"),
])
def test_values_of_another_type_are_refused(preset, name, value, shown):
    with pytest.raises(zhipai.InvalidOptionError) as info:
        zhipai.rules(preset, **{name: value})
    assert str(info.value).startswith(f"invalid option {shown}: "), str(info.value)
    assert "expected" in str(info.value)


def test_bools_take_bools_and_numpy_bools():
    assert opts(zhipai.rules("tractor", chaodi=True))["chaodi"] == "true"
    assert opts(zhipai.rules("tractor", chaodi=np.True_))["chaodi"] == "true"
    assert opts(zhipai.rules("gongzhu", partnership=np.bool_(False)))["partnership"] == "false"
    # Baohuang's off/on options take their spelling or a bool.
    assert zhipai.rules("baohuang", bombs="on") == zhipai.rules("baohuang", bombs=True)
    assert zhipai.rules("baohuang", tribute_between_deals="off") == zhipai.rules("baohuang")
    # A list of ranks (str or int items) for the one set-valued option.
    assert opts(zhipai.rules("tractor", mandatory_levels=[5, "10", "K"]))["mandatory_levels"] == "{5,10,K,A}"
    assert opts(zhipai.rules("tractor", mandatory_levels=("5",)))["mandatory_levels"] == "{5,A}"


@pytest.mark.parametrize("preset", [None, 3, b"tractor", ["tractor"]])
def test_a_preset_that_is_not_a_str_is_a_zhipai_error(preset):
    with pytest.raises(zhipai.InvalidOptionError, match="invalid option preset=.*expected a preset name"):
        zhipai.rules(preset)
    with pytest.raises(zhipai.ZhipaiError):
        zhipai.simulate(preset, 1)


def test_aggregate_only_is_a_bool():
    for bad in ("no", 0, 1, None, "yes"):
        with pytest.raises(zhipai.InvalidValueError, match=f"invalid aggregate_only {bad!r}: expected True or False"):
            zhipai.simulate("gongzhu", 3, aggregate_only=bad, progress=False)
    r = zhipai.simulate("gongzhu", 3, aggregate_only=np.True_, progress=False)
    assert r.aggregate_only


# ---- Hong Wu: the largest base_score_k keeps every result exact --------------------------------


def test_hong_wu_largest_base_score_k_fits_the_i32_columns():
    k = K_MAX
    r = zhipai.simulate(zhipai.rules("hong_wu", base_score_k=k), 200, seed=5, progress=False)
    dealer = r["dealer_result"].astype(np.int64)
    each = r["each_other_result"].astype(np.int64)
    # Every row is table units × k exactly (units ±3, ±6, ±9 for the dealer): nothing wrapped.
    assert set(np.unique(dealer // k)) <= {-9, -6, -3, 3, 6, 9}
    assert (dealer % k == 0).all() and (dealer != 0).all()
    assert (dealer + 3 * each == 0).all()
    # The zero-sum rule holds in the columns' own int32 arithmetic too.
    assert (r["dealer_result"] + np.int32(3) * r["each_other_result"] == 0).all()
    assert 9 * k <= 2**31 - 1 < 9 * (k + 1)
    # The same deals with k = 1 give the units.
    units = zhipai.simulate(zhipai.rules("hong_wu"), 200, seed=5, progress=False)
    assert (units["dealer_result"].astype(np.int64) * k == dealer).all()


# ---- the text form: command line and Rules.options() -------------------------------------------


def test_listed_text_rebuilds_the_same_rules_for_every_preset_and_choice():
    for p in zhipai.presets():
        listed = {o["name"]: o["choices"] for o in p["options"]}
        for decks in listed.get("decks", [None]):
            start = {} if decks is None else {"decks": decks}
            base = _core.rules(p["name"], start, text=True)
            assert _core.rules(p["name"], opts(base), text=True) == base, p["name"]
            for name, choices in listed.items():
                for choice in choices:
                    try:
                        r = _core.rules(p["name"], {**start, name: choice}, text=True)
                    except zhipai.InvalidOptionError as e:
                        assert (name, choice, decks) == ("jj_scoring", "true", decks) and decks != "2", e
                        continue
                    assert opts(r)[name] == choice, (p["name"], decks, name)


def test_text_form_reads_each_option_by_its_type():
    r = _core.rules("tractor", {"chaodi": "TRUE", "decks": "3", "level_cap": "3",
                                "mandatory_levels": "{5,10}"}, text=True)
    assert zhipai.rules("tractor", chaodi=True, decks=3, level_cap=3, mandatory_levels=["5", "10"]) == r
    for name, text, reason in [("chaodi", "yes", "expected true or false"),
                               ("chaodi", "1", "expected true or false"),
                               ("decks", "two", "expected one of 1, 2, 3"),
                               ("base", "99999999999999999999", "expected an integer from 1 to 1000000")]:
        with pytest.raises(zhipai.InvalidOptionError, match=f"invalid option {name}={text}: {reason}"):
            _core.rules("tractor", {name: text}, text=True)
    with pytest.raises(zhipai.InvalidOptionError, match="expected text"):
        _core.rules("tractor", {"chaodi": True}, text=True)


def test_cli_options_are_text(capsys):
    assert main(["simulate", "tractor", "-n", "2", "-q", "-o", "chaodi=yes"]) == 2
    assert "zhipai: error: invalid option chaodi=yes: expected true or false" in capsys.readouterr().err
    assert main(["simulate", "hong_wu", "-n", "2", "-q", "-o", f"base_score_k={2**40}"]) == 2
    assert f"invalid option base_score_k={2**40}: expected an integer from 1 to {K_MAX}" in capsys.readouterr().err
    assert main(["simulate", "tractor", "-n", "2", "-q", "--decks", "3", "-o", "chaodi=True",
                 "-o", "level_cap=3", "-o", "throw_compare=all_components"]) == 0
    assert main(["simulate", "baohuang", "-n", "2", "-q", "-o", "bombs=on"]) == 0
