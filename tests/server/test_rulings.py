"""Typed rulings that edit the position (issue 12): Go §18.1 wrongly removed stones put back,
Gomoku §6.1 an irregular act accepted by the opponent, Gomoku §6.1(5)-(6) a pushed or re-lifted
stone put back. Each has its own request shape in the OpenAPI document; a bad argument is a 422
problem and changes nothing; a ruling the game's book does not have is a 409 naming the article.
"""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.conftest import Server
from tests.server.test_api import act, new_game

PROBLEM = "application/problem+json"


def _rule(server: Server, game: dict[str, Any], **ruling: Any) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/games/{game['id']}/rulings",
        json=ruling,
        headers={"Authorization": f"Bearer {game['arbiter_token']}"},
    )


def _gomoku(server: Server) -> dict[str, Any]:
    return new_game(server, game="gomoku", rules="free")


def _refused(r: httpx.Response, status: int, field: str = "") -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    assert field in r.json()["detail"]


def test_the_schema_has_one_request_per_ruling_kind(server: Server) -> None:
    schemas = httpx.get(server.url + "/openapi.json").json()["components"]["schemas"]
    for name, required in [
        ("StonesRestored", {"kind", "color", "points"}),
        ("IrregularAccepted", {"kind", "color"}),
        ("StoneReplaced", {"kind", "color", "point"}),
    ]:
        assert set(schemas[name]["required"]) == required
        assert schemas[name]["additionalProperties"] is False


def test_one_name_per_ruling_from_the_request_to_the_ledger(server: Server) -> None:
    # issue 24: a ruling has one name, its kind: the request, the table of the forms and the
    # ruling recorded say the same; the method names of before are no ruling
    go = new_game(server)
    table = httpx.get(f"{server.url}/api/games/{go['id']}/rulings").json()["rulings"]
    assert "warning" in {r["kind"] for r in table} and "warn" not in {r["kind"] for r in table}
    r = _rule(server, go, kind="warning", color="black", article="Go §24")
    assert r.status_code == 200, r.text
    assert [m["kind"] for m in r.json()["rulings"]] == ["warning"]
    r = _rule(server, go, kind="clock_adjustment", color="white", seconds=-30)
    assert [m["kind"] for m in r.json()["rulings"]] == ["clock_adjustment"]
    for old in ("warn", "adjust_clock", "restore_stones", "wrong_colours"):
        _refused(_rule(server, go, kind=old, color="black"), 422, "kind")


def test_wrongly_removed_stones_go_back_with_a_warning(server: Server) -> None:
    # Go §18.1 "误提对方有气之子，被判警告一次，并应将有关之子放回原处": White took Black's
    # A1-A3; the arbiter finds A3 was removed wrongly (a board transcribed by hand): A3 goes
    # back, White is warned (Go §24), and it is still Black's turn.
    g = new_game(server)
    moves = ("A1", "B1", "A2", "B2", "A3", "B3", "E5", "A4")  # the last takes A1-A3
    for i, point in enumerate(moves):
        token = g["black_token"] if i % 2 == 0 else g["white_token"]
        assert act(server, g, token, type="move", move=point).status_code == 200
    r = _rule(server, g, kind="stones_restored", color="white", points=["a3"])
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert "A3" in state["stones"]["black"]
    assert state["referee"]["white"]["warnings"] == 1
    assert state["to_move"] == "black" and state["outcome"] is None
    log = httpx.get(f"{server.url}/api/games/{g['id']}/actions?after=8").json()["actions"]
    assert [(e["ruling"]["kind"], e["ruling"]["article"]) for e in log] == [
        ("stones_restored", "Go §18.1"),
        ("warning", "Go §18.1"),
    ]
    assert log[0]["ruling"]["restore"] == ["A3"]
    # without the warning when the arbiter says so
    r = _rule(server, g, kind="stones_restored", color="white", points=["A1"], warning=False)
    assert r.status_code == 200 and r.json()["state"]["referee"]["white"]["warnings"] == 1
    # where no black stone was removed there is nothing to put back: refused, naming it
    r = _rule(server, g, kind="stones_restored", color="white", points=["G3"])
    assert r.status_code == 409 and "G3" in r.json()["detail"], r.text


def test_restore_stones_refuses_bad_arguments(server: Server) -> None:
    # Go §18.1 names the stones: a list of points, each on the board and empty
    g = new_game(server)
    assert act(server, g, g["black_token"], type="move", move="E5").status_code == 200
    bads: list[dict[str, Any]] = [{}, {"points": []}, {"points": "C3"}, {"points": [3]}]
    for bad in [*bads, {"points": ["C"]}]:
        _refused(_rule(server, g, kind="stones_restored", color="white", **bad), 422, "points")
    _refused(_rule(server, g, kind="stones_restored", color="red", points=["C3"]), 422, "color")
    _refused(_rule(server, g, kind="stones_restored", points=["C3"], warning="yes"), 422)
    # schema-valid but off the 9x9 board (Go §1): the board refuses it (409, issue 35: a body
    # the schema allows is never a 422); two spellings of one point (C3, c3) are that point
    # once (e582b1b), refused by the game as any C3 (no stone taken there, Go §18.1: 409); the
    # same string twice is the schema's (unique points: 422)
    _refused(_rule(server, g, kind="stones_restored", color="white", points=["Z9"]), 409)
    r = _rule(server, g, kind="stones_restored", color="white", points=["C3", "c3"])
    _refused(r, 409, "from C3 in this game")
    r = _rule(server, g, kind="stones_restored", color="white", points=["C3", "C3"])
    _refused(r, 422, "points")
    # an occupied point cannot take a stone back
    r = _rule(server, g, kind="stones_restored", color="white", points=["E5"])
    assert r.status_code in (409, 422), r.text
    state = httpx.get(f"{server.url}/api/games/{g['id']}").json()
    assert state["version"] == 1 and state["referee"]["white"]["warnings"] == 0
    # Gomoku removes no stones: the Go ruling is refused by the Gomoku book
    gm = _gomoku(server)
    r = _rule(server, gm, kind="stones_restored", color="white", points=["h8"])
    assert r.status_code == 409 and r.json()["article"] == "Go §18.1"


def test_a_pushed_stone_goes_back_to_the_first_point_it_touched(server: Server) -> None:
    # Gomoku §6.1(5) 推盘 "判棋子放回接触棋盘的第一个交叉点": Black's j10 first touched i9; the
    # stone moves there, the turn and clocks are unchanged; the opponent pointed it out, so a
    # violation (Gomoku §6.1 纠正…并接受处罚, §12.4 被对手指出判违例; docs/decisions.md).
    g = _gomoku(server)
    for token, point in [("black_token", "h8"), ("white_token", "h9"), ("black_token", "j10")]:
        assert act(server, g, g[token], type="move", move=point).status_code == 200
    r = _rule(server, g, kind="stone_replaced", color="black", point="i9")
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["moves_list"] == ["h8", "h9", "i9"]
    assert state["to_move"] == "white"
    assert state["referee"]["black"]["violations"] == 1
    # Gomoku §6.1(6) 拔子: White's stone, put down on a1 first and lifted to k11, goes back
    assert act(server, g, g["white_token"], type="move", move="k11").status_code == 200
    r = _rule(server, g, kind="stone_replaced", color="white", point="a1", lifted=True)
    assert r.status_code == 200, r.text
    assert r.json()["state"]["moves_list"][-1] == "a1"
    # Gomoku §6.2: once the opponent played on, the act is accepted and stays
    assert act(server, g, g["black_token"], type="move", move="g7").status_code == 200
    assert act(server, g, g["white_token"], type="move", move="b2").status_code == 200
    r = _rule(server, g, kind="stone_replaced", color="black", point="f6")
    assert r.status_code in (409, 422) and "Gomoku §6.2" in r.text


def test_replace_stone_refuses_bad_arguments(server: Server) -> None:
    g = _gomoku(server)
    assert act(server, g, g["black_token"], type="move", move="h8").status_code == 200
    bads: list[dict[str, Any]] = [{}, {"point": 9}, {"point": "h"}, {"point": "h8 h9"}]
    for bad in [*bads, {"point": ["h9"]}]:
        _refused(_rule(server, g, kind="stone_replaced", color="black", **bad), 422, "point")
    r = _rule(server, g, kind="stone_replaced", color="black", point="h9", lifted="yes")
    _refused(r, 422, "lifted")
    # the clause follows from ``lifted``: the request names no article
    r = _rule(server, g, kind="stone_replaced", color="black", point="h9", article="Gomoku §6.1")
    _refused(r, 422, "article")
    # off the 15x15 board (Gomoku §1): the board refuses it (409; the schema allows z9)
    _refused(_rule(server, g, kind="stone_replaced", color="black", point="z9"), 409)
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["moves_list"] == ["h8"]
    # a Go game voids moves instead (Go §17-19)
    go = new_game(server)
    assert act(server, go, go["black_token"], type="move", move="E5").status_code == 200
    r = _rule(server, go, kind="stone_replaced", color="black", point="D4")
    assert r.status_code == 409 and r.json()["article"] == "Gomoku §6.1"


def test_an_accepted_irregularity_is_no_longer_corrected(server: Server) -> None:
    # Gomoku §6.1 "或者与此相反，接受他的犯规行为": White accepts Black's pushed stone; it stays,
    # no violation, and the correction of the same act is refused afterwards.
    g = _gomoku(server)
    assert act(server, g, g["black_token"], type="move", move="h8").status_code == 200
    r = _rule(server, g, kind="irregular_accepted", color="black", article="Gomoku §6.1(5)")
    assert r.status_code == 200, r.text
    assert r.json()["state"]["referee"]["black"]["violations"] == 0
    r = _rule(server, g, kind="stone_replaced", color="black", point="h9")
    assert r.status_code == 409 and r.json()["article"] == "Gomoku §6.1"
    assert "accepted" in r.json()["detail"]
    assert httpx.get(f"{server.url}/api/games/{g['id']}").json()["moves_list"] == ["h8"]


def test_accept_irregular_refuses_bad_arguments(server: Server) -> None:
    g = _gomoku(server)
    assert act(server, g, g["black_token"], type="move", move="h8").status_code == 200
    # only a Gomoku §6.1 act may be accepted: another article is malformed
    for article in ["Gomoku §12.4", "Go §18.1", "Gomoku §6.1(8)", ""]:
        r = _rule(server, g, kind="irregular_accepted", color="black", article=article)
        _refused(r, 422, "article")
    _refused(_rule(server, g, kind="irregular_accepted", color=1), 422, "color")
    _refused(_rule(server, g, kind="irregular_accepted", color="black", point="h9"), 422, "point")
    # Go has no acceptance: the arbiter voids an irregular move there (Go §17-19)
    go = new_game(server)
    r = _rule(server, go, kind="irregular_accepted", color="black")
    assert r.status_code == 409 and r.json()["article"] == "Gomoku §6.1"


def test_a_gomoku_dropped_stone_is_taken_back_with_its_penalty(server: Server) -> None:
    # Gomoku §6.1(7) 判收回掉落子，另选落点, §4.2 但给予适当处罚: a typed ruling; the penalty is
    # a violation by default, 罚时 or none as the arbiter decides
    g = _gomoku(server)
    assert act(server, g, g["black_token"], type="move", move="h8").status_code == 200
    assert act(server, g, g["white_token"], type="move", move="h9").status_code == 200
    r = _rule(server, g, kind="dropped_stone", color="white")
    assert r.status_code == 200, r.text
    state = r.json()["state"]
    assert state["moves_list"] == ["h8"] and state["to_move"] == "white"
    assert state["referee"]["white"]["violations"] == 1
    assert act(server, g, g["white_token"], type="move", move="j9").status_code == 200
    assert act(server, g, g["black_token"], type="move", move="g7").status_code == 200
    r = _rule(server, g, kind="dropped_stone", color="black", penalty="none")
    assert r.status_code == 200, r.text
    assert r.json()["state"]["referee"]["black"]["violations"] == 0
    _refused(_rule(server, g, kind="dropped_stone", color="black", penalty="stern"), 422, "penalty")


def test_an_appeal_is_recorded_against_a_ruling_and_answered(server: Server) -> None:
    # Gomoku §13.1 申诉 against a ruling, §8.11 its deadline, §13.2 the committee's majority
    g = _gomoku(server)
    assert act(server, g, g["black_token"], type="move", move="h8").status_code == 200
    assert _rule(server, g, kind="violation", color="white").status_code == 200
    r = _rule(
        server, g, kind="appeal", color="white", against=0, question="uncovered",
        by_chief_arbiter=True, limit=1800, deposit=200,
    )  # fmt: skip
    assert r.status_code == 200, r.text
    log = httpx.get(f"{server.url}/api/games/{g['id']}/actions").json()["actions"]
    appeal = log[-1]["ruling"]
    assert appeal["kind"] == "appeal" and appeal["appeal"]["against"] == 0
    assert appeal["appeal"]["authority"] == "competition committee"
    # Gomoku §8.11 counts from the round's end; the game was not told it: no deadline yet
    assert appeal["appeal"]["deadline"] is None
    r = _rule(
        server, g, kind="appeal_decided", appeal=1, result="upheld", votes=[True, False, False]
    )
    assert r.status_code == 409 and "§13.2" in r.text
    r = _rule(
        server, g, kind="appeal_decided", appeal=1, result="rejected", votes=[True, False, False]
    )
    assert r.status_code == 200, r.text
    log = httpx.get(f"{server.url}/api/games/{g['id']}/actions").json()["actions"]
    assert log[-1]["ruling"]["appeal"]["refund"] == "0"
    _refused(_rule(server, g, kind="appeal", color="white", against=-1), 422, "against")
    # Go takes complaints at once (Go §16.3)
    go = new_game(server)
    assert act(server, go, go["black_token"], type="move", move="E5").status_code == 200
    assert _rule(server, go, kind="warning", color="black").status_code == 200
    r = _rule(server, go, kind="appeal", color="black", against=0)
    assert r.status_code == 409 and r.json()["article"] == "Go §16.3"


def test_the_coin_toss_through_the_server(server: Server) -> None:
    # Gomoku §5.3(2): the server tosses when the arbiter gives no face; the winner chooses;
    # once a stone is on the board the colours are settled
    g = _gomoku(server)
    r = _rule(server, g, kind="coin_toss", caller="black", called="heads", face="tails")
    assert r.status_code == 200, r.text
    r = _rule(server, g, kind="colours_chosen", choice="black")  # White's seat takes Black
    assert r.status_code == 200, r.text
    assert r.json()["state"]["seats_swapped"] is True
    h = _gomoku(server)
    r = _rule(server, h, kind="coin_toss", caller="white", called="tails")  # the server tosses
    assert r.status_code == 200, r.text
    entry = httpx.get(f"{server.url}/api/games/{h['id']}/actions").json()["actions"][-1]
    assert entry["ruling"]["toss"][1] in ("heads", "tails")
    _refused(_rule(server, h, kind="colours_chosen", choice="purple"), 422, "choice")
    assert act(server, h, h["black_token"], type="move", move="h8").status_code == 200
    r = _rule(server, h, kind="colours_chosen", choice="white")
    assert r.status_code in (409, 422) and "§5.3" in r.text


def test_a_clock_correction_of_zero_seconds_is_refused(server: Server) -> None:
    # Go §22.8: a correction puts a faulty clock right; one of 0 seconds changes nothing and
    # was recorded as "黑方 +0:00" (issue 32). The schema allows 0 (a signed time), so it is
    # the referee's refusal: a 409 with its code, and nothing recorded
    go = new_game(server)
    r = _rule(server, go, kind="clock_adjustment", color="black", seconds=0)
    _refused(r, 409)
    assert r.json()["code"] == "clock-adjustment-zero", r.text
    log = httpx.get(f"{server.url}/api/games/{go['id']}/actions").json()["actions"]
    assert [e for e in log if e.get("type") == "ruling"] == []
