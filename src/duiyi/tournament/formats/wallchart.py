"""The wall chart: standings with a crosstable, as plain text or a printable HTML page.

Each round's cell reads ``5b+``: opponent 5, this player had Black, won (``=`` draw, ``-`` loss,
a trailing ``f`` for a forfeit, ``bye`` for a bye).

>>> import random
>>> from duiyi.tournament.event import add_players, new_event, simulate
>>> from duiyi.tournament.model import Player
>>> e = simulate(add_players(new_event("Cup", "go", "round-robin", 1),
...                          [Player(0, n) for n in "ABC"]), 3, random.Random(1))
>>> "<table" in standings_html(e)
True
>>> standings_text(e).splitlines()[0].split()[:3]
['Cup', '—', 'standings']
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from duiyi.tournament.event import (
    chain,
    crosstable,
    event_standings,
    final_chain,
    final_standings,
    final_table,
    format_fraction,
    grid,
    group_standings,
    player_rows,
    relay_state,
    team_chain,
    team_rows,
    team_standings,
)
from duiyi.tournament.model import Event
from duiyi.tournament.tiebreaks import Tiebreak

__all__ = ["standings_html", "standings_json", "standings_text"]


def standings_json(event: Event, lots: Mapping[int, int] | Any | None = None) -> dict[str, Any]:
    """The standings document of ``duiyi event standings --format json``."""
    tbs: tuple[Tiebreak, ...]
    extra: dict[str, Any] = {}
    if event.is_team_event and event.system == "relay":
        tbs = ()
        lines = _relay_rows(event)
    elif event.is_team_event:
        tbs = team_chain(event)
        lines = team_rows(event, team_standings(event, lots))
    elif event.system == "groups" and event.options.group_members:
        tbs = chain(event)
        lines = []
        final = final_standings(event, lots)
        if final:
            final_tbs = final_chain(event)
            extra["final_tiebreaks"] = _tiebreak_doc(final_tbs, event.game.name)
            for row in player_rows(event, final, final_tbs, final_table(event)):
                lines.append({**row, "group": "final"})
        for index, rows in group_standings(event, lots):
            for row in player_rows(event, rows):
                lines.append({**row, "group": index})
    else:
        tbs = chain(event)
        lines = player_rows(event, event_standings(event, lots))
    return {
        "event": event.name,
        "game": event.game.name,
        "system": event.system,
        "rounds": event.current_round,
        "played_rounds": event.completed_rounds,
        "teams": event.is_team_event,
        "tiebreaks": _tiebreak_doc(tbs, event.game.name),
        "standings": lines,
        "withdrawn": [w.to_json() for w in event.withdrawals],
        **extra,
    }


def _tiebreak_doc(tbs: tuple[Tiebreak, ...], game: str) -> list[dict[str, str]]:
    """Each criterion with the article of the event's own book ("" when it is silent)."""
    return [{"name": t.name, "label": t.label, "article": t.cited(game)} for t in tbs]


def _relay_rows(event: Event) -> list[dict[str, Any]]:
    """Relay standings (Gomoku §17.5): teams still in share the top, then teams out later
    before teams out earlier. Each round's cell names the team's player and the game as in a
    player's cell: ``2:5b+`` is the team's player 2 against player 5, with Black, won."""
    state = relay_state(event)
    alive = [i for i, q in enumerate(state.remaining) if q]
    played = crosstable(event)
    rows = []
    for position, index in enumerate(state.ranking, start=1):
        team = event.teams[index]
        place = 1 if index in alive else position
        cells: dict[str, list[str]] = {}
        for member in team.members:
            for rnd, marks in played.get(member, {}).items():
                cells.setdefault(str(rnd), []).extend(f"{member}:{m}" for m in marks)
        rows.append(
            {
                "position": position,
                "place": place,
                "number": team.number,
                "name": team.name,
                "rank": "",
                "rating": None,
                "club": "",
                "members": list(team.members),
                "remaining": list(state.remaining[index]),
                "points": str(len(state.remaining[index])),
                "tiebreaks": {},
                "by_lot": False,
                "rounds": dict(sorted(cells.items(), key=lambda kv: int(kv[0]))),
            }
        )
    return rows


def _short(value: str) -> str:
    """``"7/2"`` → ``"3½"``; other values as they are (exact, never rounded); ``""`` when a
    row has no such tiebreak (a final-stage row under the group chain)."""
    return format_fraction(Fraction(value)) if value else ""


def _cells(row: Mapping[str, Any], rounds: int) -> list[str]:
    cells = row["rounds"]
    return [" ".join(cells.get(str(r), [])) or "·" for r in range(1, rounds + 1)]


def standings_text(event: Event, lots: Mapping[int, int] | Any | None = None) -> str:
    """A plain-text wall chart."""
    doc = standings_json(event, lots)
    names = [t["name"] for t in doc["tiebreaks"] if t["name"] != "points"]
    rounds = event.current_round
    grouped = any("group" in row for row in doc["standings"])
    header = ["Pl", "No", "Name", "Rank", *[f"R{r}" for r in range(1, rounds + 1)], "Pts", *names]
    if grouped:
        header.insert(0, "Grp")
    lines_data = []
    for row in doc["standings"]:
        lines_data.append(
            ([str(row["group"])] if grouped else [])
            + [
                str(row["place"]) + ("*" if row["by_lot"] else ""),
                str(row["number"]),
                row["name"],
                row["rank"],
                *_cells(row, rounds),
                _short(row["points"]),
                *[_short(row["tiebreaks"].get(n, "")) for n in names],
            ]
        )
    widths = [max(len(h), *(len(r[i]) for r in lines_data)) if lines_data else len(h)
              for i, h in enumerate(header)]  # fmt: skip
    # "after round N": the rounds whose results are all in (issue 20, Go §27.1(2)A)
    out = [
        f"{event.name} — standings after round {event.completed_rounds} "
        f"({event.game}, {event.system})",
        "",
    ]
    out.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    for r in lines_data:
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    if any(row["by_lot"] for row in doc["standings"]):
        out.append("")
        out.append("* order decided by lot")
    if _with_grid(event):
        order = [row["number"] for row in doc["standings"]]
        cells = grid(event)
        width = max(
            [len(str(n)) for n in order] + [len(c) for r in cells.values() for c in r.values()]
        )
        out.append("")
        out.append("Crosstable (row against column)")
        out.append(" " * 5 + " ".join(str(n).rjust(width) for n in order))
        for n in order:
            row_cells = [("×" if m == n else cells[n].get(m, "·")).rjust(width) for m in order]
            out.append(str(n).rjust(4) + " " + " ".join(row_cells))
    for w in event.withdrawals:
        out.append(f"withdrawn: {w.player} after round {w.after_round}")
    return "\n".join(out) + "\n"


def _with_grid(event: Event) -> bool:
    """A square crosstable suits round robins of individuals (not groups, teams or Swiss)."""
    return (
        event.system in ("round-robin", "double-round-robin")
        and not event.is_team_event
        and bool(event.players)
    )


#: The wall chart's words per language (``lang`` of :func:`standings_html`).
_WORDS = {
    "en": {
        "title": "{name} — standings after round {n}",
        "round": "R{r}",
        "pts": "Pts",
        "pl": "Pl",
        "no": "No",
        "name": "Name",
        "rank": "Rank",
        "club": "Club",
        "grp": "Grp",
        "cells": "Cells: opponent, colour (b/w), result (+ = −, f forfeit).",
        "cross": "Crosstable",
    },
    "zh": {
        "title": "{name} — 成绩公告（第{n}轮后）",
        "round": "第{r}轮",
        "pts": "积分",
        "pl": "名次",
        "no": "序号",
        "name": "姓名",
        "rank": "段位",
        "club": "单位",
        "grp": "组",
        "cells": "格中：对手序号、执色（b黑 w白）、结果（+胜 =和 −负，f弃权）。",
        "cross": "成绩交叉表",
    },
}


def _label(label: str, lang: str) -> str:
    """The page's half of a "中文 English" tiebreak label ("积分 points" → "积分" in zh)."""
    head, _, tail = label.partition(" ")
    if tail and not head.isascii():
        return head if lang == "zh" else tail
    return label


def _article(text: str, lang: str) -> str:
    """An article as the page's language writes it: "Gomoku §18.4(1)A" is 五子棋§18.4(1)A on
    a Chinese wall chart (and Go's 围棋§), never the English name of the book.

    >>> _article("Gomoku §18.3(1)B, §18.4(1)D", "zh")
    '五子棋§18.3(1)B、§18.4(1)D'
    >>> _article("Go §27.1(1)B", "en")
    'Go §27.1(1)B'
    """
    if lang != "zh":
        return text
    return text.replace("Gomoku §", "五子棋§").replace("Go §", "围棋§").replace(", §", "、§")


def standings_html(
    event: Event, lots: Mapping[int, int] | Any | None = None, lang: str = "en"
) -> str:
    """A printable HTML wall chart (one self-contained page), in English or Chinese
    (``lang="zh"``: 成绩公告 with the Chinese column names).

    >>> from duiyi.tournament.event import _example
    >>> "成绩公告" in standings_html(_example(), lang="zh")
    True
    """
    words = _WORDS["zh" if lang == "zh" else "en"]
    doc = standings_json(event, lots)
    tbs = [t for t in doc["tiebreaks"] if t["name"] != "points"]
    rounds = event.current_round
    esc = html.escape
    head = "".join(f"<th>{words['round'].format(r=r)}</th>" for r in range(1, rounds + 1))
    head += f"<th>{words['pts']}</th>" + "".join(
        f'<th title="{esc(_article(t["article"], lang))}">{esc(_label(t["label"], lang))}</th>'
        for t in tbs
    )
    body = []
    for row in doc["standings"]:
        cells = "".join(f"<td>{esc(c)}</td>" for c in _cells(row, rounds))
        tb_cells = "".join(
            f"<td>{esc(_short(row['tiebreaks'].get(t['name'], '')))}</td>" for t in tbs
        )
        lot = "*" if row["by_lot"] else ""
        group = f"<td>{row['group']}</td>" if "group" in row else ""
        body.append(
            f"<tr>{group}<td>{row['place']}{lot}</td><td>{row['number']}</td>"
            f"<td class=name>{esc(row['name'])}</td><td>{esc(row['rank'])}</td>"
            f"<td>{esc(row['club'])}</td>{cells}<td class=pts>{esc(_short(row['points']))}</td>"
            f"{tb_cells}</tr>"
        )
    title = esc(words["title"].format(name=event.name, n=event.completed_rounds))
    group_head = f"<th>{words['grp']}</th>" if any("group" in r for r in doc["standings"]) else ""
    return (
        "<!DOCTYPE html>\n<html lang=zh><head><meta charset=utf-8>"
        f"<title>{title}</title><style>"
        "body{font-family:sans-serif}table{border-collapse:collapse}"
        "th,td{border:1px solid #444;padding:2px 6px;text-align:center}"
        "td.name{text-align:left}td.pts{font-weight:bold}"
        "@media print{body{font-size:9pt}}</style></head><body>"
        f"<h1>{title}</h1><table><thead><tr>{group_head}<th>{words['pl']}</th>"
        f"<th>{words['no']}</th><th>{words['name']}</th>"
        f"<th>{words['rank']}</th><th>{words['club']}</th>{head}</tr></thead><tbody>"
        + "".join(body)
        + f"</tbody></table><p>{words['cells']}</p>"
        + _grid_html(event, [row["number"] for row in doc["standings"]], words["cross"])
        + "</body></html>\n"
    )


def _grid_html(event: Event, order: list[int], title: str = "Crosstable") -> str:
    if not _with_grid(event):
        return ""
    cells = grid(event)
    head = "".join(f"<th>{n}</th>" for n in order)
    rows = []
    for n in order:
        tds = "".join(
            "<td>×</td>" if m == n else f"<td>{html.escape(cells[n].get(m, ''))}</td>"
            for m in order
        )
        rows.append(f"<tr><th>{n}</th>{tds}</tr>")
    return (
        f"<h2>{title}</h2><table class=grid><thead><tr><th></th>"
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )
