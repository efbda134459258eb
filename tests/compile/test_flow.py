"""Loops of the flow (compile/flow.py): the order a `for` goes over its items."""
from __future__ import annotations

import pytest

from support import choose_labels, run_text

ORDER = """shared { start: int = 0 }
rule flow() {
  choose out from 0..3 by seat(0) as "out"
  if out < 4 { eliminate seat(out) }
  choose k from 0..7 by seat(1) as "start"
  for p in SOURCE from seat(k) { say "{p}" }
  for p in SOURCE by 0 - p.seat from seat(k) { say "by key {p}" }
}
"""


@pytest.mark.parametrize("source", ["players", "seats"])
def test_a_loop_from_a_seat_goes_clockwise_from_it(tmp_path, source):
    """Over the players still in (or every seat, skipping one out at its turn), from any
    seat, also one out or past the last: clockwise from it, as a sort by (seat - start)
    mod n orders them; with a key, sorted by it."""
    for out in range(4):
        for k in range(8):
            heard = []
            m = run_text(tmp_path, ORDER.replace("SOURCE", source), players=4)
            m.listener = lambda kind, data: heard.append(data.get("text")) if kind == "say" else None
            choose_labels(m, [str(out), str(k)])
            seats = [s for s in range(4) if s != out]  # a loop over players skips one out at its turn
            want = sorted(seats, key=lambda s: (s - k) % 4)
            said = [t for t in heard if not t.startswith("by key")]
            assert said == [f"seat {s}" for s in want], (out, k)
            assert [t for t in heard if t.startswith("by key")] == [f"by key seat {s}" for s in sorted(seats)[::-1]]


def test_a_loop_from_none_fails_at_the_loop(tmp_path):
    """`from who` where who is none: R000 at the loop (its sort by (seat - start) mod n
    fails on it), saying that a value the statement needs is none, in the game's words."""
    from ruledsl.errors import GameRuntimeError
    with pytest.raises(GameRuntimeError) as info:
        run_text(tmp_path, 'shared { who: player? = none }\nrule flow() {\n  for p in players from who { say "{p}" }\n}\n')
    d = info.value.diagnostic
    assert (d.code, d.span.line) == ("R000", 4) and d.message.startswith("a value this statement needs is none here")
    assert "NoneType" not in d.message
