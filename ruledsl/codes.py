"""Every error code ruledsl reports, in one registry: code -> (stage, one-line meaning).

The checker, the compiler and the runtime report codes by these names; docs/language.md's
table of error codes is generated from this registry (`python -m ruledsl.codes`) and
tests/test_codes.py checks that the two agree and that the code uses no other code.
"""
from __future__ import annotations

CODES = {
    'E001': ('parse', 'syntax error: "unexpected X; expected ...", or a lone brace in a text'),
    'E002': ('parse', 'cannot read file'),
    'E003': ('parse', 'a statement that is neither a rule call nor an assignment'),
    'E004': ('parse', 'the file nests too deeply to read (hundreds of levels)'),
    'E005': ('parse', 'a number literal of more than 18 digits'),
    'E101': ('load', 'two `extends` lines'),
    'E102': ('load', '`override` in a file that extends nothing'),
    'E103': ('load', 'the base file isn\'t found ("base game \'...\' not found beside this file"), or `ruledsl:NAME`'
                     ' names no shipped game (or, replaying a transcript, none among its recorded rules), or the '
                     'base is not a `.game` file, or is an absolute path (see 2.19)'),
    'E104': ('load', '`extends` cycles back (or the chain is deeper than 16)'),
    'E105': ('load', "`override` of a name the base doesn't have (usually a typo)"),
    'E106': ('load', 'a declaration whose name the base already has, without `override`. This includes a second '
                     '`game` line: write `override game ...`'),
    'E201': ('check', 'wrong type ("... must be T, not U"), also for builtin arguments and `each` domains'),
    'E202': ('check', 'unknown name'),
    'E203': ('check', 'the enum has no such value'),
    'E204': ('check', 'no such attribute or field'),
    'E205': ('check', "indexing a zone that isn't `per` anything"),
    'E206': ('check', "the value can't be indexed"),
    'E207': ('check', 'a rule called inside an expression'),
    'E208': ('check', 'an aggregate used without a binding'),
    'E209': ('check', 'unknown function'),
    'E210': ('check', 'wrong number of arguments'),
    'E211': ('check', "can't iterate over / look inside this value"),
    'E212': ('check', 'unknown aggregate'),
    'E213': ('check', '`count`/`first` given a `: value`'),
    'E214': ('check', 'an aggregate missing its `: value`'),
    'E215': ('check', "can't compare / look for these types"),
    'E216': ('check', 'the branches of `if ... then ... else` have different types'),
    'E220': ('check', 'a local declared twice in one block, or again in a block inside the one that declares it'),
    'E221': ('check', 'dice out of range'),
    'E222': ('check', '`+=`/`-=` on a non-int'),
    'E223': ('check', 'assigning a constant, attribute, built-in or expression'),
    'E224': ('check', 'a def used as a statement'),
    'E225': ('check', 'unknown rule'),
    'E226': ('check', "`from` in a loop that isn't over players"),
    'E227': ('check', 'a duplicate menu option'),
    'E228': ('check', 'a card/zone mismatch in `move`, `draw`, `shuffle`'),
    'E229': ('check', '`move ... by` on a non-space field or a board without topology'),
    'E230': ('check', '`via ... where` / `by` on a walk along a loop or line board (no forks there)'),
    'E231': ('check', 'a walk on a graph board with forks that says neither `via ... where` nor `by`'),
    'E232': ('check', 'an expression nested more than 120 levels deep (split it with `let` or defs)'),
    'E233': ('check', '`break` outside a loop'),
    'E234': ('check', '`return EXPR` in a rule that declares no result (`-> TYPE`), or a bare `return` in a rule '
                      'whose result is not optional'),
    'E235': ('check', 'a rule declared `-> TYPE` (not optional) can reach its end without `return EXPR`'),
    'E236': ('check', '`let x = r(...)` of a rule `r` that declares no result'),
    'E237': ('check', '`base(...)` outside an `override rule`/`override def` that replaces a rule or def'),
    'E238': ('check', 'a `match` without `else` that misses some value of its enum (or whose value is not an enum)'),
    'E301': ('check', 'redefining a built-in name (`players`, `seat`, `alive`, ...)'),
    'E302': ('check', 'a name defined twice'),
    'E303': ('check', 'missing game line'),
    'E304': ('check', 'more than one game line'),
    'E305': ('check', 'bad player range'),
    'E306': ('check', 'missing `rule flow()`'),
    'E307': ('check', 'an enum value listed twice'),
    'E308': ('check', 'the same value in two enums'),
    'E309': ('check', 'unknown type'),
    'E310': ('check', 'a parameter declared twice'),
    'E311': ('check', 'a row value of the wrong type'),
    'E312': ('check', 'too many values in a row'),
    'E313': ('check', 'a row missing an attribute that has no default'),
    'E314': ('check', '`extend cards` of an unknown set'),
    'E315': ('check', '`x 0` copies'),
    'E316': ('check', '`each` binds an unknown attribute'),
    'E317': ('check', 'a link to an unknown space'),
    'E318': ('check', 'a loop/line board with no spaces'),
    'E319': ('check', 'a zone of an unknown card set'),
    'E320': ('check', 'bad `per` (not player, an enum, a board or a card set)'),
    'E321': ('check', 'bad visibility'),
    'E322': ('check', '`owner` zone not `per player`'),
    'E323': ('check', '`show` of an unknown attribute'),
    'E324': ('check', 'bad `refill from`'),
    'E325': ('check', 'a player field declared twice'),
    'E326': ('check', 'a `none` start value without `?`, or `?` on int/bool'),
    'E327': ('check', 'a field named like an attribute'),
    'E328': ('check', '`setup`/`flow` with parameters'),
    'E329': ('check', 'a trigger on an unknown board'),
    'E330': ('check', 'wrong trigger parameters'),
    'E331': ('check', 'two `score` lines'),
    'E332': ('check', 'a trigger defined twice'),
    'E333': ('check', 'a `secret` shared field'),
    'E334': ('check', "a field's start value reads what is set up after it (a later shared field, a player field "
                      'from a shared one, a zone)'),
    'E335': ('check', 'a range of literal bounds with more than 1,000,000 numbers (a computed one is `R011` when '
                      'it runs)'),
    'E336': ('check', 'a board of more than 10,000 spaces'),
    'E339': ('check', "a generated space row (`each ...: space \"...\"`) that isn't fixed before the game, or "
                      'whose name is not a name'),
    'E401': ('compile', 'a card row or label that needs a value fixed only when a game starts (`player_count`, '
                        'state)'),
    'E402': ('compile', "more than 100,000 cards in a game (or a row's range over 1,000,000)"),
    'E403': ('compile', 'an expression or statements nested too deeply or too long for the code generator (Python '
                        'parses about 200 levels of brackets; one generated function is at most 200,000 '
                        'characters; split it with `let`, defs or rules)'),
    'R000': ('run', 'a rule step failed on a value out of place (usually a none where a value was needed)'),
    'R001': ('run', 'an attribute/field of `none`'),
    'R002': ('run', 'list index out of range'),
    'R003': ('run', 'division by zero'),
    'R004': ('run', 'calls nested more than 200 deep'),
    'R005': ('run', 'moving `none`'),
    'R006': ('run', 'the chooser is `none`'),
    'R007': ('run', 'nothing to choose from / no option allowed'),
    'R008': ('run', 'a graph walk at a fork: the route keeps no way, or more than one and there is no chooser'),
    'R009': ('run', "a constant's or field's starting value reads something not set up yet (a later field, a "
                    'zone, a board field)'),
    'R010': ('run', 'a step did more work than its budget (see 2.19 Limits)'),
    'R011': ('run', 'a range of more than 1,000,000 numbers'),
    'R012': ('run', 'a number beyond 2**63 - 1 either way'),
    'R013': ('run', 'a text of more than 100,000 characters'),
    'R100': ('run', 'a choice after the game is over (refused, not raised)'),
    'R101': ('run', 'an illegal label (refused, not raised)'),
}


def table() -> str:
    """The docs' table of error codes, one row per code."""
    rows = ["| code | stage | meaning |", "|---|---|---|"]
    rows += [f"| {code} | {stage} | {meaning} |" for code, (stage, meaning) in CODES.items()]
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
