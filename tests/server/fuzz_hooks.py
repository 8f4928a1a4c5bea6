"""Schemathesis hooks of the seeded run (``SCHEMATHESIS_HOOKS``; issue 35), loaded by the
schemathesis command, not by pytest. ``DUIYI_FUZZ_TARGETS`` names a JSON file of
``fuzz_world.targets``: each generated request whose path parameters were generated valid gets
the next target of its operation (the world's ids in its path, the key for them in
``Authorization``); one request in ``RANDOM_EVERY`` keeps its generated ids (the 404 paths stay
fuzzed). ``DUIYI_FUZZ_STATUSES`` names the file where every answer's ``METHOD PATH STATUS`` is
appended, the test's evidence of which operations answered a 2xx (with ``DUIYI_FUZZ_DEBUG``
set, each request's path, body and answer too, in a ``.debug`` file beside it)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import schemathesis
from schemathesis.core import NotSet
from schemathesis.core.parameters import ParameterLocation

RANDOM_EVERY = 8

_TARGETS: dict[str, list[dict[str, Any]]] = json.loads(
    Path(os.environ["DUIYI_FUZZ_TARGETS"]).read_text()
)
_STATUSES = Path(os.environ["DUIYI_FUZZ_STATUSES"])
_TAKEN: dict[str, int] = {}


def _operation(case: Any) -> str:
    return f"{case.operation.method.upper()} {case.operation.path}"


@schemathesis.hook
def map_case(context: Any, case: Any) -> Any:
    op = _operation(case)
    if _not_text(case):  # the empty text, which the schema refuses, stands for it
        case.body = ""
    found = _TARGETS.get(op) or []
    if not found:
        return case
    i = _TAKEN.get(op, 0)
    _TAKEN[op] = i + 1
    if i % RANDOM_EVERY == RANDOM_EVERY - 1:
        return case
    target = found[(i - i // RANDOM_EVERY) % len(found)]
    meta = case.meta
    if meta is None or not meta.is_negative_at(ParameterLocation.PATH):
        # a path generated valid gets the world's ids; a malformed one stays malformed
        case.path_parameters = {**(case.path_parameters or {}), **target["path"]}
    if target.get("body") is not None and (
        meta is None or not meta.is_negative_at(ParameterLocation.BODY)
    ):
        case.body = target["body"]  # a body only the world knows (the round's links key)
    if target.get("key"):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {target['key']}"}
    return case


@schemathesis.serializer("application/xml", "text/xml")
def whole_document(context: Any, value: Any) -> bytes:
    """An XML body (the OpenGotha file) is its text as it is, as a client sends the file:
    schemathesis's own XML serialiser would wrap the string in an element of its own."""
    return value.encode() if isinstance(value, str) else json.dumps(value).encode()


def _not_text(case: Any) -> bool:
    """Whether ``case`` has a text body (CSV, XML) generated as another JSON type (null, a
    number, an object): on the wire it is its JSON text ("null", "12"), a string the schema
    allows, never the violation it stands for."""
    media = case.media_type or ""
    textual = media.startswith("text/") or media.endswith("xml")
    return textual and not isinstance(case.body, (str, NotSet))


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """Drop a failure of a case ``map_case`` did not see (a phase of its own) whose text body
    was generated as another JSON type: what was sent is a string the schema allows."""
    return not _not_text(case)


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    with _STATUSES.open("a") as out:
        out.write(f"{_operation(case)} {response.status_code}\n")
    if os.environ.get("DUIYI_FUZZ_DEBUG"):
        with _STATUSES.with_suffix(".debug").open("a") as out:
            out.write(
                f"{_operation(case)} {response.status_code} {case.path_parameters} {case.body!r:.200} {response.text[:200]}\n"
            )
