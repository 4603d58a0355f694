"""The exception classes defined in Python (the others come from the binding, ``zhipai._core``).

Every one is a :class:`zhipai.ZhipaiError`; see the README's "Errors" section for what raises
each and the guarantees around them.
"""

from __future__ import annotations

import os
from typing import Any

from zhipai._core import InvalidValueError, ZhipaiError

__all__ = ["FileError", "MissingDependencyError", "ProgressError", "UnknownKeyError"]

# The binding creates the base class under its Rust name; show the public one in tracebacks
# (``zhipai.ZhipaiError: ...``, not ``zhipai.ZhipaiErrorPy: ...``).
ZhipaiError.__name__ = ZhipaiError.__qualname__ = "ZhipaiError"


class FileError(ZhipaiError):
    """A file zhipai was asked to write or read cannot be: a missing folder, a directory, no
    permission, an unknown extension, a full disk while writing, a file too large, not UTF-8 or
    not the expected content while reading. ``path`` is the file (as given); the message names
    it and the reason, and for a failed write says what was kept (nothing is left on disk: every
    file is written to a temporary file and renamed into place only when complete). The
    underlying ``OSError`` (or parser error), if any, is the ``__cause__``."""

    def __init__(self, message: str, *, path: Any = None) -> None:
        super().__init__(message)
        self.path = None if path is None else os.fspath(path) if isinstance(path, os.PathLike) else path


class ProgressError(ZhipaiError):
    """The ``progress`` callable of :func:`zhipai.simulate` or :func:`zhipai.evaluate` raised.

    The run stopped at once; ``result`` holds the completed prefix (a ``SimResult`` or an
    ``Evaluation`` with ``interrupted`` true) and ``__cause__`` is the callback's exception."""

    def __init__(self, message: str, *, result: Any) -> None:
        super().__init__(message)
        self.result = result


class MissingDependencyError(ZhipaiError, ImportError):
    """An optional package a feature needs is not installed (the message names the package and
    the ``pip install 'zhipai[extra]'`` that adds it). Also an ``ImportError``."""


class UnknownKeyError(InvalidValueError, KeyError):
    """A column or candidate name (or index) that a result does not have. Also a ``KeyError``,
    so mapping code (``in``, ``.get``) keeps working; the message lists the valid names."""

    __str__ = BaseException.__str__  # the message as written, not KeyError's quoted repr


for _cls in (FileError, ProgressError, MissingDependencyError, UnknownKeyError):
    _cls.__module__ = "zhipai"  # tracebacks read zhipai.FileError, as zhipai.InvalidValueError
