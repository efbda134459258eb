"""The games that ship with ruledsl, found by name.

A name is a path under a shipped folder (`games/` first, then `examples/`)
without `.game`: `NAME` or `NAME/VARIANT`, as `ruledsl list` shows them. In a
wheel the folders are package data (`ruledsl/games`, `ruledsl/examples`); in a
source checkout they are the repository's own `games/` and `examples/`.

A name comes from untrusted text (a .game file's `extends "ruledsl:NAME"`), so
it is only letters, digits, `_` and `-` in `/`-separated parts (no `..`, no
absolute paths), and what it names must lie inside a shipped folder.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only named in annotations: pathlib is imported where a game is named (root)
    from pathlib import Path

PREFIX = "ruledsl:"  # extends "ruledsl:NAME"; also accepted wherever a command takes a game
FOLDERS = ("games", "examples")
SUFFIX = ".game"
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*(/[A-Za-z0-9_][A-Za-z0-9_-]*)*")


def root() -> Path:
    """The folder holding the shipped folders: the installed package, or the checkout.
    (pathlib and importlib.resources are imported here, on the way to a game named:
    a check of a file by its path needs neither.)"""
    from importlib import resources
    from pathlib import Path
    package = Path(str(resources.files("ruledsl")))
    if any((package / folder).is_dir() for folder in FOLDERS):
        return package
    return package.parent


def valid_name(name: str) -> bool:
    return NAME.fullmatch(name) is not None


def strip(name: str) -> str:
    """`ruledsl:NAME.game` -> `NAME`."""
    if name.startswith(PREFIX):
        name = name[len(PREFIX):]
    return name[:-len(SUFFIX)] if name.endswith(SUFFIX) else name


def relative_paths(name: str) -> list:
    """Where a valid name may live, relative to the root: ["games/N.game", "examples/N.game"]."""
    return [f"{folder}/{name}{SUFFIX}" for folder in FOLDERS]


def path_of(name: str) -> str | None:
    """The file a shipped game's name stands for, or None (not shipped, or not a valid name)."""
    name = strip(name)
    if not valid_name(name):
        return None
    base = root()
    for folder, rel in zip(FOLDERS, relative_paths(name)):
        candidate = base / rel
        if candidate.is_file() and _inside(candidate, base / folder):
            return str(candidate)
    return None


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def recorded_path(name: str, files: dict) -> str | None:
    """The path of a shipped game among recorded rules (path -> text), read from nothing else.

    The recording may come from another installation, so a path ending in the
    game's place under a shipped folder is taken when it is the only one."""
    name = strip(name)
    if not valid_name(name):
        return None
    here = path_of(name)
    if here is not None and here in files:
        return here
    for rel in relative_paths(name):
        found = [p for p in files if p.replace(os.sep, "/") == rel or p.replace(os.sep, "/").endswith("/" + rel)]
        if len(found) == 1:
            return found[0]
    return None


def names() -> list:
    """[(name, path)] of every shipped game, sorted by folder then name."""
    out, seen = [], set()
    base = root()
    for folder in FOLDERS:
        top = base / folder
        if not top.is_dir():
            continue
        found = {path.relative_to(top).with_suffix("").as_posix(): path for path in top.rglob("*" + SUFFIX)}
        for name, path in sorted(found.items()):
            if valid_name(name) and name not in seen:  # games/ first, as path_of looks
                seen.add(name)
                out.append((name, str(path)))
    return out


def resolve(game: str) -> str | None:
    """A command's GAME argument as a path: an existing file as is, else a shipped game's name."""
    if game.startswith(PREFIX):
        return path_of(game)
    if os.path.isfile(game):
        return game
    found = path_of(game)
    if found is None and os.path.exists(game):
        return game  # a folder, say: reading it gives the error
    return found
