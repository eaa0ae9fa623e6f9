"""A cancel token for tests that is cancelled after a set number of looks (a scan or a search cut short at a
chosen point)."""

from __future__ import annotations


class CancelAfter:
    """A cancel token that is cancelled from its `reads`-th read on (0: at once)."""

    def __init__(self, reads: int) -> None:
        self.left = reads

    @property
    def cancelled(self) -> bool:
        self.left -= 1
        return self.left < 0
