"""How much memory a new allocation can take, to refuse up front a rows-mode run that cannot fit.

Rows mode allocates ``deals × columns × 4`` bytes before the first deal; past the available
memory that is minutes of swapping or the OOM killer instead of an error. The figure comes from
the OS, read directly (no extra dependency):

* Linux: ``MemAvailable`` in ``/proc/meminfo`` — the kernel's own estimate of the memory a new
  program can use without swapping (free memory plus reclaimable page cache; ``free`` and
  ``SC_AVPHYS_PAGES`` count only never-used pages and would refuse runs that fit) — and, when the
  process runs in a memory-limited cgroup (containers, systemd slices, batch jobs), the room left
  under that limit (cgroup v2 ``memory.max - memory.current`` up the hierarchy, or cgroup v1
  ``memory.limit_in_bytes - memory.usage_in_bytes``; the usage without the reclaimable page
  cache, ``inactive_file`` of ``memory.stat``, as ``docker stats`` counts it); the smaller wins.
* elsewhere: ``psutil.virtual_memory().available`` when psutil is installed (the same estimate
  on macOS and Windows); else the figure is unknown and no check is made.
"""

from __future__ import annotations

import sys
from pathlib import Path

from zhipai._core import InvalidValueError

#: A cgroup limit at or above this is "no limit" (cgroup v1 reports ~2**63 when unlimited).
_UNLIMITED = 1 << 60


def _meminfo() -> tuple[int, str] | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024, "MemAvailable in /proc/meminfo"
    except (OSError, ValueError, IndexError):
        pass
    return None


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except OSError:
        return None
    if text == "max":
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _inactive_file(stat_file: Path, key: str) -> int:
    """Page cache the kernel reclaims before hitting the limit (``inactive_file`` of
    ``memory.stat``): counted as room, as ``docker stats`` does; 0 when unreadable."""
    try:
        for line in stat_file.read_text(encoding="ascii").splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _cgroup() -> tuple[int, str] | None:
    """Room left under the tightest memory limit of this process's cgroups, if any: the limit
    minus the usage, the usage without the reclaimable page cache."""
    best: tuple[int, str] | None = None
    try:
        lines = Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":  # cgroup v2: walk up to the root
            root = Path("/sys/fs/cgroup")
            here = root / parts[2].lstrip("/")
            for folder in [here, *here.parents]:
                if root not in [folder, *folder.parents]:
                    break
                limit, used = _read_int(folder / "memory.max"), _read_int(folder / "memory.current")
                if limit is not None and used is not None and limit < _UNLIMITED:
                    used -= _inactive_file(folder / "memory.stat", "inactive_file")
                    room = (max(limit - used, 0), f"cgroup memory.max - memory.current of {folder}")
                    best = room if best is None or room[0] < best[0] else best
        elif "memory" in parts[1].split(","):  # cgroup v1
            folder = Path("/sys/fs/cgroup/memory")
            limit = _read_int(folder / "memory.limit_in_bytes")
            used = _read_int(folder / "memory.usage_in_bytes")
            if limit is not None and used is not None and limit < _UNLIMITED:
                used -= _inactive_file(folder / "memory.stat", "total_inactive_file")
                room = (max(limit - used, 0), f"cgroup memory.limit_in_bytes - memory.usage_in_bytes of {folder}")
                best = room if best is None or room[0] < best[0] else best
    return best


def available_bytes() -> tuple[int, str] | None:
    """``(bytes, where the figure comes from)`` a new allocation can use, or ``None`` if unknown."""
    figures = []
    if sys.platform.startswith("linux"):
        figures = [f for f in (_meminfo(), _cgroup()) if f is not None]
    if not figures:
        try:
            import psutil  # type: ignore[import-not-found]

            figures = [(int(psutil.virtual_memory().available), "psutil.virtual_memory().available")]
        except Exception:
            return None
    return min(figures, key=lambda f: f[0])


def size(n: int) -> str:
    """``n`` bytes for people: ``5.2 GB (5,200,000,000 bytes)``."""
    for unit, scale in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit} ({n:,} bytes)"
    return f"{n:,} bytes"


def check_fits(what: str, count: int, needed: int, holding: str, advice: str) -> None:
    """Refuse ``count`` (the argument ``what``) when keeping ``needed`` bytes cannot work: more
    than any address space holds, or more than the memory available now. ``holding`` says what
    the bytes are; ``advice`` what to do instead. Raises ``InvalidValueError``."""
    if needed > sys.maxsize:
        raise InvalidValueError(
            f"invalid {what} {count}: {holding} needs {size(needed)}, more than this machine can "
            f"address; {advice}")
    got = available_bytes_now()
    if got is None:
        return
    avail, source = got
    if needed > avail:
        raise InvalidValueError(
            f"invalid {what} {count}: {holding} needs {size(needed)} of memory, but only "
            f"{size(avail)} is available ({source}); {advice}")


def available_bytes_now() -> tuple[int, str] | None:
    """:func:`available_bytes`, looked up at call time (tests replace it)."""
    return sys.modules[__name__].available_bytes()

