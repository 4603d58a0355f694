"""Shared fixtures.

``test_hooks``: the tests of the simulation layer run on the engine's internal toy coin game,
compiled only with the cargo feature ``test-hooks`` (the README's test command builds it:
``MATURIN_PEP517_ARGS="--features test-hooks" pip install ".[dev]"``). Without it those tests are
skipped with that instruction — except under CI (``CI`` set), where a missing hook fails the run
rather than letting the tests pass by skipping.
"""

from __future__ import annotations

import os

import pytest
from zhipai import _core


@pytest.fixture
def test_hooks() -> None:
    if hasattr(_core, "_simulate_toy"):
        return
    message = (
        "zhipai was built without its test hooks: reinstall with "
        'MATURIN_PEP517_ARGS="--features test-hooks" pip install ".[dev]"'
    )
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
