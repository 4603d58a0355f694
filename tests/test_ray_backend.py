"""`zhipai.simulate(..., backend="ray")` and `first_deal`: the Ray path must return exactly the
arrays of a local run (rows and aggregates), keep the completed prefix when stopped, and report
a failing chunk with its deal range. The Ray tests run on a 2-CPU cluster started on this
machine and are skipped when Ray is not installed (the argument checks and the missing-Ray
message are tested without it).
"""

from __future__ import annotations

import functools
import importlib
import math
import re
import socket
import sys

import numpy as np
import pytest
import zhipai
from zhipai import _core
from zhipai.cli import main

ray_backend = importlib.import_module("zhipai.ray_backend")
simulate_module = importlib.import_module("zhipai.simulate")


def local(preset="tractor", deals=2000, **kw):
    kw.setdefault("progress", False)
    return zhipai.simulate(preset, deals, **kw)


def on_ray(preset="tractor", deals=2000, **kw):
    kw.setdefault("chunk_deals", -(-deals // 4))  # four tasks
    kw.setdefault("progress", False)
    return zhipai.simulate(preset, deals, backend="ray", **kw)


def assert_same(a, b):
    assert (a.columns, a.completed, a.first_deal, a.aggregate_only) == (
        b.columns, b.completed, b.first_deal, b.aggregate_only
    )
    for c in a.columns:
        if a.aggregate_only:
            assert a.stats(c) == b.stats(c), c
        else:
            assert a[c].dtype == b[c].dtype == np.int32
            assert np.array_equal(a[c], b[c]), c


# --- first_deal and concat (no Ray needed) -----------------------------------------------


@pytest.mark.parametrize("preset", ["tractor", "gongzhu"])
def test_first_deal_plays_the_slice_of_the_full_run(preset):
    full = local(preset, 300, seed=9)
    for first, n in [(0, 300), (1, 7), (150, 150), (299, 1)]:
        part = local(preset, n, seed=9, first_deal=first, threads=2)
        assert part.first_deal == first and len(part) == n
        for c in full.columns:
            assert np.array_equal(part[c], full[c][first : first + n]), (first, c)
    assert part.summary().title.endswith(", deals 299..300")
    far = local(preset, 5, seed=9, first_deal=2**64 - 6)
    assert len(far) == 5 and far.first_deal == 2**64 - 6


def test_first_deal_with_a_python_policy_plays_the_slice():
    def first_move(obs, moves):
        return moves[0]

    policy = {0: first_move, "others": "random"}
    full = local("gongzhu", 12, seed=5, policy=policy)
    part = local("gongzhu", 4, seed=5, policy=policy, first_deal=8)
    assert part.first_deal == 8
    for c in full.columns:
        assert np.array_equal(part[c], full[c][8:12]), c
    with pytest.raises(zhipai.InvalidValueError, match="backend='ray'"):
        zhipai.simulate("gongzhu", 4, policy=first_move, backend="ray", progress=False)


def test_first_deal_bad_values_name_it():
    with pytest.raises(zhipai.InvalidValueError, match="first_deal -1"):
        local(deals=5, first_deal=-1)
    with pytest.raises(zhipai.InvalidValueError, match=f"first_deal {2**64 - 5}"):
        local(deals=5, first_deal=2**64 - 5)


@pytest.mark.parametrize("aggregate_only", [False, True])
def test_concat_of_consecutive_ranges_equals_the_whole_run(aggregate_only):
    whole = local("gongzhu", 900, seed=2, aggregate_only=aggregate_only)
    parts = [local("gongzhu", n, seed=2, first_deal=f, aggregate_only=aggregate_only)
             for f, n in [(0, 1), (1, 499), (500, 400)]]
    assert_same(zhipai.SimResult.concat(parts), whole)
    with pytest.raises(zhipai.InvalidValueError, match=r"parts\[1\]"):
        zhipai.SimResult.concat([parts[0], parts[2]])  # a gap: deals 1..500 missing
    other_seed = local("gongzhu", 499, seed=3, first_deal=1, aggregate_only=aggregate_only)
    with pytest.raises(zhipai.InvalidValueError, match=r"parts\[1\]"):
        zhipai.SimResult.concat([parts[0], other_seed])


def test_merged_histogram_is_none_once_a_value_falls_outside():
    merged = zhipai.simulate.__globals__["_merge_stats"](
        [
            {"count": 2, "sum": 3, "sum_sq": 5, "min": 1, "max": 2, "histogram": [(1, 1), (2, 1)]},
            {"count": 1, "sum": 2, "sum_sq": 4, "min": 2, "max": 2, "histogram": [(2, 1)]},
        ]
    )
    assert merged == {"count": 3, "sum": 5, "sum_sq": 9, "min": 1, "max": 2, "histogram": [(1, 1), (2, 2)]}
    outside = {"count": 1, "sum": 900, "sum_sq": 810000, "min": 900, "max": 900, "histogram": None}
    assert zhipai.simulate.__globals__["_merge_stats"]([merged, outside])["histogram"] is None


# --- argument checks and missing Ray (no Ray needed) --------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"backend": "dask"}, "backend 'dask'"),
        ({"backend": None}, "backend None"),
        ({"ray_address": "auto"}, "ray_address 'auto'"),  # without backend="ray"
        ({"chunk_deals": 10}, "chunk_deals 10"),
        ({"backend": "ray", "chunk_deals": 0}, "chunk_deals 0"),
        ({"backend": "ray", "ray_address": 5}, "ray_address 5"),
    ],
)
def test_bad_backend_arguments_name_the_value(kwargs, needle):
    with pytest.raises(zhipai.InvalidValueError, match=needle):
        zhipai.simulate("tractor", 10, progress=False, **kwargs)


def test_too_many_ray_tasks_are_refused_before_starting_ray():
    pytest.importorskip("ray")
    with pytest.raises(zhipai.InvalidValueError, match="chunk_deals 1: 2000000 deals"):
        zhipai.simulate("tractor", 2_000_000, progress=False, backend="ray", chunk_deals=1)


class FakeRay:
    def __init__(self, initialized=False):
        self.initialized, self.calls = initialized, []

    def is_initialized(self):
        return self.initialized

    def init(self, **kwargs):
        self.calls.append(kwargs)


@pytest.mark.parametrize(
    ("argument", "env", "expected"),
    [("ray://head:10001", "other:6379", "ray://head:10001"), (None, "head:6379", "head:6379"), (None, None, None)],
)
def test_cluster_address_from_argument_then_ray_address_else_local(monkeypatch, argument, env, expected):
    if env is None:
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
    else:
        monkeypatch.setenv("RAY_ADDRESS", env)
    probed = []
    monkeypatch.setattr(ray_backend, "check_reachable", probed.append)
    fake = FakeRay()
    ray_backend._init(fake, argument)
    assert probed == ([] if expected is None else [expected])
    (call,) = fake.calls
    assert call.get("address") == expected
    assert ("include_dashboard" in call) == (expected is None)  # only when starting a local cluster
    already = FakeRay(initialized=True)
    ray_backend._init(already, argument)
    assert already.calls == []


def unused_local_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_unreachable_cluster_address_fails_fast_naming_it(monkeypatch, scheme):
    address = f"{scheme}127.0.0.1:{unused_local_port()}"
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(zhipai.InvalidValueError, match=re.escape(f"invalid ray_address {address!r}")):
        zhipai.simulate("tractor", 10, progress=False, backend="ray", ray_address=address)
    assert fake.calls == []  # Ray never tried (it would retry for minutes)


def test_cli_unreachable_cluster_address_is_one_line_exit_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", FakeRay())
    address = f"localhost:{unused_local_port()}"
    assert main(["simulate", "tractor", "-n", "10", "-q", "--backend", "ray", "--ray-address", address]) == 2
    err = capsys.readouterr().err
    assert address in err and "no Ray cluster reachable" in err and len(err.strip().splitlines()) == 1


def test_reachable_or_unprobed_cluster_addresses_pass():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        ray_backend.check_reachable(f"127.0.0.1:{port}")
        ray_backend.check_reachable(f"ray://127.0.0.1:{port}")
    for address in ("auto", "local", "ray://head"):  # left to Ray: no port to probe
        ray_backend.check_reachable(address)


class IdleRay(FakeRay):
    """A cluster whose tasks never finish (so a run stopped at once has no completed deal)."""

    def __init__(self):
        super().__init__(initialized=True)
        self.cluster_resources = lambda: {"CPU": 2.0}

    def remote(self, **options):
        return lambda fn: type("Task", (), {"remote": staticmethod(lambda *a, **k: object())})


@pytest.mark.parametrize("aggregate_only", [False, True])
def test_a_run_with_no_completed_deal_says_so(monkeypatch, capsys, aggregate_only):
    monkeypatch.setitem(sys.modules, "ray", IdleRay())
    r = zhipai.simulate("tractor", 1000, backend="ray", aggregate_only=aggregate_only,
                        progress=lambda done, total: False)
    assert (r.completed, r.interrupted) == (0, True)
    for stats in (r.stats("attacker_points"), zhipai.SimResult.concat([r]).stats("attacker_points")):
        assert (stats["count"], stats["min"], stats["max"]) == (0, None, None)
    side = r.summary()["side"]
    assert (side.count, side.min, side.max, side.distribution) == (0, None, None, None)
    assert all(math.isnan(x) for x in (side.mean, side.std, *side.ci95))
    text = str(r.summary())
    assert "no completed deals" in text
    assert "nan" not in text and "2147483647" not in text and "0 deals" not in text
    # The CLI prints the same summary for a run interrupted before any deal completed.
    def interrupted(*args, **kwargs):
        raise zhipai.SimulationInterrupted(r)

    monkeypatch.setattr(zhipai, "simulate", interrupted)
    assert main(["simulate", "tractor", "-n", "1000", "-q"]) == 130
    out = capsys.readouterr().out
    assert "no completed deals" in out and "nan" not in out and "2147483647" not in out


def test_merged_min_max_leave_out_empty_parts():
    empty = {"count": 0, "sum": 0, "sum_sq": 0, "min": None, "max": None, "histogram": []}
    full = {"count": 2, "sum": 3, "sum_sq": 5, "min": 1, "max": 2, "histogram": [(1, 1), (2, 1)]}
    merged = simulate_module._merge_stats([empty, full, empty])
    assert (merged["count"], merged["min"], merged["max"]) == (2, 1, 2)
    assert (simulate_module._merge_stats([empty])["min"], simulate_module._merge_stats([empty])["max"]) == (None, None)


def test_default_chunk_and_plan():
    def cluster_of(cpus):
        fake = FakeRay()
        fake.cluster_resources = lambda: {"CPU": float(cpus)}
        return fake

    # About four tasks per CPU slot, 10,000 to 1,000,000 deals each (never more than the run).
    assert ray_backend.default_chunk(cluster_of(2), 1_000_000, 1) == 125_000
    assert ray_backend.default_chunk(cluster_of(100), 10**9, 1) == 1_000_000
    assert ray_backend.default_chunk(cluster_of(100), 10**9, 4) == 1_000_000
    assert ray_backend.default_chunk(cluster_of(8), 100_000, 4) == 12_500
    assert ray_backend.default_chunk(cluster_of(64), 100_000, 1) == 10_000
    assert ray_backend.default_chunk(cluster_of(2), 2_000, 1) == 2_000
    assert ray_backend.plan(5, 10, 4) == [(5, 4), (9, 4), (13, 2)]
    assert ray_backend.plan(2**64 - 3, 2, 1) == [(2**64 - 3, 1), (2**64 - 2, 1)]


class InlineRay(FakeRay):
    """A 2-CPU cluster that runs each task in the driver when it is waited for, in submission
    order, and fails the test on any ``ray.cancel`` (which can abort a real driver)."""

    def __init__(self):
        super().__init__(initialized=True)
        self.cluster_resources = lambda: {"CPU": 2.0}
        self.exceptions = type("exceptions", (), {"RayError": RuntimeError})
        self.in_flight = self.most_in_flight = self.submitted = 0

    def remote(self, **options):
        def task(fn):
            def submit(*args, **kwargs):
                self.submitted += 1
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
                return functools.partial(fn, *args, **kwargs)

            return type("Task", (), {"remote": staticmethod(submit)})

        return task

    def wait(self, pending, num_returns, timeout):
        self.in_flight -= 1
        return pending[:1], pending[1:]

    def get(self, ref):
        return ref()

    def cancel(self, ref, **kwargs):
        raise AssertionError("ray.cancel must not be called")


def test_chunks_go_out_two_per_slot_and_are_never_cancelled(monkeypatch):
    fake = InlineRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    r = zhipai.simulate("gongzhu", 20_000, seed=3, backend="ray", chunk_deals=1_000, threads=1, progress=False)
    assert_same(r, local("gongzhu", 20_000, seed=3))
    assert fake.submitted == 20 and fake.most_in_flight == 4  # 2 slots × 2
    # Stopped after the first chunk: only the window was submitted, nothing cancelled.
    stop = InlineRay()
    monkeypatch.setitem(sys.modules, "ray", stop)
    r = zhipai.simulate("gongzhu", 20_000, seed=3, backend="ray", chunk_deals=1_000, threads=1,
                        progress=lambda done, total: done < 1_000)
    assert r.interrupted and len(r) == 1_000 and stop.submitted == 4


def test_missing_ray_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(ImportError, match=r'pip install "zhipai\[ray\]"'):
        zhipai.simulate("tractor", 10, progress=False, backend="ray")


def test_cli_missing_ray_is_one_line_exit_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["simulate", "tractor", "-n", "10", "-q", "--backend", "ray"]) == 2
    assert "zhipai[ray]" in capsys.readouterr().err


# --- on a Ray cluster ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture
def toy(monkeypatch, test_hooks):
    """Run the Ray tasks on the engine's internal toy coin game (see tests/test_simulate.py)."""

    def use(**params):
        monkeypatch.setattr(
            ray_backend, "remote_engine", lambda rules: functools.partial(_core._simulate_toy, **params)
        )
        monkeypatch.setattr(
            importlib.import_module("zhipai.simulate"),
            "_engine",
            lambda rules: (lambda **kw: _core._simulate_toy(**kw, **params)),
        )

    use()
    return use


@pytest.mark.parametrize("aggregate_only", [False, True])
def test_ray_equals_local(cluster, aggregate_only):
    # The central promise: same seed, deals and policy → the same arrays as a local run.
    for kw in [{"seed": 11}, {"seed": 12, "policy": "greedy", "first_deal": 1000}]:
        assert_same(on_ray(aggregate_only=aggregate_only, **kw), local(aggregate_only=aggregate_only, **kw))


def test_ray_equals_local_for_uneven_chunks_and_options(cluster):
    rules = zhipai.rules("eighty_points", decks=3)
    assert_same(
        zhipai.simulate(rules, 301, seed=4, backend="ray", chunk_deals=97, threads=1, progress=False),
        zhipai.simulate(rules, 301, seed=4, progress=False),
    )
    # One chunk of the whole run (default chunk_deals on a small run).
    assert_same(on_ray("gongzhu", 50, seed=1, chunk_deals=None), local("gongzhu", 50, seed=1))


def test_ray_progress_sees_every_deal(cluster):
    seen = []
    on_ray(deals=400, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (400, 400) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert seen[0] == (0, 400) and len(seen) == 5  # one report at the start, one per chunk


@pytest.mark.parametrize("aggregate_only", [False, True])
def test_ray_stop_before_any_chunk_returns_an_empty_interrupted_result(cluster, aggregate_only):
    r = on_ray(deals=400, seed=1, aggregate_only=aggregate_only, progress=lambda done, total: False)
    assert (r.completed, r.requested, r.interrupted) == (0, 400, True)
    assert r.columns == local(deals=1).columns
    if aggregate_only:
        assert r.stats("attacker_points")["count"] == 0 and math.isnan(r.summary()["side"].mean)
    else:
        assert all(len(r[c]) == 0 and r[c].dtype == np.int32 for c in r.columns)


def test_ray_stop_from_progress_keeps_the_completed_prefix(cluster, toy):
    toy(work=300)
    r = on_ray("gongzhu", 200_000, seed=8, chunk_deals=5_000, progress=lambda done, total: done < 10_000)
    assert r.interrupted and r.requested == 200_000
    # The prefix of chunks finished in deal order: chunks that finished after a gap are dropped.
    assert len(r) < 200_000 and len(r) % 5_000 == 0
    assert all(len(r[c]) == len(r) for c in r.columns)
    if len(r):
        assert_same(r, local("gongzhu", len(r), seed=8))


def test_ray_ctrl_c_raises_with_the_completed_prefix(cluster, toy):
    # Ctrl-C arrives as a KeyboardInterrupt in the driver's wait loop; raising it from the
    # progress callable (called in that loop) is the same path, without timing races.
    def ctrl_c(done, total):
        if done >= 10_000:
            raise KeyboardInterrupt

    toy(work=300)
    with pytest.raises(zhipai.SimulationInterrupted) as info:
        on_ray("gongzhu", 400_000, seed=1, chunk_deals=5_000, aggregate_only=True, progress=ctrl_c)
    res = info.value.result
    assert isinstance(info.value, KeyboardInterrupt)
    assert res.interrupted and res.completed < 400_000 and res.completed % 5_000 == 0
    assert res.stats("heads")["count"] == res.completed
    if res.completed:
        assert_same(res, local("gongzhu", res.completed, seed=1, aggregate_only=True))


def test_ray_failing_chunk_names_its_range_and_the_first_failing_deal(cluster, toy):
    toy(fail_per_million=300)
    with pytest.raises(zhipai.InvalidValueError) as here:
        local("gongzhu", 40_000, seed=4)
    with pytest.raises(zhipai.InvalidValueError) as there:
        on_ray("gongzhu", 40_000, seed=4, chunk_deals=1_000)
    deal = int(str(here.value).split("in deal ")[1].split(" ")[0])
    start = deal // 1_000 * 1_000
    assert str(there.value).startswith(f"deals {start}..{start + 1_000} (seed 4) on Ray: ")
    assert str(here.value) in str(there.value)  # the same first failing deal in deal order


def test_cli_backend_ray_prints_the_local_summary(cluster, capsys):
    args = ["simulate", "tractor", "-n", "200", "-s", "3", "-q"]
    assert main(args) == 0
    here = capsys.readouterr().out
    assert main(args + ["--backend", "ray", "--chunk-deals", "60"]) == 0
    assert capsys.readouterr().out == here and "attacker_points" in here
