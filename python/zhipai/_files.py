"""Files zhipai writes and reads, with nothing lost and nothing half-written.

Writing (:func:`atomic_write`): every output file (rows as CSV/Parquet/npz, the CSV's provenance
sidecar, plots) is written to a temporary file ``.<name>.<random>.part`` in the target's own folder
(so the final rename never crosses a file system), flushed and ``fsync``-ed, then renamed over the
target with ``os.replace`` (atomic on POSIX and Windows), and the folder is fsynced. On any
failure — an exception, a full disk, Ctrl-C — the temporary file is removed and the error says
that nothing was written and what was kept; a previous file of that name is left untouched.
Only a hard kill (SIGKILL, power loss) between the two steps can leave a ``.part`` file behind.

Checking (:func:`check_output`): before a long run, the target is checked the way the write will
use it — the extension is known, the target is not a directory, its folder exists, is a folder and
accepts a new file (a probe file is created and removed: this also catches read-only file systems,
``/proc``, and permissions that ``os.access`` misjudges, e.g. for root).

Reading (:func:`read_text`, :func:`read_json`): at most ``limit`` bytes are read (a record from
``/dev/zero`` or a 10 GB file is refused by name, not read into memory), the text must be UTF-8,
and any JSON error — including nesting deep enough to exhaust the parser's recursion — is a
:class:`zhipai.FileError` naming the file.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from zhipai._check import invalid
from zhipai._errors import FileError

#: Most bytes a record read by the CLI may have (the core's limit for deal records, 4 MiB).
MAX_RECORD_BYTES = 4 << 20

Writer = Callable[[IO[bytes]], Any]


def path_arg(what: str, value: Any) -> Path:
    """A path argument: a ``str`` or an ``os.PathLike`` of ``str`` (not bytes, not an int — an
    int would be taken by ``open`` as a file descriptor, e.g. 1 = stdout)."""
    if isinstance(value, str) or (isinstance(value, os.PathLike) and isinstance(os.fspath(value), str)):
        text = os.fspath(value)
        if text and "\0" not in text:
            return Path(text)
    raise invalid(what, value, "expected a file path (a str or pathlib.Path)")


def shown_path(path: Any) -> str:
    """A path as messages (and ``FileError.path``) show it: its text, or its ``repr`` when that
    text would not show (blank, or with characters that do not print, such as newlines)."""
    text = os.fspath(path)
    return text if text.strip() and text.isprintable() else repr(text)


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


def check_output(path: Any, *, kinds: Sequence[str] | None, what: str = "path") -> Path:
    """Refuse now, naming ``path`` and the reason, an output file that could not be written.

    ``kinds``: the known extensions (``[".csv", ".parquet", ".npz"]``), or ``None`` for any.
    Raises ``InvalidValueError`` for a path of the wrong type and :class:`FileError` otherwise.
    """
    p = path_arg(what, path)
    shown = shown_path(p if isinstance(path, Path) else path)

    def fail(reason: str) -> FileError:
        return FileError(f"cannot write {shown}: {reason}", path=shown)

    try:  # (a name too long for the file system fails already in is_dir)
        if p.is_dir():
            raise fail("it is a directory")
        if kinds is not None and p.suffix.lower() not in kinds:
            expected = ", ".join(kinds[:-1]) + f" or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
            got = f"unknown extension {p.suffix!r}" if p.suffix else "no extension"
            raise fail(f"{got}; expected a {expected} file")
        if p.exists() and not p.is_file():
            raise fail("it exists and is not a regular file")
        folder = p.parent
        ancestor = folder
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if ancestor.exists() and not ancestor.is_dir():
            raise fail(f"{ancestor} is a file, not a directory")
        if not folder.exists():
            raise fail(f"folder {folder} does not exist")
    except OSError as e:
        raise fail(_reason(e)) from e
    try:
        fd, probe = _create_temporary(p, ".probe")
    except OSError as e:
        raise fail(f"cannot create files in folder {folder} ({_reason(e)})") from e
    os.close(fd)
    _remove(probe)
    return p


def _create_temporary(target: Path, suffix: str = ".part") -> tuple[int, str]:
    """A new file next to ``target`` (mode from the umask, as ``open`` would create it)."""
    folder = target.parent
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = os.path.join(folder, f".{target.name}.{secrets.token_hex(4)}{suffix}")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name next to {target}")


def _remove(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def _fsync_folder(folder: Path) -> None:
    """Make the renames durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(files: Sequence[tuple[Path, Writer]], *, kept: str) -> None:
    """Write each ``(target, writer)``: ``writer(f)`` writes the content to ``f``, a binary file
    opened on a temporary file next to ``target``; once every writer succeeded, the temporary
    files are fsynced and renamed over their targets in order.

    ``kept`` says what survives a failure (e.g. "the 1000 rows are still in this SimResult").
    On failure every temporary file is removed and :class:`FileError` (``KeyboardInterrupt`` for
    Ctrl-C) is raised naming the first target, the reason and ``kept``; the cause is chained.
    """
    main = files[0][0]
    pending: list[tuple[str, Path]] = []
    renamed: list[Path] = []

    def outcome() -> str:
        """What a failure leaves: nothing, or (interrupted between two renames, the only window
        where it can happen) the files already in place, which ``SimResult.load`` refuses to
        read without a matching sidecar."""
        if not renamed:
            return "nothing was written"
        return (f"only {', '.join(map(str, renamed))} was replaced, without "
                f"{', '.join(str(t) for _, t in pending)}")

    try:
        for target, writer in files:
            fd, tmp = _create_temporary(target)
            pending.append((tmp, target))
            with os.fdopen(fd, "wb") as f:
                writer(f)
                if not f.closed:  # (a writer may close it, e.g. a library's own writer)
                    f.flush()
                    os.fsync(f.fileno())
            if f.closed:
                _fsync_path(tmp)
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)  # keep a replaced file's mode
                os.chmod(tmp, mode)
            except OSError:
                pass
        while pending:
            tmp, target = pending[0]
            os.replace(tmp, target)
            renamed.append(target)
            pending.pop(0)
    except KeyboardInterrupt as e:
        for tmp, _ in pending:
            _remove(tmp)
        raise KeyboardInterrupt(f"interrupted while writing {main}: {outcome()} ({kept})") from e
    except BaseException as e:
        for tmp, _ in pending:
            _remove(tmp)
        if isinstance(e, (SystemExit, GeneratorExit)):
            raise
        raise FileError(f"cannot write {main}: {_reason(e)}; {outcome()} ({kept})", path=main) from e
    for folder in {t.parent for t, _ in files}:
        _fsync_folder(folder)


def _fsync_path(name: str) -> None:
    fd = os.open(name, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_bytes(path: Any, *, limit: int, what: str) -> bytes:
    """At most ``limit`` bytes of the file ``path``; a larger file is refused by name."""
    p = path_arg("path", path)
    shown = shown_path(path)
    try:
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise FileError(f"cannot read {what} {shown}: {_reason(e)}", path=shown) from e
    if len(data) > limit:
        raise FileError(
            f"cannot read {what} {shown}: larger than {_size(limit)}, the most a {what} may have",
            path=shown)
    return data


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n % (1 << 20) == 0 else f"{n:,} bytes"


def read_text(path: Any, *, limit: int, what: str) -> str:
    """The UTF-8 text of ``path`` (at most ``limit`` bytes), else :class:`FileError`."""
    data = read_bytes(path, limit=limit, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileError(
            f"cannot read {what} {shown_path(path)}: not UTF-8 text (byte {e.start})", path=os.fspath(path)
        ) from e


def parse_json(text: str, *, source: str, what: str) -> Any:
    """``json.loads(text)``; any error (syntax, nesting too deep) is a :class:`FileError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileError(
            f"cannot read {what} {source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})",
            path=source) from e
    except RecursionError as e:
        raise FileError(f"cannot read {what} {source}: not valid JSON (nested too deeply)", path=source) from e
    except (ValueError, TypeError) as e:  # e.g. numbers too long to convert
        raise FileError(f"cannot read {what} {source}: not valid JSON ({e})", path=source) from e


def read_json(path: Any, *, limit: int = MAX_RECORD_BYTES, what: str = "file") -> Any:
    """The JSON value in ``path`` (at most ``limit`` bytes of UTF-8), else :class:`FileError`."""
    text = read_text(path, limit=limit, what=what)
    return parse_json(text, source=shown_path(path), what=what)
