"""The player's side of the browser UI (issue 15): errors that clear themselves, a not-found
page, names and the colour each person actually plays, the result line, the winning five and
the last move, move confirmation, the hover preview, move sounds, links with a copy button,
live lists and finished games to review. Playwright in Debian's chromium against a real
server; what the page did is checked through the public API.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, state
from tests.web.test_browser import open_game, wait_version

pytestmark = pytest.mark.browser


def act(server: Server, game_id: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/games/{game_id}/actions",
        json=action,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def set_names(server: Server, g: dict[str, Any], black: str, white: str) -> None:
    r = httpx.put(
        f"{server.url}/api/games/{g['id']}/names",
        json={"black": black, "white": white},
        headers={"Authorization": f"Bearer {g['arbiter_token']}"},
    )
    assert r.status_code == 200, r.text


def test_an_error_names_its_article_once_floats_and_clears_itself(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    black = open_game(context_factory(), server, g["id"], g["black_token"])
    white = open_game(context_factory(), server, g["id"], g["white_token"])
    black.click("[data-point='E5']")
    wait_version(white, 1)
    board_top = white.locator(".board-box").bounding_box()["y"]
    # Go §2 (a point occupied): the server refuses, the page says why, naming the article once
    white.click("[data-point='E5']")
    banner = white.locator("#banner.error")
    banner.wait_for()
    text = banner.inner_text()
    assert "E5" in text or "occupied" in text.lower(), text
    articles = [w for w in text.replace("(", " ").replace(")", " ").split() if w.startswith("§")]
    assert len(articles) == len(set(articles)) == 1, text
    # the notice floats over the page: the board did not move down
    assert white.locator(".board-box").bounding_box()["y"] == board_top
    # the next successful move clears it at once (no waiting for a timer)
    white.click("[data-point='D5']")
    wait_version(black, 2)
    white.wait_for_selector("#banner.error", state="detached", timeout=2000)
    assert white._duiyi_errors == []


def test_an_unknown_game_shows_a_not_found_page_not_reconnecting(
    server: Server, context_factory: Any
) -> None:
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/no-such-game")
    page.wait_for_selector("[data-testid=not-found]")
    assert "no-such-game" in page.inner_text("[data-testid=not-found]")
    time.sleep(1.5)
    assert page.locator("#banner.warn").count() == 0  # never "reconnecting…"
    page.click("[data-testid=not-found] a")
    page.wait_for_selector("[data-testid=live-games]")
    assert page.locator("#banner.warn").count() == 0


def test_names_everywhere_and_the_result_of_a_count(server: Server, context_factory: Any) -> None:
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    page.fill("[data-testid=new-black-name]", "Alice")
    page.fill("[data-testid=new-white-name]", "Bob")
    page.select_option("[data-testid=new-size]", "9")
    page.click("[data-testid=create-game]")
    # the creator sits at Black's seat at once; the invitation is White's link
    page.wait_for_selector("[data-testid=link-white]")
    white_link = page.get_attribute("[data-testid=link-white]", "href")
    game_id = white_link.split("/game/")[1].split("?")[0]
    black = page
    black.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    # the seat's token is the tab's, out of the address (issue 35: keys.js)
    assert "token" not in black.url
    black_token = black.evaluate(f"sessionStorage.getItem('duiyi.game.token.{game_id}')")
    black.wait_for_selector("[data-testid=name-black]:has-text('Alice')")
    assert "Bob" in black.inner_text("[data-testid=name-white]")
    status = black.inner_text("[data-testid=status]")
    assert "Alice (Black)" in status and "seat" not in status.lower()
    white = context_factory().new_page()
    white.goto(f"{server.url}/ui/{white_link}")
    white.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    # Go §7.3, §8, §9: two walls, a lone white stone dead; two passes, the marking, the count
    blacks = [f"E{r}" for r in range(1, 10)] + ["C3"]
    whites = [f"F{r}" for r in range(1, 10)] + ["B5"]
    for b, w in zip(blacks, whites, strict=True):
        act(server, game_id, black_token, {"type": "move", "move": b})
        act(server, game_id, tok(white_link), {"type": "move", "move": w})
    act(server, game_id, black_token, {"type": "pass"})
    act(server, game_id, tok(white_link), {"type": "pass"})
    act(server, game_id, black_token, {"type": "set_dead", "points": ["B5"]})
    act(server, game_id, black_token, {"type": "accept"})
    act(server, game_id, tok(white_link), {"type": "accept"})
    white.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    result = white.inner_text("[data-testid=status]")
    # Black 45 points of area, White 36, komi 3¾ stones: Black wins by ¾ stone (B+1.5)
    assert "Alice (Black) wins by counting" in result, result
    # the result in the page's language (issue 21): B+1.5 on the English page
    assert "B+1.5" in result and "黑胜" not in result
    assert "+counting" not in result and "seat" not in result.lower()
    assert "45" in white.inner_text("[data-testid=final-count]")


def tok(href: str) -> str:
    return href.split("token=")[1]


def test_renju_after_the_swap_shows_the_colour_each_person_plays(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="gomoku", rules="chinese_2013")
    set_names(server, g, "Wang", "Liu")
    opener = open_game(context_factory(), server, g["id"], g["black_token"])
    open_game(context_factory(), server, g["id"], g["white_token"])
    act(
        server,
        g["id"],
        g["black_token"],
        {"type": "open", "moves": ["h8", "h9", "j10"], "fifth_n": 1},
    )
    # Gomoku §2.9: the White seat takes Black; the opener now plays White
    act(server, g["id"], g["white_token"], {"type": "swap"})
    wait_version(opener, 2)
    opener.wait_for_selector("[data-testid=player-black][data-colour=white]")
    me = opener.inner_text("[data-testid=player-black]")
    assert "Wang" in me and "White" in me and "you" in me, me
    status = opener.inner_text("[data-testid=status]")
    assert "Wang (White) to move" in status, status
    assert "seat" not in status.lower()
    # White 4 by the opener, then Black (Liu) makes five: the winner is Liu, playing Black
    for seat, point in [
        ("black_token", "a15"),
        ("white_token", "i9"),
        ("black_token", "a14"),
        ("white_token", "g7"),
        ("black_token", "f6"),
        ("white_token", "k11"),
    ]:
        act(server, g["id"], g[seat], {"type": "move", "move": point})
    opener.wait_for_selector("[data-testid=game-page][data-phase=over]")
    result = opener.inner_text("[data-testid=status]")
    assert "Liu (Black) wins by five in a row" in result, result
    # Gomoku §2.12: the five is marked on the board, and the last move
    opener.wait_for_selector("[data-five='k11']")
    assert sorted(
        opener.eval_on_selector_all("[data-five]", "e => e.map(x => x.dataset.five)")
    ) == [
        "g7",
        "h8",
        "i9",
        "j10",
        "k11",
    ]
    assert opener.locator("[data-last='k11']").count() == 1


def forbidden_position(server: Server) -> dict[str, Any]:
    """Free opening with fouls: Black to move, h8 a double three (Gomoku §2.19)."""
    g = new_game(server, game="gomoku", rules="free_renju")
    for seat, point in [
        ("black_token", "f8"),
        ("white_token", "a1"),
        ("black_token", "h6"),
        ("white_token", "a3"),
        ("black_token", "g8"),
        ("white_token", "a5"),
        ("black_token", "h7"),
        ("white_token", "a7"),
    ]:
        act(server, g["id"], g[seat], {"type": "move", "move": point})
    a = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    assert a["forbidden"].get("h8") == "double-three", a["forbidden"]
    return g


def test_a_forbidden_point_always_asks_first(server: Server, context_factory: Any) -> None:
    g = forbidden_position(server)
    black = open_game(context_factory(), server, g["id"], g["black_token"])
    # a tap before the analysis (the forbidden points) is in waits for it
    black.click("[data-point='h8']")
    black.wait_for_selector("[data-testid=move-confirm]")
    assert "forbidden" in black.inner_text("[data-testid=move-confirm]")
    assert state(server, g["id"])["version"] == 8  # nothing played yet
    black.click("[data-testid=cancel-move]")
    assert black.locator("[data-testid=move-confirm]").count() == 0
    # a second tap on the point does not play it either: only the button does
    black.click("[data-point='h8']")
    black.click("[data-point='h8']")
    assert state(server, g["id"])["version"] == 8
    black.click("[data-testid=confirm-move]")
    wait_version(black, 9)
    # Gomoku §10.1(2): the forbidden move loses
    assert state(server, g["id"])["outcome"]["termination"] == "foul"
    # an ordinary point is played at once with a mouse (no confirmation by default)
    g2 = new_game(server, game="gomoku", rules="free_renju")
    p2 = open_game(context_factory(), server, g2["id"], g2["black_token"])
    p2.click("[data-point='h8']")
    wait_version(p2, 1)


def test_touch_screens_confirm_moves_and_mice_see_a_preview(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    phone = open_game(
        context_factory(viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True),
        server,
        g["id"],
        g["black_token"],
    )
    phone.tap("[data-point='E5']")
    phone.wait_for_selector("[data-testid=move-confirm]")
    phone.wait_for_selector("[data-pending='E5']")
    assert state(server, g["id"])["version"] == 0
    phone.tap("[data-testid=confirm-move]")
    wait_version(phone, 1)
    # the preference can be turned off, and is kept
    assert phone.get_attribute("[data-testid=confirm-toggle]", "aria-pressed") == "true"
    # a mouse: the hover preview shows a faint stone of the player's colour
    white = open_game(context_factory(), server, g["id"], g["white_token"])
    white.hover("[data-point='D4']")
    white.wait_for_selector("circle.ghost.white[data-ghost='D4']")
    white.hover("[data-point='E5']")  # occupied: no preview there
    assert white.locator("[data-ghost='E5']").count() == 0


def test_move_sounds_play_and_can_be_muted(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9)
    black = open_game(context_factory(), server, g["id"], g["black_token"])
    act(server, g["id"], g["black_token"], {"type": "move", "move": "E5"})
    wait_version(black, 1)
    black.wait_for_selector("[data-testid=game-page][data-sounds='1']")
    black.click("[data-testid=move-sound]")
    assert black.get_attribute("[data-testid=move-sound]", "aria-pressed") == "false"
    act(server, g["id"], g["white_token"], {"type": "move", "move": "D5"})
    wait_version(black, 2)
    assert black.get_attribute("[data-testid=game-page]", "data-sounds") == "1"


def test_links_have_a_copy_button(server: Server, context_factory: Any) -> None:
    ctx = context_factory(permissions=["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    page.goto(f"{server.url}/ui/#/")
    page.click("[data-testid=create-game]")
    page.wait_for_selector("[data-testid=copy-link-white]")
    page.click("[data-testid=copy-link-white]")
    page.wait_for_selector("[data-testid=copy-link-white][data-copied=yes]")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.inner_text("[data-testid=link-white]")
    assert "token=" in copied


def test_live_and_finished_lists_update_without_reload(
    server: Server, context_factory: Any
) -> None:
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    page.wait_for_selector("[data-testid=finished-games]")
    g = new_game(server, game="go", size=9)
    set_names(server, g, "Hu", "Ma")
    page.wait_for_selector(f"[data-testid=live-games] [data-game-id='{g['id']}']", timeout=12_000)
    page.wait_for_selector(
        f"[data-testid=live-games] [data-game-id='{g['id']}']:has-text('Hu – Ma')", timeout=12_000
    )
    act(server, g["id"], g["black_token"], {"type": "resign"})
    page.wait_for_selector(
        f"[data-testid=finished-games] [data-game-id='{g['id']}']", timeout=12_000
    )
    assert page.locator(f"[data-testid=live-games] [data-game-id='{g['id']}']").count() == 0
    row = page.inner_text(f"[data-testid=finished-games] [data-game-id='{g['id']}']")
    assert "Hu" in row and "Ma" in row and "resignation" in row
    # the finished game opens for review: the move list, the SGF and the result
    page.click(f"[data-testid=finished-games] [data-game-id='{g['id']}'] a")
    page.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    assert "Ma (White) wins by resignation" in page.inner_text("[data-testid=status]")
    assert page.get_attribute("[data-testid=sgf]", "href").endswith(f"/api/games/{g['id']}/sgf")
