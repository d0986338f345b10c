"""The Server-Sent Events parser, fed bytes the way a network delivers them."""

from __future__ import annotations

import asyncio

from kasa import ServerSentEvent, SSEDecoder, aiter_events, iter_events


def parse(*chunks: bytes) -> list[ServerSentEvent]:
    return list(iter_events(chunks))


def test_reads_named_events_with_their_data_and_id() -> None:
    events = parse(b'event: token\ndata: {"text":"Akwaaba"}\nid: 7\n\n')
    assert events == [ServerSentEvent("token", '{"text":"Akwaaba"}', "7")]


def test_names_an_event_without_an_event_field_message() -> None:
    assert parse(b"data: [DONE]\n\n") == [ServerSentEvent("message", "[DONE]")]


def test_joins_several_data_lines_with_a_line_feed() -> None:
    assert parse(b"data: one\ndata:two\ndata\n\n") == [ServerSentEvent("message", "one\ntwo\n")]


def test_ignores_comments_such_as_keep_alive_pings_and_unknown_fields() -> None:
    events = parse(b": ping\n\nretry: 100\nfoo: bar\nevent: done\n: in between\ndata: {}\n\n")
    assert events == [ServerSentEvent("done", "{}")]


def test_does_not_dispatch_an_event_without_data() -> None:
    assert parse(b"event: meta\n\n\n\ndata: x\n\n") == [ServerSentEvent("message", "x")]


def test_accepts_crlf_cr_and_lf_line_endings() -> None:
    expected = [ServerSentEvent("a", "1"), ServerSentEvent("b", "2"), ServerSentEvent("c", "3")]
    assert parse(b"event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n") == expected


def test_keeps_a_crlf_split_across_two_chunks_one_line_end() -> None:
    # Read as CR then LF, the split would make a blank line and dispatch "a" alone.
    assert parse(b"data: a\r", b"\ndata: b\r\n\r\n") == [ServerSentEvent("message", "a\nb")]


def test_puts_a_utf8_character_split_across_chunks_back_together() -> None:
    raw = 'event: token\ndata: {"text":"Ɛte sɛn? 你好"}\n\n'.encode()
    split = raw.index("ɛ".encode()) + 1
    assert parse(raw[:split], raw[split:]) == [ServerSentEvent("token", '{"text":"Ɛte sɛn? 你好"}')]


def test_gives_the_same_events_fed_byte_by_byte() -> None:
    raw = b'\xef\xbb\xbfevent: meta\r\ndata: {"a":1}\r\n\r\n: ping\r\rdata: x\rdata: y\r\r'
    whole = parse(raw)
    assert whole == [ServerSentEvent("meta", '{"a":1}'), ServerSentEvent("message", "x\ny")]
    assert parse(*(raw[i : i + 1] for i in range(len(raw)))) == whole


def test_drops_an_event_the_stream_ends_without_a_blank_line_after() -> None:
    assert parse(b"data: complete\n\ndata: cut off\n") == [ServerSentEvent("message", "complete")]


def test_ends_a_last_line_that_ends_with_a_lone_cr_when_the_stream_ends() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: x\r\r") == []  # the last CR might still be half of a CRLF
    assert decoder.close() == [ServerSentEvent("message", "x")]


def test_keeps_the_last_event_id_for_later_events() -> None:
    events = parse(b"id: 1\ndata: a\n\ndata: b\n\n")
    assert [event.id for event in events] == ["1", "1"]


def test_reads_an_async_stream_of_chunks() -> None:
    async def chunks():  # type: ignore[no-untyped-def]
        for piece in (b"event: tok", b"en\ndata: a\n", b"\ndata: [DONE]\n\n"):
            yield piece

    async def collect() -> list[ServerSentEvent]:
        return [event async for event in aiter_events(chunks())]

    assert asyncio.run(collect()) == [ServerSentEvent("token", "a"), ServerSentEvent("message", "[DONE]")]
