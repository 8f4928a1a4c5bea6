"""The house plan's doors (docs/architecture.md), checked on the source: which package may import
which, no package cycle, no module cycle (lazy and type-checking imports count too), and the pure
cores free of I/O, the wall clock and global randomness. A test of the layers, as import-linter
would check them, with the standard library's ``ast`` only."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "duiyi"

#: The layers, lowest first. A package may import its own layer's packages listed in
#: SIDEWAYS, and any package of a lower layer; never one of a higher layer.
LAYERS: list[set[str]] = [
    {"duiyi", "errors", "outcome", "codec", "moves"},
    {"sgf"},
    {"go", "gomoku", "clock", "referee"},
    {"actions"},
    {"games"},
    {"session", "tournament"},
    {"gtp"},
    {"engines", "store"},
    {"server"},
    {"cli", "__main__"},
]
#: Imports inside one layer, the only ones allowed (the colours and the errors are the base of
#: everything; the one reader of every log refuses with an error, the one Move is by a colour;
#: ``python -m duiyi`` runs the CLI).
SIDEWAYS = {
    ("outcome", "errors"),
    ("outcome", "duiyi"),
    ("duiyi", "errors"),
    ("codec", "errors"),
    ("moves", "duiyi"),
    ("moves", "errors"),
    ("__main__", "cli"),
}
CORES = {
    "duiyi",
    "errors",
    "outcome",
    "codec",
    "moves",
    "sgf",
    "go",
    "gomoku",
    "clock",
    "referee",
    "games",
}
CORES |= {"session", "actions"}
CORES |= {"tournament"}
#: The one adapter kept inside a core package: the CLI's event file on disk (an advisory lock
#: and an atomic replace), beside the pure readers and writers of tournament/formats.
ADAPTERS_IN_CORES = {"duiyi.tournament.formats.eventfile"}
#: What a pure core never imports: I/O (standard input and output, files), processes, the
#: network, threads, asyncio, databases. A text protocol read from stdin (GTP) is an edge.
NOT_IN_CORES = {
    "sys",
    "pathlib",
    "asyncio",
    "socket",
    "subprocess",
    "threading",
    "multiprocessing",
    "sqlite3",
    "sqlalchemy",
    "httpx",
    "urllib",
    "http",
    "shutil",
    "tempfile",
    "signal",
    "select",
}


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every module this one imports (absolute names), with the line, wherever the import is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            yield module, node.lineno
            for alias in node.names:  # `from duiyi.go import sgf` imports a module
                if f"{module}.{alias.name}" in MODULES:
                    yield f"{module}.{alias.name}", node.lineno


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _layer(package: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if package in layer)


EDGES = {
    name: {(m, line) for m, line in _imports(name, path) if m in MODULES and m != name}
    for name, path in MODULES.items()
}


def test_every_package_has_a_layer() -> None:
    known = set().union(*LAYERS)
    assert {_package(m) for m in MODULES} <= known


def test_imports_point_inward() -> None:
    wrong = []
    for name, targets in EDGES.items():
        a = _package(name)
        for target, line in targets:
            b = _package(target)
            if a == b or _layer(b) < _layer(a) or (a, b) in SIDEWAYS:
                continue
            wrong.append(f"{MODULES[name].relative_to(SRC)}:{line} imports {target}")
    assert not wrong, "an import points outward or sideways:\n" + "\n".join(sorted(wrong))


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph``, or None (depth-first search, colours white/grey/black)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_package_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for name, targets in EDGES.items():
        for target, _ in targets:
            if _package(target) != _package(name):
                graph.setdefault(_package(name), set()).add(_package(target))
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_no_module_cycle() -> None:
    graph = {name: {t for t, _ in targets} for name, targets in EDGES.items()}
    # a package's __init__ re-exports its modules, and they import their siblings, not it
    found = _cycle(graph)
    assert found is None, "module cycle: " + " -> ".join(found or [])


def test_cores_do_no_io_and_read_no_wall_clock_or_global_random() -> None:
    wrong = []
    for name, path in MODULES.items():
        if _package(name) not in CORES or name in ADAPTERS_IN_CORES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                mods = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                for mod in mods:
                    if mod.split(".")[0] in NOT_IN_CORES:
                        wrong.append(f"{path.relative_to(SRC)}:{node.lineno} imports {mod}")
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and (
                    (node.value.id == "time" and node.attr not in ("struct_time",))
                    or (node.value.id == "random" and node.attr not in ("Random",))
                    or (node.value.id == "datetime" and node.attr in ("now", "today", "utcnow"))
                )
            ):
                wrong.append(
                    f"{path.relative_to(SRC)}:{node.lineno} uses {node.value.id}.{node.attr}"
                )
    assert not wrong, "a pure core reaches outside:\n" + "\n".join(wrong)


def test_no_protocol_front_end_lives_in_a_core() -> None:
    """Issue 34: the GTP front end (a server on standard input) and the clock's GTP commands
    live in duiyi.gtp, above the cores; no core package holds a module of a wire protocol."""
    wire = {"gtp", "gomocup"}
    inside = sorted(
        name for name in MODULES if _package(name) in CORES and name.rpartition(".")[2] in wire
    )
    assert not inside, f"a protocol module inside a pure core: {inside}"
    assert {"duiyi.gtp.frontend", "duiyi.gtp.clock"} <= set(MODULES)


def test_the_layer_test_sees_a_cycle() -> None:
    """The checker itself: a cycle in a made-up graph is found, a tree is not."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}}) is None


# --------------------------------------------------------------------------- the game's name

#: The games' names: outside the registry (src/duiyi/games/) code asks the game object what
#: differs (issue 24, "the game as one object") instead of comparing a name.
GAME_NAMES = {"go", "gomoku"}
#: At most this many comparisons of a game's name outside the registry (issue 24's target).
MAX_NAME_COMPARISONS = 5


def _names_in(node: ast.AST) -> bool:
    """Whether ``node`` is a game's name, or a tuple/list/set literal holding one."""
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_in(e) for e in node.elts)
    return False


def name_comparisons(source: str) -> list[tuple[int, str]]:
    """Each place ``source`` tells games apart by name: ``x == "go"``, ``x in ("go", ...)``,
    ``case "gomoku":``, ``table["go"]``, and ``getattr(x, "game")`` (dispatch by getattr); a
    schema's ``Literal["go", "gomoku"]`` names the values a request may hold, and counts not."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
            _names_in(n) for n in (node.left, *node.comparators)
        ):
            found.append((node.lineno, "comparison"))
        elif isinstance(node, ast.MatchValue) and _names_in(node.value):
            found.append((node.lineno, "case"))
        elif (
            isinstance(node, ast.Subscript)
            and _names_in(node.slice)
            and not (isinstance(node.value, ast.Name) and node.value.id == "Literal")
        ):
            found.append((node.lineno, "lookup"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == "game"
        ):
            found.append((node.lineno, "getattr"))
    return found


def test_the_counter_sees_each_form_of_name_comparison() -> None:
    """The checker itself: each form is seen once, a plain use of the name is not."""
    source = (
        'a == "go"\n"gomoku" != b\nc in ("go", "x")\nd["gomoku"]\ngetattr(s, "game", None)\n'
        'match e:\n    case "go":\n        pass\nf = {"go": 1}\nReferee("go")\n'
        'g: Literal["go", "gomoku"] = "go"\n'
    )
    assert [line for line, _ in name_comparisons(source)] == [1, 2, 3, 4, 5, 7]


def test_the_game_is_one_object_not_a_name_compared() -> None:
    """Issue 24: at most 5 comparisons of a game's name outside the registry."""
    found = [
        f"{path.relative_to(SRC)}:{line} {form}"
        for name, path in sorted(MODULES.items())
        if _package(name) != "games"
        for line, form in name_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert len(found) <= MAX_NAME_COMPARISONS, (
        f"{len(found)} comparisons of a game's name outside duiyi.games (at most "
        f"{MAX_NAME_COMPARISONS}): ask the game object instead\n" + "\n".join(found)
    )


def _is_name_key(node: ast.AST | None) -> bool:
    """Whether a dict key is a game's name, or a tuple starting with one (``("go", m)``)."""
    if isinstance(node, ast.Tuple) and node.elts:
        return _is_name_key(node.elts[0])
    return isinstance(node, ast.Constant) and node.value in GAME_NAMES


def asks_the_game_by_type(source: str) -> list[tuple[int, str]]:
    """Each place ``source`` tells games apart by their type or keeps a table by their name:
    ``isinstance(x, GoAdapter)`` (any class named ``...Adapter`` but the protocol
    ``GameAdapter``), and a dict literal keyed by the games' names (every key a name or a
    tuple led by one: ``{"go": ...}``, ``{("gomoku", "x"): ...}``; a word that happens to be
    a name among other keys, such as Renju's preset alias ``"gomoku"``, is not a table)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            classes = [n for n in ast.walk(node.args[1]) if isinstance(n, ast.Name | ast.Attribute)]
            names = {n.id if isinstance(n, ast.Name) else n.attr for n in classes}
            if any(n.endswith("Adapter") and n != "GameAdapter" for n in names):
                found.append((node.lineno, "isinstance"))
        elif isinstance(node, ast.Dict) and node.keys and all(_is_name_key(k) for k in node.keys):
            found.append((node.lineno, "table"))
    return found


def test_the_type_checker_sees_each_form() -> None:
    """The checker itself: an adapter's isinstance and a table by name are seen, the protocol
    and a name as a value are not."""
    source = (
        "isinstance(a, GoAdapter)\nisinstance(b, (games.GomokuAdapter, int))\n"
        't = {"go": 1}\nu = {("gomoku", "m"): 2}\nisinstance(c, GameAdapter)\n'
        'v = {"game": "go"}\nw = {k: 1 for k in ("go",)}\nx = {"free": 1, "gomoku": 2}\n'
    )
    assert asks_the_game_by_type(source) == [
        (1, "isinstance"),
        (2, "isinstance"),
        (3, "table"),
        (4, "table"),
    ]


def test_no_game_is_told_by_its_type_or_looked_up_in_a_table_by_name() -> None:
    """Issue 34: the adapter's protocol answers what differs (take-back, restore, replace, a
    position, the analysis), and each game's tables (its referee's book, the articles a form
    suggests) live on its game object: outside duiyi.games nothing tests an adapter's class or
    keys a table by a game's name."""
    found = [
        f"{path.relative_to(SRC)}:{line} {form}"
        for name, path in sorted(MODULES.items())
        if _package(name) != "games"
        for line, form in asks_the_game_by_type(path.read_text(encoding="utf-8"))
    ]
    assert not found, "a game told apart outside duiyi.games:\n" + "\n".join(found)


# --------------------------------------------------------------------------- the pages

#: At most this many comparisons of a game's name in the browser's modules (src/duiyi/web): a
#: page asks the game's description (games.js, GET /api/game-types) what differs.
MAX_JS_NAME_COMPARISONS = 0

_QUOTED = rf"""(["'`])(?:{"|".join(sorted(GAME_NAMES))})\1"""  # "go", 'gomoku', `go`
_JS_FORMS = {
    "comparison": re.compile(rf"[!=]==?\s*{_QUOTED}"),
    "comparison ": re.compile(rf"{_QUOTED}\s*[!=]==?"),
    "case": re.compile(rf"\bcase\s+{_QUOTED}\s*:"),
    "includes": re.compile(rf"{_QUOTED}[^\[\]\n]*\]\s*\.(?:includes|indexOf)\("),
    "includes ": re.compile(rf"\.(?:includes|indexOf)\(\s*{_QUOTED}\s*\)"),
}


def js_name_comparisons(source: str) -> list[tuple[int, str]]:
    """Each place a browser module tells games apart by name: ``kind === "go"``, ``"gomoku" !==
    x``, ``case "go":``, ``["go", "x"].includes(kind)``, ``list.includes("gomoku")``; a name as
    a value (an option, a translation's key) counts not."""
    found = {  # by the name's place: ``"go" === x`` is one comparison
        m.start(1): (source.count("\n", 0, m.start(1)) + 1, form.strip())
        for form, pattern in _JS_FORMS.items()
        for m in pattern.finditer(source)
    }
    return sorted(found.values())


def test_the_counter_sees_each_form_of_name_comparison_in_the_pages() -> None:
    source = (
        'a === "go"\n"gomoku" !== b\nswitch (k) { case \'go\': }\n'
        '["go", "x"].includes(k)\nks.includes("gomoku")\nc == `go`\n'
        'el("option", { value: "go" }, t("go"))\nt(`rm.${game}.x`)\nconst x = "gopher" === y\n'
    )
    assert [line for line, _ in js_name_comparisons(source)] == [1, 2, 3, 4, 5, 6]


def test_the_pages_ask_the_game_not_its_name() -> None:
    """Issue 24: the browser's modules compare no game's name (at most
    :data:`MAX_JS_NAME_COMPARISONS`)."""
    found = [
        f"{path.relative_to(SRC)}:{line} {form}"
        for path in sorted((SRC / "web").glob("*.js"))
        for line, form in js_name_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert len(found) <= MAX_JS_NAME_COMPARISONS, (
        f"{len(found)} comparisons of a game's name in src/duiyi/web (at most "
        f"{MAX_JS_NAME_COMPARISONS}): ask the game's description (games.js) instead\n"
        + "\n".join(found)
    )
