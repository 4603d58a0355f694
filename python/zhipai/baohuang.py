"""baohuang (stub until its issue lands)."""

__all__: list[str] = []
