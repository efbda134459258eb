"""The cyclic garbage collector, paused while objects that live long are made."""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def collections_paused(aged: bool = False):
    """The cyclic garbage collector off inside: loading a game makes a few hundred thousand
    objects that live as long as the game, and the collector's passes over them as they
    are made find nothing (about 0.03 s of CPU of `ruledsl check games/*.game`). What one
    load leaves for the collector is bounded; it runs again afterwards.

    With `aged`, what was made inside is put with the oldest objects when the pause ends,
    without a pass, as surviving the passes would have put it (gc.freeze moves every
    object out of the young generations, gc.unfreeze into the oldest): for objects that
    live as long as the process, or that the process gives back when it ends right after.
    Nothing is left frozen, and the collector is left on or off as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if aged:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()
