"""zhipai.simulate and `zhipai simulate`, run on the engine's internal toy coin game.

No real game implements simulation in this branch, so the tests swap the native runner
(`zhipai.simulate._engine`) for `_core._simulate_toy` — an internal hook, not public API. The toy
game: column `heads` = heads in 10 fair coin flips, `score` uniform in -100000..100000, `delta` =
2·heads − 10, `greedy` = 1 under the greedy policy.
"""

from __future__ import annotations

import _thread
import importlib
import math
import subprocess
import sys
import threading

import numpy as np
import pytest
import zhipai
from zhipai import _core
from zhipai.cli import main

sim_module = importlib.import_module("zhipai.simulate")  # `zhipai.simulate` is the function


@pytest.fixture
def toy(monkeypatch, test_hooks):
    """Route zhipai.simulate to the toy game; call with toy game parameters to change them."""

    def use(**params):
        monkeypatch.setattr(
            sim_module, "_engine", lambda rules: (lambda **kw: _core._simulate_toy(**kw, **params))
        )

    use()
    return use


def run(deals=2000, **kw):
    kw.setdefault("progress", False)
    return zhipai.simulate("gongzhu", deals, **kw)


# --- determinism -------------------------------------------------------------------------


def test_same_seed_same_arrays_for_any_threads_and_chunks(toy):
    base = run(3000, seed=5, threads=1)
    assert len(base) == 3000 and base.columns == ["heads", "score", "delta", "greedy"]
    for threads, chunk in [(2, None), (2, 1), (1, 7), (2, 1000), (3, 64)]:
        other = run(3000, seed=5, threads=threads, chunk_size=chunk)
        for c in base.columns:
            assert np.array_equal(base[c], other[c]), (threads, chunk, c)
    assert not np.array_equal(run(3000, seed=6)["score"], base["score"])


def test_columns_are_int32_and_follow_the_toy_rules(toy):
    r = run(500, seed=1)
    assert all(r[c].dtype == np.int32 and r[c].shape == (500,) for c in r)
    assert r.heads.min() >= 0 and r.heads.max() <= 10
    assert np.array_equal(r.delta, 2 * r.heads - 10)
    assert not r.greedy.any()
    assert run(50, policy="greedy").greedy.all()


def test_aggregate_only_equals_aggregates_of_rows(toy):
    rows = run(4000, seed=9, threads=2, chunk_size=33)
    agg = run(4000, seed=9, threads=1, aggregate_only=True)
    assert len(agg) == 4000 and agg.aggregate_only
    for c in rows.columns:
        assert agg.stats(c) == rows.stats(c), c
    assert agg.summary().to_dict() == rows.summary().to_dict()


def test_summary_matches_numpy(toy):
    r = run(5000, seed=2)
    s = r.summary()
    for c in r.columns:
        x = r[c].astype(np.float64)
        assert s[c].mean == pytest.approx(x.mean(), rel=1e-12, abs=1e-12)
        assert s[c].std == pytest.approx(x.std(ddof=1), rel=1e-9)
        half = 1.959963984540054 * x.std(ddof=1) / math.sqrt(len(x))
        assert s[c].ci95 == pytest.approx((x.mean() - half, x.mean() + half), rel=1e-9, abs=1e-12)
        assert (s[c].min, s[c].max) == (r[c].min(), r[c].max())
    values, counts = np.unique(r.heads, return_counts=True)
    assert s["heads"].distribution == dict(zip(values.tolist(), counts.tolist()))
    assert s["score"].distribution is None  # wide-range column: no distribution
    # 10 fair coins: mean 5, variance 2.5; 5000 deals put the mean within ±0.1 of 5.
    assert abs(s["heads"].mean - 5) < 0.1 and abs(s["heads"].std ** 2 - 2.5) < 0.2
    assert s["heads"].fraction(5) == pytest.approx(counts[values == 5][0] / 5000)


def test_summary_text_table(toy):
    text = str(run(1000, seed=3).summary())
    assert "gongzhu: 1000 deals, policy random, seed 3" in text
    assert "95% CI of mean" in text
    assert "heads distribution" in text and "score distribution" not in text
    header = next(line for line in text.splitlines() if line.startswith("column"))
    assert header.split()[:3] == ["column", "mean", "std"]


# --- access and export ---------------------------------------------------------------------


def test_mapping_and_attribute_access(toy):
    r = run(10)
    assert set(r) == {"heads", "score", "delta", "greedy"}
    assert r["heads"] is r.heads
    assert "10 deals" in repr(r) and "rows" in repr(r)
    with pytest.raises(KeyError, match="nope"):
        r["nope"]
    with pytest.raises(AttributeError):
        r.nope  # noqa: B018
    agg = run(10, aggregate_only=True)
    assert list(agg) == [] and len(agg) == 10
    with pytest.raises(KeyError, match="aggregate_only"):
        agg["heads"]
    with pytest.raises(zhipai.InvalidValueError, match="aggregate_only"):
        agg.to_pandas()


def test_save_csv_and_npz(toy, tmp_path):
    r = run(20, seed=4)
    lines = r.save(tmp_path / "r.csv").read_text().splitlines()
    assert lines[0] == "heads,score,delta,greedy" and len(lines) == 21
    assert lines[1] == ",".join(str(r[c][0]) for c in r.columns)
    z = np.load(r.save(tmp_path / "r.npz"))
    assert np.array_equal(z["score"], r.score)
    with pytest.raises(zhipai.FileError, match="r.xlsx"):
        r.save(tmp_path / "r.xlsx")


def test_to_pandas_and_arrow_and_parquet(toy, tmp_path):
    r = run(30)
    pd = pytest.importorskip("pandas")
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df.columns) == r.columns and len(df) == 30
    assert (df["heads"].to_numpy() == r.heads).all()
    pa = pytest.importorskip("pyarrow")
    t = r.to_arrow()
    assert t.num_rows == 30 and t.schema.field("heads").type == pa.int32()
    import pyarrow.parquet as pq

    assert pq.read_table(r.save(tmp_path / "r.parquet")).equals(t)


def test_missing_optional_dependency_names_the_extra(toy, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"zhipai\[pandas\]"):
        run(5).to_pandas()


def test_plot(toy, tmp_path):
    pytest.importorskip("matplotlib")
    fig = run(200).plot(tmp_path / "h.png", columns=["heads", "score"])
    assert len(fig.axes) == 2 and (tmp_path / "h.png").stat().st_size > 0
    assert len(run(200, aggregate_only=True).plot(columns=["heads"]).axes) == 1
    with pytest.raises(KeyError, match="nope"):
        run(5).plot(columns=["nope"])


# --- progress and interruption ----------------------------------------------------------


def test_progress_callable_sees_every_deal(toy):
    seen = []
    run(3000, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (3000, 3000)
    assert all(t == 3000 for _, t in seen) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_callback_returning_false_keeps_the_completed_prefix(toy):
    toy(work=300)
    r = run(2_000_000, seed=8, threads=2, chunk_size=50, progress=lambda done, total: done < 500)
    assert r.interrupted and 0 < len(r) < 2_000_000
    assert all(len(r[c]) == len(r) for c in r)
    fresh = run(len(r), seed=8, threads=1)
    for c in r.columns:
        assert np.array_equal(r[c], fresh[c])
    assert "interrupted" in repr(r) and "interrupted" in r.summary().title


def test_ctrl_c_raises_with_the_completed_prefix(toy):
    toy(work=300)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(zhipai.SimulationInterrupted) as info:
        run(5_000_000, seed=1, threads=2, chunk_size=50, aggregate_only=True)
    timer.cancel()
    res = info.value.result
    assert isinstance(info.value, KeyboardInterrupt)
    assert res.interrupted and 0 < res.completed < 5_000_000
    assert res.stats("heads") == run(res.completed, seed=1, aggregate_only=True).stats("heads")


def test_callback_exception_propagates(toy):
    def boom(done, total):
        raise RuntimeError("callback broke")

    toy(work=100)
    with pytest.raises(zhipai.ProgressError, match="callback broke") as e:
        run(1_000_000, progress=boom)
    assert isinstance(e.value.__cause__, RuntimeError) and e.value.result.interrupted


def test_failing_deal_names_its_index(toy):
    toy(fail_per_million=3000)
    with pytest.raises(zhipai.InvalidValueError, match=r"in deal \d+ \(seed 4\)") as a:
        run(5000, seed=4, threads=2)
    with pytest.raises(zhipai.InvalidValueError) as b:
        run(5000, seed=4, threads=1, chunk_size=3)
    assert str(a.value) == str(b.value)  # the first failing deal in deal order, whatever the threads


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"deals": 0}, "deals 0"),
        ({"deals": -3}, "deals -3"),
        ({"deals": 1.5}, "deals 1.5"),
        ({"deals": True}, "deals True"),
        ({"deals": "10"}, "deals '10'"),
        ({"threads": 0}, "threads 0"),
        ({"threads": 100_000}, "threads 100000"),
        ({"chunk_size": 0}, "chunk_size 0"),
        ({"seed": -1}, "seed -1"),
        ({"policy": "smart"}, "policy 'smart'"),
        ({"progress": "yes"}, "progress 'yes'"),
    ],
)
def test_bad_arguments_name_the_value(toy, kwargs, needle):
    args = {"deals": 10, **kwargs}
    with pytest.raises(zhipai.InvalidValueError, match=needle.replace("(", r"\(")):
        zhipai.simulate("gongzhu", **args)


def test_a_policy_that_is_neither_a_name_nor_a_callable_is_refused(toy):
    # Callables run the Python slow path (tests/test_policy_callable.py).
    with pytest.raises(zhipai.InvalidValueError, match="invalid policy 42"):
        zhipai.simulate("gongzhu", 10, policy=42)


def test_unknown_preset_and_bad_rules(toy):
    with pytest.raises(zhipai.InvalidOptionError, match="mahjong"):
        zhipai.simulate("mahjong", 10)
    with pytest.raises(zhipai.InvalidValueError, match="rules 42"):
        zhipai.simulate(42, 10)


@pytest.mark.parametrize("preset", [p["name"] for p in zhipai.presets()])
def test_real_games_are_deterministic_for_any_threads(preset):
    # Every game's DealSimulator through the same driver: rows independent of threads and
    # chunking, aggregates equal to those of the rows.
    a = zhipai.simulate(preset, 12, seed=4, threads=1, progress=False)
    b = zhipai.simulate(preset, 12, seed=4, threads=2, chunk_size=5, progress=False)
    assert len(a) == 12 and a.columns
    for c in a.columns:
        assert a[c].dtype == np.int32 and np.array_equal(a[c], b[c]), c
    agg = zhipai.simulate(preset, 12, seed=4, threads=2, aggregate_only=True, progress=False)
    assert all(agg.stats(c) == a.stats(c) for c in a.columns)


# --- CLI ------------------------------------------------------------------------------------


def test_cli_simulate_prints_summary_and_writes_files(toy, tmp_path, capsys):
    out = tmp_path / "rows.csv"
    rc = main(["simulate", "gongzhu", "--deals", "300", "--seed", "7", "--threads", "2", "--out", str(out), "-q"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "gongzhu: 300 deals, policy random, seed 7" in text and "heads distribution" in text
    assert len(out.read_text().splitlines()) == 301
    assert np.array_equal(np.loadtxt(out, delimiter=",", skiprows=1, dtype=np.int32)[:, 0], run(300, seed=7).heads)


def test_cli_aggregate_only(toy, capsys):
    assert main(["simulate", "gongzhu", "-n", "200", "--aggregate-only", "-q"]) == 0
    assert "200 deals" in capsys.readouterr().out


def test_cli_errors_are_one_line_exit_2(capsys):
    assert main(["simulate", "mahjong", "-n", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mahjong" in err
    assert main(["simulate", "gongzhu", "-n", "5", "--option", "decks"]) == 2
    assert "--option 'decks'" in capsys.readouterr().err
    assert main(["simulate", "gongzhu", "-n", "0"]) == 2
    assert "deals 0" in capsys.readouterr().err
    # a bad --out is refused before the run, not after it
    assert main(["simulate", "gongzhu", "-n", "5", "--out", "r.xlsx"]) == 2
    captured = capsys.readouterr()
    assert "r.xlsx" in captured.err and captured.out == ""
    assert main(["simulate", "gongzhu", "-n", "5", "--out", "r.csv", "--aggregate-only"]) == 2
    assert "--aggregate-only" in capsys.readouterr().err


def test_cli_subprocess_error_exit_2():
    p = subprocess.run(
        [sys.executable, "-m", "zhipai.cli", "simulate", "tractor", "--deals", "5", "--policy", "smart"],
        capture_output=True, text=True, timeout=60,
    )
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == [p.stderr.strip()] and "smart" in p.stderr


def test_cli_subprocess_with_toy_game(tmp_path, test_hooks):
    code = (
        "import importlib, sys; from zhipai import _core; "
        "m = importlib.import_module('zhipai.simulate'); "
        "m._engine = lambda rules: (lambda **kw: _core._simulate_toy(**kw)); "
        "from zhipai.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, "simulate", "gongzhu", "-n", "100", "-s", "3"],
        capture_output=True, text=True, timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert "gongzhu: 100 deals, policy random, seed 3" in p.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_cli_ctrl_c_prints_the_completed_prefix_and_exits_130():
    import signal
    import time

    p = subprocess.Popen(
        [sys.executable, "-m", "zhipai.cli", "simulate", "gongzhu", "--deals", "1000000000", "--aggregate-only"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    time.sleep(1.5)  # import + some deals
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert "interrupted after" in err and "of 1000000000 deals" in err
    assert "(interrupted:" in out and "95% CI of mean" in out
