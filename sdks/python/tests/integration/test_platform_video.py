"""Videos through the SDK against the platform: rendered offline (speech and caption frames) from a short prompt for
an Enterprise account, someone else's job a 404, and the plan refusal for Free and Pro."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Callable

import httpx
import pytest

import kasa
from kasa import AsyncKasa, Kasa, VideoJob

JOB_ID = re.compile(r"[A-Za-z0-9_-]{22}")
#: Long enough for a short video on a busy 2-core machine; a hung job fails the test instead of the run.
RENDER_TIMEOUT = 90.0


def is_mp4(data: bytes) -> bool:
    return len(data) > 1_000 and data[4:8] == b"ftyp"


def test_makes_a_video_for_enterprise_waits_for_it_lists_it_and_downloads_it(
    enterprise: Callable[[], Kasa], base_url: str
) -> None:
    client = enterprise()
    key = f"video-{uuid.uuid4()}"
    created = client.video.create("Akwaaba! Welcome to Kasa.", language="en", idempotency_key=key)
    assert JOB_ID.fullmatch(created["id"])
    assert (created["status"], created["progress"], created["language"]) == ("queued", 0, "en")
    # The same key again is the same job, not a second video.
    assert client.video.create("Akwaaba! Welcome to Kasa.", language="en", idempotency_key=key)["id"] == created["id"]

    # No video before the job has succeeded, and nothing is sent for it.
    with pytest.raises(kasa.VideoNotReadyError) as not_ready:
        client.video.download(created)
    assert (not_ready.value.status, not_ready.value.code) == (0, "video_not_ready")
    # A wait that runs out of time says how far the job got, and leaves it alone.
    with pytest.raises(kasa.WaitTimeoutError) as late:
        client.video.wait(created["id"], timeout=0)
    assert late.value.code == "wait_timeout"
    assert late.value.job["id"] == created["id"] and late.value.job["status"] in ("queued", "running")

    seen: list[VideoJob] = []
    done = client.video.wait(created["id"], interval=0.25, timeout=RENDER_TIMEOUT, on_progress=seen.append)
    assert (done["id"], done["status"], done["progress"]) == (created["id"], "succeeded", 100), done
    video_url = done.get("videoUrl")
    assert video_url is not None and re.fullmatch(r"/api/video/files/[A-Za-z0-9_-]{22}", video_url)
    assert done.get("duration", 0) > 0
    assert seen[-1] == done and all(job["id"] == created["id"] for job in seen)

    again = client.video.get(created["id"])
    assert (again["status"], again.get("videoUrl")) == ("succeeded", video_url)
    assert [job["id"] for job in client.video.list()] == [created["id"]]
    assert [job["id"] for job in client.video.list(status="succeeded", limit=1)] == [created["id"]]
    assert client.video.list(status="failed") == []

    video = client.video.download(done)
    assert video.content_type == "video/mp4"
    assert is_mp4(video)
    # The address itself is the key: it needs no credential.
    assert httpx.get(base_url + video_url, timeout=30).content == video


def test_follows_a_job_with_its_events_until_done(enterprise: Callable[[], Kasa]) -> None:
    owner, other = enterprise(), enterprise()
    created = owner.video.create("Akwaaba! The events follow this video.", language="en")
    # Someone else's job is a 404, like its GET.
    with pytest.raises(kasa.NotFoundError):
        other.video.events(created["id"])

    with owner.video.events(created["id"]) as events:
        seen = list(events)
    assert seen[0].type == "job" and seen[0].job["status"] in ("queued", "running")
    assert all(event.type == "job" for event in seen[:-1])
    done = seen[-1]
    assert (done.type, done.job["id"], done.job["status"], done.job["progress"]) == (
        "done",
        created["id"],
        "succeeded",
        100,
    )
    progress = [event.job["progress"] for event in seen]
    assert progress == sorted(progress)
    assert owner.video.get(created["id"]).get("videoUrl") == done.job.get("videoUrl")

    # A finished job's stream gives done at once and ends.
    assert [(event.type, event.job["status"]) for event in owner.video.events(created["id"])] == [
        ("done", "succeeded")
    ]


def test_someone_elses_job_or_an_unknown_one_is_a_404_and_a_bad_prompt_a_400(
    enterprise: Callable[[], Kasa],
) -> None:
    owner, other = enterprise(), enterprise()
    created = owner.video.create("Hello.", language="en")
    with pytest.raises(kasa.NotFoundError) as raised:
        other.video.get(created["id"])
    assert (raised.value.status, raised.value.code) == (404, "not_found")
    assert other.video.list() == []
    with pytest.raises(kasa.NotFoundError):
        owner.video.get("A" * 22)

    with pytest.raises(kasa.BadRequestError) as invalid:
        owner.video.create("", language="en")
    assert invalid.value.code == "validation_failed"
    assert "prompt" in {issue["path"] for issue in invalid.value.details}
    with pytest.raises(kasa.BadRequestError):
        owner.video.create("Hello.", language="not a language!")
    # The job made above is left to finish, so that it does not outlive the test's platform half-made.
    assert owner.video.wait(created["id"], interval=0.25, timeout=RENDER_TIMEOUT)["status"] == "succeeded"


def test_free_and_pro_plans_are_refused_with_a_403_naming_enterprise(
    signed_in: Callable[[], Kasa], pro: Kasa, base_url: str
) -> None:
    for client in (signed_in(), pro):
        with pytest.raises(kasa.PermissionDeniedError) as refused:
            client.video.create("Hello.", language="en")
        assert (refused.value.status, refused.value.code) == (403, "forbidden")
        assert refused.value.details["plan"] == "enterprise"
        assert "Enterprise plan" in refused.value.message
    with Kasa(base_url=base_url) as anonymous, pytest.raises(kasa.AuthenticationError):
        anonymous.video.list()


def test_the_async_client_makes_and_downloads_a_video(enterprise: Callable[[], Kasa], base_url: str) -> None:
    token = enterprise().token

    async def run() -> tuple[VideoJob, bytes, list[VideoJob]]:
        async with AsyncKasa(base_url=base_url, token=token) as client:
            created = await client.video.create("Maakye. Good morning.", language="en")
            done = await client.video.wait(created["id"], interval=0.25, timeout=RENDER_TIMEOUT)
            return done, await client.video.download(done), await client.video.list()

    done, video, listed = asyncio.run(run())
    assert done["status"] == "succeeded"
    assert is_mp4(video)
    assert [job["id"] for job in listed] == [done["id"]]
