"""The command line (`ruledsl`, also `python -m ruledsl`)."""
import atexit
import gc

from ..collector import collections_paused

# Importing the command line makes some hundred thousand objects (classes, functions,
# their code) that live as long as the process: the cyclic collector's passes over them
# find nothing (about 1% of the CPU of a cold `ruledsl check`). (A process importing
# this, such as a pytest session with ruledsl's plugin, keeps its collector as it was.)
with collections_paused(aged=True):
    from .commands import main

# When the process ends, what it made ends with it: freezing every object (gc.freeze)
# skips the collector's last pass over all of them at exit, about a tenth of the CPU of a
# warm `ruledsl check games/*.game`. CPython promises no finalizers at exit anyway.
atexit.register(gc.freeze)
