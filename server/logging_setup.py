"""Structured logs: one JSON object per line on stderr.

Log with `log.info("request", extra={"fields": {...}})`; the fields become keys of the line.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

_HANDLER_NAME = "routemax-json"


class JsonLineFormatter(logging.Formatter):
    """ts, level, logger, event (the message) and the record's `fields`, as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
        }
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure_logging(level: str = "INFO", stream: TextIO | None = None) -> None:
    """Send every log record at `level` and above to stderr (or stream) as JSON lines; calling it
    again replaces the handler it installed before."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if handler.get_name() == _HANDLER_NAME:
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(JsonLineFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
