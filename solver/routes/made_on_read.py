"""A sequence whose items are made the first time they are read (`MadeOnRead`): the long lists of the route
walk and of the candidates it prices, most of whose items are never read one by one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class MadeOnRead(Sequence[T]):
    """Items kept in `made` (None until made) and made by `make_item` when first read; an item read twice is
    one object."""

    made: list[T | None]

    def make_item(self, k: int) -> T:
        """Make item k (0 <= k < len(self)) and keep it in `made`."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.made)

    @overload
    def __getitem__(self, k: int) -> T: ...

    @overload
    def __getitem__(self, k: slice) -> list[T]: ...

    def __getitem__(self, k: int | slice) -> T | list[T]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        item = self.made[k]
        if item is None:
            item = self.make_item(k + len(self.made) if k < 0 else k)
        return item
