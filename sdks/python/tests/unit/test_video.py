"""The video resource as sent: creating a job, polling it to its end, and fetching the MP4 without the credential."""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

import pytest

import kasa
from kasa import AsyncKasa, Kasa, RetryPolicy, VideoJob
from local_server import LocalServer, Recorded, Reply

JOB_ID = "AAAAAAAAAAAAAAAAAAAAAA"
FILE_ID = "BBBBBBBBBBBBBBBBBBBBBB"
FAST = RetryPolicy(max_retries=2, base_delay=0.01, max_backoff=0.02)


def job(status: str = "queued", progress: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "id": JOB_ID,
        "status": status,
        "progress": progress,
        "prompt": "Akwaaba!",
        "language": "en",
        "renderer": "offline",
        "createdAt": "2026-11-24T00:00:00.000Z",
        "updatedAt": "2026-11-24T00:00:01.000Z",
        **extra,
    }


def succeeded(video_url: str = f"/api/video/files/{FILE_ID}") -> VideoJob:
    return cast(VideoJob, job("succeeded", 100, videoUrl=video_url, duration=2.5, captions="burned-in"))


MP4 = b"\x00\x00\x00\x18ftypisom" + bytes(64)


def test_creates_with_an_idempotency_key_and_downloads_the_file_without_the_credential(server: LocalServer) -> None:
    def answer(request: Recorded) -> Reply:
        if request.method == "POST":
            return Reply(202, body=job())
        return Reply(headers={"Content-Type": "video/mp4"}, body=MP4)

    server.handler = answer
    client = Kasa(base_url=server.base_url, api_key="ksk_voice")
    created = client.video.create("Akwaaba!", language="en", voice="en-gb")
    assert (created["id"], created["status"], created["progress"]) == (JOB_ID, "queued", 0)

    video = client.video.download(succeeded())
    assert (video, video.content_type) == (MP4, "video/mp4")
    # A full address (a file on another host) is fetched as it is.
    client.video.download(succeeded(f"{server.base_url}/elsewhere/video.mp4"))

    sent = server.requests
    assert [(r.method, r.path) for r in sent] == [
        ("POST", "/api/video/generations"),
        ("GET", f"/api/video/files/{FILE_ID}"),
        ("GET", "/elsewhere/video.mp4"),
    ]
    assert sent[0].json() == {"prompt": "Akwaaba!", "language": "en", "voice": "en-gb"}
    assert sent[0].headers["authorization"] == "Bearer ksk_voice"
    assert sent[0].headers["idempotency-key"]
    assert sent[1].headers["accept"] == "video/mp4"
    assert [r.headers.get("authorization") for r in sent[1:]] == [None, None]


def test_lists_with_the_filters_and_reads_a_job_by_its_escaped_id(server: LocalServer) -> None:
    def answer(request: Recorded) -> Reply:
        listed = request.path.split("?")[0] == "/api/video/generations"
        return Reply(body={"jobs": [succeeded()]} if listed else job())

    server.handler = answer
    client = Kasa(base_url=server.base_url, token="t")
    assert [j["id"] for j in client.video.list(limit=5, status="succeeded")] == [JOB_ID]
    client.video.list()
    assert client.video.get("../keys")["id"] == JOB_ID
    assert [r.path for r in server.requests] == [
        "/api/video/generations?limit=5&status=succeeded",
        "/api/video/generations",
        "/api/video/generations/..%2Fkeys",
    ]


def test_wait_reads_the_job_until_it_ends_and_reports_each_read(server: LocalServer) -> None:
    server.replies = [Reply(body=job("queued")), Reply(body=job("running", 40)), Reply(body=succeeded())]
    seen: list[VideoJob] = []
    done = Kasa(base_url=server.base_url).video.wait(JOB_ID, interval=0.01, on_progress=seen.append)
    assert (done["status"], done["progress"], done.get("videoUrl")) == ("succeeded", 100, f"/api/video/files/{FILE_ID}")
    assert [j["status"] for j in seen] == ["queued", "running", "succeeded"]
    assert [r.path for r in server.requests] == [f"/api/video/generations/{JOB_ID}"] * 3


def test_a_failed_job_is_the_answer_of_wait_not_an_exception(server: LocalServer) -> None:
    server.replies = [Reply(body=job("running", 10)), Reply(body=job("failed", 10, error="The renderer stopped"))]
    failed = Kasa(base_url=server.base_url).video.wait(JOB_ID, interval=0.01)
    assert (failed["status"], failed.get("error")) == ("failed", "The renderer stopped")


def test_wait_gives_up_after_its_timeout_with_the_last_job_read(server: LocalServer) -> None:
    server.replies = [Reply(body=job("running", 40))]
    with pytest.raises(kasa.WaitTimeoutError) as raised:
        Kasa(base_url=server.base_url).video.wait(JOB_ID, interval=0.01, timeout=0.05)
    error = raised.value
    assert isinstance(error, kasa.KasaError)
    assert (error.status, error.code) == (0, "wait_timeout")
    assert error.message == f"The video job {JOB_ID} had not finished after 50 ms (status running, 40% done)."
    assert error.job is not None and error.job["progress"] == 40
    # It read the job more than once, and stopped reading at the deadline.
    assert 2 <= len(server.requests) <= 7


def test_wait_raises_the_apis_error_when_a_read_fails(server: LocalServer) -> None:
    server.replies = [Reply(404, body={"message": "Video job not found", "code": "not_found", "requestId": "r-1"})]
    with pytest.raises(kasa.NotFoundError) as raised:
        Kasa(base_url=server.base_url).video.wait(JOB_ID, interval=0.01)
    assert (raised.value.code, raised.value.request_id) == ("not_found", "r-1")


def test_wait_refuses_an_interval_that_is_not_positive(server: LocalServer) -> None:
    with pytest.raises(ValueError):
        Kasa(base_url=server.base_url).video.wait(JOB_ID, interval=0)
    assert server.requests == []


def test_downloading_a_job_without_a_video_raises_video_not_ready_and_sends_nothing(server: LocalServer) -> None:
    running: Any = job("running", 60)
    with pytest.raises(kasa.VideoNotReadyError) as raised:
        Kasa(base_url=server.base_url).video.download(running)
    assert (raised.value.status, raised.value.code, raised.value.job["id"]) == (0, "video_not_ready", JOB_ID)
    assert "running" in raised.value.message
    assert server.requests == []


def test_a_creating_call_is_retried_with_the_same_idempotency_key(server: LocalServer) -> None:
    unavailable = Reply(503, body={"message": "Voice is unavailable", "code": "upstream_unavailable"})
    server.replies = [unavailable, Reply(202, body=job())]
    Kasa(base_url=server.base_url, retry_policy=FAST).video.create("Hello.", language="auto")
    keys = [r.headers["idempotency-key"] for r in server.requests]
    assert len(keys) == 2 and keys[0] == keys[1]


def test_the_async_client_creates_waits_and_downloads(server: LocalServer) -> None:
    reads = iter([job("running", 50), succeeded()])

    def answer(request: Recorded) -> Reply:
        if request.method == "POST":
            return Reply(202, body=job())
        if request.path.startswith("/api/video/generations/"):
            return Reply(body=next(reads))
        return Reply(headers={"Content-Type": "video/mp4"}, body=MP4)

    server.handler = answer

    async def run() -> tuple[VideoJob, bytes, str]:
        async with AsyncKasa(base_url=server.base_url, api_key="ksk_voice") as client:
            created = await client.video.create("Akwaaba!", language="en")
            done = await client.video.wait(created["id"], interval=0.01)
            video = await client.video.download(done)
            return done, video, video.content_type

    done, video, content_type = asyncio.run(run())
    assert done["status"] == "succeeded"
    assert (video, content_type) == (MP4, "video/mp4")
    assert "authorization" not in server.requests[-1].headers


def test_the_async_wait_gives_up_after_its_timeout(server: LocalServer) -> None:
    server.replies = [Reply(body=job("queued"))]

    async def run() -> None:
        async with AsyncKasa(base_url=server.base_url) as client:
            await client.video.wait(JOB_ID, interval=0.01, timeout=0.03)

    with pytest.raises(kasa.WaitTimeoutError) as raised:
        asyncio.run(run())
    assert raised.value.job is not None and raised.value.job["status"] == "queued"


SSE = {"Content-Type": "text/event-stream; charset=utf-8", "x-request-id": "req-events"}


def sse(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


def test_follows_a_job_with_its_events_until_done(server: LocalServer) -> None:
    server.replies = [
        Reply(
            headers=SSE,
            chunks=[
                sse("job", job(queuePosition=1)),
                ": ping\n\n",
                sse("job", job("running", 40)),
                sse("done", succeeded()),
            ],
        )
    ]
    with Kasa(base_url=server.base_url, api_key="ksk_voice").video.events(JOB_ID) as events:
        seen = list(events)
    assert [(e.type, e.job["status"], e.job["progress"]) for e in seen] == [
        ("job", "queued", 0),
        ("job", "running", 40),
        ("done", "succeeded", 100),
    ]
    assert seen[0].job.get("queuePosition") == 1
    assert seen[-1].job.get("videoUrl") == f"/api/video/files/{FILE_ID}"
    request = server.requests[0]
    assert (request.method, request.path) == ("GET", f"/api/video/generations/{JOB_ID}/events")
    assert request.headers["accept"] == "text/event-stream"
    assert request.headers["authorization"] == "Bearer ksk_voice"


def test_an_error_event_or_a_dropped_connection_is_a_stream_error(server: LocalServer) -> None:
    gone = {"message": "The video job no longer exists (it may have expired)."}
    server.replies = [Reply(headers=SSE, chunks=[sse("job", job("running", 30)), sse("error", gone)])]
    client = Kasa(base_url=server.base_url, api_key="ksk_voice", max_retries=0)
    seen: list[kasa.VideoEvent] = []
    with pytest.raises(kasa.StreamError) as raised:
        for event in client.video.events(JOB_ID):
            seen.append(event)
    assert [e.job["progress"] for e in seen] == [30]
    assert (raised.value.status, raised.value.code, raised.value.request_id) == (0, "stream_error", "req-events")
    assert str(raised.value).startswith(gone["message"])

    server.replies = [Reply(headers=SSE, chunks=[sse("job", job("running", 30))], drop=True)]
    with pytest.raises(kasa.StreamError):
        list(client.video.events(JOB_ID))


def test_an_unknown_job_or_too_many_streams_is_raised_before_reading(server: LocalServer) -> None:
    client = Kasa(base_url=server.base_url, api_key="ksk_voice", max_retries=0)
    server.replies = [Reply(404, body={"message": "No video job with that id", "code": "not_found"})]
    with pytest.raises(kasa.NotFoundError):
        client.video.events("unknown")
    too_many = {"message": "You are already following 5 videos here", "code": "too_many_video_streams"}
    server.replies = [Reply(429, body=too_many)]
    with pytest.raises(kasa.RateLimitError) as raised:
        client.video.events(JOB_ID)
    assert raised.value.code == "too_many_video_streams"


def test_leaving_the_loop_early_hangs_up(server: LocalServer) -> None:
    endless: list[bytes | str | float] = [sse("job", job("running", 10))]
    for progress in range(11, 100):
        endless += [0.05, sse("job", job("running", progress))]
    server.replies = [Reply(headers=SSE, chunks=endless)]
    for event in Kasa(base_url=server.base_url, api_key="ksk_voice").video.events(JOB_ID):
        assert event.job["progress"] == 10
        break
    assert server.client_gone.wait(5)


def test_the_async_client_follows_a_job_with_its_events(server: LocalServer) -> None:
    server.replies = [Reply(headers=SSE, chunks=[sse("job", job("running", 50)), sse("done", succeeded())])]

    async def run() -> list[tuple[str, int]]:
        async with AsyncKasa(base_url=server.base_url, api_key="ksk_voice") as client:
            async with await client.video.events(JOB_ID) as events:
                return [(event.type, event.job["progress"]) async for event in events]

    assert asyncio.run(run()) == [("job", 50), ("done", 100)]
