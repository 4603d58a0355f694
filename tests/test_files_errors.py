"""Issue 15 (items 2, 3, 4, 6, 10) and issue 16 item 6: nothing computed is ever lost, no wrong
number is silent, every bad input gets a named error — for the files zhipai writes and reads.

* output paths are checked before a run (CLI ``--out``/``--plot``, ``SimResult.save``/``plot``);
* every file is written to a temporary file in the same folder, fsynced, then renamed: a failing
  or interrupted save leaves nothing behind and says what was kept;
* ``SimResult.concat`` checks the whole run (rule set, policy per seat, seed, ranges);
* ``zhipai evaluate --position FILE`` reads at most 4 MiB and reports any bad content on one line;
* rows mode refuses up front what does not fit in the available memory;
* saved rows carry their provenance, ``SimResult.load`` reads it back, and re-running it gives the
  same rows bit for bit.
"""

from __future__ import annotations

import errno
import importlib
import json
import os
import sys

import numpy as np
import pytest
import zhipai
from zhipai.cli import main

sim_module = importlib.import_module("zhipai.simulate")  # `zhipai.simulate` is the function
try:  # (absent before this change: the tests below then fail one by one, not at collection)
    files_module = importlib.import_module("zhipai._files")
    memory_module = importlib.import_module("zhipai._memory")
except ImportError:  # pragma: no cover
    files_module = memory_module = None

TRACTOR = zhipai.rules("tractor")
HAND = "BJ SJ 2S 2S AS AS KS QS JS 10S 2H AH KH KH QH 9D 9D 8D 5D 3C 4C 6C 7C 8C QC"


def rows(deals=50, seed=1, **kw):
    kw.setdefault("progress", False)
    return zhipai.simulate(kw.pop("rules", TRACTOR), deals, seed=seed, **kw)


def leftovers(folder):
    """Files in ``folder`` a failed write may have left (temporary files start with a dot)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def one_error_line(err: str) -> str:
    assert err.startswith("zhipai: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def engine_must_not_run(monkeypatch):
    """Make any simulation fail the test: the check must come before the run."""

    def boom(*a, **k):
        raise AssertionError("the run started before the bad argument was refused")

    monkeypatch.setattr(sim_module, "_engine", lambda rules: boom)
    monkeypatch.setattr(sim_module, "_simulate_python", boom)


# --- item 2: the output path is checked before the run -----------------------------------


def bad_outputs(tmp_path):
    (tmp_path / "a_file").write_text("x")
    (tmp_path / "dir.csv").mkdir()
    (tmp_path / "dir.png").mkdir()
    return {
        "missing folder": (tmp_path / "nonexistent" / "dir" / "rows.csv", "does not exist"),
        "a directory": (tmp_path / "dir.csv", "is a directory"),
        "under a file": (tmp_path / "a_file" / "rows.csv", "not a directory"),
        "proc": ("/proc/rows.csv", "cannot create"),
        "unknown extension": (tmp_path / "rows.txt", ".csv, .parquet or .npz"),
    }


@pytest.mark.parametrize("case", ["missing folder", "a directory", "under a file", "proc", "unknown extension"])
def test_cli_bad_out_is_refused_before_the_run(case, tmp_path, capsys, engine_must_not_run):
    path, reason = bad_outputs(tmp_path)[case]
    rc = main(["simulate", "tractor", "-n", "1000000", "-q", "--out", str(path)])
    captured = capsys.readouterr()
    assert rc == 2 and captured.out == ""
    err = one_error_line(captured.err)
    assert str(path) in err and reason in err


@pytest.mark.parametrize("case", ["missing folder", "a directory", "under a file", "proc"])
def test_cli_bad_plot_is_refused_before_the_run(case, tmp_path, capsys, engine_must_not_run):
    pytest.importorskip("matplotlib")
    path, reason = bad_outputs(tmp_path)[case]
    path = str(path).replace(".csv", ".png")
    rc = main(["simulate", "tractor", "-n", "1000000", "-q", "--plot", path])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and path in err


def test_cli_plot_with_an_unknown_image_format_is_refused_before_the_run(tmp_path, capsys, engine_must_not_run):
    pytest.importorskip("matplotlib")
    rc = main(["simulate", "tractor", "-n", "1000000", "-q", "--plot", str(tmp_path / "h.docx")])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and "h.docx" in err and "png" in err


@pytest.mark.parametrize("case", ["missing folder", "a directory", "under a file", "proc", "unknown extension"])
def test_save_refuses_a_bad_path_naming_it(case, tmp_path):
    res = rows(20)
    path, reason = bad_outputs(tmp_path)[case]
    with pytest.raises(zhipai.FileError) as e:
        res.save(path)
    assert str(path) in str(e.value) and reason in str(e.value)
    assert e.value.path == str(path)


@pytest.mark.parametrize("bad", [None, 3, b"rows.csv", 1.5])
def test_save_refuses_a_path_of_the_wrong_type(bad):
    with pytest.raises(zhipai.InvalidValueError, match="path"):
        rows(5).save(bad)


def test_plot_refuses_a_bad_path_before_drawing(tmp_path):
    pytest.importorskip("matplotlib")
    res = rows(20)
    path, _ = bad_outputs(tmp_path)["missing folder"]
    with pytest.raises(zhipai.FileError, match="does not exist"):
        res.plot(str(path).replace(".csv", ".png"))
    with pytest.raises(zhipai.InvalidValueError, match="path"):
        res.plot(3)


# --- item 3: temporary file + fsync + rename; failures leave nothing behind ---------------


FORMATS = ["csv", "npz", "parquet"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_save_writes_a_temporary_file_fsyncs_and_renames(fmt, tmp_path, monkeypatch):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    synced, replaced = [], []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(files_module.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    monkeypatch.setattr(files_module.os, "replace", lambda a, b: (replaced.append((str(a), str(b))), real_replace(a, b))[1])
    target = tmp_path / f"rows.{fmt}"
    rows(30).save(target)
    assert target.exists() and leftovers(tmp_path) == []
    assert str(target) in [b for _, b in replaced]
    tmp_name = next(a for a, b in replaced if b == str(target))
    assert os.path.dirname(tmp_name) == str(tmp_path), "the temporary file is in the target's folder"
    assert synced, "the data is fsynced before the rename"


def _failing_midway(monkeypatch, fmt, exc):
    """Make the writer of ``fmt`` write some bytes and then raise ``exc``."""

    def writer(real):
        def w(f, *a, **k):
            f.write(b"1,2,3,4\n" * 100)
            raise exc

        return w

    target = {"csv": "_write_csv", "npz": "_write_npz", "parquet": "_write_parquet"}[fmt]
    monkeypatch.setattr(sim_module, target, writer(getattr(sim_module, target)))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_full_disk_during_save_leaves_no_file_and_says_what_was_kept(fmt, tmp_path, monkeypatch):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    res = rows(40)
    _failing_midway(monkeypatch, fmt, OSError(errno.ENOSPC, "No space left on device"))
    target = tmp_path / f"rows.{fmt}"
    with pytest.raises(zhipai.FileError) as e:
        res.save(target)
    msg = str(e.value)
    assert str(target) in msg and "No space left on device" in msg
    assert "nothing was written" in msg and "still in" in msg
    assert isinstance(e.value.__cause__, OSError)
    assert not target.exists() and leftovers(tmp_path) == []
    assert len(res) == 40 and len(res["dealer"]) == 40  # the rows are kept


_FSIZE_SCRIPT = r"""
import resource, signal, sys, zhipai
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)          # writes past the limit fail with EFBIG
res = zhipai.simulate("tractor", 20000, seed=1, progress=False)
resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))  # a "disk" of 50 kB per file
try:
    res.save(sys.argv[1])
except zhipai.FileError as e:
    print("FileError:", e)
    print("rows kept:", len(res))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE + SIGXFSZ")
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_size_limit_midway_leaves_no_partial_file(fmt, tmp_path):
    """An OS-level write failure (RLIMIT_FSIZE, as a full disk): no partial file is left."""
    import subprocess

    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    target = tmp_path / f"rows.{fmt}"
    p = subprocess.run([sys.executable, "-c", _FSIZE_SCRIPT, str(target)], capture_output=True,
                       text=True, timeout=120)
    assert "FileError:" in p.stdout and "nothing was written" in p.stdout, p.stdout + p.stderr
    assert "rows kept: 20000" in p.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_failed_save_keeps_the_previous_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "rows.csv"
    rows(10, seed=1).save(target)
    before = target.read_bytes()
    _failing_midway(monkeypatch, "csv", OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(zhipai.FileError):
        rows(10, seed=2).save(target)
    assert target.read_bytes() == before and leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_ctrl_c_during_save_leaves_no_file(fmt, tmp_path, monkeypatch):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    res = rows(40)
    _failing_midway(monkeypatch, fmt, KeyboardInterrupt())
    target = tmp_path / f"rows.{fmt}"
    with pytest.raises(KeyboardInterrupt) as e:
        res.save(target)
    assert "nothing was written" in str(e.value) and str(target) in str(e.value)
    assert not target.exists() and leftovers(tmp_path) == []


def test_a_failing_plot_save_leaves_no_file(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def fail(self, f, **k):
        f.write(b"\x89PNG partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", fail)
    with pytest.raises(zhipai.FileError, match="No space left"):
        rows(20).plot(tmp_path / "h.png", columns=["dealer"])
    assert list(tmp_path.iterdir()) == []


def test_cli_ctrl_c_during_the_save_says_nothing_was_written(tmp_path, monkeypatch, capsys):
    _failing_midway(monkeypatch, "csv", KeyboardInterrupt())
    target = tmp_path / "rows.csv"
    rc = main(["simulate", "tractor", "-n", "50", "-q", "--out", str(target)])
    captured = capsys.readouterr()
    assert rc == 130
    assert "nothing was written" in captured.err and str(target) in captured.err
    assert "Traceback" not in captured.err
    assert not target.exists() and leftovers(tmp_path) == []


def test_cli_full_disk_during_the_save_is_one_error_line(tmp_path, monkeypatch, capsys):
    _failing_midway(monkeypatch, "csv", OSError(errno.ENOSPC, "No space left on device"))
    target = tmp_path / "rows.csv"
    rc = main(["simulate", "tractor", "-n", "50", "-q", "--out", str(target)])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and "No space left on device" in err and "nothing was written" in err
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_run_is_saved_as_such(tmp_path):
    calls = []

    def stop_early(done, total):
        calls.append(done)
        return None if done == 0 else False  # stop at the first report with completed deals

    res = zhipai.simulate(TRACTOR, 2_000_000, seed=3, progress=stop_early)
    assert res.interrupted and 0 < len(res) < 2_000_000
    res.save(tmp_path / "rows.csv")
    meta = json.loads((tmp_path / "rows.csv.json").read_text())
    assert meta["interrupted"] is True and meta["deals"] == len(res) and meta["requested"] == 2_000_000


# --- item 4: concat checks the whole run ---------------------------------------------------


def test_concat_refuses_runs_with_different_options_naming_them():
    a = rows(20, seed=1)
    b = rows(20, seed=1, first_deal=20,
             rules=zhipai.rules("tractor", chaodi=True, throw_fail_penalty="structured"))
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.SimResult.concat([a, b])
    assert "chaodi" in str(e.value) and "throw_fail_penalty" in str(e.value)
    assert "decks" not in str(e.value)  # only what differs


def test_concat_refuses_different_seeds_policies_and_gaps():
    a = rows(20, seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="seed"):
        zhipai.SimResult.concat([a, rows(20, seed=2, first_deal=20)])
    with pytest.raises(zhipai.InvalidValueError, match="policy"):
        zhipai.SimResult.concat([a, rows(20, seed=1, first_deal=20, policy="greedy")])
    with pytest.raises(zhipai.InvalidValueError, match="deals from 20"):
        zhipai.SimResult.concat([a, rows(20, seed=1, first_deal=21)])


def test_concat_refuses_different_policy_per_seat():
    a = zhipai.simulate("gongzhu", 5, policy=["random", "greedy", "random", "random"], seed=1, progress=False)
    b = zhipai.simulate("gongzhu", 5, policy=["random", "random", "greedy", "random"], seed=1, first_deal=5, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match="seat 1"):
        zhipai.SimResult.concat([a, b])


def test_concat_of_consecutive_parts_equals_the_whole_run():
    whole = rows(60, seed=4)
    parts = zhipai.SimResult.concat([rows(25, seed=4), rows(35, seed=4, first_deal=25)])
    for c in whole.columns:
        assert np.array_equal(parts[c], whole[c])
    assert parts.options == whole.options and parts.policies == whole.policies


@pytest.mark.parametrize("bad", [None, "res", 3, [1, 2]])
def test_concat_refuses_what_is_not_a_result(bad):
    with pytest.raises(zhipai.InvalidValueError, match="parts"):
        zhipai.SimResult.concat([rows(5), bad])


@pytest.mark.parametrize("bad", [None, 3, "abc"])
def test_concat_refuses_a_non_list(bad):
    with pytest.raises(zhipai.InvalidValueError, match="parts"):
        zhipai.SimResult.concat(bad)


# --- item 6: evaluate --position reads a bounded, checked file -----------------------------


def _position(tmp_path, content: bytes | str, name="deal.json"):
    p = tmp_path / name
    p.write_bytes(content.encode() if isinstance(content, str) else content)
    return str(p)


@pytest.mark.parametrize("content, needle", [
    ('{"game":"shengji"}', "deal record"),
    ("[" * 100_000 + "]" * 100_000, "deal record"),
    ("{not json", "not valid JSON"),
    (b"\xff\xfe\x00garbage", "UTF-8"),
    ('{"game": "shengji", "preset": "tractor", "options": 5}', "deal record"),
    ("", "not valid JSON"),
])
def test_cli_position_with_bad_content_is_one_error_line(content, needle, tmp_path, capsys):
    path = _position(tmp_path, content)
    rc = main(["evaluate", "tractor", "--position", path, "-q", "-n", "10"])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and path in err and needle in err


def test_cli_position_reads_at_most_4_mib(tmp_path, capsys):
    path = _position(tmp_path, b" " * (4 * 2**20 + 1))
    rc = main(["evaluate", "tractor", "--position", path, "-q", "-n", "10"])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and "4 MiB" in err and path in err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_cli_position_from_dev_zero_is_refused_quickly(capsys):
    import time

    start = time.monotonic()
    rc = main(["evaluate", "tractor", "--position", "/dev/zero", "-q", "-n", "10"])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and "/dev/zero" in err and time.monotonic() - start < 5


@pytest.mark.parametrize("where", ["missing", "directory"])
def test_cli_position_that_cannot_be_read_is_one_error_line(where, tmp_path, capsys):
    path = str(tmp_path / "nope.json") if where == "missing" else str(tmp_path)
    rc = main(["evaluate", "tractor", "--position", path, "-q", "-n", "10"])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and path in err


def test_cli_position_still_reads_a_good_record(tmp_path, capsys):
    d = zhipai.Game(TRACTOR).new_deal(seed=3, level="2", dealer=0)
    while d.phase != "play":
        d.apply_builtin("random")
    path = _position(tmp_path, d.to_json())
    rc = main(["evaluate", "tractor", "--position", path, "--seat", str(d.current_player()), "-q", "-n", "10"])
    assert rc == 0, capsys.readouterr().err


# --- item 10: rows mode refuses what does not fit in memory -------------------------------


@pytest.fixture
def little_memory(monkeypatch):
    monkeypatch.setattr(memory_module, "available_bytes", lambda: (1_000_000, "a test figure"))


def test_rows_that_do_not_fit_are_refused_up_front(little_memory, engine_must_not_run):
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.simulate(TRACTOR, 10**6, progress=False)
    msg = str(e.value)
    assert "deals 1000000" in msg and "aggregate_only=True" in msg
    columns = len(zhipai._core._columns(TRACTOR))
    assert f"{10**6 * columns * 4:,}" in msg.replace("\u202f", ",") or "MB" in msg
    assert "1.0 MB" in msg or "1,000,000" in msg


def test_python_policy_rows_that_do_not_fit_are_refused_up_front(little_memory):
    calls = []
    with pytest.raises(zhipai.InvalidValueError, match="aggregate_only"):
        zhipai.simulate("gongzhu", 10**6, policy=lambda obs, moves: calls.append(1) or moves[0], progress=False)
    assert calls == []


def test_aggregate_mode_is_not_limited_by_memory(little_memory):
    res = zhipai.simulate(TRACTOR, 1000, aggregate_only=True, progress=False)
    assert res.completed == 1000


def test_small_rows_runs_pass_the_memory_check(little_memory):
    assert len(rows(100)) == 100  # 100 x 15 x 4 bytes fits in 1 MB


def test_cli_rows_that_do_not_fit_suggest_aggregate_only(little_memory, capsys, engine_must_not_run):
    rc = main(["simulate", "tractor", "-n", "1000000", "-q"])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and "--aggregate-only" in err


def test_evaluate_samples_that_do_not_fit_are_named_samples(little_memory):
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.evaluate("tractor", 0, HAND, samples=10**6, progress=False)
    assert "samples 1000000" in str(e.value) and "deals" not in str(e.value).split(":")[0]


def test_evaluate_huge_samples_are_called_samples():
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.evaluate("tractor", 0, HAND, samples=2**62, progress=False)
    assert str(e.value).startswith(f"invalid samples {2**62}")


def test_available_memory_is_read_from_the_os():
    got = memory_module.available_bytes()
    if sys.platform.startswith("linux"):
        assert got is not None
        avail, source = got
        assert avail > 0 and "MemAvailable" in source or "cgroup" in source


# --- issue 16 item 6: provenance of saved rows ---------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_saved_rows_carry_their_provenance_and_load_back(fmt, tmp_path):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    r = zhipai.rules("tractor", chaodi=True, throw_fail_penalty="structured")
    res = rows(40, seed=9, rules=r, first_deal=100, policy="greedy")
    path = res.save(tmp_path / f"rows.{fmt}")
    back = zhipai.SimResult.load(path)
    p = back.provenance
    assert p["zhipai_version"] == zhipai.__version__
    assert p["preset"] == "tractor" and p["seed"] == 9 and p["first_deal"] == 100 and p["deals"] == 40
    assert p["options"]["chaodi"] is True and p["options"]["throw_fail_penalty"] == "structured"
    assert p["options"] == dict(res.options) and len(p["options"]) == len(r.options())
    assert p["policy"] == ["greedy"] * 4
    assert "threads" not in p
    assert back.columns == res.columns and back.seed == 9 and back.first_deal == 100
    for c in res.columns:
        assert back[c].dtype == np.int32 and np.array_equal(back[c], res[c])


def test_csv_provenance_is_a_sidecar_written_atomically(tmp_path, monkeypatch):
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(files_module.os, "replace", lambda a, b: (replaced.append(str(b)), real_replace(a, b))[1])
    rows(10).save(tmp_path / "rows.csv")
    assert sorted(replaced) == sorted([str(tmp_path / "rows.csv"), str(tmp_path / "rows.csv.json")])
    meta = json.loads((tmp_path / "rows.csv.json").read_text())
    assert meta["preset"] == "tractor" and meta["deals"] == 10


@pytest.mark.parametrize("fmt", FORMATS)
def test_rerunning_the_provenance_gives_the_same_rows_bit_for_bit(fmt, tmp_path):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    r = zhipai.rules("eighty_points", decks=3, throw_compare="all_components")
    rows(30, seed=11, rules=r, first_deal=7, threads=2).save(tmp_path / f"rows.{fmt}")
    loaded = zhipai.SimResult.load(tmp_path / f"rows.{fmt}")
    p = loaded.provenance
    policy = p["policy"][0] if len(set(p["policy"])) == 1 else p["policy"]
    again = zhipai.simulate(zhipai.rules(p["preset"], **p["options"]), p["deals"], policy=policy,
                            seed=p["seed"], first_deal=p["first_deal"], threads=1, progress=False)
    for c in loaded.columns:
        assert again[c].tobytes() == loaded[c].tobytes(), c
    assert loaded.rules().options() == r.options()
    by_seat = zhipai.simulate(loaded.rules(), loaded.completed, loaded.policies, seed=loaded.seed,
                              first_deal=loaded.first_deal, progress=False)  # the Python loop
    for c in loaded.columns:
        assert by_seat[c].tobytes() == loaded[c].tobytes(), c


def test_load_refuses_a_csv_whose_rows_do_not_match_its_provenance(tmp_path):
    path = rows(10).save(tmp_path / "rows.csv")
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n")  # a row lost
    with pytest.raises(zhipai.FileError, match="provenance"):
        zhipai.SimResult.load(path)


def test_load_refuses_a_csv_without_provenance(tmp_path):
    path = rows(10).save(tmp_path / "rows.csv")
    os.remove(str(path) + ".json")
    with pytest.raises(zhipai.FileError, match="rows.csv.json"):
        zhipai.SimResult.load(path)


@pytest.mark.parametrize("content", [b"", b"not an npz", b"PK\x03\x04broken"])
def test_load_refuses_a_corrupt_file_naming_it(content, tmp_path):
    path = tmp_path / "rows.npz"
    path.write_bytes(content)
    with pytest.raises(zhipai.FileError, match="rows.npz"):
        zhipai.SimResult.load(path)


def test_load_refuses_a_missing_file_or_unknown_extension(tmp_path):
    with pytest.raises(zhipai.FileError, match="nope.csv"):
        zhipai.SimResult.load(tmp_path / "nope.csv")
    with pytest.raises(zhipai.FileError, match=".csv, .parquet or .npz"):
        zhipai.SimResult.load(tmp_path / "rows.txt")


def test_concat_of_loaded_files_refuses_different_provenance(tmp_path):
    rows(20, seed=1).save(tmp_path / "a.npz")
    rows(20, seed=1, first_deal=20, rules=zhipai.rules("tractor", chaodi=True)).save(tmp_path / "b.npz")
    rows(20, seed=1, first_deal=20).save(tmp_path / "c.npz")
    a, b, c = (zhipai.SimResult.load(tmp_path / f"{n}.npz") for n in "abc")
    with pytest.raises(zhipai.InvalidValueError, match="chaodi"):
        zhipai.SimResult.concat([a, b])
    whole = zhipai.SimResult.concat([a, c])
    assert np.array_equal(whole["attacker_points"], rows(40, seed=1)["attacker_points"])


def test_concat_refuses_files_of_another_zhipai_version(tmp_path):
    rows(20, seed=1).save(tmp_path / "a.csv")
    rows(20, seed=1, first_deal=20).save(tmp_path / "b.csv")
    meta_path = tmp_path / "b.csv.json"
    meta = json.loads(meta_path.read_text())
    meta["zhipai_version"] = "0.0.1"
    meta_path.write_text(json.dumps(meta))
    a, b = zhipai.SimResult.load(tmp_path / "a.csv"), zhipai.SimResult.load(tmp_path / "b.csv")
    with pytest.raises(zhipai.InvalidValueError, match="zhipai_version"):
        zhipai.SimResult.concat([a, b])


def test_cli_out_writes_provenance_with_the_policy_per_seat(tmp_path, capsys):
    out = tmp_path / "rows.npz"
    assert main(["simulate", "gongzhu", "-n", "20", "-q", "--seed", "5", "--policy", "greedy",
                 "--policy-seat", "2=random", "--out", str(out)]) == 0
    p = zhipai.SimResult.load(out).provenance
    assert p["policy"] == ["greedy", "greedy", "random", "greedy"] and p["seed"] == 5


def test_a_failure_between_the_two_renames_of_a_csv_is_reported_and_detected(tmp_path, monkeypatch):
    """The one window where a CSV and its sidecar can disagree: the error says so, and load
    refuses the pair (the sidecar's checksum no longer matches)."""
    rows(10, seed=1).save(tmp_path / "rows.csv")
    real_replace = os.replace

    def fail_on_sidecar(a, b):
        if str(b).endswith(".json"):
            raise KeyboardInterrupt
        real_replace(a, b)

    monkeypatch.setattr(files_module.os, "replace", fail_on_sidecar)
    with pytest.raises(KeyboardInterrupt) as e:
        rows(12, seed=2).save(tmp_path / "rows.csv")
    assert "only" in str(e.value) and "rows.csv.json" in str(e.value)
    monkeypatch.undo()
    assert leftovers(tmp_path) == []
    with pytest.raises(zhipai.FileError, match="does not match its provenance"):
        zhipai.SimResult.load(tmp_path / "rows.csv")


def test_a_directory_without_an_extension_is_called_a_directory(tmp_path, capsys):
    rc = main(["simulate", "tractor", "-n", "5", "-q", "--out", str(tmp_path)])
    err = one_error_line(capsys.readouterr().err)
    assert rc == 2 and "is a directory" in err and "unknown no" not in err
