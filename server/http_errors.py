"""Every error answer of the HTTP side in Connect's JSON form, `{"code", "message"}` with content-type
application/json, as the README documents: the handlers' errors are already (connectrpc writes them), but
connectrpc's own protocol refusals (an unknown method: 404; a GET where POST is needed: 405; a content-type
it has no codec for: 415) come with an empty body, and starlette's and CORS's with a line of text. This ASGI
middleware, outermost, replaces such a body, keeping the status and the other headers (CORS, Allow,
Accept-Post); a request that fails before its answer starts is 500 `unknown`, with the traceback in the log.

The code is the one Connect gives the HTTP status (`unknown` for 405 and 415), `unimplemented` for a
`/<package>.<Service>/<Method>` path the server does not serve (as Connect clients read a 404), `not_found`
for any other path; a 400 (CORS's refused preflight) is `invalid_argument`."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from http import HTTPStatus

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("routemax.http")
_CODES = {400: "invalid_argument", 401: "unauthenticated", 403: "permission_denied", 404: "not_found",
          429: "resource_exhausted", 499: "canceled", 501: "unimplemented", 503: "unavailable",
          504: "deadline_exceeded"}  # other statuses: unknown
_METHOD_PATH = re.compile(r"/((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*)/([A-Za-z_]\w*)")
_REPLACED_HEADERS = frozenset({b"content-type", b"content-length", b"content-encoding"})
_KEPT_TEXT = 200  # characters of a refusal's own text kept as the message


class JsonErrors:
    """The ASGI middleware: error answers without a JSON body get one. `services` maps each service served
    over HTTP to its method names (for the message of a 404)."""

    def __init__(self, app: ASGIApp, services: Mapping[str, Sequence[str]]) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "HEAD":  # a HEAD answer has no body
            await self.app(scope, receive, send)
            return
        held: Message | None = None  # the start of an error answer whose body is replaced
        text = bytearray()
        started = False

        async def send_json_errors(message: Message) -> None:
            nonlocal held, started
            if message["type"] == "http.response.start":
                started = True
                content_type = _headers(message).get("content-type", "")
                if message["status"] >= 400 and not content_type.startswith("application/json"):
                    held = message
                    return
            elif held is not None:
                if message["type"] == "http.response.body":
                    text.extend(message.get("body", b"")[:max(0, _KEPT_TEXT - len(text))])
                    if not message.get("more_body", False):
                        await self._answer(scope, held, bytes(text), send)
                return
            await send(message)

        try:
            await self.app(scope, receive, send_json_errors)
        except Exception:
            if started:
                raise
            log.exception("HTTP request failed")
            await self._answer(scope, {"type": "http.response.start", "status": 500, "headers": []}, b"", send)

    async def _answer(self, scope: Scope, start: Message, text: bytes, send: Send) -> None:
        status = start["status"]
        code, message = self._error(scope, status, _headers(start), text)
        body = json.dumps({"code": code, "message": message}).encode()
        headers = [(k, v) for k, v in start["headers"] if k.lower() not in _REPLACED_HEADERS]
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    def _error(self, scope: Scope, status: int, answer: Mapping[str, str], text: bytes) -> tuple[str, str]:
        """The code and the one-line message of an error answer."""
        path, method = scope["path"], scope["method"]
        if status == HTTPStatus.NOT_FOUND:
            rpc = _METHOD_PATH.fullmatch(path)
            if rpc is None:
                return "not_found", f"nothing at {path}"
            service, name = rpc.groups()
            if service in self.services:
                return "unimplemented", f"{service} has no method {name!r} here; its methods: " + ", ".join(
                    self.services[service])
            return "unimplemented", f"no service {service!r} here; the services: " + ", ".join(self.services)
        code = _CODES.get(status, "unknown")
        if status == HTTPStatus.METHOD_NOT_ALLOWED:
            return code, f"{method} {path} is not allowed: call it with {answer.get('allow', 'POST')}"
        if status == HTTPStatus.UNSUPPORTED_MEDIA_TYPE:
            sent = Headers(scope=scope).get("content-type")
            what = f"content-type {sent!r} is not accepted" if sent else "no content-type"
            if sent and sent.split(";")[0].strip() in answer.get("accept-post", ""):  # a stream's unary type
                return code, f"{what} by {path}, a stream: send application/connect+json or application/connect+proto"
            return code, f"{what}: send {answer.get('accept-post', 'application/json')}"
        line = " ".join(text.decode("utf-8", "replace").split())
        return code, line or _phrase(status)


def _headers(start: Message) -> dict[str, str]:
    """The headers of an answer's start by lower-case name (connectrpc sends some capitalised)."""
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in start["headers"]}


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return f"HTTP {status}"

