"""Text bodies a CSV reader cannot split (issue 24: schemathesis found a 500 for a results sheet
holding a bare CR) are a 422 problem naming the line, and a stranger's body is never parsed:
the event and the organiser key are checked first (404, 401, 403)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from tests.server.conftest import Server

BARE_CR = b'round,board,result\n1,1,"1-0"x\rz\n'


def _event(server: Server) -> dict[str, Any]:
    r = httpx.post(server.url + "/api/events", json={"name": "CR", "game": "go", "rounds": 2})
    assert r.status_code == 201, r.text
    ev: dict[str, Any] = r.json()
    return ev


@pytest.mark.parametrize("route", ["results", "players"])
def test_a_bare_cr_in_a_csv_body_is_a_422_naming_the_line(server: Server, route: str) -> None:
    ev = _event(server)
    r = httpx.post(
        f"{server.url}/api/events/{ev['id']}/{route}",
        content=BARE_CR if route == "results" else b'name,club\n"Li"x\rz,A\n',
        headers={
            "Authorization": f"Bearer {ev['organiser_token']}",
            "content-type": "text/csv",
        },
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert "CSV line" in r.json()["detail"]


@pytest.mark.parametrize("route", ["results", "players"])
def test_the_key_and_the_event_come_before_the_body(server: Server, route: str) -> None:
    ev = _event(server)
    csv = {"content": BARE_CR, "headers": {"content-type": "text/csv"}}
    unknown = httpx.post(f"{server.url}/api/events/nope/{route}", **csv)  # type: ignore[arg-type]
    assert unknown.status_code == 404, unknown.text
    anonymous = httpx.post(f"{server.url}/api/events/{ev['id']}/{route}", **csv)  # type: ignore[arg-type]
    assert anonymous.status_code == 401, anonymous.text
    wrong = httpx.post(
        f"{server.url}/api/events/{ev['id']}/{route}",
        content=BARE_CR,
        headers={"content-type": "text/csv", "Authorization": f"Bearer {ev['arbiter_token']}"},
    )
    assert wrong.status_code == 403, wrong.text
