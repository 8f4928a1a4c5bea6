"""The user guide (docs/guide/*.md) is executable: its Python examples and its commands are run.

Every ``>>>`` example of each guide page runs as a doctest from the repository root (the pages
read files such as ``tests/data/sgf/...``). Each command shown in the guide is listed in
``COMMANDS`` with the lines its output must contain and its exit code, and run with
``sys.executable -m duiyi`` (key lines, not the whole output, so cosmetic changes don't break it).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide"
PAGES = sorted(p.name for p in GUIDE.glob("*.md"))
GNUGO = Path("/usr/games/gnugo")


class MarkdownParser(doctest.DocTestParser):
    """Reads examples out of Markdown: a code fence line ends an example's expected output."""

    def parse(self, string: str, name: str = "<string>") -> list[str | doctest.Example]:
        lines = ["" if ln.lstrip().startswith("```") else ln for ln in string.split("\n")]
        return super().parse("\n".join(lines), name)


def test_guide_pages_exist() -> None:
    assert {"index.md", "library.md", "cli.md", "director.md", "engines.md"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_guide_examples(page: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = (GUIDE / page).read_text(encoding="utf-8")
    if "gnugo" in text and ">>>" in text and not (GNUGO.exists() or shutil.which("gnugo")):
        pytest.fail("the guide's GNU Go examples need gnugo (/usr/games/gnugo)")
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(
        str(GUIDE / page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        encoding="utf-8",
        extraglobs={"TMP": str(tmp_path)},
        verbose=False,
        report=True,
        parser=MarkdownParser(),
    )
    assert result.attempted >= text.count("\n>>> "), f"examples of {page} were not all read"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {page}"


# The commands shown in cli.md, director.md and engines.md (``$ ...`` lines of ``console``
# blocks), keyed by the line as printed: (exit code, substrings the output must contain). Each
# page's commands run in order in one scratch directory (later ones see the files of earlier
# ones), which holds game.sgf, players.csv and a link to the repository's tests/ (test brains).
GAME_SGF = ROOT / "tests" / "data" / "sgf" / "counted-9x9.sgf"
PLAYERS_CSV = """name,rank,rating,club
Li Wei,5d,2450,Beijing
Wang Fang,4d,2380,Shanghai
Zhang Min,3d,2290,Beijing
Liu Yang,2d,2210,Hangzhou
Chen Jie,1d,2120,Shanghai
Yang Lei,1k,2030,Chengdu
"""
MATCH = 'duiyi gomoku match "python3 tests/gomoku/engines/greedy.py'

COMMANDS: dict[str, tuple[int, list[str]]] = {
    # cli.md
    "duiyi --version": (0, ["duiyi 0.1.0"]),
    "duiyi go replay game.sgf": (
        0,
        [
            " 9 X X X O O X X X .  9",
            "88 moves, all legal under chinese rules; recorded result W+10.5",
        ],
    ),
    "duiyi go replay game.sgf --quiet": (0, []),
    'duiyi go replay bad.sgf; echo "exit code $?"': (
        2,
        ["duiyi: error: illegal move #3 B E5 (line 1): point is occupied (Go §2)"],
    ),
    "duiyi go score game.sgf": (
        0,
        ["black       39 stones", "white       42 stones", "白胜5又1/4子  W+10.5", "(matches)"],
    ),
    "duiyi go score game.sgf --rules japanese": (0, ["白胜9目半  W+9.5", "(differs)"]),
    "duiyi go score game.sgf --format json | head -n 6": (
        0,
        ['"black_area": 39.0', '"white_area": 42.0', '"komi_stones": 3.75'],
    ),
    'duiyi go score missing.sgf; echo "exit code $?"': (
        2,
        ["duiyi: error: cannot read missing.sgf"],
    ),
    "duiyi go svg game.sgf --dead sgf-markers --size 400 -o final.svg": (0, []),
    "duiyi go svg game.sgf --move 20 | head -n 2": (0, ['<svg xmlns="http://www.w3.org/2000/svg"']),
    'duiyi gomoku forbidden "h8 a1 j8 a3 i9 a5 i10 a7" --explain': (
        0,
        [
            " 8 . . . . . . . X 3 X . . . . .",
            "i8 is a double-three (三三禁手, Gomoku §2.19): live three h8-i8-j8 on the row",
        ],
    ),
    'duiyi gomoku forbidden "h8 a1 j8 a3 i9 a5 i10 a7" --format json': (
        0,
        ['{"forbidden": {"i8": "double-three"}}'],
    ),
    'duiyi gomoku forbidden "h8 h8"; echo "exit code $?"': (
        2,
        ["duiyi: error: move 2: h8 is already occupied (Gomoku §4.2)"],
    ),
    "duiyi gomoku replay game.txt": (
        0,
        ["opening: D1 寒星局 (Kansei, direct)", "⑤ j8     6 i9", "result: ongoing, black to play"],
    ),
    "duiyi gomoku replay game.txt --format json": (
        0,
        ['"moves": ["h8", "h9", "h10", "h6", "j8", "i9"], "opening": "D1", "outcome": null'],
    ),
    "duiyi gomoku openings | head -n 4": (0, ["D1   寒星局  Kansei", "D3   疏星局  Sosei"]),
    'duiyi gomoku svg "h8 a1 j8 a3 i9 a5 i10 a7" --numbers -o position.svg': (
        0,
        ["wrote position.svg"],
    ),
    "duiyi clock demo --system chinese-byoyomi --base 0 --reserved 1 --speed 1000 --seconds 70": (
        0,
        ["[00:30.0] 黑: 30秒", "[00:51.0] 黑: 1", "[01:00.0] 黑: 10", "black lost on time"],
    ),
    "duiyi clock demo --system fischer --base 60 --increment 5 --press 10 --press 20 "
    "--speed 1000 --seconds 30 --lang en": (
        0,
        ["[00:10.0] black moves: 00:55.0 left", "black: 00:45.0 main", "white: 00:55.0 main"],
    ),
    'duiyi clock demo --system hourglass; echo "exit code $?"': (
        2,
        ["duiyi: error: unknown time system 'hourglass'"],
    ),
    "duiyi clock settings --system chinese-byoyomi --base 3600 --reserved 3": (
        0,
        ["time_settings 3600 60 1", "kgs-time_settings byoyomi 3600 60 3"],
    ),
    "duiyi clock settings --system japanese-byoyomi --base 600 --periods 3 --period 30": (
        0,
        ["kgs-time_settings byoyomi 600 30 3"],
    ),
    "duiyi schedule round-robin --players 5 --format table": (
        0,
        ["    1     2 (B) —    5 (W)", "  bye     1", "Round 5"],
    ),
    "duiyi schedule round-robin --players 4 --cycles 2 --format table | tail -n 6": (
        0,
        ["Round 6"],
    ),
    "duiyi schedule knockout --players 6 --seeds 1,2 --format table": (
        0,
        ["knockout: 8 lines, 2 sections", "R1.1              1 v bye"],
    ),
    "duiyi schedule double-elimination --players 4 --format table": (
        0,
        ["L1.1        L(W1.1) v L(W1.2)", "GF2"],
    ),
    "duiyi schedule swiss --players 6 --format table --explain": (
        0,
        ["    1     1 (B) —    2 (W)   score group 0: 1 meets 2"],
    ),
    "duiyi schedule groups --players 8 --groups 2 --lot-seed 1 --format table | head -n 12": (
        0,
        ["Group 1: 1, 5", "Group 2: 2, 3"],
    ),
    # director.md
    'duiyi event new club.json --game go --system swiss --rounds 3 --name "Spring Club Swiss"': (
        0,
        ["created club.json: go swiss, 3 round(s)"],
    ),
    "duiyi event players club.json --add players.csv": (0, ["6,Yang Lei,1k,2030,Chengdu"]),
    "duiyi event pair club.json --format table --explain": (
        0,
        ["1 Li Wei (B)  —     2 Wang Fang (W)", "smaller number Black"],
    ),
    "duiyi event result club.json --round 1 --board 1 --result 1-0": (0, ["entered 1 result"]),
    "duiyi event result club.json --file round1.csv": (0, ["entered 2 result(s)"]),
    "duiyi event standings club.json": (0, ["Spring Club Swiss — standings after round"]),
    "duiyi event pair club.json --format table": (
        0,
        ["Round 2", "6 Yang Lei (B)  —     1 Li Wei (W)"],
    ),
    "duiyi event result club.json --round 2 --board 1 --result 1-0 --white-warnings 1": (
        0,
        ["entered 1 result"],
    ),
    'duiyi event pair club.json; echo "exit code $?"': (
        2,
        ["duiyi: error: round 2 has no result yet on board(s) 2, 3"],
    ),
    "duiyi event result club.json --round 2 --board 2 --result 0-1": (0, ["entered 1 result"]),
    "duiyi event result club.json --round 2 --board 3 --result draw": (0, ["entered 1 result"]),
    'duiyi event result club.json --round 1 --board 3 --result draw; echo "exit code $?"': (
        2,
        ["round 2 is already paired on the result 1-0", "(force)", "round 2 board"],
    ),
    "duiyi event withdraw club.json 6": (0, ["withdrew 6 Yang Lei: keep-unpaired"]),
    "duiyi event simulate club.json --rounds 1 --seed 4": (0, ["simulated through round 3"]),
    "duiyi event lots club.json --seed 11": (0, ['{"1": ']),
    "duiyi event standings club.json --format html --output wall.html": (0, []),
    "duiyi event export club.json --opengotha club.xml": (
        0,
        ["OpenGotha has no place for them", "wrote club.xml"],
    ),
    "duiyi event import copy.json --opengotha club.xml": (0, ["imported 6 players, 3 round(s)"]),
    "duiyi event standings copy.json": (
        0,
        ["Li Wei     5d    2b+  6w+  4b+  6    4⅔", "withdrawn: 6 after round 2"],
    ),
    'duiyi event new league.json --game go --system round-robin --name "City League"': (
        0,
        ["created league.json: go round-robin, rounds from the Berger table once players"],
    ),
    "duiyi event players league.json --add league.csv --draw 7": (
        0,
        ["1,Chen Jie,1d,2120,Shanghai", "2,Li Wei,5d,2450,Beijing", "5 round(s) for 5 players"],
    ),
    "duiyi event pair league.json --format table": (
        0,
        ["2 Li Wei (B)  —     5 Zhang Min (W)", "  bye     1 Chen Jie"],
    ),
    "duiyi event result league.json --round 1 --board 1 --result 1-0": (0, ["entered 1"]),
    "duiyi event result league.json --round 1 --board 2 --result 0-1": (0, ["entered 1"]),
    "duiyi event withdraw league.json 2": (0, ["withdrew 2 Li Wei: void"]),
    "duiyi event standings league.json": (
        0,
        ["1   4   Wang Fang  4d    3w+  2", "2   5   Zhang Min  3d    2w-  0", "withdrawn: 2"],
    ),
    'duiyi event new renju.json --game gomoku --system swiss --rounds 4 --name "Renju Open"': (
        0,
        ["created renju.json: gomoku swiss, 4 round(s)"],
    ),
    "duiyi event players renju.json --add renju.csv --format json": (
        0,
        ['{"number": 6, "name": "Fei"'],
    ),
    "duiyi event simulate renju.json --rounds 2 --seed 5": (0, ["simulated through round"]),
    "duiyi event withdraw renju.json 6": (0, ["withdrew 6 Fei: keep-unpaired"]),
    "duiyi event standings renju.json": (
        0,
        ["Pts  aro    buchholz  median-buchholz  wins", "1833⅓  7", "withdrawn: 6 after round 2"],
    ),
    "duiyi event new rr.json --game gomoku --system round-robin --tiebreaks wins,sb": (
        0,
        ["created rr.json"],
    ),
    'duiyi event new bad.json --game go --system swiss --tiebreaks elo; echo "exit code $?"': (
        2,
        ["duiyi: error: options.tiebreaks: unknown tiebreak 'elo'"],
    ),
    "duiyi event promotion --dan 2 --games 3:win,3:win,2:loss,4:win": (
        0,
        ['"total": 320', '"average": "80"', '"qualified": false'],
    ),
    # engines.md
    'duiyi go match "gnugo --mode gtp --level 0 --seed 1" "gnugo --mode gtp --level 2 --seed 1" '
    "--games 2 --size 7 --time 60 --sgf-dir games": (
        0,
        ["game 2: GNU Go 3.8 #2 (B) - GNU Go 3.8 #1 (W)", "Score of GNU Go 3.8 #1 vs", "LOS:"],
    ),
    "duiyi event new cup.json --game go --system round-robin": (0, ["created cup.json"]),
    "duiyi event engine cup.json GnuGo-0 -- gnugo --mode gtp --level 0 --seed 1": (
        0,
        ["engine player 1 GnuGo-0: gnugo --mode gtp --level 0 --seed 1"],
    ),
    "duiyi event engine cup.json GnuGo-1 -- gnugo --mode gtp --level 1 --seed 1": (
        0,
        ["engine player 2 GnuGo-1"],
    ),
    "duiyi event engine cup.json GnuGo-2 -- gnugo --mode gtp --level 2 --seed 1": (
        0,
        ["engine player 3 GnuGo-2"],
    ),
    "duiyi event play cup.json --all-rounds --concurrency 2 --size 7": (
        0,
        ["round 3 paired", "round 3 board 1: GnuGo-2 (B) - GnuGo-0 (W)", "results entered"],
    ),
    "duiyi gtp": (0, ["? illegal move", "= W+7.5"]),
    "duiyi gtp --seed 1": (0, [" 4 . . . O . . . . .  4"]),
    "duiyi gtp | tail -n 12": (0, ["kgs-time_settings", "duiyi-result"]),
    MATCH + ' --seed 7" "python3 tests/gomoku/engines/lattice.py" --games 4 '
    "--opening sosei,kansei --out match.sgf": (
        0,
        ["game 1 疏星/Sosei: greedy.py (black) - lattice.py (white) 1-0", "4 games, +4 =0 -0"],
    ),
    MATCH + '" "python3 tests/gomoku/engines/crash.py" --games 1 --opening free -q': (
        0,
        ["greedy.py vs crash.py: 1 game, +1 =0 -0", "1  greedy.py won by forfeit"],
    ),
    MATCH + '" "python3 tests/gomoku/engines/lattice.py" --opening bogus; echo "exit code $?"': (
        2,
        ["duiyi: error: no designated opening is called 'bogus'"],
    ),
    MATCH
    + '" "python3 tests/gomoku/engines/slow.py" --games 2 --opening free --timeout-turn 300': (
        0,
        ["move limit (Gomoku §8.2, §10.1(3)B; 1 stone)", "2  greedy.py won by time"],
    ),
}

# Files the commands write, and what they must hold.
WRITTEN = {
    "cli.md": {"final.svg": "<svg", "position.svg": "<svg"},
    "director.md": {"wall.html": "Spring Club Swiss", "club.xml": "<Tournament"},
    "engines.md": {
        "match.sgf": "GM[4]",
        "games/game-001.sgf": "PB[GNU Go 3.8 #1]",
        "cup.games/round-3-board-1.sgf": "PB[GnuGo-2]",
    },
}


def _console_lines(text: str) -> list[str]:
    lines, inside = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            inside = line.strip() == "```console" if not inside else False
        elif inside and line.startswith("$ "):
            lines.append(line[2:])
    return lines


def _key_and_stdin(line: str) -> tuple[str, str | None]:
    """The COMMANDS key of a shown line, and the text piped into it by ``printf '...' |``."""
    m = re.match(r"printf '([^']*)' \| (duiyi .*)$", line)
    if m:
        return m.group(2), m.group(1).replace("\\n", "\n")
    return line, None


def _argv(key: str) -> list[str]:
    command = re.sub(r'; echo "exit code \$\?"$', "", key)
    command = re.sub(r" \| (head|tail) -[nc] \d+$", "", command)
    return shlex.split(command)[1:]


def _subprocess(key: str, stdin: str | None, cwd: Path) -> tuple[int, str]:
    """Run ``sys.executable -m duiyi ...`` for real: exit code and stdout + stderr."""
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb")
    proc = subprocess.run(
        [sys.executable, "-m", "duiyi", *_argv(key)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def _in_process(key: str) -> tuple[int, str]:
    """The same entry point as ``python -m duiyi`` (``duiyi.cli.main``), in this process."""
    from duiyi.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(_argv(key))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    assert isinstance(out.buffer, io.BytesIO)
    return code, out.buffer.getvalue().decode("utf-8")


@pytest.mark.parametrize("page", ["cli.md", "director.md", "engines.md"])
def test_guide_commands(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's commands, in order. Each real-process run costs ~0.4 s of CPU, so only the
    page's first command, every failing one (exit code 2 and its stderr line) and the commands
    fed on stdin start ``sys.executable -m duiyi``; the others call the same ``main`` in this
    process (keeps the test well under 30 s on a loaded machine)."""
    shutil.copy(GAME_SGF, tmp_path / "game.sgf")
    (tmp_path / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    text = (GUIDE / page).read_text(encoding="utf-8")
    ran = 0
    for line in _console_lines(text):
        written = re.match(r"printf '([^']*)' > (\S+)$", line)
        if written:
            (tmp_path / written.group(2)).write_text(written.group(1).replace("\\n", "\n"))
            continue
        if line.startswith("cat "):
            assert (tmp_path / line[4:]).read_text(encoding="utf-8") in text
            continue
        key, stdin = _key_and_stdin(line)
        assert key in COMMANDS, f"{page} shows a command the test does not know: {line}"
        expected_code, expected = COMMANDS[key]
        if ran == 0 or expected_code != 0 or stdin is not None:
            code, out = _subprocess(key, stdin, tmp_path)
        else:
            code, out = _in_process(key)
        assert code == expected_code, f"{line}: exit {code}\n{out}"
        for piece in expected:
            assert piece in out, f"{line}: {piece!r} not in\n{out}"
            assert piece in text, f"{page} does not show {piece!r} for {line}"
        ran += 1
    assert ran >= 5
    for name, piece in WRITTEN[page].items():
        assert piece in (tmp_path / name).read_text(encoding="utf-8"), name


def test_every_listed_command_is_shown() -> None:
    shown = {
        _key_and_stdin(line)[0]
        for page in ("cli.md", "director.md", "engines.md")
        for line in _console_lines((GUIDE / page).read_text(encoding="utf-8"))
    }
    assert set(COMMANDS) <= shown, set(COMMANDS) - shown
