"""``zhipai.simulate(..., backend="ray")``: one simulation split over a Ray cluster.

The deals ``first_deal .. first_deal + deals`` are cut into chunks of ``chunk_deals`` consecutive
deals. Each chunk is one Ray task that runs the local engine on its range (``first_deal`` =
the chunk's start, so deal ``i`` still uses the generator of ``(seed, i)``), and the driver
joins the chunks in deal order with :meth:`zhipai.SimResult.concat` — rows concatenated,
aggregates merged exactly. The result is therefore array-equal to ``backend="local"``.

* Cluster: ``ray.init(address)`` unless Ray is already initialised; ``address`` defaults to
  ``RAY_ADDRESS``, else a cluster is started on this machine. A ``host:port`` or
  ``ray://host:port`` address is first probed with a TCP connect (:data:`CONNECT_TIMEOUT`
  seconds) so a wrong one fails fast with ``InvalidValueError`` naming it, instead of Ray
  retrying for minutes; ``"auto"`` is passed to Ray as is. Workers must have the same
  zhipai version installed (rules travel as preset + options, rebuilt on the worker).
* Resources: each task asks Ray for ``threads`` CPUs (default 1) and runs that many engine
  threads, so Ray's scheduler — not each task — decides how many deals run at once.
* Submission: chunks are submitted in deal order, at most :data:`TASKS_IN_FLIGHT_PER_SLOT` per
  task slot of the cluster at a time, so a stopped run leaves little work behind. Ray tasks are
  never cancelled: ``ray.cancel`` of a task that is just finishing can abort the driver (Ray
  2.60: "Check failed: Tried to complete task that was not pending"); the few tasks in flight
  when a run stops finish on the cluster and their results are dropped.
* Progress: the bar (or callable) advances as chunks finish; a callable returning ``False``
  stops the run and returns the completed prefix (``interrupted`` true).
* Ctrl-C: the run stops and :class:`zhipai.SimulationInterrupted` is raised with the completed
  prefix of chunks, as in a local run.
* Errors: the chunk whose deal range comes first among the failing ones is reported, with the
  same exception type as locally and the chunk's range prepended ("deals A..B (seed S) on
  Ray: ..."); a task that dies (worker lost) raises ``ZhipaiError`` naming its range.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from zhipai import _core
from zhipai._core import Rules, ZhipaiError

MISSING_RAY = 'backend="ray" needs the optional package ray: pip install "zhipai[ray]"'

#: ``chunk_deals`` default: about this many tasks per cluster CPU (load balance, prompt
#: progress), each between MIN_CHUNK and MAX_CHUNK deals (task overhead vs. memory per task).
TASKS_PER_CPU = 4
MIN_CHUNK = 10_000
MAX_CHUNK = 1_000_000
#: Most tasks one run may submit (each holds a Ray object reference in the driver).
MAX_TASKS = 1_000_000
#: Tasks submitted ahead per task slot: one running and one queued keeps every slot busy.
TASKS_IN_FLIGHT_PER_SLOT = 2

#: How often (seconds) the driver wakes while waiting, so Ctrl-C is seen promptly.
POLL = 0.2


def import_ray() -> Any:
    """The ``ray`` module, or ``ImportError`` telling how to install it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(MISSING_RAY) from e
    return ray


#: Seconds to wait for a cluster's TCP port before giving up on its address.
CONNECT_TIMEOUT = 5.0


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast on a cluster address nobody listens at (``ray.init`` may retry for minutes).

    ``"host:port"`` (the GCS address, port 6379 by default on a head node) and
    ``"ray://host:port"`` (Ray Client, port 10001 by default) are probed with one TCP connect of
    at most ``timeout`` seconds; ``"auto"``/``"local"`` (find or start a cluster on this machine)
    and addresses without a port are left to Ray. Raises ``InvalidValueError`` naming the
    address when the port does not answer (or the host does not resolve).
    """
    import socket

    if not isinstance(address, str):
        raise _core.InvalidValueError(f"invalid ray_address {address!r}: expected a string such as 'auto'")
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if address in ("auto", "local") or not sep or not port.isdigit():
        return
    host = host.strip("[]")  # "[::1]:6379"
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except (OSError, ValueError) as e:
        reason = "timed out" if isinstance(e, TimeoutError) else str(e) or type(e).__name__
        raise _core.InvalidValueError(
            f"invalid ray_address {address!r}: no Ray cluster reachable there ({reason} within "
            f"{timeout:g} s); start one with `ray start --head` or pass its GCS address host:port"
        ) from None


def _init(ray: Any, address: str | None) -> None:
    if ray.is_initialized():
        return
    address = address or os.environ.get("RAY_ADDRESS")
    if address:
        check_reachable(address)
        ray.init(address=address, logging_level="WARNING", log_to_driver=False)
    else:
        # A throw-away cluster on this machine: no dashboard (faster start, no open port).
        ray.init(include_dashboard=False, logging_level="WARNING", log_to_driver=False)


def remote_engine(rules: Rules) -> Callable[..., dict[str, Any]]:
    """The engine the tasks run (tests replace it with the internal toy game): the native
    simulation of ``rules`` (a ``zhipai.Rules`` pickles as its preset and option values)."""
    return functools.partial(_core._simulate, rules)


def run_chunk(engine: Callable[..., dict[str, Any]], threads: int | None, **kwargs: Any) -> dict[str, Any]:
    """Body of one Ray task: the engine's raw result for one range, or ``{"error": (type name,
    message)}`` — errors travel as data so the driver can re-raise the zhipai type itself."""
    if threads is None:
        import ray

        cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
        threads = max(1, int(cpus))
    try:
        raw = engine(threads=threads, progress=None, **kwargs)
    except Exception as e:
        return {"error": (type(e).__name__, str(e))}
    exc = raw.pop("exception", None)
    if exc is not None:
        return {"error": (type(exc).__name__, str(exc))}
    return raw


def plan(first: int, deals: int, chunk: int) -> list[tuple[int, int]]:
    """``(start, count)`` of every chunk covering ``first .. first + deals`` in order."""
    return [(s, min(chunk, first + deals - s)) for s in range(first, first + deals, chunk)]


def task_slots(ray: Any, cpus_per_task: int) -> int:
    """How many tasks of ``cpus_per_task`` CPUs the cluster runs at once (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)) // cpus_per_task)


def default_chunk(ray: Any, deals: int, cpus_per_task: int) -> int:
    slots = task_slots(ray, cpus_per_task)
    chunk = -(-deals // (TASKS_PER_CPU * slots))
    return max(min(MIN_CHUNK, deals), min(chunk, MAX_CHUNK))


def _error(name: str, message: str, start: int, count: int, seed: int) -> Exception:
    """The exception a chunk reported, re-created with its deal range in front."""
    import builtins

    cls = getattr(_core, name, None) or getattr(builtins, name, None)
    text = f"deals {start}..{start + count} (seed {seed}) on Ray: {message}"
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls(text)
    return ZhipaiError(f"{text} ({name})")


def simulate(
    rules: Rules,
    deals: int,
    policy: str,
    seed: int,
    threads: int | None,
    progress: Callable[[int, int], Any] | None,
    chunk_size: int | None,
    aggregate_only: bool,
    first_deal: int,
    *,
    address: str | None = None,
    chunk_deals: int | None = None,
    players: list[str] | None = None,
) -> Any:
    """The Ray path of :func:`zhipai.simulate` (arguments already validated there, ``progress``
    already turned into a callable or ``None``). ``players``: a player name per seat (run by
    :mod:`zhipai._seats`; ``policy`` is then the label), else ``policy`` at every seat. Returns a
    ``SimResult`` equal to the local one."""
    from zhipai import _seats
    from zhipai.simulate import SimulationInterrupted, _options_of

    engine = remote_engine(rules) if players is None else _seats.engine(rules, players)
    run = _Run(
        None, engine, rules.preset,
        dict(policy=policy, seed=seed, chunk_size=chunk_size, aggregate_only=aggregate_only),
        [], options=_options_of(rules), policies=players,
    )
    return drive(run, deals, first_deal, threads, progress, address, chunk_deals, SimulationInterrupted)


def drive(
    run: _Run,
    deals: int,
    first_deal: int,
    threads: int | None,
    progress: Callable[[int, int], Any] | None,
    address: str | None,
    chunk_deals: int | None,
    interrupted: Callable[[Any], BaseException],
) -> Any:
    """Run ``run.engine`` over deals ``first_deal .. first_deal + deals`` in Ray tasks of
    ``chunk_deals`` deals (module docs: submission window, progress, errors) and return
    ``run.result(deals)``, the completed prefix of chunks joined; Ctrl-C raises
    ``interrupted(prefix)``. The engine is called with ``threads, deals, first_deal`` and
    ``run.common``. Used by ``simulate`` and ``zhipai.arena``."""
    ray = import_ray()
    if first_deal + deals > 2**64 - 1:
        raise _core.InvalidValueError(
            f"invalid first_deal {first_deal}: first_deal + deals ({deals}) exceeds 2**64 - 1"
        )
    if chunk_deals is not None and -(-deals // chunk_deals) > MAX_TASKS:
        raise _core.InvalidValueError(
            f"invalid chunk_deals {chunk_deals}: {deals} deals would make more than {MAX_TASKS} "
            "Ray tasks; use larger chunks"
        )
    _init(ray, address)
    cpus = threads or 1
    run.ray = ray
    run.chunks = plan(first_deal, deals, chunk_deals or default_chunk(ray, deals, cpus))
    task = ray.remote(num_cpus=cpus, max_retries=0)(run_chunk)

    def submit(start: int, count: int) -> Any:
        return task.remote(run.engine, threads, deals=count, first_deal=start, **run.common)

    window = TASKS_IN_FLIGHT_PER_SLOT * task_slots(ray, cpus)

    def report(done: int) -> bool:
        """Call ``progress``; True when it asks to stop. Its exception becomes a
        ``ProgressError`` holding the completed prefix."""
        from zhipai.simulate import progress_error

        try:
            return progress is not None and progress(done, deals) is False
        except Exception as e:
            failed = progress_error(progress, e, run.result(deals), "deals")
            if failed is None:
                raise
            raise failed from e

    try:
        run.fill(submit, window)
        # Report at once (the bar shows before the first chunk, which may take minutes).
        stopped = report(0)
        while run.pending and not stopped:
            if run.wait() and not run.failed:
                stopped = report(run.done)
            if not stopped:
                run.fill(submit, window)
    except KeyboardInterrupt as e:
        raise interrupted(run.result(deals)) from e
    if run.failed:
        raise run.failed[min(run.failed)]
    return run.result(deals)


class _Run:
    """The driver's state of one Ray run: chunk ``k`` covers ``chunks[k]`` = (first deal, deals).

    The parts are ``SimResult``s by default; ``part(raw, first_deal)`` and ``join(parts,
    deals)`` (the completed prefix of parts, possibly empty, as one result of ``deals``
    requested) make them anything else (``zhipai.arena``)."""

    def __init__(
        self,
        ray: Any,
        engine: Any,
        preset: str,
        common: dict[str, Any],
        chunks: list[tuple[int, int]],
        options: dict[str, Any] | None = None,
        policies: list[str] | None = None,
        part: Callable[[dict[str, Any], int], Any] | None = None,
        join: Callable[[list[Any], int], Any] | None = None,
    ) -> None:
        self.ray, self.engine, self.preset, self.common, self.chunks = ray, engine, preset, common, chunks
        self.options, self.policies = options, policies
        if part is not None:
            self.part = part  # type: ignore[method-assign]
        self.join = join
        self.which: dict[Any, int] = {}  # object ref → chunk index
        self.pending: list[Any] = []
        self.next = 0  # the next chunk to submit (chunks go out in deal order)
        self.parts: dict[int, Any] = {}  # chunk index → its SimResult
        self.failed: dict[int, Exception] = {}
        self.done = 0  # deals in finished chunks (in any order: the progress count)

    def fill(self, submit: Callable[[int, int], Any], window: int) -> None:
        """Submit chunks in deal order (``submit(first_deal, deals)`` → object ref) until
        ``window`` are in flight; none after a failing one (every earlier chunk went out)."""
        while len(self.pending) < window and self.next < len(self.chunks) and not self.failed:
            start, count = self.chunks[self.next]
            ref = submit(start, count)
            self.which[ref] = self.next
            self.pending.append(ref)
            self.next += 1

    def wait(self) -> bool:
        """Wait up to :data:`POLL` for chunks; file what finished. True if any did."""
        ready, self.pending = self.ray.wait(self.pending, num_returns=1, timeout=POLL)
        for ref in ready:
            k = self.which[ref]
            try:
                raw = self.ray.get(ref)
            except self.ray.exceptions.RayError as e:
                raw = {"error": ("ZhipaiError", f"the task failed: {e}")}
            if "error" in raw:
                self.fail(k, *raw["error"])
            else:
                self.parts[k] = self.part(raw, self.chunks[k][0])
                self.done += self.chunks[k][1]
        return bool(ready)

    def fail(self, k: int, name: str, message: str) -> None:
        start, count = self.chunks[k]
        self.failed[k] = _error(name, message, start, count, self.common["seed"])
        # Later chunks cannot matter any more (left to finish, not cancelled: see the module
        # docs); earlier ones might fail too, and the first failing range in deal order is the
        # one reported (as a local run reports the first failing deal).
        self.pending = [r for r in self.pending if self.which[r] < k]

    def part(self, raw: dict[str, Any], first_deal: int) -> Any:
        from zhipai.simulate import SimResult

        c = self.common
        return SimResult(raw, preset=self.preset, policy=c["policy"], seed=c["seed"], first_deal=first_deal,
                         options=self.options, policies=self.policies)

    def result(self, deals: int) -> Any:
        """The completed prefix of chunks (in deal order) as one result of ``deals`` requested."""
        from zhipai.simulate import SimResult

        prefix = []
        while len(prefix) in self.parts:
            prefix.append(self.parts[len(prefix)])
        if self.join is not None:
            return self.join(prefix, deals)
        joined = SimResult.concat(prefix) if prefix else self.empty()
        joined.requested = deals
        joined.interrupted = joined.completed < deals
        return joined

    def empty(self) -> Any:
        """A result of no deals (stopped before chunk 0 finished); the columns come from one
        local deal, as no chunk reported them."""
        import numpy as np

        from zhipai.simulate import EMPTY_STATS

        c = self.common
        one = self.engine(deals=1, policy=c["policy"], seed=c["seed"], threads=1, aggregate_only=True)
        raw = {"columns": one["columns"], "docs": one["docs"], "requested": 0, "completed": 0, "interrupted": True}
        if c["aggregate_only"]:
            raw["stats"] = [dict(EMPTY_STATS) for _ in one["columns"]]
        else:
            raw["data"] = [np.empty(0, dtype=np.int32) for _ in one["columns"]]
        return self.part(raw, self.chunks[0][0])

