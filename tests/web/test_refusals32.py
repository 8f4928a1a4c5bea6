"""Refusals reach the page as a code with its values and are said in the page's language
(issue 32): a static check that every code the server can send has English and Chinese
words on the pages; then, on Chinese pages, the refusals a player, an arbiter and a director
meet: not on move (Go §2.3, Gomoku §4.1), the marking changed before an acceptance (Go §21),
the takeback refusals, a void move for the player not on move (Go §19), a call already
answered, a name already entered. Playwright in Debian's chromium, read by visible words.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import Server
from tests.web.conftest import new_game, screenshot
from tests.web.test_arbiter import card, make_event, rulings_of
from tests.web.test_browser import open_game
from tests.web.test_player import act

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "duiyi"
CJK = re.compile(r"[\u4e00-\u9fff]")
# English left in a Chinese refusal: a word of three letters or more (points, 围棋§ excepted)
ENGLISH = re.compile(r"[A-Za-z]{3,}")


def _module_codes(tree: ast.Module) -> dict[str, list[str]]:
    """The codes of a module's code tables: each ``*_CODES`` assignment's string values (a
    dict of codes, or of ``(code, keys)`` pairs, as :data:`duiyi.server.schemas.SCHEMA_CODES`)
    and each ``SCHEMA_OTHER``-like string constant next to them."""
    out: dict[str, list[str]] = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not (isinstance(target, ast.Name) and node.value is not None):  # type: ignore[union-attr]
            continue
        value = node.value  # type: ignore[union-attr]
        if target.id.endswith("_CODES") and isinstance(value, ast.Dict):
            for v in value.values:
                first = v.elts[0] if isinstance(v, ast.Tuple) else v
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    out.setdefault(first.value, []).append(f"{target.id}:{node.lineno}")
        elif target.id == "SCHEMA_OTHER" and isinstance(value, ast.Constant):
            out.setdefault(str(value.value), []).append(f"{target.id}:{node.lineno}")
    return out


def server_codes() -> dict[str, list[str]]:
    """Every refusal code the server can send: the ``code=`` string of each call in src/duiyi
    (docstring examples are strings, not calls) and the codes of its code tables (a
    request-schema refusal's, a refused character's), with where it is raised; and the
    codes a page raises itself (``code: "…"`` in src/duiyi/web/*.js, a pasted line)."""
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for code, where in _module_codes(tree).items():
            found.setdefault(code, []).extend(f"{path.relative_to(ROOT)}:{w}" for w in where)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                if kw.arg != "code":
                    continue
                if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.setdefault(kw.value.value, []).append(where)
                else:
                    # a computed code could not be checked here: only a socket's close code
                    # (a number) may be one, a parameter or a caught refusal's own code handed
                    # on (its callers' literals are checked), or an entry of a code table
                    # (``*_CODES``, whose values are checked)
                    text = ast.unparse(kw.value)
                    assert re.fullmatch(
                        r"code|\w+\.code|_?[A-Z_]+_CODES\[\w+\]|"
                        r"CLOSE_\w+|CLOSE_\w+ if .+ else CLOSE_\w+",
                        text,
                    ), f"{path}:{node.lineno}: a refusal code must be a literal string ({text})"
    for path in sorted((SRC / "web").glob("*.js")):
        for m in re.finditer(r'\bcode: "([\w-]+)"', path.read_text(encoding="utf-8")):
            found.setdefault(m.group(1), []).append(str(path.relative_to(ROOT)))
    return found


#: The refusals a director meets: every tournament refusal (TournamentError and its
#: PairingError) raised in src/duiyi/tournament, and every state refusal (a 409: those two
#: and Conflict) raised by the desk's routes and the event changes of the server.
DESK_REFUSALS = ("TournamentError", "PairingError", "Conflict", "EnteredMeanwhile")
DESK_SOURCES = (
    "tournament",
    "server/events",
    *(
        f"server/routes/{name}.py"
        for name in (
            "desk",
            "events",
            "knockout",
            "players",
            "prints",
            "results",
            "rounds",
            "standings",
        )
    ),
)


def uncoded(kinds: tuple[str, ...], sources: tuple[str, ...]) -> list[str]:
    """Where a refusal of one of ``kinds`` is raised in ``sources`` without a code (its page
    could only show the server's English)."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if not any(rel == s or rel.startswith(s + "/") for s in sources):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            if ast.unparse(node.exc.func) not in kinds:
                continue
            if not any(kw.arg == "code" for kw in node.exc.keywords):
                out.append(f"{rel}:{node.lineno}")
    return out


def test_every_desk_refusal_carries_a_code() -> None:
    # issue 32: a refusal at the desk reaches the page as a code with its values and is
    # said in the page's language; the words of every code are checked below
    missing = uncoded(DESK_REFUSALS, DESK_SOURCES)
    assert not missing, f"desk refusals raised without code=: {missing}"


#: The input a page user can get wrong (issue 32): a pasted player list or a players' file,
#: a results table, the event's settings (system options, online games, the clock, points,
#: ranks), a ruling's fields, move number, article and points, and any request body the
#: schemas refuse (:data:`duiyi.server.schemas.SCHEMA_CODES`, checked below).
INPUT_REFUSALS = ("InvalidInput", "EventFileError", "TableFileError", "InvalidRules")
INPUT_SOURCES = (
    "tournament/formats/csvfiles.py",
    "tournament/results.py",
    "tournament/options.py",
    "tournament/pairing/mcmahon.py",
    "server/events",
    "server/schemas.py",
    "server/games/rulings.py",
    *(f"server/routes/{name}.py" for name in ("players", "results", "events")),
    "clock/systems.py",
    "games/go.py",
    *(f"referee/{name}.py" for name in ("penalties", "corrections", "losses")),
)
#: and the arbiter's rulings the book does not allow as asked (the room's form)
RULING_REFUSALS = ("RefereeError",)
RULING_SOURCES = (
    "server/games/rulings.py",
    *(f"referee/{name}.py" for name in ("penalties", "corrections", "losses")),
)


def test_every_input_refusal_a_page_user_meets_carries_a_code() -> None:
    # before: "players CSV line 3: rating must be a whole number…" on a Chinese desk
    missing = uncoded(INPUT_REFUSALS, INPUT_SOURCES)
    assert not missing, f"input refusals raised without code=: {missing}"
    missing = uncoded(RULING_REFUSALS, RULING_SOURCES)
    assert not missing, f"ruling refusals raised without code=: {missing}"


def sent_values() -> dict[str, set[str]]:
    """The values every raise of a code sends, where each names them in a literal dict
    (``values={"line": …}``): a code's words may name only those."""
    sent: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            kws = {kw.arg: kw.value for kw in node.keywords}
            code, values = kws.get("code"), kws.get("values")
            if not (isinstance(code, ast.Constant) and isinstance(values, ast.Dict)):
                continue
            if not all(isinstance(k, ast.Constant) for k in values.keys):
                continue
            keys = {str(k.value) for k in values.keys if isinstance(k, ast.Constant)}
            sent[code.value] = sent.get(code.value, keys) & keys
    # a schema refusal sends its field and the context values its table names
    from duiyi.server.schemas import SCHEMA_CODES

    for code, ctx in SCHEMA_CODES.values():
        keys = {"field"} | {"expected" if k == "expected_tags" else k for k in ctx}
        sent[code] = sent.get(code, keys) & keys
    return sent


def test_the_words_of_a_code_name_only_values_it_sends() -> None:
    words = page_words()
    for code, keys in sent_values().items():
        named = set(re.findall(r"\{(\w+)\}", words[code][0]))
        assert named <= keys, f"{code}: the words name {named - keys}, never sent"


def page_words() -> dict[str, list[str]]:
    """The pages' ``err.<code>`` texts: [English, 中文] from the i18n tables."""
    words: dict[str, list[str]] = {}
    for path in sorted((SRC / "web").glob("i18n*.js")):
        for m in re.finditer(r'^\s*"err\.([\w-]+)": (\[.*\]),\s*$', path.read_text(), re.M):
            words[m.group(1)] = json.loads(m.group(2))
    return words


def test_every_refusal_code_the_server_sends_has_words_in_both_languages() -> None:
    codes = server_codes()
    words = page_words()
    # the refusals issue 32 names, each coded
    for code in (
        "not-on-move",
        "marking-changed",
        "takeback-none-open",
        "takeback-asked-already",
        "takeback-nothing",
        "void-not-on-move",
        "call-answered",
        "disqualification-unapproved",
        "takeback-not-last-stone",
        "replace-not-last-stone",
    ):
        assert code in codes, f"{code} is not sent by the server"
    missing = {c: where for c, where in codes.items() if c not in words}
    assert not missing, f"codes without the pages' words (err.<code> in i18n.js): {missing}"
    for code in codes:
        en, zh = words[code]
        assert en.strip() and not CJK.search(en), (code, en)
        assert CJK.search(zh) and not ENGLISH.search(re.sub(r"\{\w+\}", "", zh)), (code, zh)
        # the same values in both languages, and none the server does not send
        assert set(re.findall(r"\{(\w+)\}", en)) == set(re.findall(r"\{(\w+)\}", zh)), code


def banner(page: Any) -> str:
    error = page.get_by_test_id("error")
    error.wait_for()
    text: str = error.inner_text().replace("×", "").strip()
    return text


def chinese(text: str) -> bool:
    """Said in Chinese: no English word left (points such as E5 and the articles' 围棋§ are)."""
    return bool(CJK.search(text)) and not ENGLISH.search(text)


def refuse_through_the_page(page: Any, game_id: str, token: str, action: dict[str, Any]) -> str:
    """Send ``action`` with the page's own API client; the page shows the refusal as it
    shows any (its error notice), read back by its visible words."""
    page.evaluate(
        """([id, token, action]) => Promise.all([import('/ui/api.js')]).then(([m]) =>
             m.api('POST', `/api/games/${id}/actions`, { token, body: action })
               .then(() => 'accepted', (e) => { m.showError(e); return 'refused'; }))""",
        [game_id, token, action],
    )
    return banner(page)


@pytest.mark.browser
def test_a_players_refusals_are_said_in_chinese(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9)  # casual: takebacks by agreement
    gid = g["id"]
    page = open_game(context_factory(locale="zh-CN"), server, gid, g["white_token"])
    # Go §2.3: Black plays first (before: "white cannot play: it is black's turn")
    text = refuse_through_the_page(page, gid, g["white_token"], {"type": "move", "move": "E5"})
    assert "现在轮到黑方，不是白方" in text and "围棋§2.3" in text and chinese(text), text
    page.get_by_test_id("error").get_by_role("button").click()
    # no takeback asked: White cannot agree to one (before: "black has no request to take
    # back a move open…")
    act(server, gid, g["black_token"], {"type": "move", "move": "E5"})
    text = refuse_through_the_page(page, gid, g["white_token"], {"type": "accept_takeback"})
    assert "黑方没有待答复的悔棋请求" in text and chinese(text), text
    page.get_by_test_id("error").get_by_role("button").click()
    # White has no move of its own to take back
    text = refuse_through_the_page(page, gid, g["white_token"], {"type": "request_takeback"})
    assert "白方自上次变动以来没有自己的着手可以收回" in text and chinese(text), text
    page.get_by_test_id("error").get_by_role("button").click()
    # Black asks; White cannot ask meanwhile
    act(server, gid, g["white_token"], {"type": "move", "move": "D5"})
    act(server, gid, g["black_token"], {"type": "request_takeback"})
    text = refuse_through_the_page(page, gid, g["white_token"], {"type": "request_takeback"})
    assert "黑方已经提出悔棋" in text and chinese(text), text
    screenshot(page, "refusal-zh")


@pytest.mark.browser
def test_an_acceptance_of_a_changed_marking_is_refused_in_chinese(
    server: Server, context_factory: Any
) -> None:
    g = new_game(server, game="go", size=9)
    gid = g["id"]
    blacks = [f"E{r}" for r in range(1, 10)]
    whites = [f"F{r}" for r in range(1, 10)]
    for b, w in zip(blacks, whites, strict=True):
        act(server, gid, g["black_token"], {"type": "move", "move": b})
        act(server, gid, g["white_token"], {"type": "move", "move": w})
    act(server, gid, g["black_token"], {"type": "move", "move": "H5"})  # dead in White's area
    act(server, gid, g["white_token"], {"type": "pass"})
    act(server, gid, g["black_token"], {"type": "pass"})
    st = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert st["phase"] == "counting", st["phase"]
    page = open_game(context_factory(locale="zh-CN"), server, gid, g["black_token"])
    act(server, gid, g["white_token"], {"type": "set_dead", "points": ["H5"]})
    # Go §21: Black accepts a marking with nothing dead, which is no longer the game's
    text = refuse_through_the_page(page, gid, g["black_token"], {"type": "accept", "dead": []})
    assert "死子标记已改变" in text and "H5" in text and "围棋§21" in text, text
    assert chinese(text), text


@pytest.mark.browser
def test_the_arbiters_refusals_are_said_in_chinese(server: Server, context_factory: Any) -> None:
    go = make_event(server, "go", 2)
    g1 = go["games"][0]
    gid = g1["game_id"]
    act(server, gid, g1["black_token"], {"type": "move", "move": "E5"})
    r = httpx.post(
        f"{server.url}/api/games/{gid}/calls",
        json={"about": "time", "text": "钟走快了"},
        headers={"Authorization": f"Bearer {g1['white_token']}"},
    )
    assert r.status_code == 201, r.text
    tabs = []
    for _ in range(2):
        tab = context_factory(viewport={"width": 1024, "height": 768}, locale="zh-CN").new_page()
        tab.goto(f"{server.url}/ui/#/room/{go['id']}?arbiter={go['arbiter_token']}")
        card(tab, 1).get_by_label("裁决种类").wait_for()
        tabs.append(tab)
    first, second = tabs
    # Go §19: voiding Black's move while White is on move (before: "black is not on move: …")
    c = card(first, 1)
    c.get_by_label("裁决种类").select_option(label="着手无效")
    c.get_by_label("棋手", exact=True).select_option("black")
    c.get_by_role("button", name="裁决…").click()
    c.get_by_role("button", name="确认裁决").click()
    text = banner(first)
    assert "黑方不是走棋方" in text and "第2手" in text and chinese(text), text
    assert rulings_of(server, gid) == []
    first.get_by_test_id("error").get_by_role("button").click()
    # one answer per call: both tabs answer call 1; the second is refused in Chinese
    for tab in tabs:
        c = card(tab, 1)
        c.get_by_label("裁决种类").select_option(label="校正计时（加减）")
        c.get_by_label("棋手", exact=True).select_option("white")
        c.locator("[data-testid*=more-min]").first.click()  # a minute back
        pick = c.get_by_label("答复的申诉", exact=True)
        option = pick.locator("option", has_text="钟走快了")
        option.wait_for(state="attached")
        pick.select_option(label=option.inner_text())
    card(first, 1).get_by_role("button", name="裁决…").click()
    card(first, 1).get_by_role("button", name="确认裁决").click()
    card(first, 1).locator("[data-testid=rulings-1] li").first.wait_for()
    c2 = card(second, 1)
    c2.get_by_role("button", name="裁决…").click()
    c2.get_by_role("button", name="确认裁决").click()
    text = banner(second)
    assert "第1次呼叫已经答复过" in text and chinese(text), text
    assert len(rulings_of(server, gid)) == 1


@pytest.mark.browser
def test_the_desks_refusals_are_said_in_chinese(server: Server, context_factory: Any) -> None:
    r = httpx.post(
        server.url + "/api/events",
        json={"name": "五子棋公开赛", "game": "gomoku", "system": "swiss", "rounds": 3},
    )
    ev = r.json()
    org = {"Authorization": f"Bearer {ev['organiser_token']}"}
    roster = [{"name": n, "rank": "3d"} for n in ("王一", "张二", "李三", "赵四")]
    assert httpx.post(f"{server.url}/api/events/{ev['id']}/players", json=roster, headers=org)
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/players?key={ev['organiser_token']}")
    page.get_by_test_id("desk").wait_for()
    # a name entered twice (before: "player '张二' is already entered")
    form = page.locator("form", has=page.get_by_role("button", name="添加棋手"))
    form.get_by_label("姓名", exact=True).fill("张二")
    form.get_by_role("button", name="添加棋手").click()
    text = banner(page)
    assert "张二 已经报名" in text and chinese(text.replace("张二", "")), text


@pytest.mark.browser
def test_a_ko_retaken_at_once_is_refused_in_chinese(server: Server, context_factory: Any) -> None:
    g = new_game(server, game="go", size=9)
    gid = g["id"]
    # Black takes White's E5 with F5; White may not retake at E5 at once: under the game's
    # situational superko the retake repeats the position before Black's F5 (Go §6)
    moves = ("D5", "E5", "E6", "F6", "E4", "F4", "J9", "G5", "F5")
    for i, point in enumerate(moves):
        act(
            server,
            gid,
            g["black_token" if i % 2 == 0 else "white_token"],
            {"type": "move", "move": point},
        )
    page = open_game(context_factory(locale="zh-CN"), server, gid, g["white_token"])
    page.wait_for_selector("[data-testid=game-page][data-version='9']")
    page.click("[data-point='E5']")
    text = banner(page)
    # before: "illegal move E5: repeats an earlier whole-board position (Go §6)"
    assert "E5 会使全盘重复以前出现过的局面" in text and "围棋§6" in text and chinese(text), text


def refuse_at_the_desk(page: Any, method: str, path: str, token: str, body: Any = None) -> str:
    """Send a desk request with the page's own API client; the page shows the refusal as it
    shows any (its error notice), read back by its visible words."""
    page.evaluate(
        """([method, path, token, body]) => import('/ui/api.js').then((m) =>
             m.api(method, path, { token, body })
               .then(() => 'accepted', (e) => { m.showError(e); return 'refused'; }))""",
        [method, path, token, body],
    )
    text = banner(page)
    page.get_by_test_id("error").get_by_role("button").click()
    return text


@pytest.mark.browser
def test_the_desks_pairing_results_and_absence_refusals_are_said_in_chinese(
    server: Server, context_factory: Any
) -> None:
    ev = httpx.post(
        server.url + "/api/events",
        json={"name": "五子棋公开赛", "game": "gomoku", "system": "swiss", "rounds": 3},
    ).json()
    eid, key = ev["id"], ev["organiser_token"]
    org = {"Authorization": f"Bearer {key}"}
    roster = [{"name": n, "rank": "3d"} for n in ("王一", "张二", "李三", "赵四")]
    assert httpx.post(f"{server.url}/api/events/{eid}/players", json=roster, headers=org)
    assert httpx.post(f"{server.url}/api/events/{eid}/rounds", headers=org).status_code < 300
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{eid}/players?key={key}")
    page.get_by_test_id("desk").wait_for()
    # round 1 has no results: round 2 cannot be paired (before: "round 1 has no result yet
    # on board(s) 1, 2; enter them before pairing the next round")
    text = refuse_at_the_desk(page, "POST", f"/api/events/{eid}/rounds", key)
    assert "第1轮第 1, 2 台尚无结果" in text and chinese(text), text
    # Gomoku §12.3(4): the second violation loses the game, cited from the Gomoku book,
    # never Go §24.2 (before: "round 1 board 1: black had two violations and so loses …")
    text = refuse_at_the_desk(
        page,
        "PUT",
        f"/api/events/{eid}/rounds/1/boards/1/result",
        key,
        {"result": "1-0", "black_warnings": 2},
    )
    assert "第1轮第1台：黑方两次违例，判负" in text and "五子棋§12.3(4)" in text, text
    assert "围棋" not in text and chinese(text), text
    # absences are marked before a round is paired (before: "round 1 is already paired: …")
    text = refuse_at_the_desk(
        page, "PUT", f"/api/events/{eid}/players/1/rounds/1", key, {"present": False}
    )
    assert "第1轮已经编排：缺席须在该轮编排前登记（1 号棋手）" in text and chinese(text), text
    # only a withdrawal can be taken back (before: "player 2 has not withdrawn")
    text = refuse_at_the_desk(page, "POST", f"/api/events/{eid}/players/2/withdraw/undo", key)
    assert "2 号棋手没有退赛" in text and chinese(text), text
    # a board the round does not have (before: "round 1 has no board 5 (boards 1–2)")
    text = refuse_at_the_desk(
        page, "PUT", f"/api/events/{eid}/rounds/1/boards/5/result", key, {"result": "1-0"}
    )
    assert "第1轮没有第5台（共2台）" in text and chinese(text), text


@pytest.mark.browser
def test_a_go_desks_hand_pairing_draw_and_settings_refusals_are_said_in_chinese(
    server: Server, context_factory: Any
) -> None:
    ev = httpx.post(
        server.url + "/api/events",
        json={"name": "围棋公开赛", "game": "go", "system": "swiss", "rounds": 3},
    ).json()
    eid, key = ev["id"], ev["organiser_token"]
    org = {"Authorization": f"Bearer {key}"}
    roster = [{"name": n, "rank": "3d"} for n in ("王一", "张二", "李三", "赵四")]
    assert httpx.post(f"{server.url}/api/events/{eid}/players", json=roster, headers=org)
    assert httpx.post(f"{server.url}/api/events/{eid}/rounds", headers=org).status_code < 300
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{eid}/players?key={key}")
    page.get_by_test_id("desk").wait_for()
    # a pairing by hand naming player 1 twice (before: "player 1 is paired twice in round 1")
    text = refuse_at_the_desk(
        page,
        "POST",
        f"/api/events/{eid}/rounds/1/pairings/check",
        key,
        {"games": [[1, 2], [1, 3]], "byes": []},
    )
    assert "1 号棋手在第1轮被编排了两次" in text and chinese(text), text
    # a Swiss round is not an elimination round: a draw there is a result; the article is
    # the Go book's (Go §26.1), never Gomoku §18.2 (before: "round 1 is not an elimination
    # round: enter the draw as a result (Gomoku §18.2)")
    text = refuse_at_the_desk(
        page, "POST", f"/api/events/{eid}/rounds/1/boards/1/settle-draw", key, {"way": "replay"}
    )
    assert "第1轮不是淘汰轮" in text and "围棋§26.1" in text, text
    assert "五子棋" not in text and chinese(text), text
    # fewer rounds than are paired (before: "2 rounds are paired already")
    for board in (1, 2):
        r = httpx.put(
            f"{server.url}/api/events/{eid}/rounds/1/boards/{board}/result",
            json={"result": "1-0"},
            headers=org,
        )
        assert r.status_code == 200, r.text
    assert httpx.post(f"{server.url}/api/events/{eid}/rounds", headers=org).status_code < 300
    text = refuse_at_the_desk(page, "PATCH", f"/api/events/{eid}", key, {"rounds": 1})
    assert "已经编排了2轮" in text and chinese(text), text


def refuse_through(page: Any, method: str, path: str, options: dict[str, Any]) -> str:
    """Send a request with the page's own API client and ``options`` (``token``, ``body``,
    ``csv``); the page shows the refusal as it shows any, read back by its visible words."""
    page.evaluate(
        """([method, path, options]) => import('/ui/api.js').then((m) =>
             m.api(method, path, options)
               .then(() => 'accepted', (e) => { m.showError(e); return 'refused'; }))""",
        [method, path, options],
    )
    text = banner(page)
    page.get_by_test_id("error").get_by_role("button").click()
    return text


def go_desk(server: Server, context_factory: Any, **event: Any) -> tuple[Any, str, str]:
    """A Chinese page on the players' tab of a new Go event's desk: (page, id, key)."""
    ev = httpx.post(
        server.url + "/api/events",
        json={"name": "围棋公开赛", "game": "go", "system": "swiss", "rounds": 3, **event},
    ).json()
    page = context_factory(locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/desk/{ev['id']}/players?key={ev['organiser_token']}")
    page.get_by_test_id("desk").wait_for()
    return page, ev["id"], ev["organiser_token"]


def paste(page: Any, text: str) -> str:
    """Paste ``text`` into the desk's players box and import it: the refusal shown."""
    page.get_by_test_id("csv").fill(text)
    page.get_by_test_id("import").click()
    said = banner(page)
    page.get_by_test_id("error").get_by_role("button").click()
    return said


@pytest.mark.browser
def test_a_bad_pasted_player_line_is_refused_in_chinese_naming_it(
    server: Server, context_factory: Any
) -> None:
    page, eid, _key = go_desk(server, context_factory)
    # a line of the table without a name (before: "line 3: no name", the page's own English)
    text = paste(page, "姓名,段位\n王一,3d\n,2d\n")
    assert text == "棋手名单第3行：姓名为空", text
    # a rating past the schema's bound (before: "bad player: 1 validation error for
    # NewPlayer rating Input should be less than or equal to 10000 …")
    text = paste(page, "姓名,段位,等级分\n王一,3d,2100\n张二,2d,20000\n")
    assert text == "第2项的等级分不能大于10000", text
    # an invisible character in a name (before: "… a zero-width character is not allowed
    # (found U+200B ZERO WIDTH SPACE at position 2)")
    text = paste(page, "王一 3d\n李\u200b四 2d\n")
    assert "第2项的姓名：第2个字符（U+200B）是不可见的零宽字符" in text and chinese(text), text
    # nothing was entered
    assert httpx.get(f"{server.url}/api/events/{eid}").json()["players"] == 0


@pytest.mark.browser
def test_a_bad_results_table_line_and_bad_settings_are_refused_in_chinese(
    server: Server, context_factory: Any
) -> None:
    page, eid, key = go_desk(server, context_factory)
    org = {"Authorization": f"Bearer {key}"}
    roster = [{"name": n, "rank": "3d"} for n in ("王一", "张二", "李三", "赵四")]
    assert httpx.post(f"{server.url}/api/events/{eid}/players", json=roster, headers=org)
    assert httpx.post(f"{server.url}/api/events/{eid}/rounds", headers=org).status_code < 300
    results = f"/api/events/{eid}/results"
    # a board that is no number (before: "results CSV line 3: board must be a number in
    # ASCII digits (0-9), got 'x'")
    text = refuse_through(
        page, "POST", results, {"token": key, "csv": "round,board,result\n1,1,1-0\n1,x,0-1\n"}
    )
    assert text == "成绩表第3行：台次须为半角数字（0–9），不能是 x", text
    # a result no code names (before: "results CSV line 2: not a result: '2-0' (expected …)");
    # the codes to write stay as written in the table
    text = refuse_through(
        page, "POST", results, {"token": key, "csv": "round,board,result\n1,1,2-0\n"}
    )
    assert text.startswith("成绩表第2行：2-0 不是对局结果（应为 1-0, 0-1, draw"), text
    assert "not a result" not in text and "CSV" not in text, text
    # the settings: no rounds (the schema's bound; before: "body.rounds: Input should be
    # greater than or equal to 1") and a tiebreak list that is none
    text = refuse_through(
        page, "PATCH", f"/api/events/{eid}", {"token": key, "body": {"rounds": 0}}
    )
    assert text == "轮数不能小于1", text
    text = refuse_through(
        page, "PATCH", f"/api/events/{eid}", {"token": key, "body": {"options": {"tiebreaks": 5}}}
    )
    assert text == "设置项 对比方法 不能是 5", text
    assert httpx.get(f"{server.url}/api/events/{eid}").json()["rounds"] == 3


@pytest.mark.browser
def test_a_rulings_move_number_and_article_are_refused_in_chinese(
    server: Server, context_factory: Any
) -> None:
    go = make_event(server, "go", 2)
    g1 = go["games"][0]
    gid = g1["game_id"]
    act(server, gid, g1["black_token"], {"type": "move", "move": "E5"})
    page = context_factory(viewport={"width": 1024, "height": 768}, locale="zh-CN").new_page()
    page.goto(f"{server.url}/ui/#/room/{go['id']}?arbiter={go['arbiter_token']}")
    card(page, 1).get_by_label("裁决种类").wait_for()
    rulings = f"/api/games/{gid}/rulings"
    token = go["arbiter_token"]
    # a warning at move 9 of a game of one move (before: "move_number: 9 is past the
    # game's last move (1 played)")
    body = {"kind": "warning", "color": "black", "move_number": 9}
    text = refuse_through(page, "POST", rulings, {"token": token, "body": body})
    assert text == "第9手超出了已下的着数（已下1手）", text
    # an article of the other book, said as the page cites it (before: "article: 'Gomoku
    # §12.3' is not an article of the Go rules (Go §1-§33, written as …)")
    body = {"kind": "warning", "color": "black", "article": "Gomoku §12.3"}
    text = refuse_through(page, "POST", rulings, {"token": token, "body": body})
    assert text == "五子棋§12.3 不是本棋规的条款（§1–§33）", text
    # an article not written as the books are: the field named (before: "body.warning.
    # article: String should match pattern …")
    body = {"kind": "warning", "color": "black", "article": "Go §99"}
    text = refuse_through(page, "POST", rulings, {"token": token, "body": body})
    assert text == "条款的格式不对", text
    # a point off the 9×9 board, the field named (before: "points.0: not a point of the 9x9
    # board: 'K10' (Go §1)")
    body = {"kind": "stones_restored", "color": "white", "points": ["K10"]}
    text = refuse_through(page, "POST", rulings, {"token": token, "body": body})
    assert text == "交叉点的第1项：K10 不是9路棋盘上的交叉点（围棋§1）", text
    # Go §17.3: a dropped stone is taken back with the opponent's consent, else the chief
    # arbiter's (before: "without the opponent's consent the stone stays unless the chief
    # arbiter decides otherwise (Go §17.3): pass chief_arbiter=True")
    body = {"kind": "dropped_stone", "color": "black", "consent": False}
    text = refuse_through(page, "POST", rulings, {"token": token, "body": body})
    assert text.startswith("未经对方同意，该子不能拿回") and "“由裁判长裁决”" in text, text
    assert "围棋§17.3" in text and chinese(text), text
    assert rulings_of(server, gid) == []


@pytest.mark.browser
def test_own_group_dispute_pairing_reason_and_clock_summary_read_right_in_chinese(
    server: Server, context_factory: Any
) -> None:
    # issue 32, what a Chinese page showed before: "white cannot claim its own group at C5
    # dead (Go §21.4)（围棋§21.4）", "跳过 4 （先后手冲突）", "网络对局设置：… · 包干制"
    g = new_game(server, game="go", size=9)
    gid = g["id"]
    act(server, gid, g["black_token"], {"type": "move", "move": "E5"})
    act(server, gid, g["white_token"], {"type": "pass"})
    act(server, gid, g["black_token"], {"type": "pass"})
    page = open_game(context_factory(locale="zh-CN"), server, gid, g["black_token"])
    # Go §21.4: the one who claims a group dead disputes it, not its owner
    text = refuse_through_the_page(page, gid, g["black_token"], {"type": "dispute", "point": "E5"})
    assert "黑方不能主张自己在 E5 的棋为死子" in text and chinese(text), text
    assert text.count("§21.4") == 1, text
    said = page.evaluate(
        """() => Promise.all([import('/ui/api.js'), import('/ui/labels.js'),
             import('/ui/event.js')]).then(([api, labels, ev]) => [
           // a refusal without a code whose English names its article: the article once
           new api.Problem({ detail: "x is refused (Go §21.4)", article: "Go §21.4" }, 409).text,
           labels.reasonText("skipped 9 (met before), 4 (colour clash)"),
           ev.describe({ time_control: { system: "absolute", base: 1800 } }),
         ])"""
    )
    assert said[0] == "x is refused (Go §21.4)", said[0]
    assert said[1] == "跳过 9（已相遇）、4（先后手冲突）", said[1]
    assert said[2] == "包干制 30分钟", said[2]
    page.evaluate("() => import('/ui/i18n.js').then((m) => m.setLang('en'))")
    said = page.evaluate(
        """() => import('/ui/event.js').then((ev) =>
             ev.describe({ time_control: { system: "absolute", base: 1800 } }))"""
    )
    assert said == "Absolute time 30 min", said
