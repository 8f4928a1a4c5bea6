"""Issue 21's findings on the players' side, each a test that failed before and passes after:
a count that reads right (the count of what the board shows, the result in the page's
language, the final marking kept for review) and the layout of the clocks. Playwright in
Debian's chromium against a real server.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server, online_event_game
from tests.web.conftest import new_game, screenshot, state
from tests.web.test_player import act, set_names

pytestmark = pytest.mark.browser


def to_counting(server: Server, g: dict[str, Any]) -> None:
    """Go §7.3: two walls, a lone white stone (B5) inside Black's side; two passes."""
    blacks = [f"E{r}" for r in range(1, 10)] + ["C3"]
    whites = [f"F{r}" for r in range(1, 10)] + ["B5"]
    for b, w in zip(blacks, whites, strict=True):
        act(server, g["id"], g["black_token"], {"type": "move", "move": b})
        act(server, g["id"], g["white_token"], {"type": "move", "move": w})
    act(server, g["id"], g["black_token"], {"type": "pass"})
    act(server, g["id"], g["white_token"], {"type": "pass"})


def test_the_count_shown_is_the_count_of_the_marking_shown(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "the dashed proposal marks a group dead but the shown count (W+35.5) ignores
    # it until 'Use the proposal' is clicked"
    g = new_game(server, game="go", size=9)
    to_counting(server, g)
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-proposal='B5']")
    score = page.get_by_test_id("score")
    score.get_by_text("B+1.5").wait_for()
    text = score.inner_text()
    # Go §8: a proposal until both accept; B5's point counts for Black as the rings show
    assert "proposal" in text and "not accepted yet" in text, text
    # the territory drawn is the proposal's: B5's point is Black's
    assert page.locator("rect.territory.black").count() > 30
    act(server, g["id"], g["black_token"], {"type": "set_dead", "points": ["B5"]})
    page.wait_for_selector("[data-testid=score]:has-text('0/2 accepted')")
    assert "B+1.5" in page.inner_text("[data-testid=score]")


def test_results_in_the_page_language_and_the_final_marking_for_review(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "the English page gives the result in Chinese"; "territory marks vanish once
    # the game ends, so a finished game cannot be reviewed with its count"
    g = new_game(server, game="go", size=9)
    to_counting(server, g)
    act(server, g["id"], g["black_token"], {"type": "set_dead", "points": ["B5"]})
    act(server, g["id"], g["black_token"], {"type": "accept"})
    act(server, g["id"], g["white_token"], {"type": "accept"})
    en = context_factory().new_page()
    en.goto(f"{server.url}/ui/#/game/{g['id']}")
    en.wait_for_selector("[data-testid=game-page][data-phase=finished]")
    en.get_by_test_id("final-count").get_by_text("B+1.5").wait_for()
    # issue 21: "labels 'Black (Black) to move' and 'White (White) wins'": no name, no repeat
    assert "Black wins by counting" in en.get_by_test_id("status").inner_text()
    for where in ("status", "final-count"):
        text = en.get_by_test_id(where).inner_text()
        assert "B+1.5" in text and "黑胜" not in text, text
    # the final marking stays on the board: B5 crossed out, both territories drawn
    en.wait_for_selector("rect.territory.white")
    assert en.locator("rect.territory.black").count() > 30
    assert en.locator(".dead-mark").count() == 1
    screenshot(en, "finished-count")
    zh = context_factory(locale="zh-CN").new_page()
    zh.goto(f"{server.url}/ui/#/game/{g['id']}")
    zh.get_by_test_id("final-count").get_by_text("黑胜3/4子").wait_for()
    text = zh.get_by_test_id("status").inner_text()
    assert "黑胜3/4子" in text and "B+1.5" not in text, text


def test_a_byoyomi_clock_leaves_the_name_on_one_line(server: Server, context_factory: Any) -> None:
    # issue 21: "the byo-yomi label squeezes the player's name onto four lines"
    g = new_game(
        server,
        game="go",
        size=9,
        time_control={"system": "chinese-byoyomi", "base": 0, "reserved_minutes": 10},
    )
    set_names(server, g, "Ke Jie", "Gu Li")
    act(server, g["id"], g["black_token"], {"type": "move", "move": "E5"})
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-testid=clock-white]:has-text('byo-yomi')")
    for seat in ("black", "white"):
        name = page.get_by_test_id(f"name-{seat}")
        box = name.bounding_box()
        line = float(name.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20"))
        assert box["height"] < 2.2 * line, (seat, box, line)


def test_renju_swap_fifth_move_and_draw_offers_read_right(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "At the three-move swap White is shown neither the opening's name nor Black's
    # N; the same-shape refusal of a fifth-move candidate is in English; Black's own draw offer
    # reads '对方提和 (黑方)' on his page; a third draw offer is blocked silently"; "the rejected
    # fifth-move candidates stay ringed all game"; "the status literally reads 'Black offers N
    # points'"
    g = new_game(server, game="gomoku", rules="chinese_2013")
    black = context_factory(locale="zh-CN").new_page()
    black.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    white = context_factory().new_page()
    white.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['white_token']}")
    white.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    # Gomoku §3.2: 寒星 (D1), N = 2; White decides on the swap knowing both (§2.9)
    act(
        server,
        g["id"],
        g["black_token"],
        {"type": "open", "moves": ["h8", "h9", "h10"], "fifth_n": 2},
    )
    line = white.get_by_test_id("opening-line")
    line.wait_for()
    assert (
        "D1" in line.inner_text() and "Kansei" in line.inner_text() and "N = 2" in line.inner_text()
    )
    act(server, g["id"], g["white_token"], {"type": "move", "move": "h6"})
    black.get_by_text("黑方提出2个点").wait_for()
    # the English status says how many, not "Black offers N points"
    white.get_by_test_id("status").get_by_text("Black offers 2 points").wait_for()
    assert "N points" not in white.get_by_test_id("status").inner_text()
    # §2.10 位置不同形: g9 and i9 make the same shape; the page says so in its language
    black.click("[data-point='g9']")
    black.click("[data-point='i9']")
    black.get_by_test_id("propose").click()
    black.wait_for_selector("#banner.error")
    text = black.inner_text("#banner")
    assert "位置同形" in text and "same shape" not in text, text
    black.get_by_test_id("clear-picks").click()
    black.click("[data-point='g9']")
    black.click("[data-point='j7']")
    black.get_by_test_id("propose").click()
    white.wait_for_selector("[data-candidate='j7']")
    act(server, g["id"], g["white_token"], {"type": "choose_fifth", "point": "j7"})
    # the candidate not kept is no longer ringed once play goes on
    white.wait_for_selector("[data-stone='j7']")
    assert white.locator("[data-candidate]").count() == 0
    # Gomoku §10.3: White's own offer reads as White's own; Black's page names the offerer
    act(server, g["id"], g["white_token"], {"type": "move", "move": "a1"})
    white.get_by_role("button", name="Offer a draw").wait_for()
    white.get_by_role("button", name="Offer a draw").click()
    white.get_by_test_id("draw-offer").get_by_text("You offered a draw").wait_for()
    assert "提和" in black.get_by_test_id("draw-offer").inner_text()
    assert "你已提和" not in black.get_by_test_id("draw-offer").inner_text()
    for n, (b, w) in enumerate((("o15", "a3"), ("o14", "a5")), start=1):
        act(server, g["id"], g["black_token"], {"type": "decline_draw"})
        act(server, g["id"], g["black_token"], {"type": "move", "move": b})
        act(server, g["id"], g["white_token"], {"type": "move", "move": w})
        if n == 1:
            act(server, g["id"], g["white_token"], {"type": "offer_draw"})
    # §10.3(4): White has offered twice, Black never: a third offer is refused, with words
    refused = white.get_by_test_id("no-more-offers")
    refused.wait_for()
    assert "10.3(4)" in refused.inner_text() and "2" in refused.inner_text()
    assert white.get_by_role("button", name="Offer a draw").count() == 0
    # Black's own offer on his Chinese page reads as his own, not "对方提和 (黑方)"
    act(server, g["id"], g["black_token"], {"type": "move", "move": "o13"})
    black.get_by_role("button", name="提和").click()  # after his move (Gomoku §10.3)
    own = black.get_by_test_id("draw-offer")
    own.get_by_text("你已提和").wait_for()
    assert "对方提和" not in own.inner_text(), own.inner_text()
    white.get_by_test_id("draw-offer").get_by_text("offers a draw").wait_for()


def test_a_double_click_plays_once_without_a_refusal(server: Server, context_factory: Any) -> None:
    # issue 21: "A double-click plays once but flashes 'black cannot play: it is white's turn'"
    g = new_game(server, game="go", size=9)
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['black_token']}")
    page.wait_for_selector("[data-testid=pass]")
    page.dblclick("[data-point='E5']")
    page.wait_for_selector("[data-testid=game-page][data-version='1']")
    page.wait_for_timeout(800)
    assert not page.is_visible("#banner.error"), page.inner_text("#banner")
    assert page.locator("[data-stone]").count() == 1


def test_an_event_renju_foul_waits_for_whites_claim_and_no_hints(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "A forbidden move ends the game without White's claim in an event game, and
    # before it Black is warned ... and can show all forbidden points: in a rated game that is
    # help to Black (Gomoku §12.2(7))". DECISIONS.md: White claims (Gomoku §10.1(2)).
    online = {"rules": "free_renju", "time_control": {"system": "absolute", "base": 900}}
    g = online_event_game(server.url, online, game="gomoku")
    gid = g["game_id"]
    for b, w in (("h8", "a1"), ("i8", "a3"), ("h9", "a5"), ("i10", "a7")):
        act(server, gid, g["black_token"], {"type": "move", "move": b})
        act(server, gid, g["white_token"], {"type": "move", "move": w})
    black = context_factory(locale="zh-CN").new_page()
    black.goto(f"{server.url}/ui/#/game/{gid}?token={g['black_token']}")
    black.wait_for_selector("[data-testid=pass]")
    # no forbidden points to show, and g8 (a double-three) is played without a warning
    assert black.get_by_test_id("forbidden").count() == 0
    black.click("[data-point='g8']")
    black.wait_for_selector("[data-stone='g8']")
    assert black.get_by_test_id("move-confirm").count() == 0
    s = state(server, gid)
    assert s["outcome"] is None  # the foul waits for White's claim
    white = context_factory().new_page()
    white.goto(f"{server.url}/ui/#/game/{gid}?token={g['white_token']}")
    white.get_by_test_id("claim").click()
    white.wait_for_selector("[data-testid=status]:has-text('White')")
    outcome = state(server, gid)["outcome"]
    assert outcome["winner"] == "white", outcome


@pytest.mark.gnugo
def test_against_the_computer_you_and_the_engine_by_name_and_no_arbiter(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "labels 'Black (Black) to move' and 'White (White) wins', 'Call the arbiter'
    # offered against a program"
    engines = httpx.get(server.url + "/api/engines").json()["engines"]
    go = [e for e in engines if e["game"] == "go"]
    if not go:
        pytest.skip("no Go engine offered (GNU Go is not installed)")
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    page.wait_for_selector("[data-testid=live-games] li")
    page.click("[data-testid=engine-box] summary")
    page.click("[data-testid=play-engine]")
    page.wait_for_selector("[data-testid=pass]")
    page.click("[data-point='E5']")
    page.wait_for_selector("[data-stone][data-color=white]", timeout=30_000)
    name = go[0].get("label") or go[0]["name"]
    page.get_by_test_id("name-white").get_by_text(name).wait_for()
    # "You · Black": the name says who sits there, no "(you)" after it (issue 32)
    assert page.get_by_test_id("name-black").inner_text().strip() == "You · Black"
    status = page.get_by_test_id("status").inner_text()
    assert "You (Black) to move" in status and "Black (Black)" not in status, status
    assert page.get_by_role("button", name="Call the arbiter").count() == 0


def test_the_creator_sits_at_once_with_one_invitation_in_two_clicks(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "after Create, four links appear under the form, 'each shown once'; the
    # creator stays on the home page; there is no single invite link and no list of 'my
    # games'". Now: Create seats the creator at Black's seat; the page offers one invitation
    # (and the spectators' link) to copy. The clicks are counted (docs/ui.md).
    ctx = context_factory(permissions=["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    page.goto(f"{server.url}/ui/#/")
    page.fill("[data-testid=new-black-name]", "Lin")
    page.fill("[data-testid=new-white-name]", "Zhou")
    page.get_by_role("button", name="Create").click()  # click 1
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    game_id = page.get_attribute("[data-testid=game-page]", "data-game-id")
    # the creator's own seat: Black's, with the moves to make
    page.get_by_test_id("pass").wait_for()
    assert "(you)" in page.get_by_test_id("name-black").inner_text()
    invite = page.get_by_test_id("game-links")
    # one invitation with a seat's key, one link for spectators; the arbiter's folded away
    seat_links = [
        a
        for a in invite.get_by_role("link").all()
        if a.is_visible() and "token=" in (a.get_attribute("href") or "")
    ]
    assert len(seat_links) == 1, [a.get_attribute("href") for a in seat_links]
    assert invite.get_by_role("button", name="Copy link").count() == 2
    assert not page.is_visible("[data-testid=link-arbiter]")
    invitation = invite.get_by_test_id("link-white").get_attribute("href")
    assert invitation.startswith(f"#/game/{game_id}?token=") and invitation not in page.url
    screenshot(page, "game-invite")
    invite.get_by_role("button", name="Copy link").first.click()  # click 2: to send it
    page.wait_for_selector("[data-testid=copy-link-white][data-copied=yes]")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{server.url}/ui/{invitation}"
    # the friend opens the invitation: White's seat, the game starts, no invitation there
    friend = context_factory().new_page()
    friend.goto(copied)
    friend.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    friend.get_by_test_id("name-white").get_by_text("(you)").wait_for()
    assert friend.get_by_test_id("game-links").count() == 0
    # "my games": the creator's browser lists the game it created, the friend's the one joined
    page.goto(f"{server.url}/ui/#/")
    mine = page.get_by_role("region", name="My games (this browser)")
    mine.get_by_role("link", name="Go: play as Black").click()
    page.wait_for_selector(f"[data-testid=game-page][data-game-id='{game_id}'][data-connected=yes]")
    page.get_by_test_id("pass").wait_for()  # Lin's own seat (its moves come with the analysis)
    friend.goto(f"{server.url}/ui/#/")
    joined = friend.get_by_role("region", name="My games (this browser)")
    joined.get_by_role("link", name="Go: play as White").wait_for()
    assert "joined" in joined.inner_text()


def test_another_page_opens_at_its_top(server: Server, context_factory: Any) -> None:
    # issue 21: "a changed page keeps the old scroll position" (one document, hash routes: a
    # page built at once, like the new-event form, opened where the old one had been scrolled)
    page = context_factory(viewport={"width": 390, "height": 700}).new_page()  # a phone
    page.goto(f"{server.url}/ui/#/")
    page.wait_for_selector("[data-testid=create-game]")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 300
    # the link followed from down the page, the window not scrolled to it first (a link in a
    # bar that stays in view, a keyboard shortcut)
    page.get_by_role("link", name="New event").evaluate("a => a.click()")
    page.wait_for_selector("[data-testid=create-event]")
    # the new page is long enough to have kept the old place, and opens at its top
    assert page.evaluate("document.documentElement.scrollHeight - window.innerHeight") > 200
    assert page.evaluate("window.scrollY") == 0
    # and the other way
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 200
    page.get_by_role("link", name="Home").evaluate("a => a.click()")
    page.wait_for_selector("[data-testid=create-game]")
    assert page.evaluate("window.scrollY") == 0


def test_a_player_asks_for_the_overtime_pass_with_a_button(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "the Go §22.5 overtime-pass request exists in the API only (no button for a
    # player)"
    g = new_game(
        server,
        game="go",
        size=9,
        time_control={"system": "chinese-byoyomi", "base": 0, "reserved_minutes": 3},
    )
    act(server, g["id"], g["black_token"], {"type": "move", "move": "E5"})
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/game/{g['id']}?token={g['white_token']}")
    button = page.get_by_role("button", name="Pass on overtime")
    button.wait_for()
    assert "Go §22.5" in (button.get_attribute("title") or "")
    button.click()
    # asked: the page says so, and the server holds the request for White
    page.get_by_text("Pass on overtime asked for (Go §22.5)").wait_for()
    assert page.get_by_role("button", name="Pass on overtime").count() == 0
    analysis = httpx.get(f"{server.url}/api/games/{g['id']}/analysis").json()
    assert analysis["overtime_pass"] == ["white"], analysis.get("overtime_pass")


def test_the_clock_waits_until_the_invited_friend_sits_down(
    server: Server, context_factory: Any
) -> None:
    # issue 21: "A casual game's clock starts when the game is created ...: 13 s were gone
    # before Black opened the link, and Black had 0:51 of 1:00 on arrival"
    page = context_factory().new_page()
    page.goto(f"{server.url}/ui/#/")
    form = page.locator("form").filter(has=page.get_by_role("button", name="Create"))
    form.get_by_label("Time control").select_option("absolute")
    form.get_by_label("Main time (minutes)").fill("1")
    page.get_by_role("button", name="Create").click()
    page.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    # the page says when the clock starts; the creator's seat counts as sat down
    page.get_by_test_id("clock-start").get_by_text("(1/2 seated)").wait_for()
    invitation = page.get_by_test_id("link-white").get_attribute("href")
    game_id = page.get_attribute("[data-testid=game-page]", "data-game-id")
    page.wait_for_timeout(2500)  # the friend takes a while to open the link
    assert state(server, game_id)["clock"]["started"] is False
    friend = context_factory().new_page()
    arrives = time.monotonic()
    friend.goto(f"{server.url}/ui/{invitation}")
    friend.wait_for_selector("[data-testid=game-page][data-connected=yes]")
    page.get_by_test_id("clock-start").wait_for(state="detached")
    s = state(server, game_id)
    assert s["clock"]["started"] is True and s["clock_running"] == "black"
    # Black has the whole minute on the friend's arrival, not 0:51: no more is gone than the
    # time since the friend opened the link (however long a loaded machine took)
    since = time.monotonic() - arrives
    assert 60 - s["clocks"]["black"]["base"] <= since + 0.5, (s["clocks"], since)
    shown = friend.get_by_test_id("clock-black").inner_text()
    since = time.monotonic() - arrives
    minutes, seconds = shown.split(":")
    assert 60 - (int(minutes) * 60 + int(seconds)) <= since + 1, (shown, since)
