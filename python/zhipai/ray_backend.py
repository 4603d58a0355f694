"""``zhipai.simulate(..., backend="ray")``: one simulation split over a Ray cluster.

The deals ``first_deal .. first_deal + deals`` are cut into chunks of ``chunk_deals`` consecutive
deals. Each chunk is one Ray task that runs the local engine on its range (``first_deal`` =
the chunk's start, so deal ``i`` still uses the generator of ``(seed, i)``), and the driver
joins the chunks in deal order with :meth:`zhipai.SimResult.concat` — rows concatenated,
aggregates merged exactly. The result is therefore array-equal to ``backend="local"``.

* Cluster: ``ray.init(address)`` unless Ray is already initialised; ``address`` defaults to
  ``RAY_ADDRESS``, else a cluster is started on this machine. Workers must have the same
  zhipai version installed (rules travel as preset + options, rebuilt on the worker).
* Resources: each task asks Ray for ``threads`` CPUs (default 1) and runs that many engine
  threads, so Ray's scheduler — not each task — decides how many deals run at once.
* Progress: the bar (or callable) advances as chunks finish; a callable returning ``False``
  cancels the outstanding tasks and returns the completed prefix (``interrupted`` true).
* Ctrl-C: the outstanding tasks are cancelled and :class:`zhipai.SimulationInterrupted` is
  raised with the completed prefix of chunks, as in a local run.
* Errors: the chunk whose deal range comes first among the failing ones is reported, with the
  same exception type as locally and the chunk's range prepended ("deals A..B (seed S) on
  Ray: ..."); a task that dies (worker lost) raises ``ZhipaiError`` naming its range.
"""

from __future__ import annotations

import os
from typing import Any, Callable

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

#: How often (seconds) the driver wakes while waiting, so Ctrl-C is seen promptly.
POLL = 0.2


def import_ray() -> Any:
    """The ``ray`` module, or ``ImportError`` telling how to install it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError(MISSING_RAY) from e
    return ray


def _init(ray: Any, address: str | None) -> None:
    if ray.is_initialized():
        return
    address = address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, logging_level="WARNING", log_to_driver=False)
    else:
        # A throw-away cluster on this machine: no dashboard (faster start, no open port).
        ray.init(include_dashboard=False, logging_level="WARNING", log_to_driver=False)


class RulesEngine:
    """A picklable engine: rebuilds the rules from preset + options on the worker and runs the
    native simulation there (``zhipai.Rules`` itself does not pickle)."""

    def __init__(self, rules: Rules) -> None:
        self.preset = rules.preset
        self.options = dict(rules.options())

    def __call__(self, **kwargs: Any) -> dict[str, Any]:
        return _core._simulate(_core.rules(self.preset, self.options), **kwargs)


def remote_engine(rules: Rules) -> Callable[..., dict[str, Any]]:
    """The engine the tasks run (tests replace it with the internal toy game)."""
    return RulesEngine(rules)


def run_chunk(engine: Callable[..., dict[str, Any]], threads: int | None, **kwargs: Any) -> dict[str, Any]:
    """Body of one Ray task: the engine's raw result for one range, or ``{"error": (type name,
    message)}`` — errors travel as data so the driver can re-raise the zhipai type itself."""
    if threads is None:
        import ray

        cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
        threads = max(1, int(cpus))
    try:
        raw = engine(threads=threads, progress=None, **kwargs)
    except Exception as e:  # noqa: BLE001 - re-raised by the driver with the chunk's range
        return {"error": (type(e).__name__, str(e))}
    exc = raw.pop("exception", None)
    if exc is not None:
        return {"error": (type(exc).__name__, str(exc))}
    return raw


def plan(first: int, deals: int, chunk: int) -> list[tuple[int, int]]:
    """``(start, count)`` of every chunk covering ``first .. first + deals`` in order."""
    return [(s, min(chunk, first + deals - s)) for s in range(first, first + deals, chunk)]


def default_chunk(ray: Any, deals: int, cpus_per_task: int) -> int:
    slots = max(1, int(ray.cluster_resources().get("CPU", 1)) // cpus_per_task)
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
) -> Any:
    """The Ray path of :func:`zhipai.simulate` (arguments already validated there, ``progress``
    already turned into a callable or ``None``). Returns a ``SimResult`` equal to the local one."""
    from zhipai.simulate import SimResult, SimulationInterrupted

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
    chunks = plan(first_deal, deals, chunk_deals or default_chunk(ray, deals, cpus))
    engine = remote_engine(rules)
    task = ray.remote(num_cpus=cpus, max_retries=0)(run_chunk)
    common = dict(policy=policy, seed=seed, chunk_size=chunk_size, aggregate_only=aggregate_only)
    which: dict[Any, int] = {}
    parts: dict[int, Any] = {}
    failed: dict[int, Exception] = {}
    pending: list[Any] = []
    done = 0

    def part(raw: dict[str, Any], start: int) -> Any:
        return SimResult(raw, preset=rules.preset, policy=policy, seed=seed, first_deal=start)

    def cancel() -> None:
        for ref in pending:
            ray.cancel(ref)

    def result() -> Any:
        """The completed prefix of chunks as one result (an empty one if none finished)."""
        prefix = []
        while len(prefix) in parts:
            prefix.append(parts[len(prefix)])
        if not prefix:
            empty = engine(deals=1, policy=policy, seed=seed, threads=1, aggregate_only=True)
            raw = {k: empty[k] for k in ("columns", "docs")}
            raw.update(requested=deals, completed=0, interrupted=True)
            if aggregate_only:
                raw["stats"] = [_EMPTY_STATS] * len(raw["columns"])
            else:
                import numpy as np

                raw["data"] = [np.empty(0, dtype=np.int32) for _ in raw["columns"]]
            return part(raw, first_deal)
        joined = SimResult.concat(prefix)
        joined.requested = deals
        joined.interrupted = joined.completed < deals
        return joined

    try:
        # Submitted inside the try: a Ctrl-C while submitting cancels what was submitted.
        for k, (start, count) in enumerate(chunks):
            ref = task.remote(engine, threads, deals=count, first_deal=start, **common)
            which[ref] = k
            pending.append(ref)
        # Show the bar now: the first chunk may take minutes on a big run.
        if progress is not None and progress(0, deals) is False:
            cancel()
            pending = []
            return result()
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=POLL)
            for ref in ready:
                k = which[ref]
                start, count = chunks[k]
                try:
                    raw = ray.get(ref)
                except ray.exceptions.RayError as e:
                    raw = {"error": ("ZhipaiError", f"the task failed: {e}")}
                if "error" in raw:
                    failed[k] = _error(*raw["error"], start, count, seed)
                    # Chunks after the failing one cannot matter any more; earlier ones might
                    # fail too, and the first failing range in deal order is the one reported.
                    late = [r for r in pending if which[r] > k]
                    for r in late:
                        ray.cancel(r)
                    pending = [r for r in pending if which[r] < k]
                    continue
                parts[k] = part(raw, start)
                done += count
            if ready and progress is not None and not failed:
                if progress(done, deals) is False:
                    cancel()
                    pending = []
                    return result()
    except KeyboardInterrupt as e:
        cancel()
        raise SimulationInterrupted(result()) from e
    except BaseException:
        cancel()
        raise
    if failed:
        raise failed[min(failed)]
    return result()


_EMPTY_STATS = {"count": 0, "sum": 0, "sum_sq": 0, "min": 2**31 - 1, "max": -(2**31), "histogram": []}
