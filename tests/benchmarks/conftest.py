"""The benchmark scripts' tests: benchmarks/ importable by name (`import bench`, as the
scripts import each other), and ruledsl's tic-tac-toe sampled once for the tests that hold
a hand-written game or a speed ratio to it."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from samples import sample  # noqa: E402
import bench  # noqa: E402


@pytest.fixture(scope="module")
def ruledsl_tic_tac_toe():
    program = bench.load_game(str(ROOT / "examples" / "tic_tac_toe.game")).program
    return sample(lambda rng: bench.ruledsl_game(program, 2, rng), 2000, "ruledsl")
