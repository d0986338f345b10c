"""A Server-Sent Events parser (``text/event-stream``) that follows the WHATWG rules, fed bytes as they arrive."""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class ServerSentEvent:
    """One event: its ``event`` name (``message`` when the stream gave none), its ``data`` lines joined with LF,
    and the last ``id`` the stream set."""

    event: str
    data: str
    id: str | None = None


class SSEDecoder:
    """Turns chunks of bytes into events. Lines end with LF, CRLF or CR (a CRLF or a UTF-8 character split
    across two chunks is put back together); ``:`` starts a comment (the server's keep-alive pings); several
    ``data:`` lines join with LF; a blank line dispatches the event. An event the stream ends without a blank
    line after is dropped, as the specification says."""

    def __init__(self) -> None:
        self._text = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._started = False
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None

    def feed(self, chunk: bytes) -> list[ServerSentEvent]:
        """The events that ``chunk`` completes (often none, sometimes several)."""
        return self._take(self._text.decode(chunk), final=False)

    def close(self) -> list[ServerSentEvent]:
        """The stream ended: the events its last bytes complete."""
        return self._take(self._text.decode(b"", final=True), final=True)

    def _take(self, text: str, final: bool) -> list[ServerSentEvent]:
        if not self._started and text:
            self._started = True
            # A byte order mark may open the stream; it is not part of the first field name.
            text = text.removeprefix("\ufeff")
        self._buffer += text
        events: list[ServerSentEvent] = []
        start = 0
        buffer = self._buffer
        while True:
            end = _line_end(buffer, start, final)
            if end == -1:
                break
            line = buffer[start:end]
            start = end + 2 if buffer.startswith("\r\n", end) else end + 1
            event = self._line(line)
            if event is not None:
                events.append(event)
        self._buffer = buffer[start:]
        return events

    def _line(self, line: str) -> ServerSentEvent | None:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self._id = value
        return None

    def _dispatch(self) -> ServerSentEvent | None:
        event = ServerSentEvent(self._event or "message", "\n".join(self._data), self._id) if self._data else None
        self._event = ""
        self._data = []
        return event


def _line_end(buffer: str, start: int, final: bool) -> int:
    """Where the line starting at ``start`` ends, or -1 when it has not ended yet. A CR at the very end may be
    the first half of a CRLF whose LF is in the next chunk: wait for it, unless the stream is over."""
    lf = buffer.find("\n", start)
    cr = buffer.find("\r", start, lf if lf != -1 else len(buffer))
    if cr == -1:
        return lf
    if cr + 1 < len(buffer) or final:
        return cr
    return -1


def iter_events(chunks: Iterable[bytes]) -> Iterator[ServerSentEvent]:
    """The events of a stream of byte chunks (``response.iter_bytes()``, say)."""
    decoder = SSEDecoder()
    for chunk in chunks:
        yield from decoder.feed(chunk)
    yield from decoder.close()


async def aiter_events(chunks: AsyncIterable[bytes]) -> AsyncIterator[ServerSentEvent]:
    """The events of an async stream of byte chunks (``response.aiter_bytes()``, say)."""
    decoder = SSEDecoder()
    async for chunk in chunks:
        for event in decoder.feed(chunk):
            yield event
    for event in decoder.close():
        yield event
