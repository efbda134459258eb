"""The command line (`ruledsl`, also `python -m ruledsl`)."""
import atexit
import gc

from .commands import main

# When the process ends, what it made ends with it: freezing every object (gc.freeze)
# skips the collector's last pass over all of them at exit, about a tenth of the CPU of a
# warm `ruledsl check games/*.game`. CPython promises no finalizers at exit anyway.
atexit.register(gc.freeze)
