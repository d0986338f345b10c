"""The package's answer types and request bodies against the OpenAPI document (GET /api/openapi.json).

The shapes come from ``sdks/openapi-snapshot.js`` (the document built from shared/contracts/dist): the file named by
``KASA_OPENAPI_SNAPSHOT`` (the jest suite writes one), else the script's output when node can run it. A test fails
when a type drifts from the document: a property the API sends that the type lacks (or names differently), a key
the type has that the API does not send, a key the type requires that the API may leave out, a null the type does
not allow, an enum value the type does not know, or a request key the API does not accept.
"""

from __future__ import annotations

import json
import os
import subprocess
import types
import typing
from pathlib import Path
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import kasa
from kasa.resources import api_keys, auth, completions, languages, messages, sessions, video, voice

SDKS = Path(__file__).resolve().parents[3]

#: Each answer type and the schema it stands for (a component, an inline object of one, or an operation's body).
#: Nested TypedDicts are checked against the nested schemas they are found under.
ANSWERS: list[tuple[Any, str]] = [
    (kasa.User, "User"),
    (kasa.MeUser, "MeUser"),
    (kasa.AuthResponse, "AuthResponse"),
    (kasa.Persona, "Persona"),
    (kasa.Session, "Session"),
    (kasa.SessionPage, "SessionPage"),
    (kasa.StoredMessage, "StoredMessage"),
    (kasa.MessageVersion, "MessageVersion"),
    (kasa.AssistantReply, "AssistantReply"),
    (kasa.SessionWithMessages, "SessionWithMessages"),
    (kasa.ConversationShare, "ConversationShare"),
    (kasa.Message, "Message"),
    (kasa.SharedPersona, "SharedConversation.persona"),
    (kasa.SharedConversation, "SharedConversation"),
    (kasa.ModelList, "GET /v1/models 200"),
    (kasa.Language, "Language"),
    (kasa.LanguageList, "LanguageList"),
    (kasa.DetectedLanguage, "DetectLanguageResponse"),
    (kasa.Voice, "Voice"),
    (kasa.Synthesis, "SynthesizeResponse"),
    (kasa.GeoLookup, "GeoLookupResponse"),
    (kasa.ApiKey, "ApiKey"),
    (kasa.CreatedApiKey, "CreateApiKeyResponse"),
    (kasa.VideoJob, "VideoJob"),
    (kasa.Attachment, "Attachment"),
    (kasa.ChatCompletion, "OpenAIChatCompletion"),
    (kasa.ChatCompletionChunk, "OpenAIChatCompletionChunk"),
    # Request parts the caller writes as dicts.
    (kasa.DetectHints, "DetectLanguageRequest.hints"),
    (kasa.ChatMessage, "OpenAIChatCompletionRequest.messages[]"),
    (kasa.FunctionTool, "OpenAIFunctionTool"),
]
# Not in the table: MessagePage (made by the package from a SessionWithMessages, checked above).

#: Keys a type has on purpose although the document does not list them, as "Schema.key": why.
KNOWN_EXTRA: dict[str, str] = {}
#: Properties of the document a type leaves out on purpose, as "Schema.key": why.
KNOWN_MISSING: dict[str, str] = {}

#: Enum types of the package and the enum they stand for.
ENUMS: list[tuple[Any, str]] = [
    (kasa.ApiKeyScope, "ApiKeyScope"),
    (kasa.AttachmentKind, "AttachmentKind"),
    (kasa.VideoJobStatus, "VideoJob.status"),
]

#: The request bodies the package sends: each built with every optional argument (all keys the package can send)
#: and with none (what it always sends), and the schema of the operation's body.
REQUESTS: list[tuple[str, Any, Any, str]] = [
    ("register", lambda: auth._register("ama", "ama@example.com", "secret1"), None, "RegisterRequest"),  # pyright: ignore[reportPrivateUsage]
    ("login", lambda: auth._login("ama@example.com", "secret1"), None, "LoginRequest"),  # pyright: ignore[reportPrivateUsage]
    (
        "create API key",
        lambda: api_keys._create("ci", ["chat"], 30, True, None),  # pyright: ignore[reportPrivateUsage]
        lambda: api_keys._create("ci", None, None, False, None),  # pyright: ignore[reportPrivateUsage]
        "CreateApiKeyRequest",
    ),
    ("create session", lambda: sessions._create("kasa", "Hello", None), None, "CreateSessionRequest"),  # pyright: ignore[reportPrivateUsage]
    ("rename session", lambda: sessions._rename("s1", "Renamed"), None, "RenameSessionRequest"),  # pyright: ignore[reportPrivateUsage]
    (
        "send message",
        lambda: messages._send("s1", "Hi", "voice", "fr", True, None, True, ["A" * 22]),  # pyright: ignore[reportPrivateUsage]
        lambda: messages._send("s1", "Hi", None, None, None, None, False),  # pyright: ignore[reportPrivateUsage]
        "CreateMessageRequest",
    ),
    (
        "edit message",
        lambda: messages._edit("s1", "m1", "Hi", "voice", "fr", True, None, True, ["A" * 22]),  # pyright: ignore[reportPrivateUsage]
        lambda: messages._edit("s1", "m1", "Hi", None, None, None, None, False),  # pyright: ignore[reportPrivateUsage]
        "EditMessageRequest",
    ),
    (
        "regenerate answer",
        lambda: messages._regenerate("s1", "a1", "fr", True, None, True),  # pyright: ignore[reportPrivateUsage]
        lambda: messages._regenerate("s1", "a1", None, None, None, False),  # pyright: ignore[reportPrivateUsage]
        "RegenerateRequest",
    ),
    (
        "detect language",
        lambda: languages._detect("Bonjour", {"userLanguage": "fr"}),  # pyright: ignore[reportPrivateUsage]
        lambda: languages._detect("Bonjour", None),  # pyright: ignore[reportPrivateUsage]
        "DetectLanguageRequest",
    ),
    (
        "synthesize",
        lambda: voice._synthesize("Hello", "en-US-1", "en", "application/json", None),  # pyright: ignore[reportPrivateUsage]
        lambda: voice._synthesize("Hello", None, None, "application/json", None),  # pyright: ignore[reportPrivateUsage]
        "SynthesizeRequest",
    ),
    (
        "create video",
        lambda: video._create("A sunrise", "en", "en-US-1", None),  # pyright: ignore[reportPrivateUsage]
        lambda: video._create("A sunrise", "en", None, None),  # pyright: ignore[reportPrivateUsage]
        "VideoGenerationRequest",
    ),
    (
        "chat completion",
        lambda: completions._create("kasa", [{"role": "user", "content": "Hi"}], True, True, {}, None),  # pyright: ignore[reportPrivateUsage]
        lambda: completions._create("kasa", [{"role": "user", "content": "Hi"}], False, False, {}, None),  # pyright: ignore[reportPrivateUsage]
        "OpenAIChatCompletionRequest",
    ),
]


def _load_snapshot() -> dict[str, Any]:
    path = os.environ.get("KASA_OPENAPI_SNAPSHOT")
    if path:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    try:
        done = subprocess.run(
            ["node", str(SDKS / "openapi-snapshot.js")], capture_output=True, check=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError) as error:
        pytest.skip(f"no KASA_OPENAPI_SNAPSHOT and node could not write one ({error}): build shared/contracts first")
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def snapshot() -> dict[str, Any]:
    return _load_snapshot()


def _strip_optional(hint: Any) -> tuple[Any, bool]:
    """The hint without None, and whether None was allowed."""
    if get_origin(hint) in (Union, types.UnionType):
        options = [arg for arg in get_args(hint) if arg is not type(None)]
        allows_none = len(options) < len(get_args(hint))
        return (options[0] if len(options) == 1 else Union[tuple(options)]), allows_none  # noqa: UP007
    return hint, hint is type(None)


def _literal_values(hint: Any) -> set[Any] | None:
    if get_origin(hint) is Literal:
        return set(get_args(hint))
    return None


_PYTHON_TYPES = {
    "string": (str,),
    "integer": (int,),
    "number": (float, int),
    "boolean": (bool,),
}


def _check_value(hint: Any, prop: dict[str, Any], where: str, shapes: dict[str, Any], problems: list[str]) -> None:
    """One property's type: null allowed where the API may send it, enums, element types, nested shapes."""
    inner, allows_none = _strip_optional(hint)
    if prop["nullable"] and not allows_none:
        problems.append(f"{where}: the API may send null; the type does not allow None")
    if inner is Any or prop["type"] == "any":
        return
    values = _literal_values(inner)
    declared: list[Any] = prop.get("enum") or []
    enum = [value for value in declared if value is not None]
    if values is not None:
        if enum and set(enum) != values:
            problems.append(f"{where}: the API's values are {sorted(enum)}, the type's {sorted(values)}")
        elif not enum:
            problems.append(f"{where}: the API sends any {prop['type']}, the type only {sorted(values)}")
        return
    kind = prop["type"]
    if kind == "array":
        if get_origin(inner) is not list:
            problems.append(f"{where}: the API sends an array, the type is {inner}")
            return
        _check_value(get_args(inner)[0], prop["items"], f"{where}[]", shapes, problems)
        return
    if kind == "object":
        if is_typeddict(inner):
            if prop.get("shape"):
                _check_typeddict(inner, prop["shape"], shapes, problems)
            return
        if get_origin(inner) is dict or inner is dict:
            return
        problems.append(f"{where}: the API sends an object, the type is {inner}")
        return
    expected = _PYTHON_TYPES.get(kind)
    if expected and inner not in expected:
        problems.append(f"{where}: the API sends a {kind}, the type is {getattr(inner, '__name__', inner)}")


def _required_keys(typed: Any) -> set[str]:
    """The keys a TypedDict requires. ``__required_keys__`` alone is not enough: with postponed annotations (as in
    the package) it misses ``NotRequired``, which the hints keep."""
    hints = get_type_hints(typed, include_extras=True)
    return {key for key in typed.__required_keys__ if get_origin(hints[key]) is not NotRequired}


def _check_typeddict(typed: Any, shape_name: str, shapes: dict[str, Any], problems: list[str]) -> None:
    shape = shapes[shape_name]
    properties: dict[str, Any] = shape["properties"]
    hints = get_type_hints(typed)
    required = _required_keys(typed)
    for key in sorted(set(properties) - set(hints)):
        if f"{shape_name}.{key}" not in KNOWN_MISSING:
            problems.append(f"{typed.__name__} lacks {key!r} (in {shape_name})")
    for key in sorted(set(hints) - set(properties)):
        if f"{shape_name}.{key}" not in KNOWN_EXTRA and not shape["open"]:
            problems.append(f"{typed.__name__} has {key!r}, which {shape_name} does not have")
    for key in sorted(set(hints) & set(properties)):
        prop = properties[key]
        if key in required and not prop["required"]:
            problems.append(f"{typed.__name__}.{key} is required, but {shape_name} may leave it out")
        _check_value(hints[key], prop, f"{typed.__name__}.{key}", shapes, problems)


@pytest.mark.parametrize(("typed", "shape_name"), ANSWERS, ids=[name for _, name in ANSWERS])
def test_type_matches_the_openapi_schema(typed: Any, shape_name: str, snapshot: dict[str, Any]) -> None:
    shapes = snapshot["shapes"]
    assert shape_name in shapes, f"the document has no {shape_name} any more"
    problems: list[str] = []
    _check_typeddict(typed, shape_name, shapes, problems)
    assert not problems, "\n".join(problems)


def _enum_of(snapshot: dict[str, Any], name: str) -> list[Any]:
    if name in snapshot["enums"]:
        return snapshot["enums"][name]
    shape, key = name.split(".", 1)
    return snapshot["shapes"][shape]["properties"][key]["enum"]


@pytest.mark.parametrize(("literal", "enum_name"), ENUMS, ids=[name for _, name in ENUMS])
def test_enum_knows_every_value_of_the_api(literal: Any, enum_name: str, snapshot: dict[str, Any]) -> None:
    assert set(get_args(literal)) == set(_enum_of(snapshot, enum_name))


def _body_keys(request: Any) -> set[str]:
    body = request.body
    assert isinstance(body, dict), f"{request.method} {request.path} sends no JSON object"
    return set(typing.cast(dict[str, Any], body))


@pytest.mark.parametrize(("fullest", "fewest", "shape_name"), [r[1:] for r in REQUESTS], ids=[r[0] for r in REQUESTS])
def test_request_body_is_one_the_api_accepts(fullest: Any, fewest: Any, shape_name: str, snapshot: dict[str, Any]) -> None:
    shape = snapshot["shapes"][shape_name]
    properties: dict[str, Any] = shape["properties"]
    required = {key for key, prop in properties.items() if prop["required"]}
    most = _body_keys(fullest())
    assert most - set(properties) == set(), f"keys {shape_name} does not accept"
    least = _body_keys((fewest or fullest)())
    assert required - least == set(), f"keys {shape_name} requires that the package may leave out"


def test_the_checks_find_a_drift(snapshot: dict[str, Any]) -> None:
    """A renamed key, a missing one, a required one the API may leave out and an unknown enum value are all found."""

    class Drifted(typing.TypedDict):
        id: str
        status: Literal["queued", "running", "succeeded"]
        progres: int
        voice: str

    problems: list[str] = []
    _check_typeddict(Drifted, "VideoJob", snapshot["shapes"], problems)
    text = "\n".join(problems)
    assert "lacks 'progress'" in text
    assert "has 'progres'" in text
    assert "Drifted.voice is required" in text
    assert "Drifted.status: the API's values" in text
