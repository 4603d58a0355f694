"""Shengji mechanics (stub until the Shengji rules issue lands)."""

__all__: list[str] = []
