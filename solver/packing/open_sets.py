"""The options left open by a set of track keys, for the branch and bound of `setpack`: per key mask,
the options that share no key with it, as a bit set over options (a Python int)."""

from __future__ import annotations

from collections.abc import Sequence

GROUP_KEYS = 16  # keys read together (five groups on the stress set's late-game boards)
GROUP_MASK = (1 << GROUP_KEYS) - 1


class OpenSets:
    """Per key mask, the options that share no key with it (a bit set over options), cached up to
    `room` sets. A mask is read in groups of `GROUP_KEYS` keys, and each group's part (the options
    clear of those keys) is cached too: a new mask costs one AND per group instead of one per key
    (about 20 keys a route on late-game boards; few distinct parts per group)."""

    def __init__(self, closes: Sequence[int], full: int, room: int) -> None:
        self.closes, self.full, self.room = closes, full, room
        self.known: dict[int, int] = {}  # key mask -> the options it leaves open
        self.parts: list[dict[int, int]] = [{} for _ in range(0, len(closes), GROUP_KEYS)]
        self.stored = 0  # cached sets, parts included

    def left_open(self, mask: int) -> int:
        """The options that share no key with the keys set in `mask` (cached while room lasts)."""
        keep = self.known.get(mask)
        if keep is None:
            keep = self._clear(mask, self.full)
            if self.stored < self.room:
                self.known[mask] = keep
                self.stored += 1
        return keep

    def clear_of(self, mask: int, start: int) -> int:
        """The options of `start` that share no key with `mask`; the set itself is not cached (the groups'
        parts are): where each mask comes once, the ANDs run over `start`'s bits only (fewer than all the
        options' at the top of the search)."""
        keep = self.known.get(mask)
        return start & keep if keep is not None else self._clear(mask, start)

    def _clear(self, mask: int, start: int) -> int:
        """`start` without the options holding a key of `mask`: one AND per group of keys."""
        m, first = mask, 0
        while m:
            group = m & GROUP_MASK
            if group:
                part = self.parts[first // GROUP_KEYS].get(group)
                start &= part if part is not None else self._part(group, first)
            m >>= GROUP_KEYS
            first += GROUP_KEYS
        return start

    def _part(self, group: int, first: int) -> int:
        """The options clear of the keys `first + b` for the bits b set in `group` (cached while room lasts)."""
        part = self.full
        g = group
        while g:
            b = g.bit_length() - 1
            part &= self.closes[first + b]
            g ^= 1 << b
        if self.stored < self.room:
            self.parts[first // GROUP_KEYS][group] = part
            self.stored += 1
        return part
