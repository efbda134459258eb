"""Check stage: resolves every name and type of a loaded game, collecting all errors."""
from __future__ import annotations

from ..budget import MAX_SPACES
from ..errors import Diagnostic, RuleError, Span
from ..syntax import ast, sugar
from ..syntax.load import Loaded
from .expr import GLOBAL_NAMES, Scope
from .overrides import at_the_overrides
from .stmt import StmtChecker, can_fall_through
from .types import ANY, BOOL, INT, NULLABLE, PLAYER, Binding, BoardInfo, CardSet, Model, T, assignable, elem_of

RESERVED = set(GLOBAL_NAMES) | {"int", "bool", "player", "base"}
SPECIAL_RULES = ("setup", "flow")


def check(loaded: Loaded) -> Model:
    errors: list = []
    model = Checker(errors, loaded.path).run(sugar.lower(loaded.decls, errors))
    if errors:
        errors = at_the_overrides(errors, loaded)
        errors.sort(key=lambda d: (d.span.path != loaded.path, d.span.path, d.span.line, d.span.col))
        raise RuleError(errors, loaded.sources)
    return model


class Checker:
    def __init__(self, errors, path="<game>"):
        self.errors = errors
        self.path = path
        self.m = Model()
        self.stmts = StmtChecker(self.m, errors)
        self.exprs = self.stmts.x
        self.global_names: dict = {}
        self.pending_rows: list = []  # (card set, rows), checked once constants are typed

    def err(self, node, code, msg):
        self.errors.append(Diagnostic(node.span, code, msg))

    def claim(self, node, name, what):
        if name in RESERVED:
            self.err(node, "E301", f"'{name}' is a built-in name; choose another")
            return
        if name in self.global_names:
            prev_what, prev = self.global_names[name]
            where = f"line {prev.span.line}" if prev.span.path == node.span.path else prev.span.where()
            self.err(node, "E302", f"'{name}' is already defined as {prev_what} at {where}")
            return
        self.global_names[name] = (what, node)

    def run(self, decls) -> Model:
        games = [d for d in decls if isinstance(d, ast.GameDecl)]
        if not games:
            where = decls[0] if decls else None
            self.errors.append(Diagnostic(where.span if where else _file_span(self.path), "E303",
                                          "missing 'game \"Title\" players N..M'"))
        else:
            g = games[-1]
            for extra in games[1:]:
                if not extra.override:
                    self.err(extra, "E304", "a file has one 'game' line")
            self.m.title, self.m.min_players, self.m.max_players = g.title, g.min_players, g.max_players
            if not 1 <= g.min_players <= g.max_players <= 64:
                self.err(g, "E305", "players must be a range like 2..4 within 1..64")
        by_type = lambda cls: [d for d in decls if isinstance(d, cls)]
        self.claim_all(decls)
        for d in by_type(ast.Enum):
            self.enum(d)
        for d in by_type(ast.Def) + by_type(ast.Rule):
            (self.m.defs if isinstance(d, ast.Def) else self.m.rules)[d.name] = d
        for d in by_type(ast.Board):
            self.board(d)
        for d in by_type(ast.Cards):
            self.cards(d)
        for d in by_type(ast.ExtendCards):
            self.extend_cards(d)
        for d in by_type(ast.Zone):
            self.zone(d)
        for d in by_type(ast.Zone):
            self.refill(d)
        for d in by_type(ast.Fields):
            self.fields(d)
        for d in by_type(ast.Const):
            self.m.consts[d.name] = d
            self.m.const_types[d.name] = self.exprs.expr(d.value, Scope())
        for cs, rows in self.pending_rows:  # after constants: `each` rows and labels may use them
            self.card_rows(cs, rows)
        for cs in self.m.cardsets.values():
            if cs.decl.label is not None:
                scope = Scope()
                scope.names.update(cs.params)
                self.exprs.expr(cs.decl.label, scope)
        self.field_defaults()
        self.card_and_board_fields()
        for d in by_type(ast.Def):
            self.define(d)
        for d in by_type(ast.Rule):
            self.rule(d)
        for d in by_type(ast.Trigger):
            self.trigger(d)
        for d in by_type(ast.EndWhen):
            self.end(d)
        for d in by_type(ast.Score):
            self.score(d)
        if "flow" not in self.m.rules:
            self.errors.append(Diagnostic(decls[0].span if decls else _file_span(self.path), "E306",
                                          "missing 'rule flow() { ... }': the game's main flow"))
        return self.m

    def claim_all(self, decls):
        """Every global name, in source order, so the later of two duplicates is flagged."""
        what = {ast.Const: "a constant", ast.Enum: "an enum", ast.Cards: "a card set", ast.Board: "a board",
                ast.Zone: "a zone", ast.Def: "a def", ast.Rule: "a rule", ast.EndWhen: "an end condition"}
        for d in decls:
            if type(d) in what:
                self.claim(d, d.name, what[type(d)])
            if isinstance(d, ast.Enum):
                for v in dict.fromkeys(d.values):
                    if v in self.global_names and self.global_names[v][0].startswith("a value of enum"):
                        continue  # reported by enum() with both enums named
                    self.claim(d, v, f"a value of enum '{d.name}'")
            if isinstance(d, ast.Board):
                for s in d.spaces:
                    self.claim(s, s.name, f"a space of board '{d.name}'")
            if isinstance(d, ast.Fields) and d.owner == "shared":
                for f in d.fields:
                    self.claim(f, f.name, "a shared field")

    # ------------------------------------------------------------ data
    def enum(self, d):
        self.m.enums[d.name] = list(d.values)
        seen = set()
        for v in d.values:
            if v in seen:
                self.err(d, "E307", f"enum '{d.name}' lists '{v}' twice")
            seen.add(v)
            self.m.enum_of_value.setdefault(v, []).append(d.name)
            if len(self.m.enum_of_value[v]) > 1:
                self.err(d, "E308", f"'{v}' is a value of enums {' and '.join(self.m.enum_of_value[v])}; "
                                    "enum values must be unique")

    def params(self, params):
        types, defaults = {}, {}
        for p in params:
            t = self.m.resolve_type(p.type)
            if t is None:
                self.err(p.type, "E309", f"unknown type '{p.type.name}'{self.type_hint(p.type.name)}")
                t = ANY
            if p.name in types:
                self.err(p, "E310", f"parameter '{p.name}' appears twice")
            types[p.name] = t
            if p.default is not None:
                self.value(p.default, t)
                defaults[p.name] = p.default
        return types, defaults

    def type_hint(self, name) -> str:
        m = self.m
        return self.exprs.suggest(name, ["int", "bool", "player", *m.enums, *m.boards, *m.cardsets])

    def value(self, v: ast.Value, t: T):
        ok = {
            "int": t.kind == "int", "bool": t.kind == "bool", "none": t.kind in NULLABLE,
            "str": False,
            "name": (t.kind == "enum" and v.value in self.m.enums.get(t.name, ()))
                    or (t.kind == "space" and v.value in self.m.boards[t.name].spaces),
        }[v.kind]
        if not ok and t.kind != "any":
            shown = v.value if v.kind != "none" else "none"
            self.err(v, "E311", f"'{shown}' is not a {t}")

    def row(self, row, params, defaults, what):
        names = list(params)
        if len(row.values) > len(names):
            self.err(row, "E312", f"{what} takes {len(names)} value(s), got {len(row.values)}")
        for name in names[len(row.values):]:
            if name not in defaults:
                self.err(row, "E313", f"{what} is missing '{name}' (it has no default)")
        for v, name in zip(row.values, names):
            self.value(v, params[name])

    def cards(self, d):
        params, defaults = self.params(d.params)
        cs = CardSet(decl=d, params=params, defaults=defaults, fields={f.name: f for f in d.fields}, rows=[])
        self.m.cardsets[d.name] = cs
        self.pending_rows.append((cs, d.rows))

    def extend_cards(self, d):
        cs = self.m.cardsets.get(d.name)
        if cs is None:
            self.err(d, "E314", f"'extend cards {d.name}': no card set '{d.name}'")
            return
        for f in d.fields:
            cs.fields[f.name] = f
        self.pending_rows.append((cs, d.rows))

    def card_rows(self, cs, rows):
        for r in rows:
            cs.rows.append(r)
            if isinstance(r, ast.CardRow):
                self.row(r, cs.params, cs.defaults, "a card")
                if r.copies < 1:
                    self.err(r, "E315", "copies must be at least 1")
                continue
            bound = set()
            for name, expr in r.bindings:
                if name not in cs.params:
                    self.err(r, "E316", f"card set '{cs.decl.name}' has no attribute '{name}'")
                    continue
                bound.add(name)
                et = elem_of(self.exprs.expr(expr, Scope()))
                if et is None or not assignable(et, cs.params[name]):
                    self.err(expr, "E201", f"'each {name} in ...' needs values of type {cs.params[name]}")
            for name in cs.params:
                if name not in bound and name not in cs.defaults:
                    self.err(r, "E313", f"'each' row is missing '{name}' (it has no default)")

    def board(self, d):
        params, defaults = self.params(d.params)
        names = [s.name for s in d.spaces]
        info = BoardInfo(decl=d, params=params, defaults=defaults, fields={f.name: f for f in d.fields}, spaces=names)
        self.m.boards[d.name] = info
        if len(names) > MAX_SPACES:
            self.err(d, "E336", f"board '{d.name}' has {len(names):,} spaces; a board has at most {MAX_SPACES:,}")
        for s in d.spaces:
            self.m.board_of_space.setdefault(s.name, []).append(d.name)
        for s in d.spaces:
            self.row(s, params, defaults, f"space '{s.name}'")
        for a, b, span in d.links:
            for n in (a, b):
                if n not in names:
                    self.errors.append(Diagnostic(span, "E317", f"link to '{n}', which is not a space of '{d.name}'"))
        if d.topology in ("loop", "line") and not names:
            self.err(d, "E318", f"board '{d.name}' is a {d.topology} with no spaces")

    def zone(self, d):
        self.m.zones[d.name] = d
        cs = self.m.cardsets.get(d.cards)
        if cs is None:
            self.err(d, "E319", f"zone '{d.name}': no card set '{d.cards}'")
        if d.per is not None and d.per != "player" and not any(d.per in t for t in (self.m.enums, self.m.boards,
                                                                                     self.m.cardsets)):
            self.err(d, "E320", f"zone '{d.name}': 'per {d.per}' needs player, an enum, a board or a card set")
        if d.visibility not in ast.VISIBILITIES:
            self.err(d, "E321", f"visibility '{d.visibility}' is not one of {', '.join(ast.VISIBILITIES)}")
        if d.visibility == "owner" and d.per != "player":
            self.err(d, "E322", f"zone '{d.name}' is 'owner' visible, so it must be 'per player'")
        for attr in d.show:
            if cs is not None and attr not in cs.params:
                self.err(d, "E323", f"'show {attr}': cards of '{d.cards}' have no attribute '{attr}'")

    def refill(self, d):
        if d.refill is not None:
            src = self.m.zones.get(d.refill)
            if src is None:
                self.err(d, "E324", f"'refill from {d.refill}': no zone '{d.refill}'")
            elif src.per is not None or src.cards != d.cards:
                self.err(d, "E324", f"'refill from {d.refill}' needs a single zone of {d.cards} cards")

    def fields(self, d):
        table = self.m.player_fields if d.owner == "player" else self.m.shared_fields
        for f in d.fields:
            if d.owner == "shared" and f.secret:
                self.err(f, "E333", "shared fields are public; only player fields can be secret")
            if d.owner == "player" and f.name in table:
                self.err(f, "E325", f"player field '{f.name}' is defined twice")
            elif f.name in ("seat", "alive"):
                self.err(f, "E301", f"'{f.name}' is a built-in player attribute")
            table[f.name] = f

    def field_defaults(self):
        for table in (self.m.player_fields, self.m.shared_fields):
            for f in table.values():
                self.field_default(f)
        self.set_up_order()

    def set_up_order(self):
        """E334: a start value may read only what is set up before it: constants, then shared
        fields in order, then player fields in order; zones come last."""
        for owner, table in (("shared", self.m.shared_fields), ("player", self.m.player_fields)):
            ready = set()
            for f in table.values():
                for node, what in self.reads_at_setup(f.default, owner, ready):
                    self.err(node, "E334", f"the start value of {owner} field '{f.name}' reads {what}, which is "
                                           "set up after it (constants, shared fields, player fields, zones)")
                ready.add(f.name)

    def reads_at_setup(self, e, owner, ready):
        for node in ast.walk(e):
            if isinstance(node, ast.Name):
                if node.note.binding is Binding.ZONE:
                    yield node, f"zone '{node.name}'"
                elif owner == "shared" and node.note.binding is Binding.SHARED_FIELD and node.name not in ready:
                    yield node, f"shared field '{node.name}'"
            elif isinstance(node, ast.Attr) and node.name in self.m.player_fields:
                if owner == "shared" or node.name not in ready:
                    yield node, f"player field '{node.name}'"

    def field_default(self, f):
        t = self.m.resolve_type(f.type)
        if t is None:
            self.err(f.type, "E309", f"unknown type '{f.type.name}'{self.type_hint(f.type.name)}")
            return
        if f.type.optional and t.kind not in NULLABLE:
            self.err(f.type, "E326", f"{t} cannot be none, so '?' does not fit")
        vt = self.exprs.want(f.default, Scope(), t, f"the start value of '{f.name}'")
        if vt.kind == "none" and not f.type.optional:
            self.err(f.default, "E326", f"'{f.name}' starts as none: declare it as '{f.type.name}?'")

    def card_and_board_fields(self):
        for info in list(self.m.cardsets.values()) + list(self.m.boards.values()):
            for f in info.fields.values():
                if f.name in info.params:
                    self.err(f, "E327", f"field '{f.name}' has the name of an attribute")
                self.field_default(f)

    # ------------------------------------------------------------ code
    def param_scope(self, d):
        scope = Scope()
        types, _ = self.params(d.params)
        scope.names.update(types)
        return scope

    def define(self, d):
        self.m.def_types[d.name] = self.exprs.expr(d.body, self.param_scope(d))

    def rule(self, d):
        if d.name in SPECIAL_RULES and d.params:
            self.err(d, "E328", f"rule '{d.name}' takes no parameters")
        self.stmts.result = self.result_type(d)
        self.stmts.result_may_be_none = d.returns is not None and d.returns.optional
        scope = self.param_scope(d)
        try:
            self.stmts.block(d.body, scope)
        finally:
            self.stmts.result, self.stmts.result_may_be_none = None, False
        params = {p.name for p in d.params}
        self.m.rule_locals[d.name] = (params | scope.bound, (scope.bound | scope.assigned) & params)
        if d.returns is not None and not d.returns.optional and can_fall_through(d.body):
            t = self.m.resolve_type(d.returns)
            hint = f" (declare '-> {d.returns.name}?' if it may give none)" if t and t.kind in NULLABLE else ""
            self.err(d, "E235", f"rule '{d.name}' gives {d.returns.name} but can reach its end without "
                                f"'return VALUE'{hint}")

    def result_type(self, d):
        """The type of what rule `d` gives (`-> TYPE`), or None when it gives nothing."""
        ref = d.returns
        if ref is None:
            return None
        t = self.m.resolve_type(ref)
        if t is None:
            self.err(ref, "E309", f"unknown type '{ref.name}'{self.type_hint(ref.name)}")
            return ANY
        if ref.optional and t.kind not in NULLABLE:
            self.err(ref, "E234", f"a rule's result of type {t} can't be none: write '-> {t}'")
        return t

    def trigger(self, d):
        if (d.kind, d.board) in self.m.triggers:
            self.err(d, "E332", f"'on {d.kind} {d.board}' is defined twice")
        self.m.triggers[(d.kind, d.board)] = d
        if d.board not in self.m.boards:
            self.err(d, "E329", f"'on {d.kind} {d.board}': no board '{d.board}'")
        scope = self.param_scope(d)
        kinds = [scope.names[p.name] for p in d.params]
        want = [T("space", d.board), PLAYER]
        if kinds != want and ANY not in kinds:
            self.err(d, "E330", f"'on {d.kind} {d.board}' takes (space: {d.board}, mover: player)")
        self.stmts.block(d.body, scope)

    def end(self, d):
        self.m.ends.append(d)
        self.exprs.want(d.cond, Scope(), BOOL, "an end condition")
        if d.winner is not None:
            self.exprs.want(d.winner, Scope(), PLAYER, "the winner")

    def score(self, d):
        scope = Scope()
        scope.names[d.var] = PLAYER
        self.exprs.want(d.value, scope, INT, f"a {d.kind}")
        if d.kind == "score":
            if self.m.score is not None:
                self.err(d, "E331", "'score' is defined twice; later ones break ties with 'tiebreak'")
            self.m.score = d
        else:
            self.m.tiebreaks.append(d)


def _file_span(path):
    return Span(path, 1, 1)
