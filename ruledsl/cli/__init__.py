"""The command line (`ruledsl`, also `python -m ruledsl`)."""
import atexit
import gc

# Importing the command line makes some hundred thousand objects (classes, functions,
# their code) that live as long as the process: the cyclic collector's passes over them
# find nothing (about 1% of the CPU of a cold `ruledsl check`). So it is paused while
# they are made, and then they are put with the oldest objects, as surviving its passes
# would have put them, without a pass (gc.freeze moves every object out of the young
# generations, gc.unfreeze into the oldest; a process importing this, such as a pytest
# session with ruledsl's plugin, keeps the collector as it was, and nothing frozen).
_collecting = gc.isenabled()
gc.disable()
try:
    from .commands import main
finally:
    gc.freeze()
    gc.unfreeze()
    if _collecting:
        gc.enable()

# When the process ends, what it made ends with it: freezing every object (gc.freeze)
# skips the collector's last pass over all of them at exit, about a tenth of the CPU of a
# warm `ruledsl check games/*.game`. CPython promises no finalizers at exit anyway.
atexit.register(gc.freeze)
