"""The benchmark script keeps working (it reports speed; nothing here asserts a time)."""
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_runs_a_short_measurement_and_reports_outcomes():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--seconds", "0.05",
                          "--games", "60", "--only", "tic_tac_toe", "--no-games"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    ours = next(line for line in lines if line.strip().startswith("ruledsl "))
    assert "playouts/s" in ours and "seat 0 wins" in ours
    if importlib.util.find_spec("pyspiel") is not None:
        assert any("ruledsl/OpenSpiel Python" in line and "outcomes agree" in line for line in lines)
    else:
        assert "open_spiel is not installed" in out.stdout
