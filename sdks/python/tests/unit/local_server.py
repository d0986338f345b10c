"""A tiny HTTP server for the unit tests: each test says how it answers, and reads back what it was sent. The SDK
talks to it over a real socket, so the tests exercise httpx as it is, not a mock of it."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """How the server answers one request."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict[str, str])
    #: A dict or list is sent as JSON; str and bytes as they are.
    body: Any = b""
    #: Sent with chunked encoding, each piece flushed at once; a float is a pause of that many seconds.
    chunks: list[bytes | str | float] | None = None
    #: After the chunks, close the connection without ending the body (a dropped connection).
    drop: bool = False
    #: Close the connection without any answer at all.
    hang_up: bool = False
    #: Seconds to wait before answering.
    delay: float = 0.0


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class LocalServer:
    """Answers each request with ``handler(request)``, or the next of ``replies`` (the last one repeats)."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.replies: list[Reply] = []
        self.handler: Callable[[Recorded], Reply] | None = None
        #: Set when a streamed answer could not be written: the client had hung up.
        self.client_gone = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _any(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                recorded = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                server.requests.append(recorded)
                server._answer(self, server._reply_for(recorded))

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _any

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> LocalServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _reply_for(self, request: Recorded) -> Reply:
        if self.handler is not None:
            return self.handler(request)
        if not self.replies:
            return Reply(404, body={"message": "No reply set", "code": "not_found"})
        return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]

    def _answer(self, handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        if reply.delay:
            time.sleep(reply.delay)
        if reply.hang_up:
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
            return
        payload: Any = reply.body
        if isinstance(reply.body, (dict, list)):
            body = json.dumps(payload).encode()
            reply.headers.setdefault("Content-Type", "application/json")
        else:
            body = reply.body.encode() if isinstance(reply.body, str) else bytes(reply.body)
        handler.send_response(reply.status)
        for name, value in reply.headers.items():
            handler.send_header(name, value)
        handler.send_header("Connection", "close")
        handler.close_connection = True
        if reply.chunks is None:
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
            return
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        try:
            for piece in reply.chunks:
                if not isinstance(piece, (bytes, str)):
                    time.sleep(piece)
                    continue
                data = piece.encode() if isinstance(piece, str) else piece
                handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                handler.wfile.flush()
            if reply.drop:
                handler.connection.shutdown(socket.SHUT_RDWR)
                return
            handler.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.client_gone.set()


def endless_tokens(interval: float, limit: int = 2_000) -> list[bytes | str | float]:
    """A reply that goes on for as long as the test needs (``limit`` tokens): meta, then a token every
    ``interval`` seconds."""
    meta = {"userMessageId": "u1", "assistantMessageId": "a1", "provider": "fake", "model": "m", "continued": False}
    pieces: list[bytes | str | float] = [f"event: meta\ndata: {json.dumps(meta)}\n\n"]
    for i in range(1, limit):
        pieces += [f'event: token\ndata: {{"text": "w{i} "}}\n\n', interval]
    return pieces


def unused_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
