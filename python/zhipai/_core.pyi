"""Type stubs of the Rust extension ``zhipai._core`` (hand-written; keep in step with rust/zhipai-py)."""

from typing import Any

import numpy as np
import numpy.typing as npt

__version__: str

class ZhipaiError(Exception): ...
class InvalidCardError(ZhipaiError): ...
class InvalidValueError(ZhipaiError): ...
class InvalidOptionError(ZhipaiError): ...
class IllegalPlayError(ZhipaiError): ...
class ImpossibleDealError(ZhipaiError): ...

class Card:
    """One card kind: ``Card("10H")`` or ``Card(34)``."""

    def __init__(self, card: str | int) -> None: ...
    @property
    def index(self) -> int: ...
    @property
    def suit(self) -> str | None: ...
    @property
    def rank(self) -> str | None: ...
    @property
    def points(self) -> int: ...
    def __int__(self) -> int: ...
    def __lt__(self, other: Card) -> bool: ...
    def __hash__(self) -> int: ...

def cards(text: str) -> list[Card]: ...
def cards_to_array(cards: list[Card]) -> npt.NDArray[np.uint8]: ...
def cards_from_array(array: npt.NDArray[np.int64]) -> list[Card]: ...

class Rules:
    @property
    def preset(self) -> str: ...
    def options(self) -> list[tuple[str, str]]: ...

def rules(preset: str, options: dict[str, Any] | None = None) -> Rules: ...
def presets() -> list[tuple[str, str, str, list[tuple[str, str, list[str], str]]]]: ...

# --- simulation (rust/zhipai-py/src/simulate.rs); internal, use zhipai.simulate ---
def _simulate(
    rules: Rules,
    deals: int,
    policy: str,
    seed: int,
    threads: int | None = None,
    chunk_size: int | None = None,
    aggregate_only: bool = False,
    progress: Any = None,
) -> dict[str, Any]: ...
def _simulate_toy(
    deals: int,
    policy: str,
    seed: int,
    threads: int | None = None,
    chunk_size: int | None = None,
    aggregate_only: bool = False,
    progress: Any = None,
    flips: int = 10,
    fail_per_million: int = 0,
    work: int = 0,
) -> dict[str, Any]: ...
def _evaluate(
    rules: Rules,
    knowledge: dict[str, Any],
    samples: int,
    policy: str,
    seed: int,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Any = None,
) -> dict[str, Any]: ...
def _evaluate_toy(
    knowledge: dict[str, Any],
    samples: int,
    policy: str,
    seed: int,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Any = None,
) -> dict[str, Any]: ...
