"""The command line (`ruledsl`, also `python -m ruledsl`)."""
from .commands import main
