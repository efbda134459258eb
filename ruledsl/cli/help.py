"""The end of each command's --help: its arguments, an example and the exit codes (click epilogs).

Kept apart from commands.py so the commands stay short; `add_epilogs(main)` attaches them.
A test checks that every command has one, with an example and the exit codes.
"""
from __future__ import annotations

GAME = "GAME is a .game file, or the name of a shipped game (`ruledsl list`)."
LOAD_FAILS = "a file does not load or check (path:line:col: error: ... on stderr)"
RULE_ERRORS = "1  when " + LOAD_FAILS
USER_ERRORS = "1  on bad input (a message on stderr, never a traceback)"


def epilog(arguments: str, examples: list, exits: list) -> str:
    """\\b keeps click from rewrapping the lines that follow it."""
    lines = ["\b", f"Arguments: {arguments}", "", "\b", "Examples:"]
    lines += [f"  {e}" for e in examples]
    lines += ["", "\b", "Exit codes:"] + [f"  {x}" for x in exits]
    return "\n".join(lines)


EPILOGS = {
    "check": epilog("PATHS are .game files or shipped games' names, one or more.",
                    ["ruledsl check games/base.game variants/house_rule.game", "ruledsl check SHIPPED_NAME"],
                    ["0  every file checks (ok: PATH for each)", RULE_ERRORS + ", for any of them"]),
    "list": epilog("none.", ["ruledsl list", "ruledsl list --json"],
                   ["0  always"]),
    "schema": epilog("NAME is the format: transcript.",
                     ["ruledsl schema transcript > transcript.schema.json"],
                     ["0  always (2 for an unknown NAME, as for any usage error)"]),
    "cache": epilog("none.", ["ruledsl cache", "ruledsl cache --clear", 'RULEDSL_CACHE_DIR="" ruledsl check game.game'],
                    ["0  always"]),
    "play": epilog(GAME, ["ruledsl play games/base.game --players 3 --seed 7 --record game.jsonl",
                          "ruledsl play SHIPPED_NAME --agent 0=human",
                          "ruledsl play SHIPPED_NAME/VARIANT -n 4 --max-steps 50"],
                   ["0  the game was played (to its end, or to --max-steps)",
                    RULE_ERRORS + "; also a rule failing at run time (path:line:col: runtime error: ...)",
                    "2  a usage error (an unknown option, a bad number)"]),
    "replay": epilog("FILE is a transcript (JSON Lines) written by play --record.",
                     ["ruledsl replay game.jsonl", "ruledsl replay game.jsonl --game house_rules.game --as-seat 1"],
                     ["0  every recorded step matches the rules (replay ok: ...)",
                      "1  the replay diverges (the step, what differs and the rule edit responsible), "
                      "or the transcript is corrupt or does not fit",
                      "2  a usage error"]),
    "simulate": epilog(GAME, ["ruledsl simulate games/base.game --players 3 --games 500 --jobs 4",
                              "ruledsl simulate SHIPPED_NAME -n 4 --json"],
                       ["0  every game ran to its end or its step limit",
                        "1  a rule failed in some game (listed with seed and rule), or " + LOAD_FAILS,
                        "2  a usage error"]),
    "compare": epilog("A and B are games as GAME (a .game file or a shipped game's name).",
                      ["ruledsl compare games/base.game variants/house_rule.game --players 3",
                       "ruledsl compare SHIPPED_NAME house.game --games 1000 --jobs 4 --json"],
                      ["0  the report was printed", "1  a rule failed in a game of A or B, or " + LOAD_FAILS,
                       "2  a usage error"]),
    "state": epilog(GAME + " Optional with --transcript.",
                    ["ruledsl state games/base.game --players 3 --steps 20 --as-seat 1",
                     "ruledsl state --transcript game.jsonl --step 12"],
                    ["0  the state was printed", USER_ERRORS, "2  a usage error"]),
    "view": epilog("FILE is a transcript written by play --record.",
                   ["ruledsl view game.jsonl -o game.html", "ruledsl view game.jsonl --as-seat 0"],
                   ["0  the page was written", USER_ERRORS, "2  a usage error"]),
    "graph": epilog(GAME, ["ruledsl graph games/base.game > flow.mmd", "ruledsl graph SHIPPED_NAME --format dot --rule turn"],
                    ["0  the graph was printed", RULE_ERRORS, "2  a usage error"]),
}


def add_epilogs(group):
    for name, command in group.commands.items():
        if name in EPILOGS and not command.epilog:
            command.epilog = EPILOGS[name]
