"""The analyst's view (issue 16): key columns and events per game, quantiles and distributions in
summaries, exact histograms in aggregate mode, plots on the value grid, rule-variant comparison,
and the small things (counts in scientific notation, one card-constraint syntax, every candidate
in ``ev.summary()``, why ``ascend 5S`` is refused)."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
import zhipai
from zhipai import _report, keys
from zhipai.cli import main
from zhipai.compare import compare

HIGH_SPADES = "AS KS QS JS 10S 9S 8S 3D 4D 5D 3C 4C 5C"
TRACTOR_HAND = "BJ SJ 2S 2S AS AS KS QS JS 10S 2H AH KH KH QH 9D 9D 8D 5D 3C 4C 6C 7C 8C QC"
MONSTER = (
    "BJ BJ BJ BJ SJ SJ SJ SJ 2S 2S 2S 2H 2H 2H 2D 2D 2D 2C 2C 2C AS AS AS AH AH AH AD AD AD AC AC AC "
    "9C 9C 9C KS KS KS KH KH KH KD KD QS"
)


def _quantiles(x: np.ndarray) -> list[int]:
    return [int(v) for v in np.quantile(x, keys.QUANTILES, method="inverted_cdf")]


# --- item 2: the deciding numbers first -----------------------------------------------------


def test_gongzhu_evaluation_leads_with_the_seat_return_and_key_events():
    ev = zhipai.evaluate("gongzhu", 0, HIGH_SPADES, candidates=["", "QS"], samples=400, seed=3, progress=False)
    # The seat's return is the seat's credited result.
    for c in ev.candidates:
        assert np.array_equal(ev.outcomes(c)["seat_return"], ev.outcomes(c)["final_0"])
    lines = str(ev).splitlines()
    assert lines[1].startswith("best for seat 0: ") and "over" in lines[1] and "95% CI" in lines[1]
    body = "\n".join(lines)
    assert body.index("seat_return: seat 0's credited result") < body.index("raw_0:")
    assert "seat 0 takes the pig (pig_taker == 0)" in body
    # The 20 other columns are named once, not tabulated; --columns all tabulates them.
    assert "\npig_taker:" not in body and "other columns" in body and "pig_taker" in body
    assert "\npig_taker: seat that took" in ev.report("all")
    # The event shares and paired differences are those of the outcomes.
    rows = {(r["event"], r["candidate"]): r for r in ev.events()}
    took = ev.outcomes("QS")["pig_taker"] == 0
    r = rows[("seat 0 takes the pig", "QS")]
    assert r["count"] == took.sum() and r["share"] == pytest.approx(took.mean())
    assert r["diff"] == pytest.approx(took.mean() - (ev.outcomes("")["pig_taker"] == 0).mean())
    lo, hi = r["ci95"]
    assert lo < r["share"] < hi


def test_baohuang_evaluation_leads_with_the_seat_return_and_finishing_first():
    ev = zhipai.evaluate("baohuang", 0, MONSTER, candidates=["ascend 9C", "grab"], samples=200, policy="greedy",
                         progress=False)
    assert ev.candidates == ["9C 9C 9C", "BJ"]  # grab = the scepter BJ
    assert np.array_equal(ev.outcomes("BJ")["seat_return"], ev.outcomes("BJ")["score_0"])
    text = str(ev)
    assert text.splitlines()[1].startswith("best for seat 0: BJ")  # grabbing wins outright here
    assert "seat 0 finishes first 大客 (place_0 == 1)" in text
    # Seat 0 finishes first in every sample: its place is not a deciding number, no table for it.
    assert "\nplace_0:" not in text and "place_0" in text.split("other columns")[1]
    assert "\nplace_0:" in ev.report("all")


@pytest.mark.parametrize("seat", [0, 1])
def test_shengji_seat_return_is_the_levels_of_the_seats_team(seat):
    ev = zhipai.evaluate("tractor", seat, TRACTOR_HAND, samples=60, seed=2, progress=False)
    o = ev.outcomes()
    team_gains = (o["side"] == 0) == (o["dealer"] % 2 == seat % 2)
    assert np.array_equal(o["seat_return"], np.where(team_gains, o["levels"], -o["levels"]))


def test_hong_wu_seat_return_is_the_dealers_or_an_attackers_result():
    hand = "5H 5H BJ BJ SJ SJ 2H 2H AH AH KH QH JH 10H 9H 8H 7H 6H 4H 3H AS AD AC KS KD"
    ev = zhipai.evaluate("hong_wu", 1, hand, samples=40, seed=1, progress=False)
    o = ev.outcomes()
    expected = np.where(o["dealer"] == 1, o["dealer_result"], o["each_other_result"])
    assert np.array_equal(o["seat_return"], expected)


def test_cli_evaluate_prints_the_deciding_numbers_first(capsys):
    assert main(["evaluate", "gongzhu", "--hand", HIGH_SPADES, "-n", "300", "-q", "-c", "", "-c", "QS"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("best for seat 0: ")
    assert out[3].startswith("seat_return: ")
    assert len("\n".join(out)) < 4000  # not 20 columns of tables


# --- item 5: quantiles, distributions, codes ----------------------------------------------


def test_summary_shows_quantiles_distributions_and_codes():
    res = zhipai.simulate("tractor", 3000, seed=1, progress=False)
    s = res.summary()
    for c in res.columns:
        assert list(s[c].quantiles.values()) == _quantiles(res[c]), c
    text = str(s)
    header = next(line for line in text.splitlines() if line.startswith("key column"))
    assert header.split()[2:5] == ["mean", "std", "95%"] and all(q in header for q in ("5%", "25%", "50%", "75%", "95%"))
    assert "attacker_points distribution (5-point grid, share of deals):" in text
    assert "attackers take over (take_over == 1)" in text
    assert "trump: 0 S · 1 H · 2 D · 3 C · 4 NT" in text
    codes = text.split("codes:")[1].split("other columns")[0]
    assert "  level:" not in codes  # constant (hand 1 is at level 2): no legend for it
    legend = _report.legend_lines(keys.codes_for("tractor"), ["level", "dealer", "side"])
    assert legend[1] == "  level: rank index 0 = 2, 1 = 3, …, 8 = 10, 9 = J, 10 = Q, 11 = K, 12 = A; 13 = NT (the joker-only level)"
    assert "  dealer: seat numbers" in legend
    # The key view names the other columns; the full view tabulates them.
    assert "\ntrick_points " not in text and "trick_points" in text
    assert "\ntrick_points " in str(res.summary(columns="all"))
    with pytest.raises(zhipai.InvalidValueError, match="'key'"):
        res.summary(columns="some")


def test_baohuang_summary_legend_and_mode_distribution():
    text = str(zhipai.simulate("baohuang", 300, seed=2, progress=False).summary())
    assert "mode: -1 黄局 · 0 normal 暗保 · 1 open guard 明保 · 2 grab 抢独" in text
    assert "2 grab 抢独" in text.split("mode distribution (share of deals):")[1]
    assert "emperor_place, place_0, place_1, place_2, place_3, place_4: 1 大客 1st" in text


@pytest.mark.parametrize("preset", ["tractor", "hong_wu", "gongzhu", "baohuang"])
def test_the_summary_of_an_aggregate_run_is_the_summary_of_its_rows(preset):
    rows = zhipai.simulate(preset, 2000, seed=4, progress=False)
    agg = zhipai.simulate(preset, 2000, seed=4, progress=False, aggregate_only=True)
    assert str(agg.summary()) == str(rows.summary())
    assert str(agg.summary(columns="all")) == str(rows.summary(columns="all"))


# --- item 4: exact histograms in aggregate mode, plots ----------------------------------------


def test_aggregate_mode_keeps_exact_histograms_of_wide_columns():
    rows = zhipai.simulate("gongzhu", 5000, seed=1, progress=False)
    agg = zhipai.simulate("gongzhu", 5000, seed=1, progress=False, aggregate_only=True, threads=2, chunk_size=37)
    for c in ("final_0", "raw_0"):
        assert rows[c].min() < -256 or rows[c].max() >= 256  # outside the old -256..255 range
        values, counts = np.unique(rows[c], return_counts=True)
        assert agg.stats(c)["histogram"] == list(zip(values.tolist(), counts.tolist()))
        assert agg.summary()[c].quantiles == rows.summary()[c].quantiles
    # Merged parts (Ray, concat) keep them too.
    parts = [zhipai.simulate("gongzhu", 2500, seed=1, first_deal=f, aggregate_only=True, progress=False)
             for f in (0, 2500)]
    assert zhipai.SimResult.concat(parts).stats("final_0") == agg.stats("final_0")


def test_histograms_beyond_the_distinct_value_limit_are_dropped_alike():
    import importlib

    sim = importlib.import_module("zhipai.simulate")

    wide = np.arange(sim.HIST_MAX_SPARSE + 1, dtype=np.int32) + 1000
    assert sim._exact_stats(wide)["histogram"] is None
    assert sim._exact_stats(wide[:-1])["histogram"] is not None
    half = len(wide) // 2
    merged = sim._merge_stats([sim._exact_stats(wide[:half]), sim._exact_stats(wide[half:])])
    assert merged == sim._exact_stats(wide)


def _bars(ax):
    from matplotlib.patches import Rectangle

    return [(round(p.get_x() + p.get_width() / 2, 6), round(p.get_height(), 9)) for p in ax.patches
            if isinstance(p, Rectangle) and p.get_height() > 0]


def test_plot_draws_the_key_columns_on_their_value_grid(tmp_path):
    pytest.importorskip("matplotlib")
    res = zhipai.simulate("tractor", 3000, seed=1, progress=False)
    fig = res.plot(tmp_path / "t.png")
    assert (tmp_path / "t.png").stat().st_size > 10_000
    titles = [ax.get_title(loc="left") for ax in fig.axes]
    assert titles == ["attacker_points", "levels", "key events"]  # constant columns have no panel
    centres = [x for x, _ in _bars(fig.axes[0])]
    # One bar per 5 points, centred on the values: no fake spikes from a 50-bin histogram.
    assert all(float(x).is_integer() and int(x) % 5 == 0 for x in centres)
    values, counts = np.unique(res["attacker_points"], return_counts=True)
    heights = dict(_bars(fig.axes[0]))
    for v, c in zip(values, counts):
        if v in heights:
            assert heights[v] == pytest.approx(100 * c / len(res))
    assert "5 · 25 · 50 · 75 · 95%" in fig.axes[0].get_title(loc="right")


def test_aggregate_plots_equal_rows_plots_and_long_tails_use_a_log_axis():
    pytest.importorskip("matplotlib")
    rows = zhipai.simulate("gongzhu", 3000, seed=2, progress=False).plot()
    agg = zhipai.simulate("gongzhu", 3000, seed=2, progress=False, aggregate_only=True).plot()
    assert [a.get_title(loc="left") for a in rows.axes] == ["final_0", "raw_0", "key events"]
    for a, b in zip(rows.axes, agg.axes):
        assert _bars(a) == _bars(b)
    assert rows.axes[0].get_yscale() == "log"


def test_evaluation_plot_shows_the_candidates_side_by_side(tmp_path):
    pytest.importorskip("matplotlib")
    ev = zhipai.evaluate("gongzhu", 0, HIGH_SPADES, candidates=["", "QS"], samples=200, progress=False)
    fig = ev.plot(tmp_path / "e.png")
    titles = [ax.get_title(loc="left") for ax in fig.axes]
    assert titles[:2] == ["seat_return", "raw_0"]
    assert "seat_return: means and paired differences (95% CI)" in titles and "key events" in titles
    legend = fig.axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["pass", "QS"]


def test_cli_evaluate_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "e.png"
    assert main(["evaluate", "gongzhu", "--hand", HIGH_SPADES, "-n", "100", "-q", "-c", "QS", "--plot", str(out)]) == 0
    assert out.stat().st_size > 10_000
    assert main(["evaluate", "gongzhu", "--hand", HIGH_SPADES, "-n", "100", "-q", "--plot", str(tmp_path / "x.nope")]) == 2
    assert "unknown image extension" in capsys.readouterr().err


# --- item 7: rule variants ------------------------------------------------------------------


def test_zhipai_compare_is_the_function():
    assert zhipai.compare is compare and zhipai.Comparison.__name__ == "Comparison"


def test_compare_plays_the_same_deals_and_pairs_the_differences():
    a_rules = zhipai.rules("tractor", kitty_multiplier="twice_largest_unit")
    b_rules = zhipai.rules("tractor", kitty_multiplier="twice_lead_cards")
    cmp = compare("tractor", [{"kitty_multiplier": "twice_largest_unit"}, {"kitty_multiplier": "twice_lead_cards"}],
                  deals=1500, seed=5, progress=False)
    a = zhipai.simulate(a_rules, 1500, seed=5, progress=False)
    b = zhipai.simulate(b_rules, 1500, seed=5, progress=False)
    assert cmp.deals == 1500 and cmp.labels[1] == "B: kitty_multiplier=twice_lead_cards"
    assert cmp.results[0].stats("attacker_points") == a.stats("attacker_points")
    assert cmp.results[1].stats("attacker_points") == b.stats("attacker_points")
    # The same deals: the dealt cards, hence the declarations, agree deal by deal.
    assert np.array_equal(a["trump"], b["trump"])
    d = b["attacker_points"].astype(np.int64) - a["attacker_points"]
    row = cmp.diff("attacker_points")[1]
    assert row["diff"] == pytest.approx(d.mean())
    half = 1.959963984540054 * d.std(ddof=1) / math.sqrt(len(d))
    assert row["diff_ci95"] == pytest.approx((d.mean() - half, d.mean() + half))
    outcome_a = np.stack([a["side"], a["levels"]], axis=1)
    outcome_b = np.stack([b["side"], b["levels"]], axis=1)
    changed = cmp.changed()[0]
    assert changed["count"] == int((outcome_a != outcome_b).any(axis=1).sum()) > 0
    assert sum(c for _, _, c in changed["transitions"]) == changed["count"]
    text = str(cmp)
    assert "outcome changed (the level change" in text and "B:" in text
    assert "kitty_multiplier: B +" in text  # a non-key column that moved is named


def test_compare_in_blocks_equals_one_block(monkeypatch):
    cmp_module = sys.modules["zhipai.compare"]  # the module; zhipai.compare is the function

    variants = [{"chaodi": False}, {"chaodi": True}]
    whole = compare("tractor", variants, deals=700, seed=2, progress=False)
    monkeypatch.setattr(cmp_module, "BLOCK", 300)
    blocks = compare("tractor", variants, deals=700, seed=2, progress=False)
    assert str(whole) == str(blocks)
    assert whole.results[1].stats("chaodi") == blocks.results[1].stats("chaodi")


def test_compare_one_variant_is_compared_with_the_preset_and_bad_variants_are_named():
    cmp = compare("hong_wu", [{"base_score_k": 2}], deals=200, progress=False)
    assert cmp.labels == ["A: the preset as is", "B: base_score_k=2"]
    assert cmp.changed()[0]["count"] == 0  # the stake changes, not who makes the bid
    assert cmp.diff("dealer_result")[1]["diff"] == pytest.approx(cmp.diff("dealer_result")[0]["mean"])
    with pytest.raises(zhipai.InvalidValueError, match="same rules"):
        compare("tractor", [{"chaodi": False}, {}], deals=10, progress=False)
    with pytest.raises(zhipai.InvalidOptionError, match="nope"):
        compare("tractor", [{"nope": 1}], deals=10, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match="variants"):
        compare("tractor", [], deals=10, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match=r"variants\[0\]"):
        compare("tractor", ["chaodi=true"], deals=10, progress=False)


def test_compare_stopped_by_its_progress_keeps_the_deals_every_variant_completed():
    cmp_module = sys.modules["zhipai.compare"]
    seen = []

    def stop_late(done, total):
        seen.append((done, total))
        return done < 900  # stops during the second variant

    old = cmp_module.BLOCK
    cmp_module.BLOCK = 500
    try:
        cmp = compare("tractor", [{"chaodi": True}], deals=2000, progress=stop_late, threads=1)
    finally:
        cmp_module.BLOCK = old
    assert cmp.interrupted and 0 < cmp.deals < 2000 and seen[-1][1] == 4000
    assert all(r.completed == cmp.deals for r in cmp.results)
    assert f"interrupted: {cmp.deals} of 2000" in str(cmp)
    # The kept prefix is exactly a comparison of that many deals.
    again = compare("tractor", [{"chaodi": True}], deals=cmp.deals, progress=False)
    assert again.results[1].stats("attacker_points") == cmp.results[1].stats("attacker_points")

    def boom(done, total):
        raise RuntimeError("boom")

    with pytest.raises(zhipai.ProgressError) as e:
        compare("tractor", [{"chaodi": True}], deals=300, progress=boom)
    assert isinstance(e.value.result, zhipai.Comparison) and isinstance(e.value.__cause__, RuntimeError)


def test_cli_compare(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "c.png"
    rc = main(["compare", "tractor", "-o", "chaodi=false", "-o", "chaodi=true", "-n", "4e2", "-s", "1", "-q",
               "--plot", str(plot)])
    out = capsys.readouterr().out
    assert rc == 0 and plot.stat().st_size > 10_000
    assert "tractor: the same 400 deals (seed 1, policy random) under 2 rule variants" in out
    assert "A: chaodi=false" in out and "B: chaodi=true" in out and "outcome changed" in out
    # Several options in one variant, braces kept whole.
    from zhipai.cli import split_variant

    assert split_variant("mandatory_levels={5,10,K,A},chaodi=true") == {
        "mandatory_levels": "{5,10,K,A}", "chaodi": "true"}
    assert main(["compare", "tractor", "-o", "chaodi", "-n", "10", "-q"]) == 2
    assert "expected NAME=VALUE" in capsys.readouterr().err
    assert main(["compare", "tractor", "-n", "10", "-q"]) == 2


# --- item 8: small things -----------------------------------------------------------------


@pytest.mark.parametrize("text, value", [("1e3", 1000), ("2.5e3", 2500), ("1_000", 1000), ("1000", 1000)])
def test_counts_take_scientific_notation(text, value):
    from zhipai.cli import count

    assert count(text) == value


@pytest.mark.parametrize("text, why", [("1.5", "not a whole number"), ("1e-3", "not a whole number"),
                                       ("ten", "not a number"), ("inf", "not a whole number")])
def test_counts_that_are_not_whole_numbers_are_named(text, why, capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "tractor", "-n", text, "-q"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --deals/-n: {text!r} is {why}" in err


def test_cli_simulate_reads_1e3_deals(capsys):
    assert main(["simulate", "gongzhu", "-n", "1e3", "-q"]) == 0
    assert "gongzhu: 1000 deals" in capsys.readouterr().out


def test_evaluation_summary_shows_every_candidate():
    ev = zhipai.evaluate("gongzhu", 0, HIGH_SPADES, candidates=["", "QS"], samples=100, progress=False)
    s = ev.summary()
    assert list(s) == ["pass", "QS"] and s["QS"]["final_0"].count == 100
    text = str(s)
    block = text.split("seat_return:")[1].split("\n\n")[0]
    assert "\n  pass " in block and "\n  QS " in block
    assert ev.summary("QS")["final_0"].mean == s["QS"]["final_0"].mean  # one candidate: as before
    with pytest.raises(zhipai.UnknownKeyError, match="2 candidates"):
        s["final_0"]
    single = zhipai.evaluate("gongzhu", 0, HIGH_SPADES, samples=20, progress=False).summary()
    assert single["final_0"].count == 20  # one candidate: columns by name, as before


def test_one_card_constraint_syntax_for_every_command(capsys):
    assert main(["deal", "--decks", "1", "--seed", "3", "--fixed", "0=AS KS"]) == 0
    a = capsys.readouterr().out
    assert main(["deal", "--decks", "1", "--seed", "3", "--known", "0:AS KS"]) == 0
    assert capsys.readouterr().out == a
    common = ["evaluate", "gongzhu", "--hand", HIGH_SPADES, "-n", "30", "-q", "-s", "2"]
    assert main([*common, "--known", "1=2S", "--void", "2=H"]) == 0
    b = capsys.readouterr().out
    assert main([*common, "--fixed", "1:2S", "--void", "2:H"]) == 0
    assert capsys.readouterr().out == b
    assert main([*common, "--known", "one=2S"]) == 2
    assert "invalid --known 'one=2S': expected SEAT=CARDS" in capsys.readouterr().err


def test_ascend_errors_say_why():
    with pytest.raises(zhipai.IllegalPlayError, match="the hand holds no 5S; it can ascend with .*9C"):
        zhipai.evaluate("baohuang", 0, MONSTER, candidates=["ascend 5S"], samples=5, progress=False)
    with pytest.raises(zhipai.IllegalPlayError, match="holds 2 KD, and 登基 needs 3 or 4 counted copies"):
        zhipai.evaluate("baohuang", 0, MONSTER, candidates=["ascend KD"], samples=5, progress=False)
    with pytest.raises(zhipai.IllegalPlayError, match="ascend names one card"):
        zhipai.baohuang.candidate_cards("ascend 9C 9C", MONSTER)


def test_rules_repr_shows_numbers_as_numbers():
    assert repr(zhipai.rules("eighty_points", decks=3)) == "Rules('eighty_points', decks=3)"
    text = zhipai._core.rules("tractor", {"decks": "3"}, text=True)  # the command line's -o decks=3
    assert repr(text) == "Rules('tractor', decks=3)"
    assert zhipai.simulate(text, 3, progress=False).options["decks"] == 3


def test_docs_name_no_private_paths():
    import pathlib

    import zhipai as z

    root = pathlib.Path(__file__).resolve().parents[1]
    files = [root / "BENCHMARKS.md", root / "README.md", *pathlib.Path(z.__file__).parent.rglob("*.py")]
    for f in files:
        if f.exists():
            assert "/work/" not in f.read_text(encoding="utf-8"), f


def test_benchmarks_lead_with_a_current_table_per_game():
    import pathlib

    text = (pathlib.Path(__file__).resolve().parents[1] / "BENCHMARKS.md").read_text(encoding="utf-8")
    head = text.split("## History")[0]
    for game in ("Tractor", "Gongzhu", "Hong Wu", "Baohuang"):
        assert f"### {game}" in head, game
    assert "| workload | figure | peer in the same run | ratio | command |" in head


def test_python_m_cli_compare_runs():
    out = subprocess.run([sys.executable, "-m", "zhipai.cli", "compare", "gongzhu", "-o", "decks=1", "-o",
                          "exposure_mode=none", "-n", "300", "-q"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "outcome changed (the seat with the best credited result" in out.stdout
