"""The command line's exit codes and its one error type.

| code | meaning |
|---|---|
| 0 | ok |
| 1 | the answer is negative: an illegal route set (`evaluate`), or illegal runs found by `audit --fail-on-illegal` |
| 2 | usage: a bad flag or argument |
| 3 | bad input or output: a file that is missing, unreadable, out of spec or cannot be written |
| 4 | internal error: the optimiser and the evaluator disagree, or a bug |
| 130 | interrupted (Ctrl-C) |
"""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    NEGATIVE = 1
    USAGE = 2
    BAD_INPUT = 3
    INTERNAL = 4
    INTERRUPTED = 130


EXIT_CODES_HELP = ("exit codes: 0 ok; 1 negative answer (an illegal route set, or illegal runs with "
                   "audit --fail-on-illegal); 2 usage; 3 bad input or output; 4 internal error; 130 interrupted")


class CliError(Exception):
    """A one-line error for the user, with the exit code it ends the command with."""

    def __init__(self, code: Exit, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
