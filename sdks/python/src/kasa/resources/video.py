"""Videos made from a prompt (Enterprise plan; an API key needs the ``voice`` scope): the prompt read aloud, its
sentences shown as captions. A video is a queued job that takes seconds to minutes: ``create`` it, then ``wait`` for
it (or poll ``get``, or follow its ``events`` as the server pushes them), then ``download`` it or hand its ``videoUrl``
to a player."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import quote

import httpx

from .._errors import VideoNotReadyError, WaitTimeoutError
from .._http import AsyncTransport, Request, SyncTransport
from .._streams import AsyncVideoEventStream, VideoEventStream, decode_video_event
from .._types import VideoJob, VideoJobStatus

#: Between two reads of a job, in seconds.
DEFAULT_WAIT_INTERVAL = 2.0
#: How long ``wait`` waits in all, in seconds (15 minutes).
DEFAULT_WAIT_TIMEOUT = 15 * 60.0

ProgressCallback = Callable[[VideoJob], object]


class VideoFile(bytes):
    """A finished video: the MP4's bytes, with its ``content_type`` (``video/mp4``)."""

    content_type: str

    def __new__(cls, content: bytes, content_type: str) -> VideoFile:
        video = super().__new__(cls, content)
        video.content_type = content_type
        return video


def _job_path(job_id: str) -> str:
    return f"/api/video/generations/{quote(job_id, safe='')}"


def _create(prompt: str, language: str, voice: str | None, idempotency_key: str | None) -> Request:
    body: dict[str, Any] = {"prompt": prompt, "language": language}
    if voice is not None:
        body["voice"] = voice
    return Request("POST", "/api/video/generations", body=body, creates=True, idempotency_key=idempotency_key)


def _events(job_id: str) -> Request:
    return Request("GET", f"{_job_path(job_id)}/events", accept="text/event-stream")


def _list(limit: int | None, status: VideoJobStatus | None) -> Request:
    return Request("GET", "/api/video/generations", query={"limit": limit, "status": status})


def _download(job: VideoJob) -> Request:
    url = job.get("videoUrl")
    if not url:
        raise VideoNotReadyError(
            f"The video job {job['id']} has no video (its status is {job['status']}): wait for it to succeed first.",
            job=job,
        )
    # The address is public and is itself the secret (a <video> element cannot send a token): no credential.
    return Request("GET", url, accept="video/mp4", authenticated=False)


def _video(response: httpx.Response) -> VideoFile:
    content_type = response.headers.get("content-type", "video/mp4").split(";")[0].strip()
    return VideoFile(response.content, content_type)


def _finished(job: VideoJob) -> bool:
    return job["status"] in ("succeeded", "failed")


def _check_polling(interval: float, timeout: float) -> None:
    if not interval > 0:
        raise ValueError("interval must be more than 0 seconds")
    if not timeout >= 0:
        raise ValueError("timeout must be 0 seconds or more")


def _timed_out(job_id: str, timeout: float, last: VideoJob) -> WaitTimeoutError:
    limit = f"{round(timeout * 1000)} ms" if timeout < 10 else f"{round(timeout)} s"
    where = f"(status {last['status']}, {last['progress']}% done)"
    return WaitTimeoutError(f"The video job {job_id} had not finished after {limit} {where}.", job=last)


class Videos:
    def __init__(self, http: SyncTransport) -> None:
        self._http = http

    def create(
        self,
        prompt: str,
        *,
        language: str,
        voice: str | None = None,
        idempotency_key: str | None = None,
    ) -> VideoJob:
        """POST /api/video/generations → the job, ``queued`` (answered 202). ``prompt`` is 1 to 2,000 characters;
        ``language`` a BCP 47 tag (``tw``, ``fr-CI``) or ``auto``; ``voice`` an id from ``voice.voices()`` (the
        language's default voice when left out). Other plans get a ``PermissionDeniedError`` naming Enterprise; too
        many of the caller's videos being made at once a ``RateLimitError`` (``too_many_video_jobs``)."""
        return cast(VideoJob, self._http.json(_create(prompt, language, voice, idempotency_key)))

    def get(self, job_id: str) -> VideoJob:
        """GET /api/video/generations/:id → one of the caller's jobs; anyone else's (or an unknown id) is a 404."""
        return cast(VideoJob, self._http.json(Request("GET", _job_path(job_id))))

    def list(self, *, limit: int | None = None, status: VideoJobStatus | None = None) -> list[VideoJob]:
        """GET /api/video/generations → the caller's jobs, newest first (``limit`` 1 to 50, default 20; only those
        with ``status`` when given)."""
        return cast(list[VideoJob], self._http.json(_list(limit, status))["jobs"])

    def events(self, job_id: str) -> VideoEventStream:
        """GET /api/video/generations/:id/events → the job's events as the server pushes them, read with ``for``:
        ``VideoEvent("job", job)`` at once (with ``queuePosition`` while queued) and on each change of its status or
        progress, then ``VideoEvent("done", job)`` once it has succeeded or failed, after which the loop ends. Someone
        else's job (or an unknown one) raises ``NotFoundError`` here; more than 5 open streams per person a
        ``RateLimitError`` (``too_many_video_streams``). A stream that ends early (the job was deleted, the connection
        dropped) raises ``StreamError``. Use it in a ``with`` block (or read it to the end): leaving hangs up."""
        return VideoEventStream(self._http.send(_events(job_id), stream=True), decode_video_event, self._http.base_url)

    def wait(
        self,
        job_id: str,
        *,
        interval: float = DEFAULT_WAIT_INTERVAL,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        on_progress: ProgressCallback | None = None,
    ) -> VideoJob:
        """Reads the job every ``interval`` seconds until it has ended, and gives it: ``succeeded`` (with
        ``videoUrl`` and ``duration``) or ``failed`` (with ``error``); a failed job is an answer, not an exception.
        ``on_progress`` is called with the job each time it is read. Raises ``WaitTimeoutError`` (with the last job
        read) when the job has not ended by ``timeout`` seconds (the job is read a last time at the deadline), and
        the API's error when a read fails (after the usual retries)."""
        _check_polling(interval, timeout)
        deadline = time.monotonic() + timeout
        while True:
            job = self.get(job_id)
            if on_progress is not None:
                on_progress(job)
            if _finished(job):
                return job
            left = deadline - time.monotonic()
            if left <= 0:
                raise _timed_out(job_id, timeout, job)
            time.sleep(min(interval, left))

    def download(self, job: VideoJob) -> VideoFile:
        """GET the job's ``videoUrl`` (/api/video/files/:id) → the MP4's bytes (a ``VideoFile``, with
        ``content_type``), fetched without the client's credential: the address itself is the secret. A job that has
        not succeeded raises ``VideoNotReadyError`` (nothing is sent); a video past its time to live is a 404."""
        return _video(self._http.send(_download(job)))


class AsyncVideos:
    def __init__(self, http: AsyncTransport) -> None:
        self._http = http

    async def create(
        self,
        prompt: str,
        *,
        language: str,
        voice: str | None = None,
        idempotency_key: str | None = None,
    ) -> VideoJob:
        """POST /api/video/generations → the job, ``queued`` (answered 202)."""
        return cast(VideoJob, await self._http.json(_create(prompt, language, voice, idempotency_key)))

    async def get(self, job_id: str) -> VideoJob:
        """GET /api/video/generations/:id → one of the caller's jobs; anyone else's (or an unknown id) is a 404."""
        return cast(VideoJob, await self._http.json(Request("GET", _job_path(job_id))))

    async def list(self, *, limit: int | None = None, status: VideoJobStatus | None = None) -> list[VideoJob]:
        """GET /api/video/generations → the caller's jobs, newest first."""
        return cast(list[VideoJob], (await self._http.json(_list(limit, status)))["jobs"])

    async def events(self, job_id: str) -> AsyncVideoEventStream:
        """GET /api/video/generations/:id/events → the job's events, read with ``async for``: ``job`` events, then
        ``done`` with the finished job (see ``Videos.events``)."""
        response = await self._http.send(_events(job_id), stream=True)
        return AsyncVideoEventStream(response, decode_video_event, self._http.base_url)

    async def wait(
        self,
        job_id: str,
        *,
        interval: float = DEFAULT_WAIT_INTERVAL,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        on_progress: ProgressCallback | None = None,
    ) -> VideoJob:
        """Reads the job every ``interval`` seconds until it has ended, and gives it (``succeeded`` or ``failed``);
        raises ``WaitTimeoutError`` after ``timeout`` seconds. Cancelling the task ends the wait."""
        _check_polling(interval, timeout)
        deadline = time.monotonic() + timeout
        while True:
            job = await self.get(job_id)
            if on_progress is not None:
                on_progress(job)
            if _finished(job):
                return job
            left = deadline - time.monotonic()
            if left <= 0:
                raise _timed_out(job_id, timeout, job)
            await asyncio.sleep(min(interval, left))

    async def download(self, job: VideoJob) -> VideoFile:
        """GET the job's ``videoUrl`` → the MP4's bytes, fetched without the client's credential."""
        return _video(await self._http.send(_download(job)))
