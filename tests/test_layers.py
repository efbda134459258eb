"""The package's layers: each module imports only its own layer and the ones before it,
so the folders read top-down as the pipeline runs (ruledsl/__init__.py lists them)."""
import ast
from pathlib import Path

from support import ROOT

LAYERS = [  # in order; a module may import its own layer and earlier ones
    {"errors", "codes", "budget", "version", "cache", "collector"},
    {"syntax"},
    {"check"},
    {"runtime"},
    {"compile"},
    {"pipeline"},
    {"play"},
    {"openspiel", "pettingzoo"},
    {"api"},
    {"cli", "pytest_plugin", "__init__", "__main__"},
]
PACKAGE = ROOT / "ruledsl"


def layer_of(room: str) -> int:
    return next(i for i, rooms in enumerate(LAYERS) if room in rooms)


def room_of(path: Path) -> str:
    """The top-level module or subpackage of ruledsl a file belongs to."""
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def imported_rooms(path: Path, text: str | None = None):
    """(line, room) of each ruledsl module a file imports, relative or absolute."""
    depth = len(path.relative_to(PACKAGE).parts) - 1  # 0 for ruledsl/x.py, 1 for ruledsl/pkg/x.py
    for node in ast.walk(ast.parse(text if text is not None else path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                above = node.level - 1  # how many folders up from the file's own folder
                parts = list(path.relative_to(PACKAGE).parts[:-1])[:depth - above] if above <= depth else None
                assert parts is not None, f"{path}:{node.lineno}: import above the package"
                parts += (node.module or "").split(".") if node.module else []
                names = parts[:1] if parts else [a.name for a in node.names]
            elif node.module and node.module.split(".")[0] == "ruledsl":
                rest = node.module.split(".")[1:]
                names = rest[:1] if rest else [a.name for a in node.names]
            else:
                continue
            for name in names:
                yield node.lineno, name


def test_the_layer_table_names_every_module_and_subpackage():
    rooms = {room_of(p) for p in PACKAGE.rglob("*.py")}
    assert rooms == set().union(*LAYERS)


def test_every_module_imports_only_its_layer_and_the_ones_before():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = layer_of(room_of(path))
        for line, room in imported_rooms(path):
            if layer_of(room) > here:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {room}")
    assert wrong == []


def test_the_check_can_fail():
    """Imports of a later layer, relative or absolute, are found; an earlier one is fine."""
    path = PACKAGE / "syntax" / "parse.py"
    text = "from ..play.agents import X\nfrom ruledsl.compile import game\nfrom .. import errors\n"
    assert list(imported_rooms(path, text)) == [(1, "play"), (2, "compile"), (3, "errors")]
    assert [layer_of(room) > layer_of("syntax") for _, room in imported_rooms(path, text)] == [True, True, False]
